import { describe, expect, it } from 'vitest';
import { DEFAULT_SORT, daysLeftText, formatAmount, formatPurpose, giftState, nextSort, statusBadge } from './format';

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

describe('giftState', () => {
  const gift = { amount: '100.00', status: 'completed', refunded: '0.00', refundedAt: null, disputeStatus: null };
  it('shows the status when nothing went back', () => {
    expect(giftState(gift)).toEqual({ badge: 'completed', variant: 'default', note: null });
    expect(giftState({ ...gift, status: 'pending' }).variant).toBe('secondary');
  });
  it('says refunded in full or in part, with the amount and the day', () => {
    const at = '2026-03-02T18:00:00.000Z';
    const full = giftState({ ...gift, refunded: '100.00', refundedAt: at });
    expect(full.badge).toBe('Refunded');
    expect(full.note).toMatch(/^Refunded \$100\.00 on March \d, 2026$/);
    const by = giftState({ ...gift, refunded: '5.00', refundedAt: at, refundedBy: 'Tess Treasurer' });
    expect(by.note).toMatch(/^Refunded \$5\.00 by Tess Treasurer, March \d, 2026$/);
    const part = giftState({ ...gift, refunded: '25.5', refundedAt: at });
    expect(part).toMatchObject({ badge: 'Partly refunded', variant: 'secondary' });
    expect(part.note).toContain('Refunded $25.50 on');
  });
  it('says disputed while a dispute is open, and what a closed one did', () => {
    expect(giftState({ ...gift, disputeStatus: 'needs_response' })).toMatchObject({ badge: 'Disputed', variant: 'destructive' });
    expect(giftState({ ...gift, disputeStatus: 'won' })).toEqual({ badge: 'completed', variant: 'default', note: 'Dispute won: the gift stands.' });
    expect(giftState({ ...gift, disputeStatus: 'lost', refunded: '100.00', refundedAt: null })).toMatchObject({
      badge: 'Refunded',
      note: 'Refunded $100.00 (dispute lost)',
    });
  });
});

describe('daysLeftText', () => {
  it('counts down to the deadline, then up past it', () => {
    expect(daysLeftText(12, '2026-03-01')).toBe('12 days left (until 2026-03-01)');
    expect(daysLeftText(1, '2026-03-01')).toBe('1 day left (until 2026-03-01)');
    expect(daysLeftText(0, '2026-03-01')).toBe('Due today');
    expect(daysLeftText(-1, '2026-03-01')).toBe('1 day overdue');
    expect(daysLeftText(-5, '2026-03-01')).toBe('5 days overdue');
  });
});
