// The Users screen's server state (capability users.manage): staff accounts and the
// invitations still open, and every change to them. Each change loads the list again.
import { type QueryClient, mutationOptions, queryOptions } from '@tanstack/react-query';
import { adminRequest, loadOrFail } from '../../app/client';
import type { Role } from '../../app/me';

export interface StaffUser {
  id: number;
  email: string;
  name: string;
  role: Role;
  roleLabel: string;
  active: boolean;
  /** An authenticator app or a passkey. */
  strongFactor: boolean;
  createdAt: string;
  lastSignInAt: string | null;
}

export interface Invitation {
  id: number;
  email: string;
  name: string;
  role: Role;
  roleLabel?: string;
  createdAt: string;
  expiresAt: string;
  invitedBy: string | null;
}

export interface UsersPage {
  users: StaffUser[];
  invitations: Invitation[];
}

export const usersQuery = () =>
  queryOptions({
    queryKey: ['admin', 'users'] as const,
    queryFn: () => loadOrFail(() => adminRequest<UsersPage>('GET', '/api/admin/users'), 'Failed to fetch users'),
  });

const refresh = (qc: QueryClient) => qc.invalidateQueries({ queryKey: usersQuery().queryKey });

export const invite = (qc: QueryClient) =>
  mutationOptions({
    mutationFn: (body: { email: string; name: string; role: Role }) => adminRequest<{ id: number }>('POST', '/api/admin/invitations', body),
    onSuccess: () => refresh(qc),
  });

export const resendInvitation = (qc: QueryClient) =>
  mutationOptions({
    mutationKey: ['admin', 'users', 'resend'] as const,
    mutationFn: (id: number) => adminRequest('POST', `/api/admin/invitations/${id}/resend`),
    onSuccess: () => refresh(qc),
  });

export const revokeInvitation = (qc: QueryClient) =>
  mutationOptions({
    mutationKey: ['admin', 'users', 'revoke'] as const,
    mutationFn: (id: number) => adminRequest('DELETE', `/api/admin/invitations/${id}`),
    onSuccess: () => refresh(qc),
  });

export const changeRole = (qc: QueryClient) =>
  mutationOptions({
    mutationFn: ({ id, role }: { id: number; role: Role }) => adminRequest('PATCH', `/api/admin/users/${id}`, { role }),
    onSuccess: () => refresh(qc),
  });

export const deactivateUser = (qc: QueryClient) =>
  mutationOptions({
    mutationKey: ['admin', 'users', 'deactivate'] as const,
    mutationFn: (id: number) => adminRequest('POST', `/api/admin/users/${id}/deactivate`),
    onSuccess: () => refresh(qc),
  });

export const reactivateUser = (qc: QueryClient) =>
  mutationOptions({
    mutationKey: ['admin', 'users', 'reactivate'] as const,
    mutationFn: (id: number) => adminRequest('POST', `/api/admin/users/${id}/reactivate`),
    onSuccess: () => refresh(qc),
  });

export const resetFactors = (qc: QueryClient) =>
  mutationOptions({
    mutationKey: ['admin', 'users', 'reset-factors'] as const,
    mutationFn: (id: number) => adminRequest('POST', `/api/admin/users/${id}/reset-factors`),
    onSuccess: () => refresh(qc),
  });
