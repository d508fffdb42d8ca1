// The public site's copy in the deploy bucket (GET /api/admin/deploy): what is waiting to be
// copied, and the copy that keeps failing, if one does; POST /api/admin/deploy/retry tries
// the queue again at once and answers the same, after that one pass.
import { type QueryClient, mutationOptions, queryOptions } from '@tanstack/react-query';
import { adminRequest, loadOrFail } from '../../app/client';

/** The copy at the head of the queue, which has failed at least once. */
export interface DeployFailing {
  path: string;
  attempts: number;
  lastError: string;
  nextAttemptAt: string;
}

export interface DeployQueue {
  /** `s3://bucket/prefix`; null when no bucket is set up (DEPLOY_URL). */
  target: string | null;
  /** Files waiting to be copied. */
  waiting: number;
  oldestQueuedAt: string | null;
  failing: DeployFailing | null;
}

export const deployQuery = () =>
  queryOptions({
    queryKey: ['admin', 'deploy'] as const,
    queryFn: () => loadOrFail(() => adminRequest<DeployQueue>('GET', '/api/admin/deploy'), 'Failed to fetch the deploy status'),
  });

/** "Try again now": the answer is the queue after the server's one pass, shown at once. */
export const retryDeploy = (qc: QueryClient) =>
  mutationOptions({
    mutationKey: ['admin', 'deploy', 'retry'] as const,
    mutationFn: () => adminRequest<DeployQueue>('POST', '/api/admin/deploy/retry'),
    onSuccess: (status) => qc.setQueryData(deployQuery().queryKey, status),
  });

/** Why the public pages are behind the database (a rebuild failed), since when. */
export interface SiteBehind {
  message: string;
  since: string;
}

/** GET /api/admin/site-status. Keyed under the blog's list, so every change to a post
 *  (which invalidates that list) asks again. */
export const siteStatusQuery = () =>
  queryOptions({
    queryKey: ['admin', 'blogs', 'site-status'] as const,
    queryFn: () => loadOrFail(() => adminRequest<{ failure: SiteBehind | null }>('GET', '/api/admin/site-status'), 'Failed to fetch the public site status'),
  });
