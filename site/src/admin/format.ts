// Pure helpers for what the admin screens show: donation purposes and amounts, relative
// dates, status badges, and the donation list's sort state.

/** `general_party_use` -> `General Party Use`: underscores become spaces, words capitalised. */
export function formatPurpose(snake: string): string {
  return snake
    .split('_')
    .filter((word) => word !== '')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase())
    .join(' ');
}

const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2 });

/** The API's `"1250.5"` or `"25.00"` as `$1,250.50`; anything unreadable is shown as sent. */
export function formatAmount(amount: string): string {
  const value = Number(amount);
  return amount.trim() !== '' && Number.isFinite(value) ? dollars.format(value) : amount;
}

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'always' });

/** The largest unit that fits, smallest first: [unit, how many seconds it lasts]. */
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 7],
  ['week', 4.348_214_3],
  ['month', 12],
];

/** How long ago `iso` was, as "3 hours ago". A time a little in the future (another clock
 *  running ahead) counts as now; an unreadable one gives "". */
export function formatRelative(iso: string, now: number = Date.now()): string {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return '';
  let amount = Math.max(0, (now - then) / 1000);
  for (const [unit, size] of UNITS) {
    if (amount < size) return relative.format(-Math.floor(amount), unit);
    amount /= size;
  }
  return relative.format(-Math.floor(amount), 'year');
}

const exact = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeStyle: 'short' });
const day = new Intl.DateTimeFormat('en-US', { dateStyle: 'long' });

/** "January 5, 2025 at 9:03 AM" in the viewer's time zone, or "" when unreadable. */
export function formatExact(iso: string): string {
  const then = Date.parse(iso);
  return Number.isNaN(then) ? '' : exact.format(then);
}

/** "January 5, 2025", or "" when unreadable. */
export function formatDay(iso: string): string {
  const then = Date.parse(iso);
  return Number.isNaN(then) ? '' : day.format(then);
}

export type BadgeVariant = 'default' | 'secondary' | 'destructive';

/** A donation's status badge: completed plain, pending secondary, anything else a failure. */
export function statusBadge(status: string): BadgeVariant {
  if (status === 'completed') return 'default';
  if (status === 'pending') return 'secondary';
  return 'destructive';
}

export type SortKey = 'name' | 'amount' | 'date';
export type SortOrder = 'asc' | 'desc';
export interface SortState {
  sortBy: SortKey;
  sortOrder: SortOrder;
}

/** The API's default, and the list's first order: newest first. */
export const DEFAULT_SORT: SortState = { sortBy: 'date', sortOrder: 'desc' };

/** Where a key starts when chosen: names A to Z, the largest amount and the newest first. */
const FIRST_ORDER: Record<SortKey, SortOrder> = { name: 'asc', amount: 'desc', date: 'desc' };

/** Pressing a sort button: the active key reverses its order; another key starts at its
 *  natural first order. */
export function nextSort(current: SortState, key: SortKey): SortState {
  if (current.sortBy === key) return { sortBy: key, sortOrder: current.sortOrder === 'asc' ? 'desc' : 'asc' };
  return { sortBy: key, sortOrder: FIRST_ORDER[key] };
}
