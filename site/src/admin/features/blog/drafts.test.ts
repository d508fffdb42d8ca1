// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { logout, sessionStore, signIn } from '../../app/session';
import { clearDraft, forgetDraftsOnLogout, keepDraft, readDraft } from './drafts';
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

describe('drafts and logging out', () => {
  const HOUR = 60 * 60_000;
  let stop: () => void;

  beforeEach(() => {
    vi.useFakeTimers();
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('{"success":true}', { status: 200 })),
    );
    sessionStorage.clear();
    sessionStore.setState({ token: null, expiresAt: null, expiredNotice: false });
    stop = forgetDraftsOnLogout();
  });
  afterEach(() => {
    stop();
    logout('unauthorized'); // stops any timer a test left running
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('a logout the admin chose forgets unsaved drafts; a session that ran out keeps them', () => {
    localStorage.setItem('unrelated', 'kept');
    keepDraft(null, { ...EMPTY_FORM, title: 'Unpublished words' });
    keepDraft(7, { ...EMPTY_FORM, title: 'An edit' });
    signIn('tok');
    vi.advanceTimersByTime(HOUR);
    expect(readDraft(null)?.form.title).toBe('Unpublished words');
    expect(readDraft(7)?.form.title).toBe('An edit');

    signIn('tok');
    logout('user');
    expect(readDraft(null)).toBeNull();
    expect(readDraft(7)).toBeNull();
    expect(localStorage.getItem('unrelated')).toBe('kept');
    localStorage.clear();
  });
});
