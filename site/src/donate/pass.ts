// A donor's pass: what lets this browser see the donor's giving this year. What someone gave
// is private, so the server tells a donor's totals (and what is left of the limit) only to
// a browser that has paid a gift in their name: each payment set-up comes with a ticket,
// which the server turns into a pass once the gift is paid. Passes are kept per e-mail in
// localStorage, so the donor's next visit sees their year.
import { apiRequest } from '../lib/api';

const PASSES_KEY = 'acp-donor-passes';
/** The header the server reads it from. */
export const PASS_HEADER = 'X-Donor-Pass';

function load(): Record<string, string> {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(PASSES_KEY) ?? '{}');
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, string>) : {};
  } catch {
    return {};
  }
}

/** The pass this browser holds for `email`, if any. */
export function passFor(email: string): string | undefined {
  const pass = load()[email.trim().toLowerCase()];
  return typeof pass === 'string' ? pass : undefined;
}

/** Headers that show the pass for `email`, when there is one. */
export function passHeaders(email: string): Record<string, string> | undefined {
  const pass = passFor(email);
  return pass ? { [PASS_HEADER]: pass } : undefined;
}

/** Turns a paid gift's ticket into the donor's pass and keeps it. Failures are quiet: the
 *  page then treats the donor's year as unknown, as for anyone. */
export async function redeemTicket(ticket: string, email: string): Promise<void> {
  try {
    const { pass } = await apiRequest<{ pass: string }>('POST', '/api/donations/pass', { ticket });
    const passes = load();
    passes[email.trim().toLowerCase()] = pass;
    localStorage.setItem(PASSES_KEY, JSON.stringify(passes));
  } catch {
    // Not paid yet, storage off, or offline: nothing to keep.
  }
}
