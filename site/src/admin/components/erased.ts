// What an erasure did, as the server answers it and as staff are told it: shared by the
// dashboard's "Erase a person" (by address) and a person's page (every address of theirs).

/** What the server did (POST /api/admin/erase, POST /api/admin/people/{id}/erase). */
export interface Erased {
  contacts: number;
  volunteers: number;
  newsletters: number;
  /** RSVPs to events (the seats they held went to whoever waited). */
  rsvps: number;
  donationsRedacted: number;
  donationsKept: number;
  donationsInProgress: number;
  /** Something outside the database (their saved card at Stripe) could not go yet. */
  warning?: string;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The toast's sentence for what was done. */
export function describeErasure(e: Erased): string {
  const removed = [
    plural(e.contacts, 'message', 'messages'),
    plural(e.volunteers, 'volunteer signup', 'volunteer signups'),
    plural(e.newsletters, 'newsletter signup', 'newsletter signups'),
  ].join(', ');
  const parts = [`Deleted ${removed}.`];
  if (e.rsvps) parts.push(`Cancelled and deleted ${plural(e.rsvps, 'event RSVP', 'event RSVPs')}.`);
  if (e.donationsRedacted) parts.push(`Removed the details of ${plural(e.donationsRedacted, 'unpaid gift', 'unpaid gifts')}.`);
  if (e.donationsKept) parts.push(`Kept ${plural(e.donationsKept, 'completed gift', 'completed gifts')}, as federal law requires.`);
  if (e.donationsInProgress) parts.push(`${plural(e.donationsInProgress, 'gift is', 'gifts are')} still being paid: erase again in 15 minutes.`);
  if (e.warning) parts.push(e.warning);
  return parts.join(' ');
}
