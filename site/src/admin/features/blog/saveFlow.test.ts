import { describe, expect, it, vi } from 'vitest';
import type { BlogPost, SavedPost } from './api';
import { EMPTY_FORM } from './form';
import { runSave } from './saveFlow';

const stored = (over: Partial<BlogPost> = {}): SavedPost => ({
  id: 9,
  title: 'T',
  slug: 't',
  excerpt: null,
  content: '',
  featuredImage: null,
  featuredImageAlt: null,
  keywords: null,
  authorName: 'ACP Team',
  status: 'draft',
  publishDate: null,
  createdAt: '',
  updatedAt: '',
  version: 4,
  kind: 'post',
  ...over,
});

function requests(fail?: 'save' | 'publish') {
  const calls: string[] = [];
  return {
    calls,
    save: vi.fn(async (id: number | null, input: { status: string }) => {
      calls.push(`${id === null ? 'POST' : 'PATCH'} ${input.status}`);
      if (fail === 'save') throw new Error('no');
      return stored({ status: input.status as BlogPost['status'] });
    }),
    publish: vi.fn(async (id: number) => {
      calls.push(`publish ${id}`);
      if (fail === 'publish') throw new Error('no');
      return stored({ status: 'published' });
    }),
  };
}

const form = { ...EMPTY_FORM, title: 'T' };

describe('runSave', () => {
  it('Save Draft creates or updates with the current status', async () => {
    const r = requests();
    await expect(runSave('draft', form, null, true, r)).resolves.toMatchObject({ ok: true, message: 'Blog created successfully' });
    await expect(runSave('draft', { ...form, status: 'published' }, stored({ status: 'published' }), true, r)).resolves.toMatchObject({
      ok: true,
      message: 'Blog updated successfully',
    });
    expect(r.calls).toEqual(['POST draft', 'PATCH published']);
  });

  it('Publish on a saved draft saves its edits, then publishes, so what goes live is what is on screen', async () => {
    const r = requests();
    await expect(runSave('publish', form, stored(), true, r)).resolves.toMatchObject({ ok: true, message: 'Blog published successfully' });
    expect(r.calls).toEqual(['PATCH draft', 'publish 9']);
    r.calls.length = 0;
    await runSave('publish', form, stored(), false, r);
    expect(r.calls).toEqual(['publish 9']);
  });

  it('Publish on a new or a published post saves it with status published', async () => {
    const r = requests();
    await runSave('publish', form, null, true, r);
    await runSave('publish', form, stored({ status: 'published' }), false, r);
    expect(r.calls).toEqual(['POST published', 'PATCH published']);
  });

  it('sends the version the edit started from, so a stale save is refused', async () => {
    const r = requests();
    await runSave('draft', form, stored(), true, r);
    await runSave('draft', form, null, true, r);
    expect(r.save.mock.calls[0][1]).toMatchObject({ version: 4 });
    expect(r.save.mock.calls[1][1]).not.toHaveProperty('version');
  });

  it('says which step failed, and gives the saved post when only the publish failed', async () => {
    await expect(runSave('publish', form, stored(), true, requests('save'))).resolves.toMatchObject({ ok: false, stage: 'save', saved: null });
    const failed = await runSave('publish', form, stored(), true, requests('publish'));
    expect(failed).toMatchObject({ ok: false, stage: 'publish', saved: { id: 9, status: 'draft' } });
    await expect(runSave('draft', form, null, true, requests('save'))).resolves.toMatchObject({ ok: false, stage: 'save' });
  });
});
