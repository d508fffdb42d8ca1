import { type QueryClient, mutationOptions, queryOptions } from '@tanstack/react-query';
import { adminRequest, loadOrFail } from '../../app/client';

/** A monthly gift as staff see it (GET /api/admin/plans). */
export interface Plan {
  id: number;
  donorName: string;
  donorEmail: string;
  /** Dollars with two decimals, as a string. */
  amount: string;
  status: 'active' | 'retrying' | 'paused' | 'inactive' | 'canceled';
  /** When the next charge (or retry) is made, while one is planned. */
  nextChargeAt: string | null;
  /** Until when a plan paused at the year's limit waits. */
  pausedUntil: string | null;
  /** What its gifts came to, less refunds. */
  totalGiven: string;
  gifts: number;
  lastError: string | null;
  createdAt: string;
  canceledAt: string | null;
  canceledBy: 'donor' | 'staff' | null;
  cancelReason: string | null;
}

export const plansExportUrl = '/api/admin/plans/export';

export const plansQuery = () =>
  queryOptions({
    queryKey: ['admin', 'plans'] as const,
    queryFn: () => loadOrFail(() => adminRequest<Plan[]>('GET', '/api/admin/plans'), 'Failed to fetch monthly gifts'),
  });

/** Cancels a plan with staff's reason; the plans load again. */
export const cancelPlan = (qc: QueryClient) =>
  mutationOptions({
    mutationKey: ['admin', 'plans', 'cancel'],
    mutationFn: ({ id, reason }: { id: number; reason: string }) => adminRequest<Plan>('POST', `/api/admin/plans/${id}/cancel`, { reason }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['admin', 'plans'] }),
  });

/** What the status badge says. */
export function statusLabel(plan: Pick<Plan, 'status'>): string {
  switch (plan.status) {
    case 'active':
      return 'Active';
    case 'retrying':
      return 'Retrying';
    case 'paused':
      return 'Paused: annual limit reached';
    case 'inactive':
      return 'Inactive';
    case 'canceled':
      return 'Canceled';
  }
}
