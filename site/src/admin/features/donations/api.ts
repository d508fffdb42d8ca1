import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { SortState } from './format';
import { adminRequest, loadOrFail } from '../../app/client';

/** A donation as staff see it (spec §3, "Donation (admin)"). */
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
}

export const donationsExportUrl = '/api/admin/donations/export';

/** One list per order, sorted by the server; the last order stays on screen while the next loads. */
export const donationsQuery = (sort: SortState) =>
  queryOptions({
    queryKey: ['admin', 'donations', sort] as const,
    queryFn: () => loadOrFail(() => adminRequest<Donation[]>('GET', `/api/admin/donations?${new URLSearchParams({ ...sort })}`), 'Failed to fetch donations'),
    placeholderData: keepPreviousData,
  });
