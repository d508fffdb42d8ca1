// Slate's selection and the browser's, kept in step, so a command acts on exactly the range
// the person sees highlighted.
//
// Why this is needed: slate-react learns of a selection the browser made (Shift+Arrow, a drag,
// a click) from the document's `selectionchange` event, read through a 100 ms throttle; and
// every render of <Editable> writes Slate's selection back into the browser's. So between a
// key that moves the selection and Slate's reading of it:
//   - a shortcut (Ctrl+B) or a toolbar button acts on the range Slate last read, not the one
//     on screen: "Bold words" highlighted, only " words" bolded;
//   - any render in that window (Slate's own, after it read the first of several quick keys,
//     or one the page causes: the slug preview, a counter, the character count) writes the
//     stale range back over the browser's, undoing the person's last keys.
// slate-react keeps a pending selection for the second case, but only once the browser has
// dispatched `selectionchange`, which it does in a later task than the key itself. The other
// way round, a key slate-react handles itself (a plain arrow) moves only Slate's selection
// until the next render, so a Shift+Arrow pressed before that render extends from the old place.
//
// The rule: the browser's selection is the newer one exactly when it moved since the last
// render left both in step and the text has not changed since (a change of the text moves
// Slate's selection itself, and re-rendering may disturb the browser's). Then it is taken
// into Slate: before every render writes Slate's selection out (`useSelectionGuard`, a layout
// effect that runs before <Editable>'s), before every toolbar command
// (`adoptBrowserSelection`) and on every key before anything handles it (`syncBeforeKey`).
// Otherwise Slate's is the newer one (or the same), and a key first puts it on screen, so
// what the browser does with the key starts from there.
import { useLayoutEffect } from 'react';
import { Range, Transforms, type Descendant, type Editor } from 'slate';
import { ReactEditor, useSlate } from 'slate-react';

/** What the last render left: the text, and where the browser's selection then was. */
type Settled = { children: Descendant[]; browser: Range | null };
const SETTLED = new WeakMap<Editor, Settled>();

/** The browser's selection as a Slate range, when it lies in this editor. */
function browserRange(editor: Editor): Range | null {
  // Before <Editable> first mounts, slate-react knows no element or window for the editor.
  if (!ReactEditor.isMounted(editor)) return null;
  const selection = ReactEditor.getWindow(editor).getSelection();
  if (!selection || selection.rangeCount === 0 || !selection.anchorNode || !selection.focusNode) return null;
  const { anchorNode, focusNode } = selection;
  // As slate-react checks: the anchor in editable text (or an editable void), the focus in the editor.
  const anchorInside = ReactEditor.hasDOMNode(editor, anchorNode, { editable: true }) || ReactEditor.isTargetInsideNonReadonlyVoid(editor, anchorNode);
  if (!anchorInside || !ReactEditor.hasDOMNode(editor, focusNode)) return null;
  return ReactEditor.toSlateRange(editor, selection, { exactMatch: false, suppressThrow: true });
}

/** Takes the browser's selection into Slate when the person moved it since the last render
 *  (see above); otherwise leaves Slate's as it is. */
export function adoptBrowserSelection(editor: Editor): void {
  const settled = SETTLED.get(editor);
  if (!settled || settled.children !== editor.children || ReactEditor.isComposing(editor)) return;
  const range = browserRange(editor);
  if (!range) return;
  if (settled.browser && Range.equals(range, settled.browser)) return; // not moved: Slate's is the newer
  if (editor.selection && Range.equals(range, editor.selection)) return;
  Transforms.select(editor, range);
}

/** Before a key in the text is handled: the two selections in step, whichever moved last. */
export function syncBeforeKey(editor: Editor): void {
  adoptBrowserSelection(editor);
  const settled = SETTLED.get(editor);
  const { selection } = editor;
  if (!settled || settled.children !== editor.children || !selection || ReactEditor.isComposing(editor)) return;
  const range = browserRange(editor);
  if (range && Range.equals(range, selection)) return;
  // Slate moved its selection since the last render and the browser's stayed: show Slate's
  // now, as that render would, before the browser acts on the key.
  const dom = ReactEditor.resolveDOMRange(editor, selection);
  const browser = ReactEditor.getWindow(editor).getSelection();
  if (!dom || !browser) return;
  if (Range.isBackward(selection)) browser.setBaseAndExtent(dom.endContainer, dom.endOffset, dom.startContainer, dom.startOffset);
  else browser.setBaseAndExtent(dom.startContainer, dom.startOffset, dom.endContainer, dom.endOffset);
  settled.browser = selection;
}

/** Call in a component rendered inside <Slate> just before <Editable>: its layout effect runs
 *  before <Editable>'s, which writes Slate's selection into the browser's. */
export function useSelectionGuard(): void {
  // Subscribing as <Editable> does, so this renders whenever it does for Slate's sake.
  const editor = useSlate();
  useLayoutEffect(() => {
    adoptBrowserSelection(editor);
    // A focused <Editable> now puts Slate's selection on screen; an unfocused one leaves the
    // browser's where it is.
    SETTLED.set(editor, {
      children: editor.children,
      browser: ReactEditor.isFocused(editor) ? editor.selection : browserRange(editor),
    });
  });
}
