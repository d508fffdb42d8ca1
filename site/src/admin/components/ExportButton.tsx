import { useState } from 'react';
import { ApiError } from '../../lib/api';
import { toast } from '../../lib/toast';
import { adminDownload, isUnauthorized } from '../app/client';

/** Downloads the server's CSV export of a list, under the server's file name. With nothing
 *  in the list there is nothing to export: the button is disabled, and says so if it is
 *  pressed all the same. */
export async function exportList(url: string, count: number, fallbackName: string): Promise<void> {
  if (count === 0) {
    toast({ title: 'No data to export' });
    return;
  }
  try {
    await adminDownload(url, fallbackName);
  } catch (error) {
    if (isUnauthorized(error)) return; // the session is over; the sign-in card says so
    toast({
      variant: 'destructive',
      title: 'Export failed',
      description: error instanceof ApiError ? error.message : 'The file could not be downloaded. Please try again.',
    });
  }
}

export function ExportButton({ url, count, name }: { url: string; count: number; name: string }) {
  const [pending, setPending] = useState(false);
  return (
    <button
      type="button"
      className="btn btn-outline"
      disabled={count === 0 || pending}
      onClick={async () => {
        setPending(true);
        await exportList(url, count, name);
        setPending(false);
      }}
    >
      <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor">
        <path d="M10.75 2.75a.75.75 0 0 0-1.5 0v8.614L6.295 8.235a.75.75 0 1 0-1.09 1.03l4.25 4.5a.75.75 0 0 0 1.09 0l4.25-4.5a.75.75 0 0 0-1.09-1.03l-2.955 3.129V2.75Z" />
        <path d="M3.5 12.75a.75.75 0 0 0-1.5 0v2.5A2.75 2.75 0 0 0 4.75 18h10.5A2.75 2.75 0 0 0 18 15.25v-2.5a.75.75 0 0 0-1.5 0v2.5c0 .69-.56 1.25-1.25 1.25H4.75c-.69 0-1.25-.56-1.25-1.25v-2.5Z" />
      </svg>
      Export to CSV
    </button>
  );
}
