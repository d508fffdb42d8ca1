// A donor's pass: what lets this browser see the donor's giving this year. What someone gave
// is private, so the server tells a donor's totals (and what is left of the limit) only to
// a browser that has shown it reads the donor's mail: every receipt has a link to
// /donate#history=…, and opening it here exchanges the link for a pass (kept per e-mail in
// localStorage). Paying in someone's name earns nothing. The link is in the address's
// fragment, which browsers never send to a server, so it is in no log.
//
// After paying, the tab keeps the set-up's ticket until the server has said the gift is paid:
// its answer lets the server complete the gift (and send the receipt) before Stripe's event.
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
let redeeming: Promise<unknown> = Promise.resolve();

/** Keeps a paid gift's ticket in this tab until the server has said the gift is paid. */
export function holdTicket(ticket: string, email: string): void {
  try {
    sessionStorage.setItem(TICKET_KEY, JSON.stringify({ ticket, email }));
  } catch {
    // Storage off: nothing to keep.
  }
}

/** Tells the server about the held ticket, if any: the ticket goes once the gift is paid or
 *  the ticket refused; while the payment is still going through (409) or the request
 *  failed, it stays for the next page. Quiet either way. */
export function redeemHeldTicket(): Promise<unknown> {
  redeeming = (async () => {
    try {
      const held = sessionStorage.getItem(TICKET_KEY);
      if (!held) return;
      const { ticket } = JSON.parse(held) as { ticket: string };
      try {
        await apiRequest('POST', '/api/donations/pass', { ticket });
      } catch (error) {
        if (!(error instanceof ApiError) || error.status === 409 || error.status === 429) return;
      }
      sessionStorage.removeItem(TICKET_KEY);
    } catch {
      // Storage off, or what it held is not ours.
    }
  })();
  return redeeming;
}

/** Opens a receipt's history link (`#history=…` in this page's address): the server's pass
 *  is kept for the donor's address, which is returned; the link leaves the address bar.
 *  `null` when there is none, or the server refused it (`Error` with its message). */
export async function redeemHistoryLink(): Promise<string | null> {
  const link = /^#history=(.+)$/.exec(window.location.hash)?.[1];
  if (!link) return null;
  history.replaceState(null, '', window.location.pathname + window.location.search);
  const done = apiRequest<{ pass: string; email: string }>('POST', '/api/donations/pass', { link });
  redeeming = done.catch(() => null);
  const { pass, email } = await done;
  try {
    localStorage.setItem(PASSES_KEY, JSON.stringify({ ...load(), [email]: pass }));
  } catch {
    // Storage off: this visit still shows it.
  }
  return email;
}

/** Resolves once a redemption under way has ended, so a lookup made meanwhile shows the
 *  pass it gives. */
export function passSettled(): Promise<unknown> {
  return redeeming;
}
