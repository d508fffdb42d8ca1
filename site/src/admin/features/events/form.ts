// The event form as plain data: what it starts from, whether it changed, and the body a
// save sends. The server holds the rules (a title, an end after the start, a venue unless
// online, an https video link); the only check here is the one a body cannot carry: a
// capacity that is not a whole number.
import type { AdminEvent, EventInput, Kind } from './api';

export interface EventForm {
  title: string;
  /** The description's HTML as the editor writes it. */
  description: string;
  kind: Kind;
  /** "2026-12-10T18:00", as a date-and-time field holds it. */
  start: string;
  end: string;
  timeZone: string;
  online: boolean;
  venue: string;
  videoLink: string;
  /** As typed: empty for no limit. */
  capacity: string;
  rsvpDeadline: string;
  waitlist: boolean;
}

/** The fields of a form, as the server names them in a refusal's `field`. */
export type FormField = keyof EventForm;

export const MAX_CAPACITY = 100_000;
export const TITLE_MAX = 150;
export const CANCEL_MESSAGE_MAX = 2000;

/** A new event's form: a town hall where the party is, with a waitlist. */
export function emptyForm(timeZone: string): EventForm {
  return {
    title: '',
    description: '',
    kind: 'town_hall',
    start: '',
    end: '',
    timeZone,
    online: false,
    venue: '',
    videoLink: '',
    capacity: '',
    rsvpDeadline: '',
    waitlist: true,
  };
}

/** A wall-clock time as a date-and-time field takes it: to the minute. */
export function fieldTime(value: string | null | undefined): string {
  return value ? value.slice(0, 16) : '';
}

/** The form for a stored event; `canonical` is its description as the editor writes it back. */
export function formFromEvent(event: AdminEvent, canonical: (html: string) => string): EventForm {
  return {
    title: event.title,
    description: canonical(event.description ?? ''),
    kind: event.kind,
    start: fieldTime(event.start),
    end: fieldTime(event.end),
    timeZone: event.timeZone,
    online: event.online,
    venue: event.venue ?? '',
    videoLink: event.videoLink ?? '',
    capacity: event.capacity === null ? '' : String(event.capacity),
    rsvpDeadline: fieldTime(event.rsvpDeadline),
    waitlist: event.waitlist,
  };
}

/** Whether two forms would save the same event. */
export function sameForm(a: EventForm, b: EventForm): boolean {
  return (Object.keys(a) as FormField[]).every((key) => a[key] === b[key]);
}

export type Built = { ok: true; input: EventInput } | { ok: false; field: FormField; message: string };

/** The body of a save. Empty optional fields are null; the video link goes only with an
 *  online event (it is never public, and a place has none). */
export function buildInput(form: EventForm): Built {
  const capacity = form.capacity.trim().replaceAll(',', '');
  let seats: number | null = null;
  if (capacity !== '') {
    seats = /^\d+$/.test(capacity) ? Number(capacity) : NaN;
    if (!(seats >= 1 && seats <= MAX_CAPACITY)) {
      return { ok: false, field: 'capacity', message: 'The capacity must be a whole number from 1 to 100,000, or empty for no limit.' };
    }
  }
  return {
    ok: true,
    input: {
      title: form.title.trim(),
      description: form.description,
      kind: form.kind,
      start: form.start,
      end: form.end,
      timeZone: form.timeZone,
      venue: form.venue.trim() || null,
      online: form.online,
      videoLink: form.online ? form.videoLink.trim() || null : null,
      capacity: seats,
      rsvpDeadline: form.rsvpDeadline || null,
      waitlist: form.waitlist,
    },
  };
}

const FIELDS: FormField[] = [
  'title',
  'description',
  'kind',
  'start',
  'end',
  'timeZone',
  'online',
  'venue',
  'videoLink',
  'capacity',
  'rsvpDeadline',
  'waitlist',
];

/** The form's field a refusal names (`field` in the server's answer), if it is one. */
export function problemField(field: string | undefined): FormField | null {
  return FIELDS.includes(field as FormField) ? (field as FormField) : null;
}
