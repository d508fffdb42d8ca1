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
