// The one way the site talks to its API. A failed response becomes an ApiError whose
// message is the server's own sentence ({"message": …}) when it sent one, else the
// spec's generic "status: body" form.

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The message for a non-OK response. */
export function errorMessage(status: number, statusText: string, body: string): string {
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === 'object' && 'message' in parsed && typeof parsed.message === 'string' && parsed.message) {
      return parsed.message;
    }
  } catch {
    // Not JSON: fall through to the generic form.
  }
  return `${status}: ${body || statusText}`;
}

/** Sends a request (JSON body only when there is one) and returns the parsed JSON reply. */
export async function apiRequest<T = unknown>(method: string, url: string, body?: unknown): Promise<T> {
  const response = await fetch(url, {
    method,
    credentials: 'include',
    headers: body === undefined ? undefined : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new ApiError(response.status, errorMessage(response.status, response.statusText, text));
  return (text ? JSON.parse(text) : null) as T;
}

/** What to tell the visitor: the server's message, or `fallback` when there is none
 *  (the request never reached the server, for instance). */
export function failureText(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.message ? error.message : fallback;
}
