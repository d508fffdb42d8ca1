// The attendee list as plain data: its filter by status, the words that say how many are
// shown, and attendance as the select holds it.
import type { Rsvp, RsvpStatus } from './api';
import { rsvpStatusLabel } from './format';

export type Filter = 'all' | RsvpStatus;

export const FILTERS: Filter[] = ['all', 'going', 'waitlisted', 'cancelled'];

export function filterRsvps(rsvps: Rsvp[], filter: Filter): Rsvp[] {
  return filter === 'all' ? rsvps : rsvps.filter((r) => r.status === filter);
}

/** The filter's option: "Everyone (5)", "Going (3)". */
export function filterLabel(filter: Filter, rsvps: Rsvp[]): string {
  const name = filter === 'all' ? 'Everyone' : rsvpStatusLabel(filter);
  return `${name} (${filterRsvps(rsvps, filter).length})`;
}

function rsvpCount(n: number): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? 'RSVP' : 'RSVPs'}`;
}

/** "5 RSVPs", or "Showing 3 of 5 RSVPs" while a filter hides some. */
export function shownLine(shown: number, total: number): string {
  return shown === total ? rsvpCount(total) : `Showing ${shown.toLocaleString('en-US')} of ${rsvpCount(total)}`;
}

/** Attendance as the select's value: "" not marked, "yes" attended, "no" a no-show. */
export function attendanceValue(attended: boolean | null): '' | 'yes' | 'no' {
  return attended === null ? '' : attended ? 'yes' : 'no';
}
