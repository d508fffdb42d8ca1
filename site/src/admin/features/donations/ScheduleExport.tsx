// The treasurer's export: for the report's dates, Schedule A (contributions, Line 11(a)(i))
// and Schedule B (refunds, Line 28(a)), each as CSV or in the FEC's .fec format. Files come
// from the server under its names, through the signed-in download.
import { type FormEvent, useId, useState } from 'react';
import { ApiError } from '../../../lib/api';
import { toast } from '../../../lib/toast';
import { adminDownload, isUnauthorized } from '../../app/client';
import { scheduleUrl } from './api';

const FILES = [
  { schedule: 'a', format: 'csv', label: 'Schedule A (CSV)' },
  { schedule: 'a', format: 'fec', label: 'Schedule A (.fec)' },
  { schedule: 'b', format: 'csv', label: 'Schedule B (CSV)' },
  { schedule: 'b', format: 'fec', label: 'Schedule B (.fec)' },
] as const;

/** The first day of this month and today, as YYYY-MM-DD in the viewer's calendar. */
function thisMonth(now = new Date()): [string, string] {
  const day = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  return [day(new Date(now.getFullYear(), now.getMonth(), 1)), day(now)];
}

export function ScheduleExport() {
  const id = useId();
  const [first, last] = thisMonth();
  const [from, setFrom] = useState(first);
  const [to, setTo] = useState(last);
  const [pending, setPending] = useState(false);

  const download = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const button = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    const [schedule, format] = (button?.value ?? 'a-csv').split('-') as ['a' | 'b', 'csv' | 'fec'];
    setPending(true);
    try {
      await adminDownload(scheduleUrl(schedule, from, to, format), `schedule-${schedule}.${format}`);
    } catch (error) {
      if (!isUnauthorized(error)) {
        toast({ variant: 'destructive', title: 'Export failed', description: error instanceof ApiError ? error.message : 'The file could not be downloaded.' });
      }
    } finally {
      setPending(false);
    }
  };

  return (
    <details className="mt-4 rounded-lg border border-slate-200 bg-white p-4 text-sm">
      <summary className="cursor-pointer font-semibold text-navy">Treasurer's export (FEC Schedules A and B)</summary>
      <form onSubmit={download} className="mt-3 flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor={`${id}-from`} className="field-label">
            From
          </label>
          <input id={`${id}-from`} type="date" required value={from} max={to} onChange={(e) => setFrom(e.target.value)} className="field-input" />
        </div>
        <div>
          <label htmlFor={`${id}-to`} className="field-label">
            To
          </label>
          <input id={`${id}-to`} type="date" required value={to} min={from} onChange={(e) => setTo(e.target.value)} className="field-input" />
        </div>
        {FILES.map((f) => (
          <button
            key={`${f.schedule}-${f.format}`}
            type="submit"
            name="file"
            value={`${f.schedule}-${f.format}`}
            className="btn btn-outline px-3"
            disabled={pending}
          >
            {f.label}
          </button>
        ))}
      </form>
      <p className="mt-2 text-slate-700">
        Both ends included. The CSV lists every gift or refund with whether it must be itemized; the .fec file holds the itemized ones for your filing software.
      </p>
    </details>
  );
}
