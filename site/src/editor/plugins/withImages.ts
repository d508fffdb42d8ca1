// Images are void blocks. One whose address the server would refuse is removed.
import { Editor, Element, Transforms } from 'slate';

import { isAllowedImageSrc } from '../schema';

export function withImages(editor: Editor): Editor {
  const { isVoid, normalizeNode } = editor;
  editor.isVoid = (element) => element.type === 'image' || isVoid(element);
  editor.normalizeNode = (entry, options) => {
    const [node, path] = entry;
    if (Element.isElement(node) && node.type === 'image' && !isAllowedImageSrc(node.src)) {
      Transforms.removeNodes(editor, { at: path });
      return;
    }
    normalizeNode(entry, options);
  };
  return editor;
}
