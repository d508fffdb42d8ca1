// The three submission lists (contacts, volunteers, newsletter signups): what the API sends
// for each, and what they share: a list query under ['admin', kind] and a delete that
// refreshes it.
import { type QueryClient, mutationOptions, queryOptions } from '@tanstack/react-query';
import { adminRequest, loadOrFail } from '../../app/client';

export type ListKind = 'contacts' | 'volunteers' | 'newsletters';

export function listResource<T extends { id: number }>(kind: ListKind, fetchFailure: string) {
  const query = () =>
    queryOptions({
      queryKey: ['admin', kind] as const,
      queryFn: () => loadOrFail(() => adminRequest<T[]>('GET', `/api/admin/${kind}`), fetchFailure),
    });
  const remove = (qc: QueryClient) =>
    mutationOptions({
      mutationKey: ['admin', kind, 'delete'] as const,
      mutationFn: (id: number) => adminRequest('DELETE', `/api/admin/${kind}/${id}`),
      onSuccess: () => qc.invalidateQueries({ queryKey: query().queryKey }),
    }); // the caller adds onError with its own toast text
  return { query, remove, exportUrl: `/api/admin/${kind}/export` };
}

export type ListResource<T extends { id: number }> = ReturnType<typeof listResource<T>>;

export interface Contact {
  id: number;
  name: string;
  email: string;
  subject: string;
  message: string;
  createdAt: string;
}

export const contacts = listResource<Contact>('contacts', 'Failed to fetch contacts');

export interface Volunteer {
  id: number;
  name: string;
  email: string;
  phone: string | null;
  zipCode: string;
  interests: string | null;
  createdAt: string;
}

export const volunteers = listResource<Volunteer>('volunteers', 'Failed to fetch volunteers');

export interface NewsletterSignup {
  id: number;
  email: string;
  phone: string | null;
  zipCode: string;
  createdAt: string;
  updatedAt: string;
  /** Double opt-in: the address confirmed by the mailed link, or left. */
  status: 'Pending' | 'Confirmed' | 'Unsubscribed';
  confirmedAt: string | null;
  unsubscribedAt: string | null;
  /** Texts to the signup's number: only a ticked box is consent. Null without a number. */
  texts: 'Consented' | 'No consent' | 'Opted out' | null;
  textsChangedAt: string | null;
}

export const newsletters = listResource<NewsletterSignup>('newsletters', 'Failed to fetch newsletters');
