// Undo steps of typing (spec §9: grouped in 500 ms steps). slate-history merges
// consecutive typing into one step however long it goes on; here a change that comes
// after a pause of more than 500 ms starts a new step. (slate-history keeps 100 steps.)
import type { Editor } from 'slate';
import { HistoryEditor } from 'slate-history';

export const BATCH_PAUSE_MS = 500;

export function withTypingBatches(editor: Editor, now: () => number = Date.now): Editor {
  const { apply } = editor;
  let last = Number.NEGATIVE_INFINITY;
  editor.apply = (op) => {
    if (op.type !== 'set_selection') {
      const time = now();
      if (time - last > BATCH_PAUSE_MS) HistoryEditor.setSplittingOnce(editor, true);
      last = time;
    }
    apply(op);
  };
  return editor;
}
