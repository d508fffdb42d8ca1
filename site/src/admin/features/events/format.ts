// The words the Events screens use: kinds, statuses, seats, who was told, times in the
// event's own zone and the zones offered. No React here, so all of it is unit-tested.
import type { EventStatus, Kind, RsvpStatus } from './api';

export const KIND_LABELS: Record<Kind, string> = {
  town_hall: 'Town hall',
  petitioning_shift: 'Petitioning shift',
  meeting: 'Meeting',
  other: 'Other',
};

/** The kinds, in the order the form offers them. */
export const KINDS = Object.keys(KIND_LABELS) as Kind[];

export function kindLabel(kind: string): string {
  return KIND_LABELS[kind as Kind] ?? kind;
}

const STATUS_LABELS: Record<EventStatus, string> = { draft: 'Draft', published: 'Published', cancelled: 'Cancelled' };

export function statusLabel(status: string): string {
  return STATUS_LABELS[status as EventStatus] ?? status;
}

const RSVP_LABELS: Record<RsvpStatus, string> = { going: 'Going', waitlisted: 'Waitlisted', cancelled: 'Cancelled' };

export function rsvpStatusLabel(status: string): string {
  return RSVP_LABELS[status as RsvpStatus] ?? status;
}

/** "1 person", "1,234 people". */
export function people(n: number): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? 'person' : 'people'}`;
}

/** The seats taken: "12 of 20 going", or "12 going" with no limit. */
export function seatsText(going: number, capacity: number | null): string {
  const taken = going.toLocaleString('en-US');
  return capacity === null ? `${taken} going` : `${taken} of ${capacity.toLocaleString('en-US')} going`;
}

/** "3 waitlisted". */
export function waitlistedText(waitlisted: number): string {
  return `${waitlisted.toLocaleString('en-US')} waitlisted`;
}

/** The toast after a save: who was mailed about the change, when anyone was. */
export function savedMessage(created: boolean, notified: number): string {
  if (created) return 'Draft saved';
  if (notified <= 0) return 'Event saved';
  return `Saved. ${people(notified)} ${notified === 1 ? 'was' : 'were'} told of the change.`;
}

/** The toast after Cancel event. */
export function cancelledMessage(notified: number): string {
  if (notified <= 0) return 'Event cancelled. Nobody had replied, so nobody was mailed.';
  return `Event cancelled. ${people(notified)} ${notified === 1 ? 'was' : 'were'} told.`;
}

/** "Thursday, December 10, 2026 at 6:00 PM CST": `iso` where the event is, with the zone's
 *  short name; "" when `iso` cannot be read or `zone` is not a zone. */
export function formatInZone(iso: string, zone: string): string {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return '';
  try {
    const when = new Intl.DateTimeFormat('en-US', { timeZone: zone, dateStyle: 'full', timeStyle: 'short' }).format(then);
    return `${when} ${zoneName(then, zone)}`;
  } catch {
    return '';
  }
}

/** The zone's short name at `when` ("CST", or "GMT-10" where there is none). */
function zoneName(when: number, zone: string): string {
  const part = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'short' }).formatToParts(when).find((p) => p.type === 'timeZoneName');
  return part?.value ?? zone;
}

/** The common US zones the form offers after the party's own. */
export const COMMON_ZONES = [
  'America/New_York',
  'America/Chicago',
  'America/Denver',
  'America/Phoenix',
  'America/Los_Angeles',
  'America/Anchorage',
  'Pacific/Honolulu',
] as const;

const ZONE_NAMES: Record<string, string> = {
  'America/New_York': 'Eastern',
  'America/Chicago': 'Central',
  'America/Denver': 'Mountain',
  'America/Phoenix': 'Arizona',
  'America/Los_Angeles': 'Pacific',
  'America/Anchorage': 'Alaska',
  'Pacific/Honolulu': 'Hawaii',
};

export interface ZoneOption {
  value: string;
  label: string;
}

/** The time zones to choose from: the party's first, then the common US ones, then the
 *  event's own when it is none of those (an event saved in another zone keeps it). */
export function zoneOptions(party: string, current?: string): ZoneOption[] {
  const zones = [...new Set([party, ...COMMON_ZONES, ...(current ? [current] : [])].filter(Boolean))];
  return zones.map((zone) => {
    const name = ZONE_NAMES[zone];
    const label = name ? `${name} (${zone})` : zone;
    return { value: zone, label: zone === party ? `${label}, the party's time zone` : label };
  });
}
