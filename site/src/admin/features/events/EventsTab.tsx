// The Events tab (events.manage): every event, newest start first, with its kind, its start
// where it happens (with the zone), its status, the seats taken and the waitlist; New event;
// and each event's actions: Edit, Attendees (events.attendees), View page, Publish (a
// draft), Cancel event (published: a message to the people coming, asked first) and Delete
// (a draft, asked first).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { toast } from '../../../lib/toast';
import { can, useMe } from '../../app/me';
import { useItemAction } from '../../app/useItemAction';
import { Card, CardList, Detail } from '../../components/Card';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { FormDialog } from '../../components/FormDialog';
import { ListStatus } from '../../components/ListStatus';
import { PanelHeader } from '../../components/PanelHeader';
import { type AdminEvent, type Changed, cancelEvent, deleteEvent, eventsQuery, publishEvent } from './api';
import { CANCEL_MESSAGE_MAX } from './form';
import { cancelledMessage, formatInZone, kindLabel, seatsText, statusLabel, waitlistedText } from './format';

const texts = {
  loading: 'Loading events...',
  error: 'Error loading events',
  empty: 'No events yet',
};

const BADGE: Record<AdminEvent['status'], string> = {
  draft: 'bg-slate-200 text-ink',
  published: 'bg-navy text-white',
  cancelled: 'bg-crimson text-white',
};

function published({ event }: Changed) {
  toast({ title: 'Event published', description: `“${event.title}” is on the website and takes RSVPs.` });
}

function deleted() {
  toast({ title: 'Draft deleted' });
}

