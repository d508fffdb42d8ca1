// The dashboard's warning when the site could not deliver mail (a receipt, a staff alert, a
// confirmation) in the last 7 days: staff would otherwise not know that a donor never got
// their receipt. Nothing shows while all is well.
import { useQuery } from '@tanstack/react-query';
import { mailQuery } from './api';

export function failureLine(failed: number): string {
  return failed === 1 ? '1 message could not be delivered in the last 7 days.' : `${failed} messages could not be delivered in the last 7 days.`;
}

export function MailFailures() {
  const data = useQuery(mailQuery()).data;
  if (!data || data.failedLastWeek === 0) return null;
  const failed = data.messages.filter((m) => m.status === 'failed');
  return (
    <div role="status" className="mt-6 rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-900">
      <p>
        <span className="font-semibold">Mail problem:</span> {failureLine(data.failedLastWeek)} Check the SMTP settings (see docs/mail.md).
      </p>
      {failed.length > 0 && (
        <details className="mt-2">
          <summary className="cursor-pointer font-semibold">Which messages</summary>
          <ul className="mt-2 list-disc pl-5">
            {failed.map((m) => (
              <li key={m.id} className="break-words">
                {m.subject} to {m.to}
                {m.lastError && `: ${m.lastError}`}
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}
