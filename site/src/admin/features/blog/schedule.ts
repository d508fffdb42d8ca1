// Times of scheduled posts in the party's time zone (content/site.yaml, carried by the admin
// shell's data-time-zone), whatever zone the staff member's computer is in: a post set for
// 9:30 goes live at 9:30 where the party is, and the screens say so with the zone's name.

/** The party's time zone, from the admin shell (UTC when it is missing). */
export function partyTimeZone(): string {
  return document.getElementById('admin-root')?.dataset.timeZone || 'UTC';
}

/** `iso` as the value of a date-and-time field in `zone`: "2026-12-01T09:30". */
export function localInputValue(iso: string | number, zone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(new Date(iso))
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

/** "December 1, 2026 at 9:30 AM CST" in `zone`, or "" when `iso` cannot be read. */
export function formatInZone(iso: string, zone: string): string {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return '';
  return new Intl.DateTimeFormat('en-US', { timeZone: zone, dateStyle: 'long', timeStyle: 'short' }).format(then) + ` ${zoneName(then, zone)}`;
}

/** The zone's short name at `when` ("CST", or "GMT-6" where there is none). */
function zoneName(when: number, zone: string): string {
  const part = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'short' }).formatToParts(when).find((p) => p.type === 'timeZoneName');
  return part?.value ?? zone;
}
