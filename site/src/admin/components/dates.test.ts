import { describe, expect, it } from 'vitest';
import { formatDay, formatExact, formatRelative } from './dates';

describe('formatRelative', () => {
  const now = Date.parse('2025-06-15T12:00:00Z');
  const ago = (seconds: number) => new Date(now - seconds * 1000).toISOString();

  it('says how long ago in the largest unit that fits', () => {
    expect(formatRelative(ago(5), now)).toBe('5 seconds ago');
    expect(formatRelative(ago(60), now)).toBe('1 minute ago');
    expect(formatRelative(ago(59 * 60), now)).toBe('59 minutes ago');
    expect(formatRelative(ago(3 * 3600 + 59), now)).toBe('3 hours ago');
    expect(formatRelative(ago(24 * 3600), now)).toBe('1 day ago');
    expect(formatRelative(ago(6 * 86400), now)).toBe('6 days ago');
    expect(formatRelative(ago(14 * 86400), now)).toBe('2 weeks ago');
    expect(formatRelative(ago(45 * 86400), now)).toBe('1 month ago');
    expect(formatRelative(ago(400 * 86400), now)).toBe('1 year ago');
    expect(formatRelative(ago(3 * 366 * 86400), now)).toBe('3 years ago');
  });
  it('counts a time slightly ahead as now and gives nothing for garbage', () => {
    expect(formatRelative(ago(-30), now)).toBe('0 seconds ago');
    expect(formatRelative('not a date', now)).toBe('');
  });
});

describe('formatExact and formatDay', () => {
  it('write out the date', () => {
    expect(formatDay('2025-01-05T15:30:00Z')).toBe('January 5, 2025');
    expect(formatExact('2025-01-05T15:30:00Z')).toMatch(/^January 5, 2025 at \d{1,2}:30 [AP]M$/);
    expect(formatDay('nope')).toBe('');
  });
});
