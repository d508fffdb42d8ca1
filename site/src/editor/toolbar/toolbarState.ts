// Every toolbar button's state, computed once per render (as Keystone's editor does).
import type { Editor } from 'slate';

import { activeLink, isBlockActive, isMarkActive, type BlockFormat } from '../commands';
import type { Mark } from '../types';

export type ToolbarState = {
  marks: Record<'bold' | 'italic' | 'code', boolean>;
  blocks: Record<BlockFormat, boolean>;
  link: boolean;
  canUndo: boolean;
  canRedo: boolean;
};

const MARKS = ['bold', 'italic', 'code'] as const satisfies readonly Mark[];
const BLOCKS: readonly BlockFormat[] = ['heading-1', 'heading-2', 'heading-3', 'bulleted-list', 'numbered-list', 'blockquote'];

export function toolbarState(editor: Editor): ToolbarState {
  return {
    marks: Object.fromEntries(MARKS.map((mark) => [mark, isMarkActive(editor, mark)])) as ToolbarState['marks'],
    blocks: Object.fromEntries(BLOCKS.map((format) => [format, isBlockActive(editor, format)])) as ToolbarState['blocks'],
    link: activeLink(editor) !== undefined,
    canUndo: editor.history.undos.length > 0,
    canRedo: editor.history.redos.length > 0,
  };
}
