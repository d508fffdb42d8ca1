// Stripe.js, loaded only when a donor reaches the payment step (and only on /donate: this
// module is part of the donate island's chunk). The `pure` entry does not inject the script
// on import, so a visitor who only reads the page never contacts Stripe.
import type { Stripe } from '@stripe/stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure';

let loading: { key: string; stripe: Promise<Stripe | null> } | null = null;

/** Stripe for `publishableKey`, loaded once. */
export function stripeFor(publishableKey: string): Promise<Stripe | null> {
  if (loading?.key !== publishableKey) loading = { key: publishableKey, stripe: loadStripe(publishableKey) };
  return loading.stripe;
}

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
