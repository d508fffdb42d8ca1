// Events (docs/events.md, "Admin API"): the list and one event (events.manage), a save that
// makes a draft or changes one, publish, cancel with a message to the people coming, delete
// (drafts only), and the RSVPs with their attendance and export (events.attendees). Every
// query is owned here; the mutations refresh the keys they change and leave the failure's
// words to the caller.
import { type QueryClient, mutationOptions, queryOptions } from '@tanstack/react-query';
import { adminRequest, loadOrFail } from '../../app/client';

export type Kind = 'town_hall' | 'petitioning_shift' | 'meeting' | 'other';
export type EventStatus = 'draft' | 'published' | 'cancelled';
export type RsvpStatus = 'going' | 'waitlisted' | 'cancelled';

/** What a save sends. Times are wall-clock ("2026-12-10T18:00") in `timeZone`. */
export interface EventInput {
  title: string;
  /** HTML from the blog's editor. */
  description: string;
  kind: Kind;
  start: string;
  end: string;
  timeZone: string;
  venue: string | null;
  online: boolean;
  /** https:// only; only for online events; never public. */
  videoLink: string | null;
  capacity: number | null;
  rsvpDeadline: string | null;
  waitlist: boolean;
}

export interface AdminEvent extends EventInput {
  id: number;
  slug: string;
  /** "/events/{slug}" */
  url: string;
  status: EventStatus;
  /** The start and end as instants (RFC 3339, UTC). */
  startsAt: string;
  endsAt: string;
  /** The start has passed: attendance can be marked. */
  started: boolean;
  cancelMessage: string | null;
  /** Seats taken (people, guests included). */
  going: number;
  /** RSVPs waiting for a seat. */
  waitlisted: number;
  updatedAt: string;
}

/** What a change answers: the event, and how many people were mailed about it. */
export interface Changed {
  event: AdminEvent;
  notified: number;
}

export interface EventList {
  events: AdminEvent[];
  /** The party's time zone: a new event's default. */
  timeZone: string;
}

export interface Rsvp {
  id: number;
  name: string;
  email: string;
  zipCode: string;
  phone: string | null;
  guests: number;
  status: RsvpStatus;
  /** null: not marked. */
  attended: boolean | null;
  createdAt: string;
}

export interface RsvpList {
  rsvps: Rsvp[];
  /** Seats taken. */
  going: number;
  waitlisted: number;
  capacity: number | null;
}

export const eventsQuery = () =>
  queryOptions({
    queryKey: ['admin', 'events'] as const,
    queryFn: () => loadOrFail(() => adminRequest<EventList>('GET', '/api/admin/events', undefined, { 'Cache-Control': 'no-cache' }), 'Failed to fetch events'),
  });

/** One event, for its form and its attendees. Not kept once left (`gcTime: 0`): every
 *  visit loads the event as it is now. */
export const eventQuery = (id: number) =>
  queryOptions({
    queryKey: ['admin', 'event', id] as const,
    queryFn: () => adminRequest<AdminEvent>('GET', `/api/admin/events/${id}`),
    gcTime: 0,
  });

/** An event's RSVPs, each time the attendee list opens. */
export const rsvpsQuery = (eventId: number) =>
  queryOptions({
    queryKey: ['admin', 'event', eventId, 'rsvps'] as const,
    queryFn: () => loadOrFail(() => adminRequest<RsvpList>('GET', `/api/admin/events/${eventId}/rsvps`), 'Failed to fetch the RSVPs'),
    gcTime: 0,
    staleTime: 0,
  });

export const rsvpsExportUrl = (eventId: number) => `/api/admin/events/${eventId}/rsvps/export`;

/** The event as a change left it: kept for its page, and the list asked for again. */
function changed(qc: QueryClient, { event }: Changed) {
  qc.setQueryData(eventQuery(event.id).queryKey, event);
  return qc.invalidateQueries({ queryKey: eventsQuery().queryKey });
}

/** Creates a draft (`id` null) or saves the changes to event `id`. */
export const saveEvent = (qc: QueryClient) =>
  mutationOptions({
    mutationKey: ['admin', 'events', 'save'] as const,
    mutationFn: ({ id, input }: { id: number | null; input: EventInput }) =>
      id === null ? adminRequest<Changed>('POST', '/api/admin/events', input) : adminRequest<Changed>('PUT', `/api/admin/events/${id}`, input),
    onSuccess: (answer) => changed(qc, answer),
  });

export const publishEvent = (qc: QueryClient) =>
  mutationOptions({
    mutationKey: ['admin', 'events', 'publish'] as const,
    mutationFn: (id: number) => adminRequest<Changed>('POST', `/api/admin/events/${id}/publish`),
    onSuccess: (answer) => changed(qc, answer),
  });

/** Cancels event `id`; everyone going or waiting is mailed, with `message` when given. */
export const cancelEvent = (qc: QueryClient) =>
  mutationOptions({
    mutationKey: ['admin', 'events', 'cancel'] as const,
    mutationFn: ({ id, message }: { id: number; message: string | null }) =>
      adminRequest<Changed>('POST', `/api/admin/events/${id}/cancel`, message ? { message } : {}),
    onSuccess: (answer) => changed(qc, answer),
  });

/** Deletes draft `id` (the server refuses any other with a 409). */
export const deleteEvent = (qc: QueryClient) =>
  mutationOptions({
    mutationKey: ['admin', 'events', 'delete'] as const,
    mutationFn: (id: number) => adminRequest('DELETE', `/api/admin/events/${id}`),
    onSuccess: () => qc.invalidateQueries({ queryKey: eventsQuery().queryKey }),
  });

/** Marks RSVP `rsvpId` attended (true), a no-show (false) or not marked (null); the list
 *  keeps the RSVP the server answers (the counts do not change). */
export const markAttended = (qc: QueryClient) =>
  mutationOptions({
    mutationKey: ['admin', 'events', 'attended'] as const,
    mutationFn: ({ eventId, rsvpId, attended }: { eventId: number; rsvpId: number; attended: boolean | null }) =>
      adminRequest<Rsvp>('PUT', `/api/admin/events/${eventId}/rsvps/${rsvpId}/attended`, { attended }),
    onSuccess: (rsvp, { eventId }) => {
      qc.setQueryData(rsvpsQuery(eventId).queryKey, (list) => list && { ...list, rsvps: list.rsvps.map((r) => (r.id === rsvp.id ? rsvp : r)) });
    },
  });

/** Uploads an image in an event's description, through the blog's upload (the same
 *  editor, the same /uploads/ addresses); a role that does not write posts is refused. */
export async function uploadEventImage(file: File): Promise<string> {
  const body = new FormData();
  body.append('image', file);
  return (await adminRequest<{ url: string }>('POST', '/api/admin/events/upload-image', body)).url;
}
