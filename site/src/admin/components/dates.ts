// Dates as the admin screens show them: how long ago, the exact time, the day.

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'always' });

/** The largest unit that fits, smallest first: [unit, how many seconds it lasts]. */
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 7],
  ['week', 4.348_214_3],
  ['month', 12],
];

/** How long ago `iso` was, as "3 hours ago". A time a little in the future (another clock
 *  running ahead) counts as now; an unreadable one gives "". */
export function formatRelative(iso: string, now: number = Date.now()): string {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return '';
  let amount = Math.max(0, (now - then) / 1000);
  for (const [unit, size] of UNITS) {
    if (amount < size) return relative.format(-Math.floor(amount), unit);
    amount /= size;
  }
  return relative.format(-Math.floor(amount), 'year');
}

const exact = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeStyle: 'short' });
const day = new Intl.DateTimeFormat('en-US', { dateStyle: 'long' });

/** "January 5, 2025 at 9:03 AM" in the viewer's time zone, or "" when unreadable. */
export function formatExact(iso: string): string {
  const then = Date.parse(iso);
  return Number.isNaN(then) ? '' : exact.format(then);
}

/** "January 5, 2025", or "" when unreadable. */
export function formatDay(iso: string): string {
  const then = Date.parse(iso);
  return Number.isNaN(then) ? '' : day.format(then);
}
