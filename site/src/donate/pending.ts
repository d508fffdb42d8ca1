// The gift a donor has sent to Stripe, kept across Stripe's return redirect so the thank-you
// can name the amount and the gift's ticket can become the donor's pass (see pass.ts).
// Apart from stripe.ts so the first chunk need not carry Stripe's code.

/** What a payment on its way to Stripe's return page needs afterwards. */
const PENDING_KEY = 'acp-donation';

export interface PendingPayment {
  amountCents: number | null;
  /** The set-up's ticket and the donor's e-mail, when the server gave one. */
  ticket: string | null;
  email: string | null;
}

export function rememberPayment(payment: PendingPayment): void {
  try {
    sessionStorage.setItem(PENDING_KEY, JSON.stringify(payment));
  } catch {
    // Private browsing without storage: the thank-you just leaves out the amount.
  }
}

/** The payment Stripe returned from, once (the form is reset after it). */
export function takePayment(): PendingPayment {
  const none: PendingPayment = { amountCents: null, ticket: null, email: null };
  try {
    const saved = sessionStorage.getItem(PENDING_KEY);
    sessionStorage.removeItem(PENDING_KEY);
    const parsed: unknown = saved ? JSON.parse(saved) : null;
    if (!parsed || typeof parsed !== 'object') return none;
    const { amountCents, ticket, email } = parsed as Record<string, unknown>;
    return {
      amountCents: typeof amountCents === 'number' ? amountCents : null,
      ticket: typeof ticket === 'string' ? ticket : null,
      email: typeof email === 'string' ? email : null,
    };
  } catch {
    return none;
  }
}
