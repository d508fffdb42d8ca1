// Helpers for the HTML boundary's tests.
import { Editor } from 'slate';

import { createEditor } from '../createEditor';
import { deserialize, type DeserializeOptions } from './deserialize';
import { serialize } from './serialize';

/** HTML through the editor as a page load (or, with `paste`, a paste) does: parsed,
 *  normalised by Slate's rules and ours, written back. */
export function throughEditor(html: string, options: DeserializeOptions = {}): string {
  const editor = createEditor();
  editor.children = deserialize(html, options);
  Editor.normalize(editor, { force: true });
  return serialize(editor.children);
}
