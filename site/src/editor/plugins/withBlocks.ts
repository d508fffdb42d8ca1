// The block structure the HTML boundary expects, kept through every edit: lists hold list
// items, list items live in lists, a quote holds blocks, a code block holds plain text.
// And the keys a writer expects: Enter after a heading starts a paragraph, Enter on an
// empty list item or Backspace at its start leaves the list, Shift+Enter is a line break.
import { Editor, Element, Node, Path, Point, Range, Text, Transforms } from 'slate';

import { toggleBlock } from '../commands';
import type { ListType } from '../types';

const isListType = (type: string): type is ListType => type === 'bulleted-list' || type === 'numbered-list';

/** The text block the (collapsed) selection is in, with its list when it is a list item. */
function currentBlock(editor: Editor) {
  const { selection } = editor;
  if (!selection || !Range.isCollapsed(selection)) return null;
  const entry = Editor.above(editor, {
    match: (n) => Element.isElement(n) && Editor.isBlock(editor, n) && n.type !== 'image',
    mode: 'lowest',
  });
  if (!entry) return null;
  const [block, path] = entry;
  const parent = path.length > 1 ? Node.parent(editor, path) : null;
  const list = parent && Element.isElement(parent) && isListType(parent.type) ? parent.type : null;
  return { block: block as Element, path, list, selection };
}

export function withBlocks(editor: Editor): Editor {
  const { normalizeNode, insertBreak, deleteBackward } = editor;

  editor.normalizeNode = (entry, options) => {
    const [node, path] = entry;
    if (Element.isElement(node)) {
      if (isListType(node.type)) {
        for (const [child, childPath] of Node.children(editor, path)) {
          if (!(Element.isElement(child) && child.type === 'list-item')) {
            Transforms.wrapNodes(editor, { type: 'list-item', children: [] }, { at: childPath });
            return;
          }
        }
      }
      if (node.type === 'list-item') {
        const parent = path.length > 0 ? Node.parent(editor, path) : editor;
        if (!(Element.isElement(parent) && isListType(parent.type))) {
          if (Editor.hasInlines(editor, node)) Transforms.setNodes(editor, { type: 'paragraph' }, { at: path });
          else Transforms.unwrapNodes(editor, { at: path });
          return;
        }
        const only = node.children.length === 1 ? node.children[0] : null;
        if (only && Element.isElement(only) && only.type === 'paragraph') {
          Transforms.unwrapNodes(editor, { at: [...path, 0] });
          return;
        }
      }
      if (node.type === 'blockquote' && node.children.every((c) => Text.isText(c) || editor.isInline(c as Element))) {
        Transforms.wrapNodes(
          editor,
          { type: 'paragraph', children: [] },
          {
            at: path,
            match: (_, p) => Path.isChild(p, path),
          },
        );
        return;
      }
      if (node.type === 'code-block') {
        for (const [child, childPath] of Node.children(editor, path)) {
          if (Element.isElement(child)) {
            Transforms.unwrapNodes(editor, { at: childPath });
            return;
          }
        }
      }
    }
    normalizeNode(entry, options);
  };

  editor.insertSoftBreak = () => editor.insertText('\n');

  editor.insertBreak = () => {
    const current = currentBlock(editor);
    if (current?.block.type === 'code-block') {
      editor.insertText('\n');
      return;
    }
    if (current?.list && Node.string(current.block) === '') {
      toggleBlock(editor, current.list);
      return;
    }
    insertBreak();
    const after = currentBlock(editor);
    if (after?.block.type === 'heading' && Node.string(after.block) === '') {
      Transforms.setNodes(editor, { type: 'paragraph' }, { at: after.path });
      Transforms.unsetNodes(editor, 'level', { at: after.path });
    }
  };

  editor.deleteBackward = (unit) => {
    const current = currentBlock(editor);
    if (current?.list && Point.equals(current.selection.anchor, Editor.start(editor, current.path))) {
      toggleBlock(editor, current.list);
      return;
    }
    deleteBackward(unit);
  };

  return editor;
}
