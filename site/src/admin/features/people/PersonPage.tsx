// One person's page (/admin/person/:id): what they told us, the latest first with every
// earlier value kept; one timeline of what they did and what we sent them; their merges
// (each can be undone); and the data request's two answers, export and erase.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useStore } from 'zustand';
import { useId, useRef, useState } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { ApiError } from '../../../lib/api';
import { toast } from '../../../lib/toast';
import { adminRequest, isUnauthorized } from '../../app/client';
import { sessionStore } from '../../app/session';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { formatExact } from '../../components/dates';
import { type Erased, describeErasure } from '../../components/erased';
import { exportList } from '../../components/ExportButton';
import { EmailField } from '../../components/EmailField';
import { FormDialog } from '../../components/FormDialog';
import { formatAmount } from '../../components/money';
import { useFocusWhenLost } from '../../components/useFocusWhenLost';
import { type Given, type Person, type PeoplePage, mergePeople, personExportUrl, personQuery, undoMerge } from './api';

export default function PersonPage() {
  const token = useStore(sessionStore, (s) => s.token);
  const { id = '' } = useParams();
  if (!token) return <Navigate to="/admin" replace />;
  const n = Number(id);
  if (!Number.isInteger(n) || n <= 0) return <NotFound />;
  return <Loaded id={n} />;
}

function NotFound() {
  return (
    <div className="py-10">
      <p role="alert" className="text-slate-700">
        There is no such person.
      </p>
      <BackLink />
    </div>
  );
}

function BackLink() {
  return (
    <Link to="/admin/dashboard?tab=people" className="text-navy underline underline-offset-2">
      Back to People
    </Link>
  );
}

function Loaded({ id }: { id: number }) {
  const query = useQuery(personQuery(id));
  if (query.isPending) {
    return (
      <p role="status" className="py-10 text-center text-slate-700">
        Loading this person...
      </p>
    );
  }
  if (query.error) {
    if (query.error.cause instanceof ApiError && query.error.cause.status === 404) return <NotFound />;
    return (
      <div role="alert" className="rounded-lg border border-crimson/40 bg-crimson/5 p-4 text-crimson-dark">
        {query.error.message}
      </div>
    );
  }
  return <PersonView person={query.data} />;
}

