// The admin app's one way to the API, on lib/api.ts: the Bearer token on every call, and a
// 401 ends the session at once (the token was revoked or ran out) before the caller sees
// the error.
import { ApiError, apiFetch } from '../../lib/api';
import { logout, sessionStore } from './session';

/** True for the error a 401 became: the session is already over, so callers say nothing. */
export function isUnauthorized(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401;
}

async function adminFetch(method: string, url: string, body?: unknown, headers?: Record<string, string>): Promise<Response> {
  const { token } = sessionStore.getState();
  try {
    return await apiFetch(method, url, { body, headers: { ...headers, ...(token ? { Authorization: `Bearer ${token}` } : {}) } });
  } catch (error) {
    if (isUnauthorized(error)) logout('unauthorized');
    throw error;
  }
}

/** An admin call: the parsed JSON answer (null for an empty one). */
export async function adminRequest<T = unknown>(method: string, url: string, body?: unknown, headers?: Record<string, string>): Promise<T> {
  const text = await (await adminFetch(method, url, body, headers)).text();
  return (text ? JSON.parse(text) : null) as T;
}

/** The file name a `Content-Disposition` header gives, or `fallback`. */
export function attachmentName(disposition: string | null, fallback: string): string {
  const match = disposition?.match(/filename\*?=(?:UTF-8'')?"?([^";]+)"?/i);
  if (!match) return fallback;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return match[1];
  }
}

/** Downloads what `url` answers as a file, named as the server names it. */
export async function adminDownload(url: string, fallbackName: string): Promise<string> {
  const response = await adminFetch('GET', url);
  const name = attachmentName(response.headers.get('Content-Disposition'), fallbackName);
  const href = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = href;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the file once the click's task is over.
  setTimeout(() => URL.revokeObjectURL(href), 0);
  return name;
}

/** A list's load failure: the spec's text ("Failed to fetch contacts"), with the server's
 *  own message, when it sent one, as the cause. */
export class LoadError extends Error {
  constructor(message: string, cause: unknown) {
    super(message, { cause });
    this.name = 'LoadError';
  }
}

/** Runs `load`; a failure becomes a LoadError saying `failure`. */
export async function loadOrFail<T>(load: () => Promise<T>, failure: string): Promise<T> {
  try {
    return await load();
  } catch (error) {
    throw new LoadError(failure, error);
  }
}
