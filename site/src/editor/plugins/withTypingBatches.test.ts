import { Editor, Transforms } from 'slate';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { createEditor } from '../createEditor';
import { serialize } from '../html/serialize';

function typingEditor() {
  const editor = createEditor();
  editor.children = [{ type: 'paragraph', children: [{ text: '' }] }];
  Transforms.select(editor, Editor.start(editor, []));
  return editor;
}

const type = (editor: Editor, text: string) => {
  for (const char of text) editor.insertText(char);
};

describe('undo steps', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('group typing until a pause of more than 500 ms', () => {
    const editor = typingEditor();
    type(editor, 'Hello');
    vi.advanceTimersByTime(400);
    type(editor, ' there');
    vi.advanceTimersByTime(501);
    type(editor, ', friend');
    expect(serialize(editor.children)).toBe('<p>Hello there, friend</p>');
    editor.undo();
    expect(serialize(editor.children)).toBe('<p>Hello there</p>');
    editor.undo();
    expect(serialize(editor.children)).toBe('');
    editor.redo();
    expect(serialize(editor.children)).toBe('<p>Hello there</p>');
  });

  it('keep the last 100', () => {
    const editor = typingEditor();
    for (let i = 0; i < 130; i++) {
      vi.advanceTimersByTime(600);
      editor.insertText('x');
    }
    expect(editor.history.undos).toHaveLength(100);
    for (let i = 0; i < 150; i++) editor.undo();
    expect(serialize(editor.children)).toBe(`<p>${'x'.repeat(30)}</p>`);
  });
});