function PersonView({ person: p }: { person: Person }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useFocusWhenLost(heading);
  const name = p.names[0]?.value ?? p.emails[0] ?? `Person ${p.id}`;
  return (
    <div>
      <BackLink />
      <h1 ref={heading} tabIndex={-1} className="mt-4 font-serif text-3xl font-bold text-navy focus:outline-none">
        {name}
      </h1>
      <p className="mt-1 break-words text-slate-700">{p.emails.join(', ') || 'No e-mail address left'}</p>
      {p.mergedInto !== null ? (
        <p role="note" className="mt-4 rounded-lg bg-slate-100 p-4">
          Merged into{' '}
          <Link to={`/admin/person/${p.mergedInto}`} className="text-navy underline underline-offset-2">
            another person
          </Link>
          , whose page has everything.
        </p>
      ) : (
        <div className="mt-4 flex flex-wrap gap-3">
          <MergeInto person={p} name={name} />
          <button type="button" className="btn btn-outline" onClick={() => exportList(personExportUrl(p.id), 1, `person-${p.id}.json`)}>
            Export everything held
          </button>
          <EraseWhole person={p} name={name} />
        </div>
      )}

      <section aria-labelledby="details" className="mt-8">
        <h2 id="details" className="font-serif text-2xl font-bold text-navy">
          What they told us
        </h2>
        <dl className="mt-3 grid gap-4 sm:grid-cols-2">
          <Field label="Name" values={p.names} />
          <Field label="Phone" values={p.phones} />
          <Field label="ZIP code" values={p.zipCodes} />
          <Field label="Address" values={p.addresses} />
        </dl>
      </section>

      {p.merges.length > 0 && <Merges person={p} />}

      <section aria-labelledby="timeline" className="mt-8">
        <h2 id="timeline" className="font-serif text-2xl font-bold text-navy">
          Timeline
        </h2>
        {p.timeline.length === 0 ? (
          <p className="mt-3 text-slate-700">Nothing yet.</p>
        ) : (
          <ol className="mt-3 space-y-3">
            {p.timeline.map((e, i) => (
              <li key={`${e.at}-${i}`} className="rounded-lg border border-slate-200 bg-white p-4">
                <p className="text-sm text-slate-700">
                  <time dateTime={e.at}>{formatExact(e.at)}</time>
                </p>
                <p className="font-semibold text-ink">
                  {e.title}
                  {e.amount && <span>: {formatAmount(e.amount)}</span>}
                </p>
                {e.detail && <p className="mt-1 break-words whitespace-pre-line text-slate-700">{e.detail}</p>}
              </li>
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}

/** The latest value, then every earlier one with where it came from. */
function Field({ label, values }: { label: string; values: Given[] }) {
  const [latest, ...earlier] = values;
  return (
    <div>
      <dt className="font-semibold text-ink">{label}</dt>
      <dd className="text-slate-700">{latest ? latest.value : 'Not given'}</dd>
      {earlier.length > 0 && (
        <dd>
          <details className="mt-1 text-sm text-slate-700">
            <summary className="cursor-pointer text-navy">Earlier ({earlier.length})</summary>
            <ul className="mt-1 list-disc pl-5">
              {earlier.map((g, i) => (
                <li key={`${g.source}-${i}`}>
                  {g.value} ({g.source}, {formatExact(g.at)})
                </li>
              ))}
            </ul>
          </details>
        </dd>
      )}
    </div>
  );
}

function Merges({ person: p }: { person: Person }) {
  const qc = useQueryClient();
  const undo = useMutation(undoMerge(qc));
  return (
    <section aria-labelledby="merges" className="mt-8">
      <h2 id="merges" className="font-serif text-2xl font-bold text-navy">
        Merges
      </h2>
      <ul className="mt-3 space-y-3">
        {p.merges.map((m) => (
          <li key={m.id} className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-slate-200 bg-white p-4">
            <p className="text-slate-700">
              {m.intoId === p.id ? `Merged in ${m.emails.join(', ')}` : `Merged into person ${m.intoId}`} on {formatExact(m.mergedAt)}
              {m.undoneAt && `; undone on ${formatExact(m.undoneAt)}`}
            </p>
            {!m.undoneAt && m.intoId === p.id && (
              <ConfirmDialog
                trigger="Undo"
                triggerLabel={`Undo the merge of ${m.emails.join(', ')}`}
                title="Undo this merge"
                description={`${m.emails.join(', ')} will be a person of their own again, exactly as before the merge.`}
                confirm="Undo the merge"
                tone="primary"
                disabled={undo.isPending}
                onConfirm={async () => {
                  try {
                    await undo.mutateAsync(m.id);
                    toast({ title: 'Merge undone' });
                  } catch (error) {
                    if (!isUnauthorized(error)) {
                      toast({ variant: 'destructive', title: 'Could not undo', description: error instanceof ApiError ? error.message : 'Please try again.' });
                    }
                  }
                }}
              />
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Merge another person, named by one of their e-mail addresses, into this one. */
function MergeInto({ person: p, name }: { person: Person; name: string }) {
  const id = useId();
  const qc = useQueryClient();
  const merge = useMutation(mergePeople(qc));
  const [email, setEmail] = useState('');
  return (
    <FormDialog
      trigger="Merge another person in"
      title={`Merge into ${name}`}
      description="Everything the other person sent us joins this page. Nothing is deleted, their consent to mail and texts stays as it was, and the merge can be undone."
      submit="Merge"
      pending="Merging..."
      ready={email.trim() !== ''}
      failure="The merge failed. Please try again."
      onSubmit={async () => {
        const wanted = email.trim().toLowerCase();
        const found = await adminRequest<PeoplePage>('GET', `/api/admin/people?${new URLSearchParams({ q: wanted })}`);
        const other = found.people.find((row) => row.emails.includes(wanted));
        if (!other) throw new ApiError(404, 'No one has that e-mail address.');
        await merge.mutateAsync({ id: p.id, other: other.id });
        toast({ title: 'Merged', description: `${wanted} is now part of ${name}.` });
      }}
      onClosed={() => setEmail('')}
    >
      {(problem) => <EmailField id={`${id}-email`} label="The other person's e-mail address" value={email} onChange={setEmail} problem={problem} />}
    </FormDialog>
  );
}

function EraseWhole({ person: p, name }: { person: Person; name: string }) {
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);
  return (
    <ConfirmDialog
      trigger="Erase this person"
      triggerLabel={`Erase ${name}`}
      title={`Erase ${name}`}
      description={`Every address of theirs (${p.emails.join(', ')}) is forgotten: messages, signups and consent records deleted, unpaid gifts stripped of details, and the addresses kept only as unreadable hashes so no list mails them. Completed gifts stay, as federal law requires. This cannot be undone.`}
      confirm="Erase"
      disabled={pending}
      onConfirm={async () => {
        setPending(true);
        try {
          const erased = await adminRequest<Erased>('POST', `/api/admin/people/${p.id}/erase`);
          toast({ title: 'Person erased', description: describeErasure(erased) });
          // Their page is gone: it is not asked for again (a 404) on the way out.
          navigate('/admin/dashboard?tab=people');
          qc.removeQueries({ queryKey: ['admin', 'people', 'person', p.id] });
          await qc.invalidateQueries({ queryKey: ['admin'], predicate: (q) => q.queryKey[2] !== 'person' });
        } catch (error) {
          if (!isUnauthorized(error)) {
            toast({ variant: 'destructive', title: 'Failed to erase', description: error instanceof ApiError ? error.message : 'Please try again.' });
          }
        } finally {
          setPending(false);
        }
      }}
    />
  );
}
