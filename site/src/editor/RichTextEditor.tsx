// The blog post's rich-text editor: HTML in (the stored post), HTML out (on every change,
// with the live character count). Images are uploaded through `uploadImage`, which the
// page passes in, so the editor knows nothing of the admin API.
import * as Tooltip from '@radix-ui/react-tooltip';
import { useCallback, useMemo, useRef, useState, type ChangeEvent, type KeyboardEvent } from 'react';
import { Editor, Element as SlateElement, Node, Transforms, type Descendant, type Path, type RangeRef } from 'slate';
import { Hotkeys } from 'slate-dom';
import { HistoryEditor } from 'slate-history';
import { Editable, ReactEditor, Slate } from 'slate-react';

import { activeLink, insertImage, insertLink, removeLink, setImageAlt, toggleMark } from './commands';
import { createEditor } from './createEditor';
import { deserialize } from './html/deserialize';
import { serialize } from './html/serialize';
import { Element, ElementActions } from './render/Element';
import { Leaf } from './render/Leaf';
import { IMAGE_MAX_BYTES, IMAGE_TYPES, LIMITS } from './schema';
import { syncBeforeKey, useSelectionGuard } from './selection';
import { LinkDialog } from './toolbar/LinkDialog';
import { PromptDialog } from './toolbar/PromptDialog';
import { Toolbar } from './toolbar/Toolbar';

/** Spec §9: tooltips open after 700 ms, and at once for 300 ms after one closed. */
const TOOLTIP_DELAY_MS = 700;
const TOOLTIP_SKIP_DELAY_MS = 300;
/** Spec §2: the writing area is at least 300 px tall. */
const MIN_HEIGHT_PX = 300;

export const UPLOAD_FAILED = 'Failed to upload image';
export const IMAGE_TOO_LARGE = 'Image must be less than 5MB';
export const IMAGE_WRONG_TYPE = 'Only JPEG, PNG, GIF or WebP images can be uploaded.';

/** The characters a reader sees (line breaks count as one). */
export function characterCount(nodes: readonly Descendant[]): number {
  return nodes.reduce((count, node) => count + [...Node.string(node)].length, 0);
}

/** The character count of stored HTML, as the editor will count it once loaded. */
export function countCharacters(html: string): number {
  return characterCount(deserialize(html));
}

/** An editor holding stored HTML as the editor reads it: deserialised, then normalised
 *  (images out of paragraphs, lists tidied). Loading is not an edit: nothing to undo. */
function loadEditor(html: string) {
  const editor = createEditor();
  editor.children = deserialize(html);
  HistoryEditor.withoutSaving(editor, () => Editor.normalize(editor, { force: true }));
  return editor;
}

/** Stored HTML as the editor will write it back untouched: what an unchanged post's
 *  content is, to tell an edit from the editor's own tidying. */
export function canonicalHtml(html: string): string {
  return serialize(loadEditor(html).children);
}

export type RichTextEditorProps = {
  /** The text area's id (the toolbar points at it). */
  id: string;
  /** The id of the visible label naming the editor. */
  labelledBy: string;
  /** Ids of help text (and the character count), if any. */
  describedBy?: string;
  /** The post's stored HTML; read once, when the editor mounts. */
  initialHtml: string;
  /** Every change to the text: the HTML to save and the live character count. */
  onChange?: (html: string, characterCount: number) => void;
  /** Uploads an image and resolves to its URL (`/uploads/…`). */
  uploadImage: (file: File) => Promise<string>;
  /** What the empty editor shows. */
  placeholder?: string;
};

type Prompt = { kind: 'link'; href: string | null; at: RangeRef } | { kind: 'alt'; path: Path; alt: string };

