// One send's panel (/admin/broadcasts/:id): its counts, asked for every 2 s while it goes
// out (Queued / Sent / Failed / Excluded of Recipients), "Sent" once it is done; a retry of
// the failed ones that may still be reached; who failed or was left out, with the mail
// server's answers; and, for a send still waiting, its time with Cancel, or, for one whose
// time passed while the server was down, Send now (the count typed again) and Cancel.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { ApiError } from '../../../lib/api';
import { toast } from '../../../lib/toast';
import { isUnauthorized } from '../../app/client';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { formatExact } from '../../components/dates';
import { useFocusWhenLost } from '../../components/useFocusWhenLost';
import { type Reason, type RecipientStatus, type Summary, cancelSend, previewQuery, recipientsQuery, retrySend, sendNow, sendQuery } from './api';
import { countMatches, countsLine, people, percentDone, statusLabel } from './format';

export default function SendPage() {
  const { id = '' } = useParams();
  const n = Number(id);
  if (!Number.isInteger(n) || n <= 0) return <Problem message="There is no such send." />;
  return <Loaded id={n} />;
}

function BackLinks({ postId }: { postId?: number | null }) {
  return (
    <p className="flex flex-wrap gap-4">
      <Link to="/admin/dashboard?tab=blogs" className="text-navy underline underline-offset-2">
        Back to Blogs
      </Link>
      {postId && (
        <Link to={`/admin/blog/${postId}/mail`} className="text-navy underline underline-offset-2">
          This post&apos;s sends
        </Link>
      )}
    </p>
  );
}

function Problem({ message }: { message: string }) {
  return (
    <div className="py-6">
      <BackLinks />
      <div role="alert" className="mt-4 rounded-lg border border-crimson/40 bg-crimson/5 p-4 text-crimson-dark">
        {message}
      </div>
    </div>
  );
}

function Loaded({ id }: { id: number }) {
  const query = useQuery(sendQuery(id));
  if (query.isPending) {
    return (
      <p role="status" className="py-10 text-center text-slate-700">
        Loading the send...
      </p>
    );
  }
  if (query.error) return <Problem message={query.error instanceof ApiError ? query.error.message : 'The send could not be loaded.'} />;
  return <Panel send={query.data} />;
}

const BADGE: Record<Summary['status'], string> = {
  scheduled: 'bg-gold text-ink',
  sending: 'bg-navy/10 text-navy',
  sent: 'bg-navy text-white',
  missed: 'bg-crimson text-white',
  cancelled: 'bg-slate-200 text-ink',
};

function Panel({ send: s }: { send: Summary }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useFocusWhenLost(heading);
  const waiting = s.status === 'scheduled' || s.status === 'missed';
  return (
    <div>
      <BackLinks postId={s.postId} />
      <h1 ref={heading} tabIndex={-1} className="mt-4 font-serif text-3xl font-bold break-words text-navy focus:outline-none">
        “{s.subject}”{s.again && <span className="text-xl font-normal text-slate-700"> (again, to those it missed)</span>}
      </h1>
      <p className="mt-1 text-sm text-slate-700">
        Started {formatExact(s.createdAt)}
        {s.createdBy && ` by ${s.createdBy}`}
        {s.finishedAt && ` · finished ${formatExact(s.finishedAt)}`}
      </p>

      {/* The status, in words (never colour alone), as a live region: it changes a few times
          a send, so a screen reader hears "Sending", then "Sent". */}
      <div role="status" aria-live="polite" className="mt-6 flex flex-wrap items-center gap-3">
        <span className={`rounded-full px-3 py-1 text-sm font-semibold ${BADGE[s.status]}`}>
          <span className="sr-only">Status: </span>
          {statusLabel(s.status)}
        </span>
        {s.status === 'scheduled' && s.scheduledFor && <span>Scheduled for {formatExact(s.scheduledFor)}</span>}
        {s.status === 'missed' && <span>{s.scheduledFor ? `Was due ${formatExact(s.scheduledFor)}: ` : ''}missed, send now?</span>}
      </div>

      {!waiting && s.status !== 'cancelled' && <Counts send={s} />}

      {s.retryable > 0 && <Retry send={s} />}

      {waiting && (
        <div className="mt-6 flex flex-wrap items-end gap-6">
          <SendNow send={s} />
          <CancelButton send={s} />
        </div>
      )}

      {(s.failed > 0 || s.excluded > 0) && (
        <div className="mt-8 space-y-4">
          {s.failed > 0 && <Recipients id={s.id} status="failed" count={s.failed} />}
          {s.excluded > 0 && <Recipients id={s.id} status="excluded" count={s.excluded} />}
        </div>
      )}
    </div>
  );
}

