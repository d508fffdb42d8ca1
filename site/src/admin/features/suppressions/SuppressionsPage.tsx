// The suppression list (/admin/suppressions): search, every entry with why, when and by
// whom, an Add form, and Lift (asked first) for a mistaken entry. Loaded lazily.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../../../lib/api';
import { toast } from '../../../lib/toast';
import { isUnauthorized } from '../../app/client';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { formatExact } from '../../components/dates';
import { Field } from '../../components/Field';
import { ListStatus } from '../../components/ListStatus';
import { RelativeTime } from '../../components/RelativeTime';
import { useDebounced } from '../../components/useDebounced';
import { useFocusWhenLost } from '../../components/useFocusWhenLost';
import { type AddInput, type Entry, REASON_LABELS, addSuppression, liftSuppression, suppressionsQuery } from './api';

const texts = {
  loading: 'Loading the suppression list...',
  error: 'Error loading the suppression list',
  empty: 'No address is on the suppression list',
};

export default function SuppressionsPage() {
  const id = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  useFocusWhenLost(heading);
  const [search, setSearch] = useState('');
  const q = useDebounced(search.trim(), 300);
  const query = useQuery(suppressionsQuery(q));
  const total = query.data?.total;
  const shown = query.data?.entries.length;
  return (
    <div>
      <Link to="/admin/dashboard" className="text-navy underline underline-offset-2">
        Back to Admin
      </Link>
      <h1 ref={heading} tabIndex={-1} className="mt-4 font-serif text-3xl font-bold text-navy focus:outline-none">
        Suppression list
      </h1>
      <p className="mt-2 max-w-prose text-slate-700">
        No list mail goes to these addresses: they bounced, complained, unsubscribed or were added by staff. Receipts and other messages a person asked for
        still go.
      </p>

      <AddForm />

      <div className="mt-8 max-w-md">
        <Field label="Search addresses" htmlFor={`${id}-q`}>
          <input id={`${id}-q`} type="search" className="field-input" value={search} onChange={(e) => setSearch(e.target.value)} />
        </Field>
      </div>
      <p role="status" className="mt-3 text-sm text-slate-700">
        {total === undefined ? '' : q ? `${shown} of ${total} shown` : `${total} ${total === 1 ? 'address' : 'addresses'}`}
      </p>
      <ListStatus texts={texts} isPending={query.isPending} error={query.error} items={query.data?.entries}>
        {(entries) => (
          <div className="mt-2 overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
            <table className="w-full min-w-[44rem] text-left text-sm">
              <caption className="sr-only">Suppressed addresses</caption>
              <thead className="bg-slate-100 text-ink">
                <tr>
                  {['E-mail', 'Reason', 'Detail', 'Added', 'By', 'Actions'].map((h) => (
                    <th key={h} scope="col" className="px-4 py-3 font-semibold">
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-200">
                {entries.map((e) => (
                  <Row key={e.email} entry={e} />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </ListStatus>
    </div>
  );
}

function Row({ entry: e }: { entry: Entry }) {
  const qc = useQueryClient();
  const lift = useMutation(liftSuppression(qc));
  return (
    <tr>
      <th scope="row" className="px-4 py-3 font-semibold break-all text-ink">
        {e.email}
      </th>
      <td className="px-4 py-3">{REASON_LABELS[e.reason] ?? e.reason}</td>
      <td className="px-4 py-3 break-words text-slate-700">{e.detail ?? '—'}</td>
      <td className="px-4 py-3 text-slate-700">
        <RelativeTime iso={e.createdAt} />
      </td>
      <td className="px-4 py-3 text-slate-700">{e.addedBy ?? '—'}</td>
      <td className="px-4 py-3">
        <ConfirmDialog
          trigger="Lift"
          triggerLabel={`Lift ${e.email}`}
          title="Lift the suppression?"
          description={`List mail will go to ${e.email} again if they are on the list (${REASON_LABELS[e.reason] ?? e.reason}, ${formatExact(e.createdAt)}). Lift only a mistaken entry.`}
          confirm="Lift"
          disabled={lift.isPending}
          onConfirm={() =>
            lift.mutate(e.email, {
              onSuccess: () => toast({ title: `${e.email} taken off the suppression list` }),
              onError: (error) => {
                if (!isUnauthorized(error))
                  toast({ variant: 'destructive', title: 'Failed to lift', description: error instanceof ApiError ? error.message : undefined });
              },
            })
          }
        />
      </td>
    </tr>
  );
}

function AddForm() {
  const id = useId();
  const qc = useQueryClient();
  const add = useMutation(addSuppression(qc));
  const [email, setEmail] = useState('');
  const [reason, setReason] = useState<AddInput['reason']>('staff');
  const [detail, setDetail] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const emailInput = useRef<HTMLInputElement>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    const address = email.trim();
    if (!address) {
      setProblem('Enter an e-mail address.');
      emailInput.current?.focus();
      return;
    }
    try {
      const { added } = await add.mutateAsync({ email: address, reason, detail: detail.trim() || undefined });
      toast({ title: added ? `${address} added to the suppression list` : `${address} was already on the suppression list` });
      setEmail('');
      setDetail('');
      setReason('staff');
      emailInput.current?.focus();
    } catch (error) {
      if (isUnauthorized(error)) return;
      setProblem(error instanceof ApiError ? error.message : 'The address could not be added. Please try again.');
      emailInput.current?.focus();
    }
  };

  return (
    <section aria-labelledby={`${id}-add`} className="mt-6 rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <h2 id={`${id}-add`} className="font-serif text-xl font-bold text-navy">
        Add an address
      </h2>
      <form onSubmit={submit} noValidate className="mt-3 grid gap-4 sm:grid-cols-3">
        <Field label="E-mail" htmlFor={`${id}-email`}>
          <input
            ref={emailInput}
            id={`${id}-email`}
            type="email"
            autoComplete="off"
            className="field-input"
            value={email}
            maxLength={254}
            onChange={(e) => setEmail(e.target.value)}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? `${id}-problem` : undefined}
          />
        </Field>
        <Field label="Reason" htmlFor={`${id}-reason`}>
          <select id={`${id}-reason`} className="field-input" value={reason} onChange={(e) => setReason(e.target.value as AddInput['reason'])}>
            <option value="staff">Staff (the person asked)</option>
            <option value="complained">Complained</option>
          </select>
        </Field>
        <Field label="Detail" hint="(optional)" htmlFor={`${id}-detail`}>
          <input id={`${id}-detail`} className="field-input" value={detail} maxLength={500} onChange={(e) => setDetail(e.target.value)} />
        </Field>
        <div className="sm:col-span-3">
          <p id={`${id}-problem`} role="alert" className="min-h-5 text-sm font-semibold text-crimson-dark">
            {problem}
          </p>
          <button type="submit" className="btn btn-primary mt-2" disabled={add.isPending}>
            {add.isPending ? 'Adding...' : 'Add'}
          </button>
        </div>
      </form>
    </section>
  );
}