export function RichTextEditor({ id, labelledBy, describedBy, initialHtml, onChange, uploadImage, placeholder = 'Write your post…' }: RichTextEditorProps) {
  // The initial HTML is read once; from then on the text belongs to the editor.
  const [editor] = useState(() => loadEditor(initialHtml));
  const [prompt, setPrompt] = useState<Prompt | null>(null);
  const [alert, setAlert] = useState('');
  const [uploading, setUploading] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const imageTarget = useRef<RangeRef | null>(null);

  const focusText = useCallback(() => ReactEditor.focus(editor), [editor]);

  const openLinkPrompt = () => {
    if (!editor.selection) Transforms.select(editor, Editor.end(editor, []));
    const link = activeLink(editor);
    setPrompt({ kind: 'link', href: link ? link[0].href : null, at: Editor.rangeRef(editor, editor.selection!) });
  };

  const closePrompt = () => {
    if (prompt?.kind === 'link') prompt.at.unref();
    setPrompt(null);
  };

  const withPromptSelection = (run: () => void) => {
    if (prompt?.kind === 'link' && prompt.at.current) Transforms.select(editor, prompt.at.current);
    run();
    closePrompt();
  };

  const chooseImage = () => {
    setAlert('');
    imageTarget.current?.unref();
    imageTarget.current = editor.selection ? Editor.rangeRef(editor, editor.selection) : null;
    fileInput.current?.click();
  };

  const onFileChosen = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (!IMAGE_TYPES.includes(file.type)) return setAlert(IMAGE_WRONG_TYPE);
    if (file.size >= IMAGE_MAX_BYTES) return setAlert(IMAGE_TOO_LARGE);
    setUploading(true);
    try {
      const url = await uploadImage(file);
      const at = imageTarget.current?.current ?? null;
      insertImage(editor, url, '', at);
      const [entry] = Editor.nodes(editor, {
        at: [],
        match: (n) => SlateElement.isElement(n) && n.type === 'image' && n.src === url && n.alt === '',
        reverse: true,
      });
      // Ask for the description right away: an image needs one for readers who cannot see it.
      if (entry) setPrompt({ kind: 'alt', path: entry[1], alt: '' });
      else focusText();
    } catch {
      setAlert(UPLOAD_FAILED);
    } finally {
      imageTarget.current?.unref();
      imageTarget.current = null;
      setUploading(false);
    }
  };

  const onKeyDown = (event: KeyboardEvent) => {
    // Whatever the key does (our shortcuts, slate-react's handling that follows, or the
    // browser's), it starts from the selection on screen, in step with Slate's.
    syncBeforeKey(editor);
    // Undo and redo (Ctrl/Cmd+Z, Shift+Z) are slate-react's own, through slate-history.
    if (Hotkeys.isBold(event.nativeEvent)) {
      event.preventDefault();
      toggleMark(editor, 'bold');
    } else if (Hotkeys.isItalic(event.nativeEvent)) {
      event.preventDefault();
      toggleMark(editor, 'italic');
    }
  };

  const actions = useMemo(
    () => ({
      editImageAlt: (path: Path) => {
        const node = Node.get(editor, path);
        if (SlateElement.isElement(node) && node.type === 'image') setPrompt({ kind: 'alt', path, alt: node.alt });
      },
    }),
    [editor],
  );

  return (
    <Tooltip.Provider delayDuration={TOOLTIP_DELAY_MS} skipDelayDuration={TOOLTIP_SKIP_DELAY_MS}>
      <div className="rounded-md border border-slate-400 bg-white focus-within:border-navy focus-within:ring-2 focus-within:ring-navy/30">
        <Slate editor={editor} initialValue={editor.children} onValueChange={(value) => onChange?.(serialize(value), characterCount(value))}>
          <Toolbar editorId={id} onInsertImage={chooseImage} onInsertLink={openLinkPrompt} />
          <div role="alert" className={alert ? 'flex items-center justify-between gap-2 bg-crimson px-3 py-2 text-sm font-semibold text-white' : ''}>
            {alert}
            {alert && (
              <button type="button" className="rounded px-2 py-1 underline" onClick={() => setAlert('')}>
                Dismiss
              </button>
            )}
          </div>
          <p role="status" className={uploading ? 'px-3 py-2 text-sm text-slate-700' : 'sr-only'}>
            {uploading ? 'Uploading image…' : ''}
          </p>
          <ElementActions.Provider value={actions}>
            <SelectionGuard />
            <Editable
              id={id}
              aria-labelledby={labelledBy}
              aria-describedby={describedBy}
              className="px-4 py-2 text-lg leading-relaxed text-slate-800 focus:outline-none"
              // The writing area is at least 300 px tall and grows with the text; all of it is
              // the editable element, so a click anywhere in it puts the cursor there. Inline,
              // as slate-react otherwise sets the empty editor's height to its placeholder's.
              style={{ minHeight: MIN_HEIGHT_PX }}
              renderElement={Element}
              renderLeaf={Leaf}
              onKeyDown={onKeyDown}
              placeholder={placeholder}
              renderPlaceholder={({ attributes, children }) => (
                // slate-react fades its placeholder to a third, too faint to read; the colour
                // alone sets it apart from the text.
                <span {...attributes} style={{ ...attributes.style, opacity: 1 }} className="pointer-events-none absolute text-slate-600 italic">
                  {children}
                </span>
              )}
              spellCheck
            />
          </ElementActions.Provider>
        </Slate>
        <input ref={fileInput} type="file" accept={IMAGE_TYPES.join(',')} className="hidden" tabIndex={-1} aria-hidden="true" onChange={onFileChosen} />
      </div>
      {prompt?.kind === 'link' && (
        <LinkDialog
          href={prompt.href}
          onSubmit={(href) => withPromptSelection(() => insertLink(editor, href))}
          onRemove={() => withPromptSelection(() => removeLink(editor))}
          onCancel={closePrompt}
          onClosed={focusText}
        />
      )}
      {prompt?.kind === 'alt' && (
        <PromptDialog
          title="Image description"
          description="Describe the image for readers who cannot see it (its alt text). Leave it empty only for a purely decorative image."
          label="Alt text"
          initialValue={prompt.alt}
          submitLabel="Save description"
          maxLength={LIMITS.featuredImageAlt.max}
          onSubmit={(alt) => {
            setImageAlt(editor, prompt.path, alt);
            setPrompt(null);
          }}
          onCancel={() => setPrompt(null)}
          onClosed={focusText}
        />
      )}
    </Tooltip.Provider>
  );
}

/** Keeps a render from writing a selection slate-react has not caught up on over the one on
 *  screen (see selection.ts). Rendered just before <Editable>, so its effect runs first. */
function SelectionGuard() {
  useSelectionGuard();
  return null;
}
