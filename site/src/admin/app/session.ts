// The staff session: the token from sign-in, kept in sessionStorage.adminToken as the spec
// says, and the moment it runs out (60 minutes after sign-in, kept beside it so a reload
// does not extend it). A vanilla zustand store like lib/toast.ts, read in React with
// useStore(sessionStore, …) and outside it with getState().
import { createStore } from 'zustand/vanilla';
import { apiFetch } from '../../lib/api';
import { toast } from '../../lib/toast';
import { queryClient } from './queryClient';

export const TOKEN_KEY = 'adminToken';
export const EXPIRES_KEY = 'adminTokenExpiresAt';
export const SESSION_MINUTES = 60;

/** `ended`: the server has ended the session already, at the person's own request (signing
 *  out everywhere), so there is nothing to tell it nor to warn of. */
export type LogoutReason = 'user' | 'expired' | 'unauthorized' | 'ended';

interface SessionState {
  token: string | null;
  /** Epoch milliseconds. */
  expiresAt: number | null;
  /** Set when the session ran out, until the admin has read the alert that says so. */
  expiredNotice: boolean;
}

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null; // Storage blocked: the session lasts as long as the page.
  }
}

function readStorage(): SessionState {
  const token = storage()?.getItem(TOKEN_KEY) ?? null;
  const expiresAt = Number(storage()?.getItem(EXPIRES_KEY));
  // A token without a readable deadline is of unknown age: not trusted.
  if (!token || !Number.isFinite(expiresAt) || expiresAt <= 0) return { token: null, expiresAt: null, expiredNotice: false };
  return { token, expiresAt, expiredNotice: false };
}

export const sessionStore = createStore<SessionState>(readStorage);

type SignedOutListener = (why: LogoutReason) => void;
const signedOutListeners = new Set<SignedOutListener>();

/** Calls `listener` each time the session ends, with why; returns what stops it. Features
 *  clean up after themselves this way (the blog forgets its drafts when the admin logs
 *  out), so the session knows none of them. */
export function onSignedOut(listener: SignedOutListener): () => void {
  signedOutListeners.add(listener);
  return () => signedOutListeners.delete(listener);
}

let timer: ReturnType<typeof setTimeout> | undefined;

function clearTimer(): void {
  clearTimeout(timer);
  timer = undefined;
}

/** Starts the countdown to the session's end; a session already past it ends now. */
export function armTimer(now: number = Date.now()): void {
  clearTimer();
  const { token, expiresAt } = sessionStore.getState();
  if (!token || expiresAt === null) return;
  if (expiresAt <= now) {
    logout('expired');
    return;
  }
  timer = setTimeout(() => logout('expired'), expiresAt - now);
}

/** Keeps the token from a successful sign-in; the session ends 60 minutes from `now`. */
export function signIn(token: string, now: number = Date.now()): void {
  const expiresAt = now + SESSION_MINUTES * 60_000;
  storage()?.setItem(TOKEN_KEY, token);
  storage()?.setItem(EXPIRES_KEY, String(expiresAt));
  sessionStore.setState({ token, expiresAt, expiredNotice: false });
  armTimer(now);
}

/** Ends the session: tells the server (when the admin chose to), says so to whoever
 *  listens (onSignedOut), forgets the token and discards every cached admin list. */
export function logout(why: LogoutReason): void {
  const { token } = sessionStore.getState();
  if (why === 'user' && token) {
    // Revokes the token on the server. Nothing to do if that fails: it is gone here.
    void apiFetch('POST', '/api/admin/logout', { headers: { Authorization: `Bearer ${token}` } }).catch(() => {});
  }
  for (const listener of signedOutListeners) listener(why);
  clearTimer();
  storage()?.removeItem(TOKEN_KEY);
  storage()?.removeItem(EXPIRES_KEY);
  sessionStore.setState({ token: null, expiresAt: null, expiredNotice: why === 'expired' });
  queryClient.clear();
  if (why === 'unauthorized' && token) {
    toast({ variant: 'destructive', title: 'Signed out', description: 'Your session is no longer valid. Please sign in again.' });
  }
}

/** The admin has read the session-expired alert. */
export function dismissExpiredNotice(): void {
  sessionStore.setState({ expiredNotice: false });
}
