// /admin/events/{id}/attendees (events.attendees): who replied to an event, with the seats
// taken of its capacity and the waitlist, a filter by status, the CSV export, and, once the
// event has started, who came (Attended, No-show, or not marked).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { ApiError } from '../../../lib/api';
import { toast } from '../../../lib/toast';
import { isUnauthorized } from '../../app/client';
import { can, useMe } from '../../app/me';
import { ExportButton } from '../../components/ExportButton';
import { Field } from '../../components/Field';
import { ListStatus } from '../../components/ListStatus';
import { useFocusWhenLost } from '../../components/useFocusWhenLost';
import { type AdminEvent, type Rsvp, type RsvpList, type RsvpStatus, eventQuery, markAttended, rsvpsExportUrl, rsvpsQuery } from './api';
import { type Filter, FILTERS, attendanceValue, filterRsvps, filterLabel, shownLine } from './attendees';
import { formatInZone, kindLabel, rsvpStatusLabel, seatsText, statusLabel, waitlistedText } from './format';

const BACK = '/admin/dashboard?tab=events';

const texts = {
  loading: 'Loading the RSVPs...',
  error: 'Error loading the RSVPs',
  empty: 'No RSVPs yet',
};

export default function AttendeesPage() {
  const { id = '' } = useParams();
  if (!/^[1-9]\d{0,15}$/.test(id)) return <NotFound />;
  return <Loaded key={id} id={Number(id)} />;
}

function NotFound() {
  const heading = useRef<HTMLHeadingElement>(null);
  useFocusWhenLost(heading);
  return (
    <div>
      <h1 ref={heading} tabIndex={-1} className="font-serif text-3xl font-bold text-navy focus:outline-none sm:text-4xl">
        Event not found
      </h1>
      <p className="mt-4 text-slate-700">There is no such event. It may have been deleted.</p>
      <Link to={BACK} className="btn btn-primary mt-6">
        Back to Events
      </Link>
    </div>
  );
}

function isMissing(error: unknown): boolean {
  const cause = error instanceof Error && error.cause instanceof ApiError ? error.cause : error;
  return cause instanceof ApiError && (cause.status === 404 || cause.status === 400);
}

function Loaded({ id }: { id: number }) {
  const { me } = useMe();
  // The event itself (its title, and whether it has started) is events.manage's; a role
  // with only the attendee list sees the list, and the server says when marking is early.
  const manages = can(me, 'events.manage');
  const event = useQuery({ ...eventQuery(id), enabled: manages });
  const rsvps = useQuery(rsvpsQuery(id));
  if (isMissing(event.error) || isMissing(rsvps.error)) return <NotFound />;
  if (manages && event.isPending) {
    return (
      <p role="status" className="py-10 text-center text-slate-700">
        Loading the event...
      </p>
    );
  }
  return <Attendees id={id} event={event.data ?? null} query={rsvps} />;
}

interface Props {
  id: number;
  event: AdminEvent | null;
  query: { isPending: boolean; error: Error | null; data: RsvpList | undefined };
}

