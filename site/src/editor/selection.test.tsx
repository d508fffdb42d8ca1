// @vitest-environment jsdom
// The editor acts on the selection the browser shows, even before slate-react has read it
// (it reads the browser's selection only after a `selectionchange` event and a throttle, which
// never run here: jsdom sends no such event, and nothing below waits).
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import { RichTextEditor } from './RichTextEditor';

// jsdom has no isContentEditable, by which slate-react tells the editable text.
const descriptor = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'isContentEditable');
beforeAll(() => {
  Object.defineProperty(HTMLElement.prototype, 'isContentEditable', {
    configurable: true,
    get(this: HTMLElement) {
      return this.closest('[contenteditable]')?.getAttribute('contenteditable') === 'true';
    },
  });
});
afterAll(() => {
  if (descriptor) Object.defineProperty(HTMLElement.prototype, 'isContentEditable', descriptor);
  else delete (HTMLElement.prototype as { isContentEditable?: boolean }).isContentEditable;
});
afterEach(cleanup);

/** The editor inside a page that re-renders when asked, as the blog page does for its
 *  slug preview and counters. */
function Page({ onChange }: { onChange: (html: string) => void }) {
  const [renders, setRenders] = useState(0);
  return (
    <>
      <button type="button" onClick={() => setRenders((n) => n + 1)}>
        Re-render {renders}
      </button>
      <span id="content-label">Content</span>
      <RichTextEditor
        id="content"
        labelledBy="content-label"
        initialHtml="<p>Plain words then Bold words</p>"
        onChange={(html) => onChange(html)}
        uploadImage={async () => '/uploads/a.png'}
      />
    </>
  );
}

function mount() {
  const onChange = vi.fn();
  render(<Page onChange={onChange} />);
  const box = screen.getByRole('textbox', { name: 'Content' });
  fireEvent.focus(box);
  return { onChange, box };
}

/** Highlights characters `from`…`to` of the paragraph, as Shift+Arrow would: in the browser
 *  only, with nothing telling slate-react. */
function highlight(box: HTMLElement, from: number, to: number) {
  const text = box.querySelector('[data-slate-string]')!.firstChild!;
  document.getSelection()!.setBaseAndExtent(text, from, text, to);
}

const highlighted = () => document.getSelection()!.toString();

describe('the selection the editor acts on', () => {
  it('a shortcut formats exactly the highlighted text', async () => {
    const { onChange, box } = mount();
    highlight(box, 17, 27);
    await act(async () => {
      fireEvent.keyDown(box, { key: 'b', code: 'KeyB', keyCode: 66, which: 66, ctrlKey: true });
    });
    expect(onChange).toHaveBeenLastCalledWith('<p>Plain words then <strong>Bold words</strong></p>');
  });

  it('a toolbar button formats exactly the highlighted text', async () => {
    const { onChange, box } = mount();
    highlight(box, 0, 5);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Italic' }));
    });
    expect(onChange).toHaveBeenLastCalledWith('<p><em>Plain</em> words then Bold words</p>');
  });

  it('a render of the page keeps the highlight, and a button then formats it', async () => {
    const { onChange, box } = mount();
    highlight(box, 17, 27);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: /^Re-render/ }));
    });
    expect(screen.getByRole('button', { name: 'Re-render 1' })).toBeTruthy();
    expect(highlighted()).toBe('Bold words');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Bold' }));
    });
    expect(onChange).toHaveBeenLastCalledWith('<p>Plain words then <strong>Bold words</strong></p>');
    expect(highlighted()).toBe('Bold words');
  });
});
