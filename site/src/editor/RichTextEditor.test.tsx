// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { IMAGE_TOO_LARGE, RichTextEditor, UPLOAD_FAILED, canonicalHtml, countCharacters } from './RichTextEditor';

afterEach(cleanup);

function mount(uploadImage: (file: File) => Promise<string> = async () => '/uploads/a.png', initialHtml = '<p>Hello <strong>world</strong></p>') {
  const onChange = vi.fn();
  const view = render(
    <>
      <span id="content-label">Content</span>
      <RichTextEditor id="content" labelledBy="content-label" initialHtml={initialHtml} onChange={onChange} uploadImage={uploadImage} />
    </>,
  );
  const fileInput = view.container.querySelector('input[type=file]') as HTMLInputElement;
  return { view, onChange, fileInput };
}

const chooseFile = async (input: HTMLInputElement, file: File) => {
  await act(async () => {
    fireEvent.change(input, { target: { files: [file] } });
  });
};

describe('RichTextEditor', () => {
  it('is a labelled, multi-line text box holding the post, with a named toolbar', () => {
    mount();
    const box = screen.getByRole('textbox', { name: 'Content' });
    expect(box.id).toBe('content');
    expect(box.textContent).toContain('Hello world');
    const toolbar = screen.getByRole('toolbar', { name: 'Formatting' });
    expect(toolbar.getAttribute('aria-controls')).toBe('content');
    const names = screen
      .getAllByRole('button')
      .filter((b) => toolbar.contains(b))
      .map((b) => b.getAttribute('aria-label'));
    expect(names).toEqual([
      'Bold',
      'Italic',
      'Heading 1',
      'Heading 2',
      'Heading 3',
      'Bullet list',
      'Numbered list',
      'Quote',
      'Inline code',
      'Insert image',
      'Insert link',
      'Undo',
      'Redo',
    ]);
    // Toggles say whether they are on; actions do not pretend to be toggles.
    expect(screen.getByRole('button', { name: 'Bold' }).getAttribute('aria-pressed')).toBe('false');
    expect(screen.getByRole('button', { name: 'Insert image' }).hasAttribute('aria-pressed')).toBe(false);
    expect(screen.getByRole('button', { name: 'Undo' }).getAttribute('aria-disabled')).toBe('true');
    expect(screen.getByRole('button', { name: 'Bold' }).getAttribute('aria-keyshortcuts')).toBe('Control+B');
  });

  it('offers exactly the image types the server takes', () => {
    const { fileInput } = mount();
    expect(fileInput.accept).toBe('image/jpeg,image/png,image/gif,image/webp');
  });

  it('refuses an image of 5 MB or more before uploading it', async () => {
    const upload = vi.fn(async () => '/uploads/a.png');
    const { fileInput } = mount(upload);
    await chooseFile(fileInput, new File([new Uint8Array(5 * 1024 * 1024)], 'huge.png', { type: 'image/png' }));
    expect(screen.getByRole('alert').textContent).toContain(IMAGE_TOO_LARGE);
    expect(upload).not.toHaveBeenCalled();
  });

  it('says "Failed to upload image" in an alert when the upload fails', async () => {
    const { fileInput } = mount(async () => {
      throw new Error('500: boom');
    });
    await chooseFile(fileInput, new File(['x'], 'photo.jpg', { type: 'image/jpeg' }));
    expect(screen.getAllByRole('alert')[0].textContent).toContain(UPLOAD_FAILED);
  });

  it('inserts an uploaded image and asks for its description', async () => {
    const { fileInput, onChange } = mount(async () => '/uploads/0123abcd.jpg', '');
    await chooseFile(fileInput, new File(['x'], 'rally.jpg', { type: 'image/jpeg' }));
    const dialog = await screen.findByRole('dialog', { name: 'Image description' });
    expect(dialog).toBeTruthy();
    expect(onChange).toHaveBeenLastCalledWith('<img src="/uploads/0123abcd.jpg" alt=""><p></p>', 0);
    fireEvent.change(screen.getByLabelText('Alt text'), { target: { value: 'Supporters at the rally' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Save description' }));
    });
    expect(onChange).toHaveBeenLastCalledWith('<img src="/uploads/0123abcd.jpg" alt="Supporters at the rally"><p></p>', 0);
  });

  it('gives stored HTML as the editor writes it back when nothing is edited', () => {
    // Loading tidies (an image leaves its paragraph) without being an edit.
    const { onChange } = mount(undefined, '<p>Hello</p><p><img src="/uploads/a.png" alt="A"></p>');
    expect(onChange).not.toHaveBeenCalled();
    expect(canonicalHtml('<p>Hello</p><p><img src="/uploads/a.png" alt="A"></p>')).toBe('<p>Hello</p><img src="/uploads/a.png" alt="A">');
    expect(canonicalHtml('<p>Same</p>')).toBe('<p>Same</p>');
    expect(canonicalHtml('')).toBe('');
    expect(canonicalHtml('<p> </p><script>x</script>')).toBe('');
  });

  it('counts the characters a reader sees', () => {
    expect(countCharacters('<h1>Hi</h1><p>a <strong>b</strong><br>c</p>')).toBe(7);
    expect(countCharacters('')).toBe(0);
  });
});
