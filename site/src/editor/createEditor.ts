// The editor, composed from a flat list of plugins (each a plain `withX(editor)`): React
// and history first, then our rules. Order matters only in that later plugins wrap earlier
// ones: withTypingBatches must wrap withHistory's `apply`.
import { createEditor as createSlateEditor, type Editor } from 'slate';
import { withHistory } from 'slate-history';
import { withReact } from 'slate-react';

import { withBlocks } from './plugins/withBlocks';
import { withImages } from './plugins/withImages';
import { withLinks } from './plugins/withLinks';
import { withPaste } from './plugins/withPaste';
import { withTypingBatches } from './plugins/withTypingBatches';

const PLUGINS: readonly ((editor: Editor) => Editor)[] = [
  withReact,
  withHistory,
  withBlocks,
  withLinks,
  withImages,
  withPaste,
  (editor) => withTypingBatches(editor),
];

export function createEditor(): Editor {
  // Slate's own editor lacks the React and history parts until the first two plugins add
  // them; the CustomTypes declaration describes the finished editor.
  return PLUGINS.reduce((editor, plugin) => plugin(editor), createSlateEditor() as Editor);
}
