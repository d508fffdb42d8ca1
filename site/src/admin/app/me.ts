// Who is signed in and what their role lets them do (GET /api/admin/me, or the `user` a
// completed sign-in answers). Kept in a vanilla zustand store beside the session's token;
// it goes when the session ends, and a reload asks the server again. The pure helpers here
// (role ranks, which tabs a set of capabilities opens) are what the dashboard, the Users
// screen and the guarded routes all decide by.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import { adminRequest } from './client';
import { queryClient } from './queryClient';
import { CAPABILITIES, ROLES, ROLE_LABELS } from './roles.generated';
import { onSignedOut, sessionStore } from './session';

// The names are the server's, generated from Rust (roles.generated.ts) so the two cannot drift.
export { ROLES, ROLE_LABELS };
export type Role = (typeof ROLES)[number];
export type Capability = (typeof CAPABILITIES)[number];

/** The person signed in. */
export interface Me {
  id: number;
  email: string;
  name: string;
  role: Role;
  roleLabel: string;
  capabilities: string[];
  /** An authenticator app or a passkey. */
  strongFactor: boolean;
  /** Their role needs a strong factor and they have none yet: only /admin/security works. */
  mustEnrol: boolean;
}

export function isRole(value: unknown): value is Role {
  return ROLES.includes(value as Role);
}

/** 0 for the Owner, then down the list; an unknown role ranks below every known one. */
export function rank(role: string): number {
  const i = ROLES.indexOf(role as Role);
  return i === -1 ? ROLES.length : i;
}

export function roleLabel(role: string): string {
  return isRole(role) ? ROLE_LABELS[role] : role;
}

/** Whether `me` holds `cap`. Nobody signed in holds nothing. */
export function can(me: Pick<Me, 'capabilities'> | null | undefined, cap: Capability): boolean {
  return !!me && me.capabilities.includes(cap);
}

/** The roles someone of role `mine` may give (or take away): their own rank and below, and
 *  the Owner's only with `owners.manage` (only Owners hold it). */
export function grantableRoles(me: Pick<Me, 'role' | 'capabilities'>): Role[] {
  const mine = rank(me.role);
  return ROLES.filter((r) => rank(r) >= mine && (r !== 'owner' || can(me, 'owners.manage')));
}

/** The dashboard's tabs, in their order, and the capability each needs. */
export const TAB_CAPABILITY = {
  contacts: 'submissions.read',
  volunteers: 'submissions.read',
  donations: 'donations.read',
  monthly: 'donations.read',
  newsletter: 'submissions.read',
  people: 'people.read',
  blogs: 'posts.write_own',
  events: 'events.manage',
  users: 'users.manage',
} as const satisfies Record<string, Capability>;

export type Tab = keyof typeof TAB_CAPABILITY;
export const TABS = Object.keys(TAB_CAPABILITY) as Tab[];

export function isTab(value: string | null | undefined): value is Tab {
  return TABS.includes(value as Tab);
}

/** The tabs `me`'s capabilities open, in the dashboard's order. */
export function visibleTabs(me: Pick<Me, 'capabilities'> | null | undefined): Tab[] {
  return TABS.filter((t) => can(me, TAB_CAPABILITY[t]));
}

/** What the dashboard shows for `?tab=`: the tab asked for when it is open to `me`, the
 *  first open one when none (or an unknown one) is asked for, and `forbidden` for a tab that
 *  exists but is not theirs (typed in, or an old link). */
export function chooseTab(asked: string | null, me: Pick<Me, 'capabilities'>): Tab | 'forbidden' | null {
  const open = visibleTabs(me);
  if (isTab(asked)) return open.includes(asked) ? asked : 'forbidden';
  return open[0] ?? null;
}

interface MeState {
  me: Me | null;
}

export const meStore = createStore<MeState>(() => ({ me: null }));

/** Keeps who signed in (from a completed sign-in's answer). */
export function setMe(me: Me): void {
  meStore.setState({ me });
  queryClient.setQueryData(meQuery().queryKey, me);
}

// The session's end takes who it was with it (the query cache is cleared by logout itself).
onSignedOut(() => meStore.setState({ me: null }));

export const meQuery = () =>
  queryOptions({
    queryKey: ['admin', 'me'] as const,
    queryFn: async () => {
      const me = await adminRequest<Me>('GET', '/api/admin/me');
      meStore.setState({ me });
      return me;
    },
  });

/** Asks the server again (after a factor is added or removed: `mustEnrol` may change). */
export async function refreshMe(): Promise<Me | undefined> {
  try {
    return await queryClient.fetchQuery({ ...meQuery(), staleTime: 0 });
  } catch {
    return undefined; // a 401 has ended the session; anything else leaves what we had
  }
}

/** The person signed in: from the store, else (a reload) from the server. `me` is null
 *  while it loads or when nobody is signed in; `error` says why it could not load. */
export function useMe(): { me: Me | null; error: Error | null } {
  const me = useStore(meStore, (s) => s.me);
  const token = useStore(sessionStore, (s) => s.token);
  const query = useQuery({ ...meQuery(), enabled: !!token && !me });
  return { me: token ? me : null, error: me ? null : query.error };
}
