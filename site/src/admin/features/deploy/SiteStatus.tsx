// The dashboard's warning when the public pages are behind the database: a rebuild failed
// (the site's bundles missing, a template broken, the disk full), so a post saved as
// published is not on the site. Shown until a rebuild succeeds; the editor's own toast
// says it at the moment of the save, this says it to everyone who opens the dashboard.
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { formatExact } from '../../components/dates';
import { siteStatusQuery } from './api';

export const PAGES_BEHIND = 'The public pages are not up to date';

export function SiteStatus() {
  const id = useId();
  const failure = useQuery(siteStatusQuery()).data?.failure;
  if (!failure) return null;
  return (
    <div role="status" aria-labelledby={`${id}-heading`} className="mt-6 rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-900">
      <h2 id={`${id}-heading`} className="font-semibold">
        {PAGES_BEHIND}
      </h2>
      <p className="mt-1 break-words">
        Changes saved since {formatExact(failure.since)} are in the database but not on the website: {failure.message}
      </p>
      <p className="mt-1">This goes away once the site is rebuilt: fix the cause, then save any post again or restart the server.</p>
    </div>
  );
}