function Counts({ send: s }: { send: Summary }) {
  const id = useId();
  const rows: [string, number][] = [
    ['Queued', s.queued],
    ['Sent', s.sent],
    ['Failed', s.failed],
    ['Excluded', s.excluded],
  ];
  return (
    <section aria-labelledby={`${id}-counts`} className="mt-6 rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <h2 id={`${id}-counts`} className="font-serif text-xl font-bold text-navy">
        Counts
      </h2>
      <label htmlFor={`${id}-progress`} className="mt-3 block text-sm text-slate-700">
        {percentDone(s)}% done
      </label>
      <progress id={`${id}-progress`} className="mt-1 h-3 w-full" max={Math.max(s.recipients, 1)} value={s.recipients - s.queued} />
      <dl className="mt-4 grid grid-cols-2 gap-4 sm:grid-cols-5">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt className="text-sm text-slate-700">{label}</dt>
            <dd className="text-2xl font-bold text-ink" data-count={label.toLowerCase()}>
              {value}
            </dd>
          </div>
        ))}
        <div>
          <dt className="text-sm text-slate-700">of Recipients</dt>
          <dd className="text-2xl font-bold text-ink">{s.recipients}</dd>
        </div>
      </dl>
      {/* The counts change every 2 s while sending: said once the send is over, not each time. */}
      <p className="sr-only" aria-live="polite">
        {s.status === 'sending' ? '' : countsLine(s)}
      </p>
    </section>
  );
}

function Retry({ send: s }: { send: Summary }) {
  const qc = useQueryClient();
  const retry = useMutation(retrySend(qc));
  const run = async () => {
    try {
      await retry.mutateAsync(s.id);
      toast({ title: 'Retrying', description: `${people(s.retryable)} queued again.` });
    } catch (error) {
      if (isUnauthorized(error)) return;
      toast({ variant: 'destructive', title: 'Failed to retry', description: error instanceof ApiError ? error.message : undefined });
    }
  };
  return (
    <div className="mt-6">
      <button type="button" className="btn btn-primary" onClick={() => void run()} disabled={retry.isPending}>
        {retry.isPending ? 'Retrying...' : `Retry the remaining ${s.retryable}`}
      </button>
    </div>
  );
}

function SendNow({ send: s }: { send: Summary }) {
  const id = useId();
  const qc = useQueryClient();
  const [typed, setTyped] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const preview = useQuery({ ...previewQuery({ postId: s.postId ?? 0, subject: s.subject, again: s.again }), enabled: !!s.postId });
  const now = useMutation(sendNow(qc));
  const recipients = preview.data?.recipients;
  const ready = recipients !== undefined && countMatches(typed, recipients);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!ready || recipients === undefined) return;
    setProblem(null);
    try {
      await now.mutateAsync({ id: s.id, confirm: recipients });
      toast({ title: 'Sending started', description: `To ${people(recipients)}.` });
    } catch (error) {
      if (isUnauthorized(error)) return;
      setProblem(error instanceof ApiError ? error.message : 'The send could not be started. Please try again.');
    }
  };
  return (
    <form onSubmit={submit} noValidate className="min-w-64">
      <p className="font-semibold text-ink">{recipients === undefined ? 'Counting the recipients...' : `This will go to ${people(recipients)}.`}</p>
      {preview.error && (
        <p role="alert" className="mt-1 text-sm font-semibold text-crimson-dark">
          {preview.error instanceof ApiError ? preview.error.message : 'The recipients could not be counted.'}
        </p>
      )}
      {recipients !== undefined && recipients > 0 && (
        <>
          <label htmlFor={`${id}-confirm`} className="field-label mt-3">
            Type {recipients} to confirm
          </label>
          <input
            id={`${id}-confirm`}
            className="field-input"
            inputMode="numeric"
            autoComplete="off"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            aria-describedby={problem ? `${id}-problem` : undefined}
          />
        </>
      )}
      <p id={`${id}-problem`} role="alert" className="mt-2 min-h-5 text-sm font-semibold text-crimson-dark">
        {problem}
      </p>
      <button type="submit" className="btn btn-primary mt-2" disabled={!ready || now.isPending}>
        {now.isPending ? 'Sending...' : 'Send now'}
      </button>
    </form>
  );
}

