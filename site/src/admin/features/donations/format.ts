// Pure helpers for what the Donations tab shows: purposes, amounts, status badges, and the
// list's sort state.

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
