// Links are inline elements; one whose address the server would refuse is unwrapped, so it
// can never be saved (a paste or a fragment from another editor cannot slip one in).
import { Editor, Element, Transforms } from 'slate';

import { isAllowedHref } from '../schema';

export function withLinks(editor: Editor): Editor {
  const { isInline, normalizeNode } = editor;
  editor.isInline = (element) => element.type === 'link' || isInline(element);
  editor.normalizeNode = (entry, options) => {
    const [node, path] = entry;
    if (Element.isElement(node) && node.type === 'link' && !isAllowedHref(node.href)) {
      Transforms.unwrapNodes(editor, { at: path });
      return;
    }
    normalizeNode(entry, options);
  };
  return editor;
}
