// The one way the site talks to its API. A failed response becomes an ApiError whose
// message is the server's own sentence ({"message": …}) when it sent one, else the
// spec's generic "status: body" form.

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The field a refusal is about, when the server names one (`{"message", "field"}`). */
    readonly field?: string,
    /** The admin must prove its password again first (`{"message", "reauth": true}`). */
    readonly reauth?: boolean,
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

/** The field a JSON error body names, if any. */
function errorField(body: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === 'object' && 'field' in parsed && typeof parsed.field === 'string') return parsed.field;
  } catch {
    // Not JSON: no field.
  }
  return undefined;
}

/** Whether a JSON error body asks for the password again (`"reauth": true`). */
function errorReauth(body: string): boolean | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === 'object' && 'reauth' in parsed && parsed.reauth === true) return true;
  } catch {
    // Not JSON.
  }
  return undefined;
}

/** Sends a request (JSON body only when there is one) and returns the parsed JSON reply.
 *  `init` may add an abort signal, a cache mode or headers. */
export async function apiRequest<T = unknown>(
  method: string,
  url: string,
  body?: unknown,
  init: Pick<RequestInit, 'signal' | 'cache'> & { headers?: Record<string, string> } = {},
): Promise<T> {
  const { headers, ...rest } = init;
  const response = await fetch(url, {
    ...rest,
    method,
    credentials: 'include',
    headers: body === undefined ? headers : { ...headers, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) {
    throw new ApiError(response.status, errorMessage(response.status, response.statusText, text), errorField(text));
  }
  return (text ? JSON.parse(text) : null) as T;
}

/** Sends a request like [`apiRequest`] with extra headers (the admin app's bearer token)
 *  and returns the response itself, for callers that read more than JSON (a download's
 *  file name). A `FormData` body goes as multipart (an upload), any other body as JSON. A
 *  non-OK response is an ApiError, as there. The public forms keep using `apiRequest`
 *  unchanged, so their bundle does not carry this. */
export async function apiFetch(method: string, url: string, { body, headers }: { body?: unknown; headers?: Record<string, string> } = {}): Promise<Response> {
  // The browser writes a multipart body's Content-Type itself, with its boundary.
  const multipart = body instanceof FormData;
  const response = await fetch(url, {
    method,
    credentials: 'include',
    headers: body === undefined || multipart ? headers : { ...headers, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : multipart ? body : JSON.stringify(body),
  });
  if (!response.ok) {
    const text = await response.text();
    throw new ApiError(response.status, errorMessage(response.status, response.statusText, text), errorField(text), errorReauth(text));
  }
  return response;
}

/** What to tell the visitor: the server's message, or `fallback` when there is none
 *  (the request never reached the server, for instance). */
export function failureText(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.message ? error.message : fallback;
}