function Attendees({ id, event, query }: Props) {
  const ids = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  useFocusWhenLost(heading);
  const [filter, setFilter] = useState<Filter>('all');
  const list = query.data;
  // Without the event (a role that only sees attendees) the server decides when it is early.
  const started = event ? event.started : true;
  const when = event ? formatInZone(event.startsAt, event.timeZone) : '';
  const explanation = `${ids}-attendance`;

  return (
    <div>
      <Link to={BACK} className="text-navy underline underline-offset-2">
        Back to Events
      </Link>
      <h1 ref={heading} tabIndex={-1} className="mt-4 font-serif text-3xl font-bold break-words text-navy focus:outline-none">
        {event ? `Attendees: ${event.title}` : 'Attendees'}
      </h1>
      {event && (
        <p className="mt-1 text-slate-700">
          {kindLabel(event.kind)} · <time dateTime={event.startsAt}>{when}</time> · {statusLabel(event.status)}
        </p>
      )}

      {list && (
        <dl className="mt-6 grid max-w-xl grid-cols-2 gap-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
          <div>
            <dt className="text-sm text-slate-700">Seats taken</dt>
            <dd className="text-xl font-bold text-ink">{seatsText(list.going, list.capacity)}</dd>
          </div>
          <div>
            <dt className="text-sm text-slate-700">Waitlist</dt>
            <dd className="text-xl font-bold text-ink">{waitlistedText(list.waitlisted)}</dd>
          </div>
        </dl>
      )}

      <p id={explanation} className="mt-6 max-w-prose text-slate-700">
        {started
          ? 'Mark who came: Attended or No-show, for each RSVP. It is kept with the RSVP and in the export.'
          : `Attendance can be marked once the event has started${when ? ` (${when})` : ''}.`}
      </p>

      <div className="mt-6 flex flex-wrap items-end justify-between gap-4">
        <div className="w-full max-w-xs">
          <Field label="Show" htmlFor={`${ids}-filter`}>
            <select id={`${ids}-filter`} className="field-input" value={filter} onChange={(e) => setFilter(e.target.value as Filter)}>
              {FILTERS.map((f) => (
                <option key={f} value={f}>
                  {filterLabel(f, list?.rsvps ?? [])}
                </option>
              ))}
            </select>
          </Field>
        </div>
        <ExportButton url={rsvpsExportUrl(id)} count={list?.rsvps.length ?? 0} name={`event-${id}-rsvps.csv`} />
      </div>
      <p role="status" className="mt-3 text-sm text-slate-700">
        {list ? shownLine(filterRsvps(list.rsvps, filter).length, list.rsvps.length) : ''}
      </p>

      <ListStatus texts={texts} isPending={query.isPending} error={query.error} items={list?.rsvps}>
        {(rsvps) => {
          const shown = filterRsvps(rsvps, filter);
          if (shown.length === 0) return <p className="py-10 text-center text-slate-700">No RSVPs are {rsvpStatusLabel(filter).toLowerCase()}.</p>;
          return (
            <div className="mt-2 overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
              <table className="w-full min-w-[52rem] text-left text-sm">
                <caption className="sr-only">RSVPs{event ? ` to ${event.title}` : ''}</caption>
                <thead className="bg-slate-100 text-ink">
                  <tr>
                    {['Name', 'E-mail', 'ZIP', 'Phone', 'Guests', 'Status', 'Attended'].map((h) => (
                      <th key={h} scope="col" className="px-4 py-3 font-semibold">
                        {h}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-200">
                  {shown.map((rsvp) => (
                    <Row key={rsvp.id} eventId={id} rsvp={rsvp} started={started} explanation={explanation} />
                  ))}
                </tbody>
              </table>
            </div>
          );
        }}
      </ListStatus>
    </div>
  );
}

const BADGE: Record<RsvpStatus, string> = {
  going: 'bg-navy text-white',
  waitlisted: 'bg-gold text-ink',
  cancelled: 'bg-slate-200 text-ink',
};

function Row({ eventId, rsvp: r, started, explanation }: { eventId: number; rsvp: Rsvp; started: boolean; explanation: string }) {
  const id = useId();
  const qc = useQueryClient();
  const mark = useMutation(markAttended(qc));
  const change = (value: string) =>
    mark.mutate(
      { eventId, rsvpId: r.id, attended: value === 'yes' ? true : value === 'no' ? false : null },
      {
        onError: (error) => {
          if (!isUnauthorized(error))
            toast({ variant: 'destructive', title: 'Failed to mark attendance', description: error instanceof ApiError ? error.message : undefined });
        },
      },
    );
  return (
    <tr>
      <th scope="row" className="px-4 py-3 font-semibold break-words text-ink">
        {r.name}
      </th>
      <td className="px-4 py-3 break-all">
        <a href={`mailto:${r.email}`} className="text-navy underline underline-offset-2">
          {r.email}
        </a>
      </td>
      <td className="px-4 py-3">{r.zipCode}</td>
      <td className="px-4 py-3 whitespace-nowrap">{r.phone ?? '—'}</td>
      <td className="px-4 py-3">{r.guests}</td>
      <td className="px-4 py-3">
        <span className={`rounded-full px-3 py-1 text-xs font-semibold ${BADGE[r.status] ?? BADGE.cancelled}`}>{rsvpStatusLabel(r.status)}</span>
      </td>
      <td className="px-4 py-3">
        <label htmlFor={`${id}-attended`} className="sr-only">
          Attendance of {r.name}
        </label>
        <select
          id={`${id}-attended`}
          className="field-input mt-0 min-w-36 py-1.5 text-sm"
          value={attendanceValue(r.attended)}
          disabled={!started || mark.isPending}
          aria-describedby={explanation}
          onChange={(e) => change(e.target.value)}
        >
          <option value="">Not marked</option>
          <option value="yes">Attended</option>
          <option value="no">No-show</option>
        </select>
      </td>
    </tr>
  );
}
