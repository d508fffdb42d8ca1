// Pastes: HTML from Word, Google Docs or a web page goes through the paste rules of
// html/deserialize.ts (headings, lists, bold, italic, links; nothing else). A fragment
// copied from a Slate editor (this one, or any page that writes the same clipboard type)
// is passed through our own HTML boundary too, so it can hold nothing we would not save.
import type { Descendant, Editor } from 'slate';

import { deserialize } from '../html/deserialize';
import { serialize } from '../html/serialize';

/** A fragment reduced to what saving it would keep. */
export function launder(fragment: Descendant[]): Descendant[] {
  return deserialize(serialize(fragment));
}

export function withPaste(editor: Editor): Editor {
  const { insertData, insertFragment } = editor;
  editor.insertFragment = (fragment, options) => insertFragment(launder(fragment as Descendant[]), options);
  editor.insertData = (data) => {
    const html = data.getData('text/html');
    const fromSlate = data.types.includes('application/x-slate-fragment');
    if (html && !fromSlate) {
      const origin = typeof window === 'undefined' ? undefined : window.location.origin;
      editor.insertFragment(deserialize(html, { paste: true, origin }));
      return;
    }
    insertData(data);
  };
  return editor;
}
