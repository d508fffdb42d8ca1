import { describe, expect, it } from 'vitest';
import { formatExact } from '../../components/dates';
import { behindLine } from './DeployStatus';

describe('behindLine', () => {
  const failing = { path: 'blog/index.html', attempts: 1, lastError: 'copying blog/index.html: connection refused', nextAttemptAt: '2025-01-05T15:30:10.000Z' };
  const next = formatExact(failing.nextAttemptAt);

  it('says what waits, where it goes, which copy fails, why and when it is tried next', () => {
    expect(behindLine(3, 's3://acp-site', { ...failing, attempts: 4 })).toBe(
      `3 changed files are waiting to reach s3://acp-site. Copying blog/index.html failed 4 times: copying blog/index.html: connection refused. Next try: ${next}.`,
    );
  });

  it('counts one file and one attempt in the singular', () => {
    expect(behindLine(1, 's3://acp-site/www', failing)).toBe(
      `1 changed file is waiting to reach s3://acp-site/www. Copying blog/index.html failed 1 time: copying blog/index.html: connection refused. Next try: ${next}.`,
    );
  });

  it('writes the next try out as the admin writes dates', () => {
    expect(next).toMatch(/^January 5, 2025 at \d{1,2}:30 [AP]M$/);
  });
});
