import { describe, expect, it } from 'vitest';
import { spotsText } from './spots';

describe('spotsText', () => {
  it('counts the seats left, and says nothing without a limit or once closed', () => {
    expect(spotsText({ open: true, left: 12, waitlist: true })).toBe('12 spots left.');
    expect(spotsText({ open: true, left: 1, waitlist: false })).toBe('1 spot left.');
    expect(spotsText({ open: true, left: null, waitlist: true })).toBe('');
    expect(spotsText({ open: false, left: 3, waitlist: true })).toBe('');
  });

  it('says what a full event offers', () => {
    expect(spotsText({ open: true, left: 0, waitlist: true })).toBe('The event is full: RSVP to join the waitlist.');
    expect(spotsText({ open: true, left: 0, waitlist: false })).toBe('The event is full.');
  });
});
