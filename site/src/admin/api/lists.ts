// What the three submission lists (contacts, volunteers, newsletter signups) share: a list
// query under ['admin', kind] and a delete that refreshes it. Each kind's file names its
// own texts and types.
import { type QueryClient, mutationOptions, queryOptions } from '@tanstack/react-query';
import { adminRequest } from './client';

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
