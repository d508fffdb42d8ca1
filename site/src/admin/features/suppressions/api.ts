// The suppression list (capability mail.suppressions): addresses no list mail goes to, and
// why. Staff search it, add an address (a complaint a provider reported, or a person who
// asked by phone) and lift a mistaken entry.
import { type QueryClient, mutationOptions, queryOptions } from '@tanstack/react-query';
import { adminRequest, loadOrFail } from '../../app/client';

export type Reason = 'bounced' | 'complained' | 'unsubscribed' | 'staff';

export interface Entry {
  email: string;
  reason: Reason;
  detail: string | null;
  createdAt: string;
  addedBy: string | null;
}

export interface AddInput {
  email: string;
  reason: 'staff' | 'complained';
  detail?: string;
}

export const REASON_LABELS: Record<Reason, string> = {
  bounced: 'Bounced',
  complained: 'Complained',
  unsubscribed: 'Unsubscribed',
  staff: 'Added by staff',
};

export const suppressionsQuery = (q: string) =>
  queryOptions({
    queryKey: ['admin', 'suppressions', q] as const,
    queryFn: () =>
      loadOrFail(
        () => adminRequest<{ entries: Entry[]; total: number }>('GET', `/api/admin/suppressions${q ? `?q=${encodeURIComponent(q)}` : ''}`),
        'Failed to fetch the suppression list',
      ),
  });

const all = { queryKey: ['admin', 'suppressions'] };

export const addSuppression = (qc: QueryClient) =>
  mutationOptions({
    mutationFn: (input: AddInput) => adminRequest<{ added: boolean }>('POST', '/api/admin/suppressions', input),
    onSuccess: () => qc.invalidateQueries(all),
  });

export const liftSuppression = (qc: QueryClient) =>
  mutationOptions({
    mutationFn: (email: string) => adminRequest<{ was: Reason }>('POST', '/api/admin/suppressions/lift', { email }),
    onSuccess: () => qc.invalidateQueries(all),
  });
