// A person's own account (capability `account`): their second factors, password and
// sessions, and, for Owners, the service tokens (docs/staff.md, "Staff accounts").
import { type QueryClient, mutationOptions, queryOptions } from '@tanstack/react-query';
import { adminRequest, loadOrFail } from '../../app/client';
import { refreshMe } from '../../app/me';
import { proved } from './proof';
import { type CreationOptionsJSON, createPasskey } from './webauthn';

export interface Passkey {
  id: number;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

export interface Session {
  id: number;
  browser: string;
  ip: string | null;
  createdAt: string;
  lastSeenAt: string;
  current: boolean;
}

export interface Security {
  totp: boolean;
  recoveryCodesLeft: number;
  passkeys: Passkey[];
  sessions: Session[];
}

export interface TotpEnrolment {
  secret: string;
  uri: string;
  qrSvg: string;
}

export interface ServiceToken {
  id: number;
  name: string;
  scope: string;
  createdAt: string;
  createdBy: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
  expiresAt: string | null;
  /** Whether it works now. */
  active: boolean;
  /** Why not: revoked, expired, or its maker is no longer an active Owner. */
  ended: 'revoked' | 'expired' | 'maker left' | null;
}

export const securityQuery = () =>
  queryOptions({
    queryKey: ['admin', 'security'] as const,
    queryFn: () => loadOrFail(() => adminRequest<Security>('GET', '/api/admin/security'), 'Failed to load your security settings'),
  });

/** After a factor changes: this page, and who is signed in (`mustEnrol` may have changed). */
async function refresh(qc: QueryClient): Promise<void> {
  await Promise.all([qc.invalidateQueries({ queryKey: securityQuery().queryKey }), refreshMe()]);
}

export const startTotp = () =>
  mutationOptions({
    mutationFn: () => proved(() => adminRequest<TotpEnrolment>('POST', '/api/admin/security/totp')),
  });

export const confirmTotp = (qc: QueryClient) =>
  mutationOptions({
    mutationFn: (code: string) => proved(() => adminRequest<{ recoveryCodes: string[] }>('POST', '/api/admin/security/totp/confirm', { code })),
    onSuccess: () => refresh(qc),
  });

export const removeTotp = (qc: QueryClient) =>
  mutationOptions({
    mutationFn: () => proved(() => adminRequest('DELETE', '/api/admin/security/totp')),
    onSuccess: () => refresh(qc),
  });

export const newRecoveryCodes = (qc: QueryClient) =>
  mutationOptions({
    mutationFn: () => proved(() => adminRequest<{ recoveryCodes: string[] }>('POST', '/api/admin/security/recovery-codes')),
    onSuccess: () => qc.invalidateQueries({ queryKey: securityQuery().queryKey }),
  });

/** Makes a passkey in this browser and registers it under `name`. */
export function addPasskey(name: string): Promise<{ id: number; name: string }> {
  return proved(async () => {
    const options = await adminRequest<{ publicKey: CreationOptionsJSON }>('POST', '/api/admin/security/passkeys/options');
    const credential = await createPasskey(options);
    return adminRequest<{ id: number; name: string }>('POST', '/api/admin/security/passkeys', { name, credential });
  });
}

export const addPasskeyOptions = (qc: QueryClient) =>
  mutationOptions({
    mutationFn: addPasskey,
    onSuccess: () => refresh(qc),
  });

export const removePasskey = (qc: QueryClient) =>
  mutationOptions({
    mutationKey: ['admin', 'security', 'passkey', 'remove'] as const,
    mutationFn: (id: number) => proved(() => adminRequest('DELETE', `/api/admin/security/passkeys/${id}`)),
    onSuccess: () => refresh(qc),
  });

export const changePassword = (qc: QueryClient) =>
  mutationOptions({
    mutationFn: (body: { current: string; password: string }) => adminRequest('POST', '/api/admin/security/password', body),
    onSuccess: () => qc.invalidateQueries({ queryKey: securityQuery().queryKey }),
  });

export const signOutEverywhere = () =>
  mutationOptions({
    mutationFn: () => adminRequest('POST', '/api/admin/security/sign-out-everywhere'),
  });

export const tokensQuery = () =>
  queryOptions({
    queryKey: ['admin', 'service-tokens'] as const,
    queryFn: () =>
      loadOrFail(async () => (await adminRequest<{ tokens: ServiceToken[] }>('GET', '/api/admin/service-tokens')).tokens, 'Failed to load the service tokens'),
  });

export const createToken = (qc: QueryClient) =>
  mutationOptions({
    mutationFn: (body: { name: string; scope: 'exports'; expiresInDays: number }) =>
      adminRequest<{ id: number; token: string; expiresAt: string }>('POST', '/api/admin/service-tokens', body),
    onSuccess: () => qc.invalidateQueries({ queryKey: tokensQuery().queryKey }),
  });

export const revokeToken = (qc: QueryClient) =>
  mutationOptions({
    mutationKey: ['admin', 'service-tokens', 'revoke'] as const,
    mutationFn: (id: number) => adminRequest('DELETE', `/api/admin/service-tokens/${id}`),
    onSuccess: () => qc.invalidateQueries({ queryKey: tokensQuery().queryKey }),
  });
