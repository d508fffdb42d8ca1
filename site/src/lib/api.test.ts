import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiFetch, apiRequest, errorMessage, failureText } from './api';

describe('errorMessage', () => {
  it("uses the server's message when the body carries one", () => {
    expect(errorMessage(400, 'Bad Request', '{"message":"ZIP code is required."}')).toBe('ZIP code is required.');
  });
  it('falls back to "status: body", or the status text for an empty body', () => {
    expect(errorMessage(502, 'Bad Gateway', '<html>oops</html>')).toBe('502: <html>oops</html>');
    expect(errorMessage(503, 'Service Unavailable', '')).toBe('503: Service Unavailable');
    expect(errorMessage(400, 'Bad Request', '{"message":42}')).toBe('400: {"message":42}');
  });
});

describe('apiRequest', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('sends JSON with a JSON content type and cookies', async () => {
    const fetchMock = vi.fn(async () => new Response('{"ok":true}', { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    await expect(apiRequest('POST', '/api/x', { a: 1 })).resolves.toEqual({ ok: true });
    expect(fetchMock).toHaveBeenCalledWith('/api/x', {
      method: 'POST',
      credentials: 'include',
      headers: { 'Content-Type': 'application/json' },
      body: '{"a":1}',
    });
  });

  it('sends no body or content type when there is no payload', async () => {
    const fetchMock = vi.fn(async () => new Response('', { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    await expect(apiRequest('GET', '/api/y')).resolves.toBeNull();
    expect(fetchMock).toHaveBeenCalledWith('/api/y', { method: 'GET', credentials: 'include', headers: undefined, body: undefined });
  });

  it('throws an ApiError with the status and message on a non-OK response', async () => {
    vi.stubGlobal('fetch', async () => new Response('{"message":"Too many requests."}', { status: 429 }));
    const error = await apiRequest('POST', '/api/x', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 429, message: 'Too many requests.' });
  });
});

describe('failureText', () => {
  it('prefers the API message and otherwise uses the fallback', () => {
    expect(failureText(new ApiError(400, 'Bad email.'), 'Fallback')).toBe('Bad email.');
    expect(failureText(new TypeError('Failed to fetch'), 'Fallback')).toBe('Fallback');
  });
});

describe('apiFetch', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('adds the given headers, and the JSON content type only with a body', async () => {
    const fetchMock = vi.fn(async () => new Response('a,b', { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    const response = await apiFetch('GET', '/api/z', { headers: { Authorization: 'Bearer t' } });
    expect(await response.text()).toBe('a,b');
    expect(fetchMock).toHaveBeenCalledWith('/api/z', {
      method: 'GET',
      credentials: 'include',
      headers: { Authorization: 'Bearer t' },
      body: undefined,
    });
    await apiFetch('POST', '/api/z', { body: { a: 1 }, headers: { Authorization: 'Bearer t' } });
    expect(fetchMock).toHaveBeenLastCalledWith('/api/z', {
      method: 'POST',
      credentials: 'include',
      headers: { Authorization: 'Bearer t', 'Content-Type': 'application/json' },
      body: '{"a":1}',
    });
  });

  it('sends FormData as it is, leaving its multipart content type to the browser', async () => {
    const fetchMock = vi.fn(async () => new Response('{"url":"/uploads/a.png"}', { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    const form = new FormData();
    form.append('image', new Blob(['x'], { type: 'image/png' }), 'a.png');
    await apiFetch('POST', '/api/up', { body: form, headers: { Authorization: 'Bearer t' } });
    expect(fetchMock).toHaveBeenCalledWith('/api/up', {
      method: 'POST',
      credentials: 'include',
      headers: { Authorization: 'Bearer t' },
      body: form,
    });
  });

  it('throws an ApiError with the server message on a non-OK response', async () => {
    vi.stubGlobal('fetch', async () => new Response('{"message":"Invalid password"}', { status: 401 }));
    await expect(apiFetch('POST', '/api/admin/login', { body: {} })).rejects.toMatchObject({ status: 401, message: 'Invalid password' });
  });
});