export function EventsTab() {
  const query = useQuery(eventsQuery());
  const publish = useItemAction(publishEvent, 'Failed to publish event', published);
  const remove = useItemAction(deleteEvent, 'Failed to delete event', deleted);
  const item = (event: AdminEvent): ItemProps => ({
    event,
    publishing: publish.isPending(event.id),
    deleting: remove.isPending(event.id),
    onPublish: () => publish.run(event.id),
    onDelete: () => remove.run(event.id),
  });
  return (
    <>
      <PanelHeader title="Events">
        <Link to="/admin/events/new" className="btn btn-primary">
          New event
        </Link>
      </PanelHeader>
      <ListStatus texts={texts} isPending={query.isPending} error={query.error} items={query.data?.events}>
        {(events) => (
          <>
            {/* On a phone each event is a card; from 768 px a table. Only one of the two is
                displayed (and so in the accessibility tree). */}
            <div className="md:hidden">
              <CardList>
                {events.map((event) => (
                  <EventCard key={event.id} {...item(event)} />
                ))}
              </CardList>
            </div>
            <div className="mt-4 hidden overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm md:block">
              <table className="w-full min-w-[56rem] text-left text-sm">
                <caption className="sr-only">Events, newest start first</caption>
                <thead className="bg-slate-100 text-ink">
                  <tr>
                    {['Event', 'Starts', 'Status', 'Seats', 'Waitlist', 'Actions'].map((h) => (
                      <th key={h} scope="col" className="px-4 py-3 font-semibold">
                        {h}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-200">
                  {events.map((event) => (
                    <EventRow key={event.id} {...item(event)} />
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
      </ListStatus>
    </>
  );
}

interface ItemProps {
  event: AdminEvent;
  publishing: boolean;
  deleting: boolean;
  onPublish: () => void;
  onDelete: () => void;
}

function StatusBadge({ event }: { event: AdminEvent }) {
  return <span className={`rounded-full px-3 py-1 text-xs font-semibold whitespace-nowrap ${BADGE[event.status]}`}>{statusLabel(event.status)}</span>;
}

function Starts({ event }: { event: AdminEvent }) {
  return <time dateTime={event.startsAt}>{formatInZone(event.startsAt, event.timeZone) || event.start}</time>;
}

function Actions({ event, publishing, deleting, onPublish, onDelete }: ItemProps) {
  const { me } = useMe();
  const { title } = event;
  return (
    <div className="flex flex-wrap gap-2">
      <Link to={`/admin/events/${event.id}`} className="btn btn-outline px-3" aria-label={`Edit ${title}`}>
        Edit
      </Link>
      {can(me, 'events.attendees') && (
        <Link to={`/admin/events/${event.id}/attendees`} className="btn btn-outline px-3" aria-label={`Attendees of ${title}`}>
          Attendees
        </Link>
      )}
      {/* A draft has no page yet. */}
      {event.status !== 'draft' && (
        <a href={event.url} target="_blank" rel="noopener" className="btn btn-outline px-3" aria-label={`View the page of ${title} (opens in a new tab)`}>
          View page
        </a>
      )}
      {event.status === 'draft' && (
        <ConfirmDialog
          trigger="Publish"
          triggerLabel={`Publish ${title}`}
          title="Publish event?"
          description={`“${title}” will be on the website at once, at ${event.url}, and people can RSVP.`}
          confirm="Publish"
          onConfirm={onPublish}
          disabled={publishing}
          tone="primary"
        />
      )}
      {event.status === 'published' && <CancelEvent event={event} />}
      {event.status === 'draft' && (
        <ConfirmDialog
          trigger="Delete"
          triggerLabel={`Delete ${title}`}
          title="Delete event?"
          description={`The draft “${title}” will be deleted. This cannot be undone.`}
          confirm="Delete"
          onConfirm={onDelete}
          disabled={deleting}
        />
      )}
    </div>
  );
}

/** Cancel event: asked first, with an optional message to everyone going or waiting. */
function CancelEvent({ event }: { event: AdminEvent }) {
  const id = useId();
  const qc = useQueryClient();
  const cancel = useMutation(cancelEvent(qc));
  const [message, setMessage] = useState('');
  const count = [...message].length;
  return (
    <FormDialog
      trigger="Cancel event"
      triggerLabel={`Cancel ${event.title}`}
      triggerClassName="btn border-2 border-crimson px-3 text-crimson hover:bg-crimson hover:text-white"
      title="Cancel this event?"
      description={
        <>
          “{event.title}” will show as cancelled on its page and take no more RSVPs. Everyone going or waiting
          {event.going + event.waitlisted > 0 ? ` (${seatsText(event.going, null)}, ${waitlistedText(event.waitlisted)})` : ''} gets an e-mail saying so, with
          your message.
        </>
      }
      submit="Cancel the event"
      pending="Cancelling..."
      dismiss="Keep the event"
      ready={count <= CANCEL_MESSAGE_MAX}
      failure="The event could not be cancelled. Please try again."
      onSubmit={async () => {
        const { notified } = await cancel.mutateAsync({ id: event.id, message: message.trim() || null });
        toast({ title: cancelledMessage(notified) });
      }}
      onClosed={() => setMessage('')}
    >
      {(problem) => (
        <>
          <div className="flex items-end justify-between gap-3">
            <label htmlFor={`${id}-message`} className="field-label">
              Message to attendees <span className="font-normal text-slate-700">(optional)</span>
            </label>
            <span id={`${id}-count`} className="text-sm text-slate-700 tabular-nums">
              <span className="sr-only">Characters: </span>
              {count}/{CANCEL_MESSAGE_MAX}
            </span>
          </div>
          <textarea
            id={`${id}-message`}
            rows={4}
            maxLength={CANCEL_MESSAGE_MAX}
            value={message}
            onChange={(e) => setMessage(e.target.value)}
            aria-invalid={problem.invalid}
            aria-describedby={[`${id}-count`, problem.describedBy].filter(Boolean).join(' ')}
            placeholder="e.g. We are sorry: the hall flooded. We will write with a new date."
            className="field-input"
          />
        </>
      )}
    </FormDialog>
  );
}

function EventCard(props: ItemProps) {
  const { event } = props;
  return (
    <Card
      heading={
        <>
          <h3 className="text-lg font-semibold break-words text-ink">{event.title}</h3>
          <p className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-700">
            <StatusBadge event={event} />
            <span>{kindLabel(event.kind)}</span>
          </p>
        </>
      }
    >
      <Detail label="Starts">
        <Starts event={event} />
      </Detail>
      <Detail label="Seats">{seatsText(event.going, event.capacity)}</Detail>
      <Detail label="Waitlist">{waitlistedText(event.waitlisted)}</Detail>
      <div className="pt-2">
        <Actions {...props} />
      </div>
    </Card>
  );
}

function EventRow(props: ItemProps) {
  const { event } = props;
  return (
    <tr>
      <th scope="row" className="px-4 py-3 align-top font-normal">
        <span className="block font-semibold break-words text-ink">{event.title}</span>
        <span className="block text-slate-700">{kindLabel(event.kind)}</span>
      </th>
      <td className="px-4 py-3 align-top text-slate-700">
        <Starts event={event} />
      </td>
      <td className="px-4 py-3 align-top">
        <StatusBadge event={event} />
      </td>
      <td className="px-4 py-3 align-top whitespace-nowrap text-slate-700">{seatsText(event.going, event.capacity)}</td>
      <td className="px-4 py-3 align-top whitespace-nowrap text-slate-700">{waitlistedText(event.waitlisted)}</td>
      <td className="px-4 py-3 align-top">
        <Actions {...props} />
      </td>
    </tr>
  );
}
