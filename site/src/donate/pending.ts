// The gift a donor has sent to Stripe, kept across Stripe's return redirect so the thank-you
// can name the amount. Apart from stripe.ts so the first chunk need not carry Stripe's code.

/** What a payment on its way to Stripe's return page needs afterwards. */
const PENDING_KEY = 'acp-donation';

export function rememberPayment(amountCents: number): void {
  try {
    sessionStorage.setItem(PENDING_KEY, JSON.stringify({ amountCents }));
  } catch {
    // Private browsing without storage: the thank-you just leaves out the amount.
  }
}

/** The amount of the payment Stripe returned from, once (the form is reset after it). */
export function takePayment(): number | null {
  try {
    const saved = sessionStorage.getItem(PENDING_KEY);
    sessionStorage.removeItem(PENDING_KEY);
    const amount: unknown = saved ? JSON.parse(saved).amountCents : null;
    return typeof amount === 'number' ? amount : null;
  } catch {
    return null;
  }
}
