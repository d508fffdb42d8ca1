import { describe, expect, it } from 'vitest';
import { failureLine } from './MailFailures';

describe('failureLine', () => {
  it('counts the failed messages', () => {
    expect(failureLine(1)).toBe('1 message could not be delivered in the last 7 days.');
    expect(failureLine(3)).toBe('3 messages could not be delivered in the last 7 days.');
  });
});
