// @vitest-environment jsdom
import { Editor, Transforms, type Descendant } from 'slate';
import { describe, expect, it } from 'vitest';

import { activeLink, insertImage, insertLink, isBlockActive, isMarkActive, removeLink, toggleBlock, toggleMark, type BlockFormat } from './commands';
import { createEditor } from './createEditor';
import { deserialize } from './html/deserialize';
import { serialize } from './html/serialize';

const REL = 'rel="noopener noreferrer"';

/** An editor holding `html`, with everything selected from `from` to `to` (text offsets in
 *  the first block) or the whole document. */
function editorWith(html: string) {
  const editor = createEditor();
  editor.children = deserialize(html) as Descendant[];
  Editor.normalize(editor, { force: true });
  Transforms.select(editor, { anchor: Editor.start(editor, []), focus: Editor.end(editor, []) });
  return editor;
}

const html = (editor: Editor) => serialize(editor.children);

describe('marks', () => {
  it('toggle on the selection and report their state', () => {
    const editor = editorWith('<p>Conscience</p>');
    for (const [mark, tag] of [
      ['bold', 'strong'],
      ['italic', 'em'],
      ['code', 'code'],
    ] as const) {
      expect(isMarkActive(editor, mark)).toBe(false);
      toggleMark(editor, mark);
      expect(isMarkActive(editor, mark)).toBe(true);
      expect(html(editor)).toContain(`<${tag}>`);
      toggleMark(editor, mark);
      expect(html(editor)).toBe('<p>Conscience</p>');
    }
  });

  it('are active when any selected text has them', () => {
    const editor = editorWith('<p>plain <strong>bold</strong></p>');
    expect(isMarkActive(editor, 'bold')).toBe(true);
    toggleMark(editor, 'bold');
    expect(html(editor)).toBe('<p>plain bold</p>');
  });
});

describe('blocks', () => {
  const cases: [BlockFormat, string][] = [
    ['heading-1', '<h1>Text</h1>'],
    ['heading-2', '<h2>Text</h2>'],
    ['heading-3', '<h3>Text</h3>'],
    ['bulleted-list', '<ul><li>Text</li></ul>'],
    ['numbered-list', '<ol><li>Text</li></ol>'],
    ['blockquote', '<blockquote><p>Text</p></blockquote>'],
  ];
  for (const [format, expected] of cases) {
    it(`${format} toggles on and off`, () => {
      const editor = editorWith('<p>Text</p>');
      toggleBlock(editor, format);
      expect(html(editor)).toBe(expected);
      expect(isBlockActive(editor, format)).toBe(true);
      toggleBlock(editor, format);
      expect(html(editor)).toBe('<p>Text</p>');
      expect(isBlockActive(editor, format)).toBe(false);
    });
  }

  it('switches a list between kinds and a heading between levels', () => {
    const editor = editorWith('<ul><li>a</li><li>b</li></ul>');
    toggleBlock(editor, 'numbered-list');
    expect(html(editor)).toBe('<ol><li>a</li><li>b</li></ol>');
    const heading = editorWith('<h1>T</h1>');
    toggleBlock(heading, 'heading-2');
    expect(html(heading)).toBe('<h2>T</h2>');
  });

  it('quotes a whole list, and makes a list inside a quote', () => {
    const editor = editorWith('<ul><li>a</li><li>b</li></ul>');
    toggleBlock(editor, 'blockquote');
    expect(html(editor)).toBe('<blockquote><ul><li>a</li><li>b</li></ul></blockquote>');
    const quoted = editorWith('<blockquote><p>a</p><p>b</p></blockquote>');
    toggleBlock(quoted, 'bulleted-list');
    expect(html(quoted)).toBe('<blockquote><ul><li>a</li><li>b</li></ul></blockquote>');
  });
});

describe('links', () => {
  it('wrap the selection, change their address, and come off', () => {
    const editor = editorWith('<p>Join us</p>');
    insertLink(editor, 'https://example.org/join');
    expect(html(editor)).toBe(`<p><a href="https://example.org/join" ${REL}>Join us</a></p>`);
    Transforms.select(editor, { path: [0, 1, 0], offset: 2 });
    expect(activeLink(editor)?.[0].href).toBe('https://example.org/join');
    insertLink(editor, 'mailto:join@example.org');
    expect(html(editor)).toBe(`<p><a href="mailto:join@example.org" ${REL}>Join us</a></p>`);
    removeLink(editor);
    expect(html(editor)).toBe('<p>Join us</p>');
  });

  it('insert the address as text where nothing is selected', () => {
    const editor = editorWith('<p>See</p>');
    Transforms.select(editor, Editor.end(editor, []));
    editor.insertText(' ');
    insertLink(editor, 'tel:+15555550100');
    expect(html(editor)).toBe(`<p>See <a href="tel:+15555550100" ${REL}>tel:+15555550100</a></p>`);
  });

  it('with a refused scheme are unwrapped by the editor itself', () => {
    const editor = editorWith('<p>x</p>');
    Transforms.wrapNodes(editor, { type: 'link', href: 'javascript:alert(1)', children: [] }, { split: true });
    expect(html(editor)).toBe('<p>x</p>');
  });
});

describe('images', () => {
  it('go in as blocks where the cursor was, with a paragraph after a last one', () => {
    const editor = editorWith('<p>Before after</p>');
    Transforms.select(editor, { path: [0, 0], offset: 7 });
    insertImage(editor, '/uploads/a.jpg', 'A rally');
    expect(html(editor)).toBe('<p>Before </p><img src="/uploads/a.jpg" alt="A rally"><p>after</p>');
    const last = editorWith('<p>End</p>');
    Transforms.select(last, Editor.end(last, []));
    insertImage(last, '/uploads/b.png', '');
    expect(last.children).toHaveLength(3);
    expect(html(last)).toBe('<p>End</p><img src="/uploads/b.png" alt=""><p></p>');
  });

  it('with an address the server would refuse are removed', () => {
    const editor = editorWith('<p>x</p>');
    Transforms.insertNodes(editor, { type: 'image', src: 'data:image/png;base64,AAAA', alt: '', children: [{ text: '' }] }, { at: [1] });
    expect(html(editor)).toBe('<p>x</p>');
  });
});

describe('keys', () => {
  it('Enter on an empty list item leaves the list; Enter after a heading starts a paragraph', () => {
    const editor = editorWith('<ul><li>a</li></ul>');
    Transforms.select(editor, Editor.end(editor, []));
    editor.insertBreak();
    editor.insertBreak();
    editor.insertText('b');
    expect(html(editor)).toBe('<ul><li>a</li></ul><p>b</p>');
    const heading = editorWith('<h2>Title</h2>');
    Transforms.select(heading, Editor.end(heading, []));
    heading.insertBreak();
    heading.insertText('Body');
    expect(html(heading)).toBe('<h2>Title</h2><p>Body</p>');
  });

  it('Shift+Enter is a line break', () => {
    const editor = editorWith('<p>a</p>');
    Transforms.select(editor, Editor.end(editor, []));
    editor.insertSoftBreak();
    editor.insertText('b');
    expect(html(editor)).toBe('<p>a<br>b</p>');
  });
});
