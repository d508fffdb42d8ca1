// The donor's year, from GET /api/donations/summary: asked once the e-mail contains "@"
// (after a short pause in typing), never cached, and asked again whenever the window
// regains focus, since a gift made in another tab changes it (spec §7). The server tells
// the totals only to a browser holding the donor's pass (pass.ts); to any other it answers
// nulls, and the page takes the spec's path for an unknown allowance.
import { useEffect, useState } from 'react';
import { apiRequest } from '../lib/api';
import { passHeaders, passSettled } from './pass';
import type { Allowance } from './rules';

export type AllowanceState =
  { status: 'idle' } | { status: 'loading' } | { status: 'ready'; allowance: Allowance } | { status: 'unknown' } | { status: 'error' };

/** The summary's answer: the donor's year, or nulls when the server may not tell. */
type Summary = { [K in keyof Allowance]: number | null };

function known(summary: Summary | null): Allowance | null {
  if (!summary) return null;
  const { completed, pending, remaining } = summary;
  return typeof completed === 'number' && typeof pending === 'number' && typeof remaining === 'number' ? { completed, pending, remaining } : null;
}

/** How long typing must pause before the e-mail is looked up. */
export const LOOKUP_DELAY_MS = 400;

export function useAllowance(email: string, year: number): AllowanceState {
  const [state, setState] = useState<AllowanceState>({ status: 'idle' });
  const address = email.trim();
  const wanted = address.includes('@');

  useEffect(() => {
    if (!wanted) {
      // The address no longer is one: forget what was said about the last one.
      // eslint-disable-next-line react-hooks/set-state-in-effect
      setState({ status: 'idle' });
      return;
    }
    let current = true;
    let controller: AbortController | null = null;
    const load = () => {
      controller?.abort();
      controller = new AbortController();
      setState((s) => (s.status === 'ready' || s.status === 'unknown' ? s : { status: 'loading' }));
      const query = new URLSearchParams({ email: address, year: String(year) });
      const signal = controller.signal;
      // After a pass being redeemed for this browser (pass.ts), so the answer can use it.
      passSettled()
        .then(() => apiRequest<Summary>('GET', `/api/donations/summary?${query}`, undefined, { signal, cache: 'no-store', headers: passHeaders(address) }))
        .then((summary) => {
          if (!current) return;
          const allowance = known(summary);
          setState(allowance ? { status: 'ready', allowance } : { status: 'unknown' });
        })
        .catch((error: unknown) => {
          if (current && !(error instanceof DOMException && error.name === 'AbortError')) setState({ status: 'error' });
        });
    };
    const timer = setTimeout(load, LOOKUP_DELAY_MS);
    window.addEventListener('focus', load);
    return () => {
      current = false;
      clearTimeout(timer);
      controller?.abort();
      window.removeEventListener('focus', load);
    };
  }, [address, wanted, year]);

  return state;
}
