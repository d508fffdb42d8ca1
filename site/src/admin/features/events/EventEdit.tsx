// /admin/events/new and /admin/events/{id}: an event's form (events.manage). The
// description is written in the blog's editor; the times are wall-clock times in the time
// zone chosen beside them (the party's unless staff choose another). Save makes a draft
// (POST) or saves the changes (PUT); the server's refusal is shown beside the Save button,
// on the field it names, and nothing typed is lost. A change of time or place to a
// published event mails everyone going or waiting, and the toast says how many.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useCallback, useId, useLayoutEffect, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError, failureText } from '../../../lib/api';
import { toast } from '../../../lib/toast';
import { canonicalHtml, RichTextEditor } from '../../../editor';
import { isUnauthorized } from '../../app/client';
import { Field } from '../../components/Field';
import { LeaveGuard } from '../../components/LeaveGuard';
import { useFocusWhenLost } from '../../components/useFocusWhenLost';
import { type AdminEvent, type Kind, eventQuery, eventsQuery, saveEvent, uploadEventImage } from './api';
import { type EventForm, type FormField, TITLE_MAX, buildInput, emptyForm, formFromEvent, problemField, sameForm } from './form';
import { KINDS, KIND_LABELS, savedMessage, statusLabel, zoneOptions } from './format';

const BACK = '/admin/dashboard?tab=events';

/** The party's time zone as the admin shell carries it (content/site.yaml), for when the
 *  list, which says it too, could not be loaded. */
function shellTimeZone(): string {
  return document.getElementById('admin-root')?.dataset.timeZone || 'UTC';
}

export default function EventEdit() {
  const { id = '' } = useParams();
  if (id === 'new') return <NewEvent />;
  // Only whole numbers name events; anything else is as missing as a deleted one.
  if (!/^[1-9]\d{0,15}$/.test(id)) return <NotFound />;
  return <ExistingEvent key={id} id={Number(id)} />;
}

/** The party's zone: from the list's answer (loaded already when coming from the tab). */
function usePartyZone(): { zone: string | undefined; pending: boolean } {
  const list = useQuery(eventsQuery());
  if (list.isPending) return { zone: undefined, pending: true };
  return { zone: list.data?.timeZone || shellTimeZone(), pending: false };
}

function NewEvent() {
  const party = usePartyZone();
  if (party.pending || !party.zone) return <Loading />;
  return <EventEditor event={null} partyZone={party.zone} />;
}

function ExistingEvent({ id }: { id: number }) {
  const query = useQuery(eventQuery(id));
  const party = usePartyZone();
  if (query.isPending || party.pending || !party.zone) return <Loading />;
  if (query.isError) {
    const error = query.error;
    if (error instanceof ApiError && (error.status === 404 || error.status === 400)) return <NotFound />;
    return (
      <Problem title="Error loading the event">
        {error instanceof ApiError ? error.message : 'The event could not be loaded. Please check your connection and try again.'}
      </Problem>
    );
  }
  return <EventEditor event={query.data} partyZone={party.zone} />;
}

function Loading() {
  return (
    <p role="status" className="py-10 text-center text-slate-700">
      Loading the event...
    </p>
  );
}

function NotFound() {
  return <Problem title="Event not found">There is no such event. It may have been deleted.</Problem>;
}

function Problem({ title, children }: { title: string; children: string }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useFocusWhenLost(heading);
  return (
    <div>
      <h1 ref={heading} tabIndex={-1} className="font-serif text-3xl font-bold text-navy focus:outline-none sm:text-4xl">
        {title}
      </h1>
      <p className="mt-4 text-slate-700">{children}</p>
      <Link to={BACK} className="btn btn-primary mt-6">
        Back to Events
      </Link>
    </div>
  );
}

interface Refusal {
  message: string;
  field: FormField | null;
}

