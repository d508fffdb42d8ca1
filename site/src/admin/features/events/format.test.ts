import { describe, expect, it } from 'vitest';
import {
  COMMON_ZONES,
  KINDS,
  cancelledMessage,
  formatInZone,
  kindLabel,
  people,
  rsvpStatusLabel,
  savedMessage,
  seatsText,
  statusLabel,
  waitlistedText,
  zoneOptions,
} from './format';

describe('labels', () => {
  it('name every kind, in the form order', () => {
    expect(KINDS.map(kindLabel)).toEqual(['Town hall', 'Petitioning shift', 'Meeting', 'Other']);
    expect(kindLabel('rally')).toBe('rally');
  });
  it('name the statuses', () => {
    expect(['draft', 'published', 'cancelled'].map(statusLabel)).toEqual(['Draft', 'Published', 'Cancelled']);
    expect(['going', 'waitlisted', 'cancelled'].map(rsvpStatusLabel)).toEqual(['Going', 'Waitlisted', 'Cancelled']);
  });
});

describe('seats', () => {
  it('say the seats taken, of the capacity when there is one', () => {
    expect(seatsText(12, 20)).toBe('12 of 20 going');
    expect(seatsText(12, null)).toBe('12 going');
    expect(seatsText(0, 1)).toBe('0 of 1 going');
    expect(seatsText(1200, 5000)).toBe('1,200 of 5,000 going');
    expect(waitlistedText(3)).toBe('3 waitlisted');
  });
});

describe('who was told', () => {
  it('counts people', () => {
    expect(people(1)).toBe('1 person');
    expect(people(14)).toBe('14 people');
    expect(people(1234)).toBe('1,234 people');
  });
  it('says a save mailed people only when it did', () => {
    expect(savedMessage(true, 0)).toBe('Draft saved');
    expect(savedMessage(false, 0)).toBe('Event saved');
    expect(savedMessage(false, 14)).toBe('Saved. 14 people were told of the change.');
    expect(savedMessage(false, 1)).toBe('Saved. 1 person was told of the change.');
  });
  it('says who a cancellation reached', () => {
    expect(cancelledMessage(14)).toBe('Event cancelled. 14 people were told.');
    expect(cancelledMessage(1)).toBe('Event cancelled. 1 person was told.');
    expect(cancelledMessage(0)).toBe('Event cancelled. Nobody had replied, so nobody was mailed.');
  });
});

describe('times', () => {
  it('say the time where the event is, with the zone', () => {
    expect(formatInZone('2026-12-11T00:00:00Z', 'America/Chicago')).toBe('Thursday, December 10, 2026 at 6:00 PM CST');
    expect(formatInZone('2026-07-04T16:00:00Z', 'America/New_York')).toBe('Saturday, July 4, 2026 at 12:00 PM EDT');
    expect(formatInZone('2026-07-04T16:00:00Z', 'America/Phoenix')).toBe('Saturday, July 4, 2026 at 9:00 AM MST');
  });
  it('give nothing for what cannot be read', () => {
    expect(formatInZone('nonsense', 'America/Chicago')).toBe('');
    expect(formatInZone('2026-07-04T16:00:00Z', 'Not/AZone')).toBe('');
  });
});

describe('zone choices', () => {
  it("offer the party's zone first, then the common ones once each", () => {
    const options = zoneOptions('America/Chicago');
    expect(options.map((o) => o.value)).toEqual([
      'America/Chicago',
      'America/New_York',
      'America/Denver',
      'America/Phoenix',
      'America/Los_Angeles',
      'America/Anchorage',
      'Pacific/Honolulu',
    ]);
    expect(options[0].label).toBe("Central (America/Chicago), the party's time zone");
    expect(options[1].label).toBe('Eastern (America/New_York)');
  });
  it("keep a zone outside the list: the party's, or the event's own", () => {
    expect(zoneOptions('Europe/Dublin').map((o) => o.value)).toEqual(['Europe/Dublin', ...COMMON_ZONES]);
    expect(zoneOptions('Europe/Dublin')[0].label).toBe("Europe/Dublin, the party's time zone");
    expect(
      zoneOptions('America/Chicago', 'America/Puerto_Rico')
        .map((o) => o.value)
        .at(-1),
    ).toBe('America/Puerto_Rico');
    expect(zoneOptions('America/Chicago', 'America/Denver')).toHaveLength(COMMON_ZONES.length);
  });
});
