import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api';
import { toastStore } from '../../lib/toast';
import { exportList } from '../components/ExportButton';
import { sessionStore } from './session';
import { adminRequest, attachmentName, isUnauthorized } from './client';

describe('adminRequest', () => {
  beforeEach(() => {
    sessionStore.setState({ token: 'tok', expiresAt: Date.now() + 60_000, expiredNotice: false });
    toastStore.setState({ toasts: [] });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('sends the Bearer token and returns the JSON answer', async () => {
    const fetchMock = vi.fn(async () => new Response('[{"id":1}]', { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    await expect(adminRequest('GET', '/api/admin/contacts')).resolves.toEqual([{ id: 1 }]);
    expect(fetchMock).toHaveBeenCalledWith('/api/admin/contacts', {
      method: 'GET',
      credentials: 'include',
      headers: { Authorization: 'Bearer tok' },
      body: undefined,
    });
  });

  it('on a 401 ends the session, then throws', async () => {
    vi.stubGlobal('fetch', async () => new Response('{"message":"Sign in again."}', { status: 401 }));
    const error = await adminRequest('DELETE', '/api/admin/contacts/1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(isUnauthorized(error)).toBe(true);
    expect(sessionStore.getState().token).toBeNull();
  });

  it('keeps the session on other failures', async () => {
    vi.stubGlobal('fetch', async () => new Response('{"message":"There is no contact submission 1."}', { status: 404 }));
    await expect(adminRequest('DELETE', '/api/admin/contacts/1')).rejects.toMatchObject({ status: 404 });
    expect(sessionStore.getState().token).toBe('tok');
  });
});

describe('attachmentName', () => {
  it("reads the server's file name", () => {
    expect(attachmentName('attachment; filename="ACP-contacts-2025-06-01.csv"', 'x.csv')).toBe('ACP-contacts-2025-06-01.csv');
    expect(attachmentName("attachment; filename*=UTF-8''ACP%20blogs.csv", 'x.csv')).toBe('ACP blogs.csv');
    expect(attachmentName(null, 'x.csv')).toBe('x.csv');
    expect(attachmentName('inline', 'x.csv')).toBe('x.csv');
  });
});

describe('exportList', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('says "No data to export" for an empty list and asks nothing of the server', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    toastStore.setState({ toasts: [] });
    await exportList('/api/admin/contacts/export', 0, 'contacts.csv');
    expect(fetchMock).not.toHaveBeenCalled();
    expect(toastStore.getState().toasts).toMatchObject([{ title: 'No data to export' }]);
  });
});
