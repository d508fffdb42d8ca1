// What the toolbar and the shortcuts do. Plain functions of the editor, no React.
import { Editor, Element, Node, Path, Range, Transforms, type NodeEntry } from 'slate';

import type { Block, EditorElement, HeadingLevel, ImageElement, LinkElement, ListType, Mark } from './types';

export type BlockFormat = 'heading-1' | 'heading-2' | 'heading-3' | 'blockquote' | ListType;

const isList = (node: Node): node is Element & { type: ListType } =>
  Element.isElement(node) && (node.type === 'bulleted-list' || node.type === 'numbered-list');

const isLink = (node: Node): node is LinkElement => Element.isElement(node) && node.type === 'link';

/** A block holding text: a paragraph, heading, code block or plain list item. */
export const isTextBlock = (editor: Editor, node: Node): node is Block =>
  Element.isElement(node) && Editor.isBlock(editor, node) && node.type !== 'image' && Editor.hasInlines(editor, node);

/** Whether `mark` is on: the marks of the next typed text, or any selected text having it. */
export function isMarkActive(editor: Editor, mark: Mark): boolean {
  if (Editor.marks(editor)?.[mark] === true) return true;
  const { selection } = editor;
  if (!selection || Range.isCollapsed(selection)) return false;
  for (const [node] of Editor.nodes(editor, { match: (n) => 'text' in n && n.text !== '' })) {
    if ((node as { [M in Mark]?: true })[mark]) return true;
  }
  return false;
}

export function toggleMark(editor: Editor, mark: Mark): void {
  if (isMarkActive(editor, mark)) Editor.removeMark(editor, mark);
  else Editor.addMark(editor, mark, true);
}

function headingLevel(format: BlockFormat): HeadingLevel | null {
  return format.startsWith('heading-') ? (Number(format.slice(8)) as HeadingLevel) : null;
}

export function isBlockActive(editor: Editor, format: BlockFormat): boolean {
  const { selection } = editor;
  if (!selection) return false;
  const at = Editor.unhangRange(editor, selection);
  const level = headingLevel(format);
  if (level !== null) {
    const [match] = Editor.nodes(editor, {
      at,
      match: (n) => Element.isElement(n) && n.type === 'heading' && n.level === level,
    });
    return match !== undefined;
  }
  if (format === 'blockquote') {
    const [match] = Editor.nodes(editor, { at, match: (n) => Element.isElement(n) && n.type === 'blockquote' });
    return match !== undefined;
  }
  const [list] = Editor.nodes(editor, { at, match: isList, mode: 'lowest' });
  return list !== undefined && (list[0] as EditorElement).type === format;
}

export function toggleBlock(editor: Editor, format: BlockFormat): void {
  const active = isBlockActive(editor, format);
  const textBlocks = { match: (n: Node) => isTextBlock(editor, n) };
  if (format === 'blockquote') {
    if (active) {
      Transforms.unwrapNodes(editor, { match: (n) => Element.isElement(n) && n.type === 'blockquote', split: true });
    } else {
      Transforms.wrapNodes(
        editor,
        { type: 'blockquote', children: [] },
        { match: (n) => Element.isElement(n) && Editor.isBlock(editor, n) && n.type !== 'list-item', mode: 'highest' },
      );
    }
    return;
  }
  Editor.withoutNormalizing(editor, () => {
    const level = headingLevel(format);
    const listType = level === null ? (format as ListType) : null;
    // Leave the list the blocks are in: a heading is not a list item, and a list of
    // another kind is made anew.
    if (listType !== null || !active) Transforms.unwrapNodes(editor, { match: isList, split: true });
    if (level !== null) {
      Transforms.setNodes(editor, active ? { type: 'paragraph' } : { type: 'heading', level }, textBlocks);
      if (active) Transforms.unsetNodes(editor, 'level', textBlocks);
      return;
    }
    Transforms.setNodes(editor, { type: active ? 'paragraph' : 'list-item' }, textBlocks);
    Transforms.unsetNodes(editor, 'level', textBlocks);
    if (!active && listType) {
      Transforms.wrapNodes(
        editor,
        { type: listType, children: [] },
        {
          match: (n) => Element.isElement(n) && n.type === 'list-item',
        },
      );
    }
  });
}

/** The link the selection is in, if any. */
export function activeLink(editor: Editor): NodeEntry<LinkElement> | undefined {
  if (!editor.selection) return undefined;
  const [entry] = Editor.nodes(editor, { match: isLink });
  return entry as NodeEntry<LinkElement> | undefined;
}

/** Links the selection (or inserts the address as a linked text), or changes the address
 *  of the link the selection is in. The caller has checked `href`. */
export function insertLink(editor: Editor, href: string): void {
  if (!editor.selection) Transforms.select(editor, Editor.end(editor, []));
  const existing = activeLink(editor);
  if (existing) {
    Transforms.setNodes(editor, { href }, { at: existing[1] });
    return;
  }
  const selection = editor.selection as Range;
  if (Range.isCollapsed(selection)) {
    Transforms.insertNodes(editor, { type: 'link', href, children: [{ text: href }] });
  } else {
    Transforms.wrapNodes(editor, { type: 'link', href, children: [] }, { split: true });
    Transforms.collapse(editor, { edge: 'end' });
  }
}

export function removeLink(editor: Editor): void {
  Transforms.unwrapNodes(editor, { match: isLink, split: true });
}

/** Inserts an image where `at` is (else at the selection), with a paragraph after it when
 *  it would otherwise end the document, and puts the cursor after it. */
export function insertImage(editor: Editor, src: string, alt: string, at?: Range | null): void {
  const image: ImageElement = { type: 'image', src, alt, children: [{ text: '' }] };
  if (at) Transforms.select(editor, at);
  else if (!editor.selection) Transforms.select(editor, Editor.end(editor, []));
  const empty = Editor.above(editor, {
    match: (n) => Element.isElement(n) && n.type === 'paragraph' && Node.string(n) === '',
  });
  if (empty) {
    // An empty paragraph makes way for the image rather than staying above it.
    Editor.withoutNormalizing(editor, () => {
      Transforms.removeNodes(editor, { at: empty[1] });
      Transforms.insertNodes(editor, image, { at: empty[1], select: true });
    });
  } else {
    Transforms.insertNodes(editor, image);
  }
  const [entry] = Editor.nodes(editor, { match: (n) => Element.isElement(n) && n.type === 'image', mode: 'lowest' });
  if (!entry) return;
  const next = Path.next(entry[1]);
  if (!Node.has(editor, next)) {
    Transforms.insertNodes(editor, { type: 'paragraph', children: [{ text: '' }] }, { at: next });
  }
  Transforms.select(editor, Editor.start(editor, next));
}

export function setImageAlt(editor: Editor, path: Path, alt: string): void {
  Transforms.setNodes(editor, { alt }, { at: path });
}
