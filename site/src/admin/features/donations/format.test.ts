import { describe, expect, it } from 'vitest';
import { DEFAULT_SORT, formatAmount, formatPurpose, nextSort, statusBadge } from './format';

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
