// Blocks and links as the published post shows them (see .prose-acp in styles.css).
import { createContext, useContext } from 'react';
import type { Path } from 'slate';
import { ReactEditor, useFocused, useSelected, useSlateStatic, type RenderElementProps } from 'slate-react';

import type { ImageElement } from '../types';

/** What elements need from the editor around them. */
export const ElementActions = createContext<{ editImageAlt: (path: Path) => void }>({ editImageAlt: () => {} });

const HEADING_CLASSES = [
  '',
  'mt-8 mb-4 font-serif text-3xl font-bold text-navy',
  'mt-8 mb-3 font-serif text-2xl font-bold text-navy',
  'mt-6 mb-3 font-serif text-xl font-bold text-navy',
  'mt-5 mb-2 text-lg font-bold text-navy',
  'mt-4 mb-2 text-base font-bold text-navy',
  'mt-4 mb-2 text-base font-semibold text-navy',
];

export function Element(props: RenderElementProps) {
  const { attributes, children, element } = props;
  switch (element.type) {
    case 'heading': {
      const Tag = `h${element.level}` as const;
      return (
        <Tag {...attributes} className={HEADING_CLASSES[element.level]}>
          {children}
        </Tag>
      );
    }
    case 'blockquote':
      return (
        <blockquote {...attributes} className="my-4 border-l-4 border-gold pl-4 italic">
          {children}
        </blockquote>
      );
    case 'bulleted-list':
      return (
        <ul {...attributes} className="my-3 list-disc space-y-1 pl-6">
          {children}
        </ul>
      );
    case 'numbered-list':
      return (
        <ol {...attributes} className="my-3 list-decimal space-y-1 pl-6">
          {children}
        </ol>
      );
    case 'list-item':
      return <li {...attributes}>{children}</li>;
    case 'code-block':
      return (
        <pre {...attributes} className="my-4 overflow-x-auto rounded-md bg-slate-100 p-3 font-mono text-sm whitespace-pre-wrap">
          <code>{children}</code>
        </pre>
      );
    case 'link':
      return (
        <a {...attributes} href={element.href} title={element.title} className="font-semibold text-navy underline decoration-crimson/60 underline-offset-4">
          {children}
        </a>
      );
    case 'image':
      return <Image {...props} element={element} />;
    default:
      return (
        <p {...attributes} className="my-3">
          {children}
        </p>
      );
  }
}

function Image({ attributes, children, element }: RenderElementProps & { element: ImageElement }) {
  const editor = useSlateStatic();
  const selected = useSelected();
  const focused = useFocused();
  const { editImageAlt } = useContext(ElementActions);
  return (
    <div {...attributes}>
      <div contentEditable={false} className="relative my-4">
        <img src={element.src} alt={element.alt} className={`block h-auto max-h-96 max-w-full rounded-lg ${selected && focused ? 'ring-4 ring-gold' : ''}`} />
        <button
          type="button"
          className="mt-1 rounded border border-slate-400 bg-white px-2 py-1 text-xs font-semibold text-ink hover:bg-slate-100"
          onClick={() => editImageAlt(ReactEditor.findPath(editor, element))}
        >
          {element.alt ? 'Edit alt text' : 'Add alt text'}
        </button>
      </div>
      {children}
    </div>
  );
}