function EventEditor({ event, partyZone }: { event: AdminEvent | null; partyZone: string }) {
  const ids = useId();
  const field = (name: string) => `${ids}-${name}`;
  const heading = useRef<HTMLHeadingElement>(null);
  useFocusWhenLost(heading);
  const navigate = useNavigate();
  const qc = useQueryClient();
  const save = useMutation(saveEvent(qc));

  const [baseline] = useState<EventForm>(() => (event ? formFromEvent(event, canonicalHtml) : emptyForm(partyZone)));
  const [form, setForm] = useState<EventForm>(baseline);
  const formRef = useRef(form);
  useLayoutEffect(() => {
    formRef.current = form;
  });
  // Set once saved, so the leave guard lets the page go to the list.
  const saved = useRef(false);
  const isDirty = useCallback(() => !saved.current && !sameForm(formRef.current, baseline), [baseline]);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const update = <K extends keyof EventForm>(key: K, value: EventForm[K]) => setForm((f) => ({ ...f, [key]: value }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (save.isPending) return;
    setRefusal(null);
    const built = buildInput(form);
    if (!built.ok) {
      setRefusal({ message: built.message, field: built.field });
      document.getElementById(field(built.field))?.focus();
      return;
    }
    try {
      const answer = await save.mutateAsync({ id: event?.id ?? null, input: built.input });
      saved.current = true;
      toast({ title: savedMessage(event === null, answer.notified) });
      void navigate(BACK);
    } catch (error) {
      // A lapsed session is the session's business: the sign-in card says so.
      if (isUnauthorized(error)) return;
      const named = error instanceof ApiError ? problemField(error.field) : null;
      setRefusal({ message: failureText(error, 'The event could not be saved. Please check your connection and try again.'), field: named });
    }
  };

  /** What a control needs to point at the refusal, when the refusal names it. */
  const problem = (name: FormField, describedBy?: string) => {
    const on = refusal?.field === name;
    const described = [describedBy, on ? field('problem') : undefined].filter(Boolean).join(' ');
    return { 'aria-invalid': on ? true : undefined, 'aria-describedby': described || undefined };
  };

  const zones = zoneOptions(partyZone, form.timeZone);
  const published = event?.status === 'published';
  // The people coming were told it is off: a cancelled event is kept as it was.
  const cancelled = event?.status === 'cancelled';

  return (
    <div>
      <Link to={BACK} className="btn btn-outline">
        Back to Events
      </Link>
      <h1 ref={heading} tabIndex={-1} className="mt-6 font-serif text-3xl font-bold text-navy focus:outline-none sm:text-4xl">
        {event ? 'Edit event' : 'New event'}
      </h1>
      {event && (
        <p className="mt-2 text-slate-700">
          {statusLabel(event.status)}
          {event.status !== 'draft' && (
            <>
              {' · '}
              <a href={event.url} target="_blank" rel="noopener" className="text-navy underline underline-offset-2">
                View page<span className="sr-only"> (opens in a new tab)</span>
              </a>
            </>
          )}
        </p>
      )}
      {!event && <p className="mt-2 text-slate-700">Saved as a draft: nobody sees it until you publish it from the Events list.</p>}

      <form onSubmit={submit} noValidate className="mt-8 space-y-6">
        <Field label="Title" htmlFor={field('title')} counter={<Count id={field('title-count')} value={form.title} max={TITLE_MAX} />}>
          <input
            id={field('title')}
            className="field-input"
            value={form.title}
            maxLength={TITLE_MAX}
            placeholder="e.g. Town hall in Springfield"
            aria-required
            onChange={(e) => update('title', e.target.value)}
            {...problem('title', field('title-count'))}
          />
        </Field>

        <div>
          {/* The text area is a contenteditable, which a <label> cannot point at. */}
          <div id={field('description-label')} className="field-label mb-1" onClick={() => document.getElementById(field('description'))?.focus()}>
            Description
          </div>
          <RichTextEditor
            id={field('description')}
            labelledBy={field('description-label')}
            describedBy={field('description-help')}
            initialHtml={form.description}
            uploadImage={uploadEventImage}
            placeholder="Describe the event…"
            onChange={(html) => update('description', html)}
          />
          <p id={field('description-help')} className="mt-1 text-sm text-slate-700">
            What the event&apos;s page says: what happens, who it is for, what to bring.
          </p>
        </div>

        <Field label="Kind" htmlFor={field('kind')}>
          <select id={field('kind')} className="field-input" value={form.kind} onChange={(e) => update('kind', e.target.value as Kind)} {...problem('kind')}>
            {KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {KIND_LABELS[kind]}
              </option>
            ))}
          </select>
        </Field>

        <fieldset className="space-y-4">
          <legend className="font-serif text-xl font-bold text-navy">When</legend>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Start" htmlFor={field('start')}>
              <input
                id={field('start')}
                type="datetime-local"
                className="field-input"
                value={form.start}
                aria-required
                onChange={(e) => update('start', e.target.value)}
                {...problem('start', field('zone-help'))}
              />
            </Field>
            <Field label="End" htmlFor={field('end')}>
              <input
                id={field('end')}
                type="datetime-local"
                className="field-input"
                value={form.end}
                aria-required
                onChange={(e) => update('end', e.target.value)}
                {...problem('end', field('zone-help'))}
              />
            </Field>
          </div>
          <Field label="Time zone" htmlFor={field('timeZone')}>
            <select
              id={field('timeZone')}
              className="field-input"
              value={form.timeZone}
              onChange={(e) => update('timeZone', e.target.value)}
              {...problem('timeZone', field('zone-help'))}
            >
              {zones.map((zone) => (
                <option key={zone.value} value={zone.value}>
                  {zone.label}
                </option>
              ))}
            </select>
            <p id={field('zone-help')} className="mt-1 text-sm text-slate-700">
              The start, the end and the RSVP deadline are times where the event is, in this time zone.
            </p>
          </Field>
        </fieldset>

        <fieldset className="space-y-4">
          <legend className="font-serif text-xl font-bold text-navy">Where</legend>
          <Check id={field('online')} label="Online event" checked={form.online} onChange={(v) => update('online', v)}>
            People join by video; the link is sent only to those who RSVP.
          </Check>
          <Field label="Venue address" hint={form.online ? '(optional for an online event)' : undefined} htmlFor={field('venue')}>
            <input
              id={field('venue')}
              className="field-input"
              value={form.venue}
              maxLength={300}
              autoComplete="off"
              placeholder="e.g. 12 Elm Street, Springfield, IL 62701"
              aria-required={!form.online}
              onChange={(e) => update('venue', e.target.value)}
              {...problem('venue')}
            />
          </Field>
          {form.online && (
            <Field label="Private video link" htmlFor={field('videoLink')}>
              <input
                id={field('videoLink')}
                type="url"
                className="field-input"
                value={form.videoLink}
                maxLength={500}
                autoComplete="off"
                placeholder="https://"
                onChange={(e) => update('videoLink', e.target.value)}
                {...problem('videoLink', field('videoLink-help'))}
              />
              <p id={field('videoLink-help')} className="mt-1 text-sm text-slate-700">
                Private: it is only sent to attendees, by e-mail, and never shown on the event&apos;s page. It must start with https://.
              </p>
            </Field>
          )}
        </fieldset>

        <fieldset className="space-y-4">
          <legend className="font-serif text-xl font-bold text-navy">RSVPs</legend>
          <Field label="Capacity" hint="(optional)" htmlFor={field('capacity')}>
            <input
              id={field('capacity')}
              className="field-input sm:max-w-xs"
              inputMode="numeric"
              autoComplete="off"
              value={form.capacity}
              onChange={(e) => update('capacity', e.target.value)}
              {...problem('capacity', field('capacity-help'))}
            />
            <p id={field('capacity-help')} className="mt-1 text-sm text-slate-700">
              The most people who can come, guests included. Leave it empty for no limit.
            </p>
          </Field>
          <Field label="RSVP deadline" hint="(optional)" htmlFor={field('rsvpDeadline')}>
            <input
              id={field('rsvpDeadline')}
              type="datetime-local"
              className="field-input sm:max-w-xs"
              value={form.rsvpDeadline}
              onChange={(e) => update('rsvpDeadline', e.target.value)}
              {...problem('rsvpDeadline', field('deadline-help'))}
            />
            <p id={field('deadline-help')} className="mt-1 text-sm text-slate-700">
              RSVPs close at this time (in the event&apos;s time zone), before the start. Leave it empty to take them until the start.
            </p>
          </Field>
          <Check id={field('waitlist')} label="Keep a waitlist when full" checked={form.waitlist} onChange={(v) => update('waitlist', v)}>
            When the seats are gone, new RSVPs wait in line and move up, earliest first, as seats free.
          </Check>
        </fieldset>

        <div className="border-t border-slate-200 pt-6">
          {published && <p className="mb-3 text-slate-700">This event is published: a change of its time or place is e-mailed to everyone going or waiting.</p>}
          {cancelled && <p className="mb-3 text-slate-700">This event was cancelled and the people coming were told, so it can no longer be changed.</p>}
          <p id={field('problem')} role="alert" className="min-h-5 font-semibold text-crimson-dark">
            {refusal?.message}
          </p>
          <button type="submit" className="btn btn-primary mt-3" disabled={save.isPending || cancelled}>
            {save.isPending ? 'Saving...' : event ? 'Save changes' : 'Save draft'}
          </button>
        </div>
      </form>

      <LeaveGuard
        description="This event has changes that are not saved. If you leave now, they are lost."
        isDirty={isDirty}
        dirty={!sameForm(form, baseline)}
      />
    </div>
  );
}

/** "12/150", for the title. */
function Count({ id, value, max }: { id: string; value: string; max: number }) {
  return (
    <span id={id} className="text-sm text-slate-700 tabular-nums">
      <span className="sr-only">Characters: </span>
      {[...value].length}/{max}
    </span>
  );
}

/** A checkbox with its label and a line saying what it does. */
function Check({
  id,
  label,
  checked,
  onChange,
  children,
}: {
  id: string;
  label: string;
  checked: boolean;
  onChange: (v: boolean) => void;
  children: ReactNode;
}) {
  return (
    <div className="flex items-start gap-3">
      <input id={id} type="checkbox" className="consent-box" checked={checked} aria-describedby={`${id}-help`} onChange={(e) => onChange(e.target.checked)} />
      <div>
        <label htmlFor={id} className="text-sm font-semibold text-ink">
          {label}
        </label>
        <p id={`${id}-help`} className="text-sm text-slate-700">
          {children}
        </p>
      </div>
    </div>
  );
}
