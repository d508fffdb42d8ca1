// The formatting toolbar (spec §2): one tab stop, arrow keys between buttons (the ARIA
// toolbar pattern), names and pressed states for screen readers, Radix tooltips with the
// shortcut, and no focus theft: pressing a button never moves focus out of the text, so
// the selection it acts on stays put.
import * as Tooltip from '@radix-ui/react-tooltip';
import { useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useSlate } from 'slate-react';

import { toggleBlock, toggleMark, type BlockFormat } from '../commands';
import { adoptBrowserSelection } from '../selection';
import { icons } from './icons';
import { toolbarState } from './toolbarState';

const IS_APPLE = typeof navigator !== 'undefined' && /Mac|iPhone|iPad|iPod/.test(navigator.platform);
const MOD = IS_APPLE ? '⌘' : 'Ctrl+';
const MOD_KEY = IS_APPLE ? 'Meta' : 'Control';

type Button = {
  key: string;
  label: string;
  icon: ReactNode;
  /** Shown in the tooltip, and as aria-keyshortcuts. */
  shortcut?: { text: string; aria: string };
  /** Whether the button is on (aria-pressed); absent for action buttons. */
  pressed?: boolean;
  disabled?: boolean;
  run: () => void;
};

export type ToolbarProps = {
  /** The id of the text area the toolbar formats. */
  editorId: string;
  onInsertImage: () => void;
  onInsertLink: () => void;
};

export function Toolbar({ editorId, onInsertImage, onInsertLink }: ToolbarProps) {
  const editor = useSlate();
  const state = toolbarState(editor);
  const block = (format: BlockFormat, label: string): Button => ({
    key: format,
    label,
    icon: icons[format],
    pressed: state.blocks[format],
    run: () => toggleBlock(editor, format),
  });
  const buttons: Button[] = [
    {
      key: 'bold',
      label: 'Bold',
      icon: icons.bold,
      shortcut: { text: `${MOD}B`, aria: `${MOD_KEY}+B` },
      pressed: state.marks.bold,
      run: () => toggleMark(editor, 'bold'),
    },
    {
      key: 'italic',
      label: 'Italic',
      icon: icons.italic,
      shortcut: { text: `${MOD}I`, aria: `${MOD_KEY}+I` },
      pressed: state.marks.italic,
      run: () => toggleMark(editor, 'italic'),
    },
    block('heading-1', 'Heading 1'),
    block('heading-2', 'Heading 2'),
    block('heading-3', 'Heading 3'),
    block('bulleted-list', 'Bullet list'),
    block('numbered-list', 'Numbered list'),
    block('blockquote', 'Quote'),
    { key: 'code', label: 'Inline code', icon: icons.code, pressed: state.marks.code, run: () => toggleMark(editor, 'code') },
    { key: 'image', label: 'Insert image', icon: icons.image, run: onInsertImage },
    { key: 'link', label: state.link ? 'Edit link' : 'Insert link', icon: icons.link, pressed: state.link, run: onInsertLink },
    { key: 'undo', label: 'Undo', icon: icons.undo, shortcut: { text: `${MOD}Z`, aria: `${MOD_KEY}+Z` }, disabled: !state.canUndo, run: () => editor.undo() },
    {
      key: 'redo',
      label: 'Redo',
      icon: icons.redo,
      shortcut: { text: `${MOD}Shift+Z`, aria: `${MOD_KEY}+Shift+Z` },
      disabled: !state.canRedo,
      run: () => editor.redo(),
    },
  ];

  const [current, setCurrent] = useState(0);
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  // The one tab stop moves with focus at once, on the elements themselves as well as in the
  // state: a Tab pressed right after an arrow key must leave the toolbar for the text, not
  // land on the button that was the tab stop before React has rendered.
  const rove = (index: number) => {
    refs.current.forEach((element, i) => {
      if (element) element.tabIndex = i === index ? 0 : -1;
    });
    setCurrent(index);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const last = buttons.length - 1;
    // From the button that has focus, whatever the state has caught up with.
    const focused = refs.current.findIndex((element) => element === document.activeElement);
    const at = focused < 0 ? current : focused;
    const next = { ArrowRight: at === last ? 0 : at + 1, ArrowLeft: at === 0 ? last : at - 1, Home: 0, End: last }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    rove(next);
    refs.current[next]?.focus();
  };

  return (
    <div
      role="toolbar"
      aria-label="Formatting"
      aria-controls={editorId}
      className="flex flex-wrap gap-1 border-b border-slate-300 bg-slate-50 p-1"
      onKeyDown={onKeyDown}
    >
      {buttons.map((button, index) => (
        <Tooltip.Root key={button.key}>
          <Tooltip.Trigger asChild>
            <button
              ref={(element) => {
                refs.current[index] = element;
              }}
              type="button"
              tabIndex={index === current ? 0 : -1}
              aria-label={button.label}
              aria-pressed={button.pressed}
              aria-disabled={button.disabled || undefined}
              aria-keyshortcuts={button.shortcut?.aria}
              className="inline-flex h-11 min-w-11 items-center justify-center rounded-md px-2 text-ink hover:bg-slate-200 aria-disabled:cursor-not-allowed aria-disabled:opacity-50 aria-pressed:bg-navy aria-pressed:text-white aria-pressed:hover:bg-midnight"
              // Keep focus, and so the selection, in the text.
              onPointerDown={(event) => event.preventDefault()}
              onFocus={() => rove(index)}
              onClick={() => {
                if (button.disabled) return;
                // Act on the range on screen, which slate-react may not have read yet.
                adoptBrowserSelection(editor);
                button.run();
              }}
            >
              {button.icon}
            </button>
          </Tooltip.Trigger>
          <Tooltip.Portal>
            <Tooltip.Content sideOffset={4} className="z-50 rounded bg-ink px-2 py-1 text-xs font-medium text-white shadow">
              {button.label}
              {button.shortcut && ` (${button.shortcut.text})`}
              <Tooltip.Arrow className="fill-ink" />
            </Tooltip.Content>
          </Tooltip.Portal>
        </Tooltip.Root>
      ))}
    </div>
  );
}
