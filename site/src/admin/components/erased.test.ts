import { describe, expect, it } from 'vitest';
import { describeErasure } from './erased';

describe('describeErasure', () => {
  it('says what went, what was kept and why, in plain words', () => {
    expect(describeErasure({ contacts: 1, volunteers: 0, newsletters: 2, rsvps: 0, donationsRedacted: 1, donationsKept: 3, donationsInProgress: 0 })).toBe(
      'Deleted 1 message, 0 volunteer signups, 2 newsletter signups. Removed the details of 1 unpaid gift. Kept 3 completed gifts, as federal law requires.',
    );
    expect(describeErasure({ contacts: 0, volunteers: 0, newsletters: 0, rsvps: 3, donationsRedacted: 0, donationsKept: 0, donationsInProgress: 2 })).toBe(
      'Deleted 0 messages, 0 volunteer signups, 0 newsletter signups. Cancelled and deleted 3 event RSVPs. 2 gifts are still being paid: erase again in 15 minutes.',
    );
    expect(
      describeErasure({
        contacts: 0,
        volunteers: 0,
        newsletters: 0,
        rsvps: 0,
        donationsRedacted: 0,
        donationsKept: 1,
        donationsInProgress: 0,
        warning: 'Try again.',
      }),
    ).toBe('Deleted 0 messages, 0 volunteer signups, 0 newsletter signups. Kept 1 completed gift, as federal law requires. Try again.');
  });
});