function CancelButton({ send: s }: { send: Summary }) {
  const qc = useQueryClient();
  const cancel = useMutation(cancelSend(qc));
  return (
    <ConfirmDialog
      trigger="Cancel the send"
      triggerLabel={`Cancel the send of “${s.subject}”`}
      title="Cancel this send?"
      description={`“${s.subject}” will not be mailed${s.scheduledFor ? ` on ${formatExact(s.scheduledFor)}` : ''}. You can start a new send later.`}
      confirm="Cancel the send"
      disabled={cancel.isPending}
      onConfirm={() =>
        cancel.mutate(s.id, {
          onSuccess: () => toast({ title: 'Send cancelled' }),
          onError: (error) => {
            if (!isUnauthorized(error))
              toast({ variant: 'destructive', title: 'Failed to cancel', description: error instanceof ApiError ? error.message : undefined });
          },
        })
      }
    />
  );
}

const TITLES: Record<'failed' | 'excluded', string> = { failed: 'Failed recipients', excluded: 'Excluded recipients' };

function Recipients({ id, status, count }: { id: number; status: 'failed' | 'excluded'; count: number }) {
  const region = useId();
  const [open, setOpen] = useState(false);
  const query = useQuery({ ...recipientsQuery(id, status as RecipientStatus), enabled: open });
  return (
    <section className="rounded-xl border border-slate-200 bg-white p-4">
      <h2 className="text-lg font-semibold text-ink">
        <button
          type="button"
          aria-expanded={open}
          aria-controls={region}
          onClick={() => setOpen(!open)}
          className="inline-flex min-h-11 items-center gap-2 text-left text-navy underline underline-offset-2"
        >
          {open ? 'Hide' : 'Show'} {TITLES[status].toLowerCase()} ({count})
        </button>
      </h2>
      <div id={region} hidden={!open}>
        {open &&
          (query.isPending ? (
            <p role="status" className="mt-2 text-slate-700">
              Loading...
            </p>
          ) : query.error ? (
            <p role="alert" className="mt-2 text-crimson-dark">
              {query.error instanceof ApiError ? query.error.message : 'The list could not be loaded.'}
            </p>
          ) : query.data.addressesHidden ? (
            <Reasons reasons={query.data.reasons ?? []} title={TITLES[status]} />
          ) : (
            <div className="mt-2 overflow-x-auto">
              <table className="w-full min-w-[32rem] text-left text-sm">
                <caption className="sr-only">{TITLES[status]}</caption>
                <thead className="bg-slate-100 text-ink">
                  <tr>
                    <th scope="col" className="px-3 py-2 font-semibold">
                      E-mail
                    </th>
                    <th scope="col" className="px-3 py-2 font-semibold">
                      Attempts
                    </th>
                    <th scope="col" className="px-3 py-2 font-semibold">
                      Answer
                    </th>
                    <th scope="col" className="px-3 py-2 font-semibold">
                      When
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-200">
                  {query.data.recipients.map((r) => (
                    <tr key={r.email}>
                      <th scope="row" className="px-3 py-2 font-normal break-all">
                        {r.email}
                      </th>
                      <td className="px-3 py-2">{r.attempts}</td>
                      <td className="px-3 py-2 break-words">{r.answer ?? '—'}</td>
                      <td className="px-3 py-2">{r.doneAt ? formatExact(r.doneAt) : '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ))}
      </div>
    </section>
  );
}

/** What a role that may mail the list but not read it (an Editor) sees: how many got each
 *  answer, never who (the list is for roles that may see the newsletter's subscribers). */
function Reasons({ reasons, title }: { reasons: Reason[]; title: string }) {
  return (
    <div className="mt-2">
      <p className="text-sm text-slate-700">Your role sees how many, not who: the addresses are for staff who may see the newsletter list.</p>
      <table className="mt-2 w-full text-left text-sm">
        <caption className="sr-only">{title}, by answer</caption>
        <thead className="bg-slate-100 text-ink">
          <tr>
            <th scope="col" className="px-3 py-2 font-semibold">
              Answer
            </th>
            <th scope="col" className="px-3 py-2 font-semibold">
              Recipients
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">
          {reasons.map((r) => (
            <tr key={r.answer ?? ''}>
              <th scope="row" className="px-3 py-2 font-normal break-words">
                {r.answer ?? '—'}
              </th>
              <td className="px-3 py-2">{r.count}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
