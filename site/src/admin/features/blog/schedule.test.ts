import { describe, expect, it } from 'vitest';
import { formatInZone, localInputValue } from './schedule';

describe('times in the party zone', () => {
  it('fills the field with the time where the party is', () => {
    expect(localInputValue('2026-01-05T15:30:00.000Z', 'America/Chicago')).toBe('2026-01-05T09:30');
    expect(localInputValue('2026-07-05T15:30:00.000Z', 'America/Chicago')).toBe('2026-07-05T10:30');
    expect(localInputValue('2026-01-05T05:00:00.000Z', 'America/Chicago')).toBe('2026-01-04T23:00');
  });

  it('says the time with its zone', () => {
    expect(formatInZone('2026-01-05T15:30:00.000Z', 'America/Chicago')).toBe('January 5, 2026 at 9:30 AM CST');
    expect(formatInZone('nonsense', 'America/Chicago')).toBe('');
  });
});
