// Pure helpers for what the Donations tab shows: purposes, amounts, status badges (with
// refunds and disputes), days left to refund an excess, and the list's sort state.
import { formatDay } from '../../components/dates';
import { formatAmount } from '../../components/money';

export { formatAmount };

/** `general_party_use` -> `General Party Use`: underscores become spaces, words capitalised. */
export function formatPurpose(snake: string): string {
  return snake
    .split('_')
    .filter((word) => word !== '')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase())
    .join(' ');
}

export type BadgeVariant = 'default' | 'secondary' | 'destructive';

/** A donation's status badge: completed plain, pending secondary, anything else a failure. */
export function statusBadge(status: string): BadgeVariant {
  if (status === 'completed') return 'default';
  if (status === 'pending') return 'secondary';
  return 'destructive';
}

/** Dispute statuses that end it; any other means the issuer holds the money. */
const CLOSED_DISPUTE = ['won', 'lost', 'prevented', 'warning_closed'];

export interface GiftState {
  /** The badge's word. */
  badge: string;
  variant: BadgeVariant;
  /** A sentence under the gift: what went back and when, or why it cannot be refunded. */
  note: string | null;
}

/** What a gift's badge and note say: disputed while a dispute is open, refunded (in full or
 *  in part) once money went back, otherwise its status. */
export function giftState(d: {
  amount: string;
  status: string;
  refunded?: string;
  refundedAt?: string | null;
  refundedBy?: string | null;
  disputeStatus?: string | null;
}): GiftState {
  const refunded = Number(d.refunded ?? 0);
  const dispute = d.disputeStatus ?? null;
  if (dispute && !CLOSED_DISPUTE.includes(dispute)) {
    return { badge: 'Disputed', variant: 'destructive', note: 'The card issuer is holding the money until the dispute closes; answer it in Stripe.' };
  }
  if (refunded > 0) {
    // Who gave it back, for a refund staff made: "by Tess Treasurer, December 1, 2026".
    const day = d.refundedAt ? formatDay(d.refundedAt) : null;
    const when = d.refundedBy ? ` by ${d.refundedBy}${day ? `, ${day}` : ''}` : day ? ` on ${day}` : '';
    const lost = dispute === 'lost' ? ' (dispute lost)' : '';
    const full = refunded >= Number(d.amount);
    return {
      badge: full ? 'Refunded' : 'Partly refunded',
      variant: full ? 'destructive' : 'secondary',
      note: `Refunded ${formatAmount(d.refunded ?? '')}${when}${lost}`,
    };
  }
  const note = dispute === 'won' ? 'Dispute won: the gift stands.' : null;
  return { badge: d.status, variant: statusBadge(d.status), note };
}

/** "12 days left (until 2026-03-01)", "Due today", or "5 days overdue". */
export function daysLeftText(daysLeft: number, deadline: string): string {
  if (daysLeft > 1) return `${daysLeft} days left (until ${deadline})`;
  if (daysLeft === 1) return `1 day left (until ${deadline})`;
  if (daysLeft === 0) return 'Due today';
  return daysLeft === -1 ? '1 day overdue' : `${-daysLeft} days overdue`;
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
