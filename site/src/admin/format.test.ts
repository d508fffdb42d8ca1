import { describe, expect, it } from 'vitest';
import { DEFAULT_SORT, formatAmount, formatDay, formatExact, formatPurpose, formatRelative, nextSort, statusBadge } from './format';

describe('formatPurpose', () => {
  it('turns snake-case words into capitalised words', () => {
    expect(formatPurpose('general_party_use')).toBe('General Party Use');
    expect(formatPurpose('primary_election')).toBe('Primary Election');
    expect(formatPurpose('legal_proceedings')).toBe('Legal Proceedings');
  });
  it('copes with odd input', () => {
    expect(formatPurpose('')).toBe('');
    expect(formatPurpose('_nominating__convention_')).toBe('Nominating Convention');
    expect(formatPurpose('PARTY_headquarters')).toBe('Party Headquarters');
  });
});

describe('formatAmount', () => {
  it('shows dollars with two decimals and thousands separators', () => {
    expect(formatAmount('25.00')).toBe('$25.00');
    expect(formatAmount('1250.5')).toBe('$1,250.50');
    expect(formatAmount('41300')).toBe('$41,300.00');
  });
  it('shows what it cannot read as sent', () => {
    expect(formatAmount('n/a')).toBe('n/a');
    expect(formatAmount('')).toBe('');
  });
});

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

describe('statusBadge', () => {
  it('styles completed plainly, pending as secondary and anything else as a failure', () => {
    expect(statusBadge('completed')).toBe('default');
    expect(statusBadge('pending')).toBe('secondary');
    expect(statusBadge('failed')).toBe('destructive');
    expect(statusBadge('canceled')).toBe('destructive');
    expect(statusBadge('')).toBe('destructive');
  });
});

describe('nextSort', () => {
  it('starts at date, newest first', () => {
    expect(DEFAULT_SORT).toEqual({ sortBy: 'date', sortOrder: 'desc' });
  });
  it('reverses the order when the active key is pressed again', () => {
    expect(nextSort(DEFAULT_SORT, 'date')).toEqual({ sortBy: 'date', sortOrder: 'asc' });
    expect(nextSort({ sortBy: 'date', sortOrder: 'asc' }, 'date')).toEqual({ sortBy: 'date', sortOrder: 'desc' });
  });
  it('starts another key at its natural order', () => {
    expect(nextSort(DEFAULT_SORT, 'name')).toEqual({ sortBy: 'name', sortOrder: 'asc' });
    expect(nextSort(DEFAULT_SORT, 'amount')).toEqual({ sortBy: 'amount', sortOrder: 'desc' });
    expect(nextSort({ sortBy: 'name', sortOrder: 'desc' }, 'date')).toEqual({ sortBy: 'date', sortOrder: 'desc' });
  });
});
