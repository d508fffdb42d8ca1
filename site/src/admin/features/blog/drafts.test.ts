import { beforeEach, describe, expect, it } from 'vitest';
import { clearDraft, keepDraft, readDraft } from './drafts';
import { EMPTY_FORM } from './form';

describe('kept drafts', () => {
  beforeEach(() => localStorage.clear());

  it('keeps unsaved work per post, new posts under their own key, until cleared', () => {
    const form = { ...EMPTY_FORM, title: 'Half written' };
    keepDraft(3, form, 1000);
    keepDraft(null, { ...form, title: 'New one' }, 2000);
    expect(readDraft(3)).toEqual({ form, keptAt: 1000 });
    expect(readDraft(null)?.form.title).toBe('New one');
    expect(readDraft(4)).toBeNull();
    clearDraft(3);
    expect(readDraft(3)).toBeNull();
    expect(readDraft(null)).not.toBeNull();
  });

  it('drops what it cannot read rather than offering it', () => {
    localStorage.setItem('acp:blog-draft:5', '{"form":{"title":1},"keptAt":1}');
    localStorage.setItem('acp:blog-draft:6', 'not json');
    expect(readDraft(5)).toBeNull();
    expect(readDraft(6)).toBeNull();
    expect(localStorage.length).toBe(0);
  });
});
