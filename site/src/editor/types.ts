// The editor's document model: the one CustomTypes declaration for Slate. Every node here
// has exactly one HTML form (html/serialize.ts) inside the server's allowlist.
import type { BaseEditor, Descendant } from 'slate';
import type { HistoryEditor } from 'slate-history';
import type { ReactEditor } from 'slate-react';

export type Mark = 'bold' | 'italic' | 'underline' | 'strikethrough' | 'code';

export type Leaf = { text: string } & { [M in Mark]?: true };

export type HeadingLevel = 1 | 2 | 3 | 4 | 5 | 6;

export type LinkElement = { type: 'link'; href: string; title?: string; target?: '_blank'; children: Leaf[] };

export type Inline = Leaf | LinkElement;

/** Blocks whose children are text (and links). */
export type TextBlock =
  { type: 'paragraph'; children: Inline[] } | { type: 'heading'; level: HeadingLevel; children: Inline[] } | { type: 'code-block'; children: Leaf[] };

export type ListType = 'bulleted-list' | 'numbered-list';

export type ListItemElement = { type: 'list-item'; children: Inline[] | Block[] };

export type Block = TextBlock | { type: 'blockquote'; children: Block[] } | { type: ListType; children: ListItemElement[] } | ListItemElement | ImageElement;

export type ImageElement = { type: 'image'; src: string; alt: string; title?: string; children: [{ text: '' }] };

export type EditorElement = Block | LinkElement;

declare module 'slate' {
  interface CustomTypes {
    Editor: BaseEditor & ReactEditor & HistoryEditor;
    Element: EditorElement;
    Text: Leaf;
  }
}

export type Document = Descendant[];
