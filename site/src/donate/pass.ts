// A donor's pass: what lets this browser see the donor's giving this year. What someone gave
// is private, so the server tells a donor's totals (and what is left of the limit) only to
// a browser that has paid a gift in their name: each payment set-up comes with a ticket,
// which the server turns into a pass once the gift is paid. Passes are kept per e-mail in
// localStorage, so the donor's next visit sees their year; the ticket is kept in the tab
// until the server has turned it into a pass.
import { ApiError, apiRequest } from '../lib/api';

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

const TICKET_KEY = 'acp-donor-ticket';
let redeeming: Promise<void> = Promise.resolve();

/** Keeps a paid gift's ticket in this tab until it has become the donor's pass: a donor who
 *  leaves the thank-you at once still has their year on the next page. */
export function holdTicket(ticket: string, email: string): void {
  try {
    sessionStorage.setItem(TICKET_KEY, JSON.stringify({ ticket, email }));
  } catch {
    // Storage off: nothing to keep.
  }
}

/** Turns the held ticket, if any, into the donor's pass and keeps that. The ticket goes once
 *  redeemed or refused; while the payment is still going through (409) or the request
 *  failed, it stays for the next page. Failures are quiet: the page then treats the donor's
 *  year as unknown, as for anyone. */
export function redeemHeldTicket(): Promise<void> {
  redeeming = (async () => {
    try {
      const held = sessionStorage.getItem(TICKET_KEY);
      if (!held) return;
      const { ticket, email } = JSON.parse(held) as { ticket: string; email: string };
      try {
        const { pass } = await apiRequest<{ pass: string }>('POST', '/api/donations/pass', { ticket });
        const passes = load();
        passes[email.trim().toLowerCase()] = pass;
        localStorage.setItem(PASSES_KEY, JSON.stringify(passes));
      } catch (error) {
        if (!(error instanceof ApiError) || error.status === 409 || error.status === 429) return;
      }
      sessionStorage.removeItem(TICKET_KEY);
    } catch {
      // Storage off, or what it held is not ours: nothing to redeem.
    }
  })();
  return redeeming;
}

/** Resolves once a redemption under way has ended, so a lookup made meanwhile shows the
 *  pass it gives. */
export function passSettled(): Promise<void> {
  return redeeming;
}
