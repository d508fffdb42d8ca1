// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toastStore } from '../../lib/toast';
import { queryClient } from './queryClient';
import { EXPIRES_KEY, TOKEN_KEY, armTimer, logout, onSignedOut, sessionStore, signIn } from './session';

const HOUR = 60 * 60_000;

describe('the session store', () => {
  let fetchMock: ReturnType<typeof vi.fn>;

  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(Date.parse('2025-06-01T12:00:00Z'));
    fetchMock = vi.fn(async () => new Response('{"success":true}', { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    sessionStorage.clear();
    sessionStore.setState({ token: null, expiresAt: null, expiredNotice: false });
    toastStore.setState({ toasts: [] });
  });
  afterEach(() => {
    logout('unauthorized'); // stops any timer a test left running
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('keeps the token in sessionStorage.adminToken with a deadline an hour away', () => {
    signIn('tok');
    expect(sessionStorage.getItem(TOKEN_KEY)).toBe('tok');
    expect(Number(sessionStorage.getItem(EXPIRES_KEY))).toBe(Date.now() + HOUR);
    expect(sessionStore.getState()).toMatchObject({ token: 'tok', expiredNotice: false });
  });

  it('ends the session 60 minutes after sign-in, with the expired notice, and drops the cached lists', () => {
    queryClient.setQueryData(['admin', 'contacts'], [{ id: 1 }]);
    signIn('tok');
    vi.advanceTimersByTime(HOUR - 1);
    expect(sessionStore.getState().token).toBe('tok');
    vi.advanceTimersByTime(1);
    expect(sessionStore.getState()).toEqual({ token: null, expiresAt: null, expiredNotice: true });
    expect(sessionStorage.getItem(TOKEN_KEY)).toBeNull();
    expect(sessionStorage.getItem(EXPIRES_KEY)).toBeNull();
    expect(queryClient.getQueryData(['admin', 'contacts'])).toBeUndefined();
    expect(fetchMock).not.toHaveBeenCalled(); // the token has run out on the server too
  });

  it('keeps the deadline of a session that was restored, and ends an overdue one at once', () => {
    sessionStore.setState({ token: 'tok', expiresAt: Date.now() + 1000, expiredNotice: false });
    armTimer();
    vi.advanceTimersByTime(1000);
    expect(sessionStore.getState().expiredNotice).toBe(true);

    sessionStore.setState({ token: 'tok', expiresAt: Date.now() - 1, expiredNotice: false });
    armTimer();
    expect(sessionStore.getState()).toMatchObject({ token: null, expiredNotice: true });
  });

  it('logout by the admin revokes the token on the server and forgets it', () => {
    signIn('tok');
    queryClient.setQueryData(['admin', 'blogs'], []);
    logout('user');
    expect(fetchMock).toHaveBeenCalledWith('/api/admin/logout', {
      method: 'POST',
      credentials: 'include',
      headers: { Authorization: 'Bearer tok' },
      body: undefined,
    });
    expect(sessionStore.getState()).toEqual({ token: null, expiresAt: null, expiredNotice: false });
    expect(queryClient.getQueryData(['admin', 'blogs'])).toBeUndefined();
    vi.advanceTimersByTime(2 * HOUR);
    expect(sessionStore.getState().expiredNotice).toBe(false); // the timer went with it
  });

  it('tells whoever listens that the session ended, and why', () => {
    const heard: string[] = [];
    const stop = onSignedOut((why) => heard.push(why));
    signIn('tok');
    vi.advanceTimersByTime(HOUR);
    signIn('tok');
    logout('user');
    stop();
    logout('unauthorized');
    expect(heard).toEqual(['expired', 'user']);
  });

  it('a session the server ended at our request (signing out everywhere) ends quietly', () => {
    signIn('tok');
    logout('ended');
    expect(fetchMock).not.toHaveBeenCalled();
    expect(toastStore.getState().toasts).toEqual([]);
    expect(sessionStore.getState()).toEqual({ token: null, expiresAt: null, expiredNotice: false });
  });

  it('a 401 logout tells the admin why, once', () => {
    signIn('tok');
    logout('unauthorized');
    logout('unauthorized');
    expect(fetchMock).not.toHaveBeenCalled();
    expect(toastStore.getState().toasts).toMatchObject([{ title: 'Signed out', variant: 'destructive' }]);
  });
});

describe('restoring a session from storage', () => {
  afterEach(() => {
    sessionStorage.clear();
    vi.resetModules();
  });

  it('trusts a token only with its deadline', async () => {
    sessionStorage.setItem(TOKEN_KEY, 'tok');
    vi.resetModules();
    expect((await import('./session')).sessionStore.getState().token).toBeNull();
    sessionStorage.setItem(EXPIRES_KEY, String(Date.now() + 5000));
    vi.resetModules();
    expect((await import('./session')).sessionStore.getState()).toMatchObject({ token: 'tok', expiredNotice: false });
  });
});
