import { describe, expect, it, vi } from 'vitest';

import { openPreview } from './preview';

function fakeTab() {
  return { location: { href: 'about:blank' }, close: vi.fn() };
}

describe('openPreview', () => {
  it('opens the tab before the address is known, then sends it there', async () => {
    const tab = fakeTab();
    const open = vi.fn(() => tab as unknown as Window);
    let resolve!: (url: string) => void;
    const pending = openPreview(() => new Promise<string>((r) => (resolve = r)), open);
    expect(open).toHaveBeenCalledWith('', '_blank');
    expect(tab.location.href).toBe('about:blank');
    resolve('/admin/preview/0123456789abcdef0123456789abcdef');
    await expect(pending).resolves.toBe(true);
    expect(tab.location.href).toBe('/admin/preview/0123456789abcdef0123456789abcdef');
  });

  it('closes the tab when the preview fails, and says when no tab was allowed', async () => {
    const tab = fakeTab();
    await expect(openPreview(() => Promise.reject(new Error('400: too long')), () => tab as unknown as Window)).rejects.toThrow('400');
    expect(tab.close).toHaveBeenCalled();
    await expect(openPreview(async () => '/admin/preview/x', () => null)).resolves.toBe(false);
  });
});
