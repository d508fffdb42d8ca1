import { describe, expect, it, vi } from 'vitest';

import { openPreview } from './preview';

describe('openPreview', () => {
  it('opens the address in a new tab that gets no handle on the editor', async () => {
    const open = vi.fn(() => null);
    let resolve!: (url: string) => void;
    const pending = openPreview(() => new Promise<string>((r) => (resolve = r)), open);
    expect(open).not.toHaveBeenCalled();
    resolve('/admin/preview/0123456789abcdef0123456789abcdef');
    await pending;
    expect(open).toHaveBeenCalledWith('/admin/preview/0123456789abcdef0123456789abcdef', '_blank', 'noopener,noreferrer');
  });

  it('opens nothing when the preview fails', async () => {
    const open = vi.fn(() => null);
    await expect(openPreview(() => Promise.reject(new Error('400: too long')), open)).rejects.toThrow('400');
    expect(open).not.toHaveBeenCalled();
  });
});
