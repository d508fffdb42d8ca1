import { describe, expect, it } from 'vitest';
import type { Rsvp } from './api';
import { FILTERS, attendanceValue, filterLabel, filterRsvps, shownLine } from './attendees';

const rsvp = (id: number, status: Rsvp['status']): Rsvp => ({
  id,
  name: `Person ${id}`,
  email: `p${id}@example.org`,
  zipCode: '62701',
  phone: null,
  guests: 0,
  status,
  attended: null,
  createdAt: '2026-11-01T00:00:00Z',
});

const list = [rsvp(1, 'going'), rsvp(2, 'waitlisted'), rsvp(3, 'going'), rsvp(4, 'cancelled')];

describe('the filter', () => {
  it('keeps the RSVPs of a status, or all', () => {
    expect(filterRsvps(list, 'all')).toHaveLength(4);
    expect(filterRsvps(list, 'going').map((r) => r.id)).toEqual([1, 3]);
    expect(filterRsvps(list, 'waitlisted').map((r) => r.id)).toEqual([2]);
    expect(filterRsvps(list, 'cancelled').map((r) => r.id)).toEqual([4]);
  });
  it('counts each choice', () => {
    expect(FILTERS.map((f) => filterLabel(f, list))).toEqual(['Everyone (4)', 'Going (2)', 'Waitlisted (1)', 'Cancelled (1)']);
    expect(filterLabel('going', [])).toBe('Going (0)');
  });
  it('says how many are shown', () => {
    expect(shownLine(4, 4)).toBe('4 RSVPs');
    expect(shownLine(1, 1)).toBe('1 RSVP');
    expect(shownLine(2, 4)).toBe('Showing 2 of 4 RSVPs');
    expect(shownLine(0, 1)).toBe('Showing 0 of 1 RSVP');
  });
});

describe('attendance', () => {
  it('is held as the select holds it', () => {
    expect(attendanceValue(null)).toBe('');
    expect(attendanceValue(true)).toBe('yes');
    expect(attendanceValue(false)).toBe('no');
  });
});
