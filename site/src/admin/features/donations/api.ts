import { type QueryClient, keepPreviousData, mutationOptions, queryOptions } from '@tanstack/react-query';
import type { SortState } from './format';
import { adminRequest, loadOrFail } from '../../app/client';

/** A donation as staff see it (spec §3, "Donation (admin)"), with what went back of it. */
export interface Donation {
  id: number;
  /** Dollars with two decimals, as a string. */
  amount: string;
  donorName: string;
  donorEmail: string;
  donorAddress: string;
  donorCity: string;
  donorState: string;
  donorZipCode: string;
  donorOccupation: string | null;
  donorEmployer: string | null;
  /** Snake-case words. */
  contributionPurpose: string | null;
  citizenshipConfirmed: boolean;
  status: string;
  createdAt: string;
  /** When the donor's details were removed (a gift never paid; on request or after 30 days). */
  redactedAt?: string | null;
  /** Dollars gone back to the donor (refunds and a lost dispute), "0.00" when none. */
  refunded?: string;
  /** When the last of them was made. */
  refundedAt?: string | null;
  /** Who made the last of them, for a refund made from the admin. */
  refundedBy?: string | null;
  /** Dollars staff may still refund ("0.00" unless completed and not disputed). */
  refundable?: string;
  /** Stripe's status of the gift's latest dispute, if it was ever disputed. */
  disputeStatus?: string | null;
  /** The monthly gift it came from, if it did. */
  planId?: number | null;
}

/** A donor over a year's limit (GET /api/admin/donations/attention). */
export interface OverLimit {
  donorName: string;
  donorEmail: string;
  year: number;
  total: string;
  limit: string;
  excess: string;
  overSince: string;
  /** The last day to refund the excess, YYYY-MM-DD. */
  deadline: string;
  /** Negative once the deadline has passed. */
  daysLeft: number;
}

export const donationsExportUrl = '/api/admin/donations/export';

/** One list per order, sorted by the server; the last order stays on screen while the next loads. */
export const donationsQuery = (sort: SortState) =>
  queryOptions({
    queryKey: ['admin', 'donations', sort] as const,
    queryFn: () => loadOrFail(() => adminRequest<Donation[]>('GET', `/api/admin/donations?${new URLSearchParams({ ...sort })}`), 'Failed to fetch donations'),
    placeholderData: keepPreviousData,
  });

/** Under the donations' key, so a refund (which invalidates them) refreshes it too. */
export const attentionQuery = () =>
  queryOptions({
    queryKey: ['admin', 'donations', 'attention'] as const,
    queryFn: () => loadOrFail(() => adminRequest<OverLimit[]>('GET', '/api/admin/donations/attention'), 'Failed to fetch donors over the limit'),
  });

export interface RefundInput {
  id: number;
  amount: string;
  reason: string;
}

/** Refunds part or all of a gift; the donations (and the attention list) load again. */
export const refundDonation = (qc: QueryClient) =>
  mutationOptions({
    mutationKey: ['admin', 'donations', 'refund'],
    mutationFn: ({ id, amount, reason }: RefundInput) => adminRequest<Donation>('POST', `/api/admin/donations/${id}/refund`, { amount, reason }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['admin', 'donations'] }),
  });

/** Where a schedule for the days `from`..`to` (YYYY-MM-DD) downloads from. */
export function scheduleUrl(schedule: 'a' | 'b', from: string, to: string, format: 'csv' | 'fec'): string {
  return `/api/admin/donations/schedule-${schedule}?${new URLSearchParams({ from, to, format })}`;
}
