import { describe, expect, it } from 'vitest';
import { countMatches, countsLine, offersAgain, people, percentDone, statusLabel } from './format';

describe('countMatches', () => {
  it('takes exactly the count', () => {
    expect(countMatches('12', 12)).toBe(true);
    expect(countMatches(' 12 ', 12)).toBe(true);
    expect(countMatches('1,234', 1234)).toBe(true);
  });
  it('refuses anything else', () => {
    expect(countMatches('', 12)).toBe(false);
    expect(countMatches('1', 12)).toBe(false);
    expect(countMatches('120', 12)).toBe(false);
    expect(countMatches('12.0', 12)).toBe(false);
    expect(countMatches('-12', 12)).toBe(false);
    expect(countMatches('twelve', 12)).toBe(false);
    expect(countMatches('1e1', 10)).toBe(false);
  });
  it('never confirms a send to nobody', () => {
    expect(countMatches('0', 0)).toBe(false);
  });
});

describe('the words', () => {
  it('counts people', () => {
    expect(people(1)).toBe('1 person');
    expect(people(0)).toBe('0 people');
    expect(people(1234)).toBe('1,234 people');
  });
  it('says every count', () => {
    expect(countsLine({ recipients: 6, queued: 3, sent: 2, failed: 1, excluded: 0 })).toBe('2 sent, 1 failed, 0 excluded, 3 queued of 6 recipients');
    expect(countsLine({ recipients: 1, queued: 0, sent: 1, failed: 0, excluded: 0 })).toBe('1 sent, 0 failed, 0 excluded, 0 queued of 1 recipient');
  });
  it('says Sent only when done', () => {
    expect(statusLabel('sending')).toBe('Sending');
    expect(statusLabel('sent')).toBe('Sent');
    expect(statusLabel('missed')).toBe('Missed');
  });
  it('measures progress', () => {
    expect(percentDone({ recipients: 4, queued: 1 })).toBe(75);
    expect(percentDone({ recipients: 0, queued: 0 })).toBe(100);
  });
  it('knows the already-mailed refusal', () => {
    expect(
      offersAgain('This post was already mailed to the list. To reach only those it missed, choose “Send again to people who haven\u2019t received it”.'),
    ).toBe(true);
    expect(offersAgain("choose “Send again to people who haven't received it”.")).toBe(true);
    expect(offersAgain('The number typed (3) is not the number of recipients (4).')).toBe(false);
    expect(offersAgain(null)).toBe(false);
  });
});
