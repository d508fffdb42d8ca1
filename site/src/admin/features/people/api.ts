import { type QueryClient, keepPreviousData, mutationOptions, queryOptions } from '@tanstack/react-query';
import { adminRequest, loadOrFail } from '../../app/client';

/** One supporter as the People list shows them (GET /api/admin/people). */
export interface PersonRow {
  id: number;
  name: string | null;
  emails: string[];
  phone: string | null;
  subscribed: boolean;
  volunteered: boolean;
  wrote: boolean;
  gave: boolean;
  lastSeen: string;
}

export interface PeoplePage {
  people: PersonRow[];
  total: number;
  page: number;
  pageSize: number;
}

/** A value a person gave, where and when. */
export interface Given {
  value: string;
  source: string;
  at: string;
}

export interface TimelineEvent {
  at: string;
  kind: 'newsletter' | 'texts' | 'message' | 'volunteer' | 'gift' | 'plan' | 'mail';
  title: string;
  detail: string | null;
  amount: string | null;
}

export interface Merge {
  id: number;
  intoId: number;
  fromId: number;
  emails: string[];
  mergedAt: string;
  undoneAt: string | null;
}

/** A supporter's page (GET /api/admin/people/{id}). */
export interface Person {
  id: number;
  mergedInto: number | null;
  emails: string[];
  names: Given[];
  phones: Given[];
  zipCodes: Given[];
  addresses: Given[];
  timeline: TimelineEvent[];
  merges: Merge[];
}

/** A side of a pair of contributors who may be one person. */
export interface MatchSide {
  contributor: number;
  name: string;
  address: string;
  gifts: number;
}

export interface ContributorMatch {
  a: MatchSide;
  b: MatchSide;
  why: string;
  foundAt: string;
}

export const peopleQuery = (q: string, page: number) =>
  queryOptions({
    queryKey: ['admin', 'people', 'list', q, page] as const,
    queryFn: () =>
      loadOrFail(() => adminRequest<PeoplePage>('GET', `/api/admin/people?${new URLSearchParams({ q, page: String(page) })}`), 'Failed to fetch people'),
    // A new search keeps the last answer on screen until its own arrives.
    placeholderData: keepPreviousData,
  });

export const personQuery = (id: number) =>
  queryOptions({
    queryKey: ['admin', 'people', 'person', id] as const,
    queryFn: () => loadOrFail(() => adminRequest<Person>('GET', `/api/admin/people/${id}`), 'Failed to load this person'),
  });

export const personExportUrl = (id: number) => `/api/admin/people/${id}/export`;

const refreshPeople = (qc: QueryClient) => qc.invalidateQueries({ queryKey: ['admin', 'people'] });

/** Merges `other` into `id`. */
export const mergePeople = (qc: QueryClient) =>
  mutationOptions({
    mutationFn: ({ id, other }: { id: number; other: number }) => adminRequest<{ mergeId: number }>('POST', `/api/admin/people/${id}/merge`, { other }),
    onSuccess: () => refreshPeople(qc),
  });

export const undoMerge = (qc: QueryClient) =>
  mutationOptions({
    mutationFn: (mergeId: number) => adminRequest<{ into: number; from: number }>('POST', `/api/admin/people/merges/${mergeId}/undo`),
    onSuccess: () => refreshPeople(qc),
  });

export const matchesQuery = () =>
  queryOptions({
    queryKey: ['admin', 'contributor-matches'] as const,
    queryFn: () => loadOrFail(() => adminRequest<ContributorMatch[]>('GET', '/api/admin/contributors/matches'), 'Failed to fetch contributors to review'),
  });

/** The treasurer's answer on a pair; the pairs, the donations and what needs attention load again. */
export const decideMatch = (qc: QueryClient) =>
  mutationOptions({
    mutationFn: ({ a, b, same }: { a: number; b: number; same: boolean }) => adminRequest('POST', '/api/admin/contributors/matches', { a, b, same }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['admin'] }),
  });

/** What a person has done, as the list's badges say it. */
export function activities(p: Pick<PersonRow, 'subscribed' | 'volunteered' | 'wrote' | 'gave'>): string[] {
  return [p.subscribed && 'Subscribed', p.volunteered && 'Volunteered', p.wrote && 'Wrote', p.gave && 'Gave'].filter((x): x is string => !!x);
}
