// The dashboard's warning when the public site's copy in the deploy bucket (DEPLOY_URL, for a
// CDN) falls behind: a copy failed and is being retried, so visitors of the CDN still see
// the old pages. Staff would otherwise not know that a post they published is not out there.
// Nothing shows without a bucket, nor while copies are merely in flight.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { ApiError } from '../../../lib/api';
import { toast } from '../../../lib/toast';
import { isUnauthorized } from '../../app/client';
import { formatExact } from '../../components/dates';
import { type DeployFailing, deployQuery, retryDeploy } from './api';

export const BEHIND = "The public site's copy is behind";
export const UP_TO_DATE = "The public site's copy is up to date";

/** "3 changed files are waiting to reach s3://bucket. Copying blog/index.html failed 2 times:
 *  … Next try: January 5, 2025 at 9:03 AM." */
export function behindLine(waiting: number, target: string, failing: DeployFailing): string {
  const files = waiting === 1 ? '1 changed file is' : `${waiting} changed files are`;
  const times = failing.attempts === 1 ? '1 time' : `${failing.attempts} times`;
  return (
    `${files} waiting to reach ${target}. Copying ${failing.path} failed ${times}: ${failing.lastError}. ` + `Next try: ${formatExact(failing.nextAttemptAt)}.`
  );
}

export function DeployStatus() {
  const id = useId();
  const qc = useQueryClient();
  const data = useQuery(deployQuery()).data;
  const retry = useMutation(retryDeploy(qc));
  if (!data?.target || !data.failing) return null;

  const tryAgain = async () => {
    // aria-disabled rather than disabled while it runs: the button keeps the focus.
    if (retry.isPending) return;
    try {
      const status = await retry.mutateAsync();
      if (!status.failing) toast({ title: UP_TO_DATE });
    } catch (error) {
      if (!isUnauthorized(error))
        toast({ variant: 'destructive', title: 'Could not try again', description: error instanceof ApiError ? error.message : undefined });
    }
  };

  return (
    <div role="status" aria-labelledby={`${id}-heading`} className="mt-6 rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-900">
      <h2 id={`${id}-heading`} className="font-semibold">
        {BEHIND}
      </h2>
      <p className="mt-1 break-words">{behindLine(data.waiting, data.target, data.failing)}</p>
      <button
        type="button"
        className="btn btn-outline mt-3 aria-disabled:cursor-not-allowed aria-disabled:opacity-70"
        aria-disabled={retry.isPending || undefined}
        onClick={() => void tryAgain()}
      >
        {retry.isPending ? 'Trying again...' : 'Try again now'}
      </button>
    </div>
  );
}
