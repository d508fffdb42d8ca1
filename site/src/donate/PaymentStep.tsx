// The last step: the gift to check, Stripe's Payment Element, and the pay button. Card
// details go from the Payment Element to Stripe; this page never sees them.
import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { toast } from '../lib/toast';
import type { DonateCopy, DonateTexts } from './rules';
import { formatAmount } from './rules';
import { rememberPayment } from './pending';
import { stripeFor } from './stripe';

/** The loading overlay waits this long, so a quick load never flashes it (spec §9). */
export const OVERLAY_DELAY_MS = 500;

interface Props {
  idPrefix: string;
  publishableKey: string;
  clientSecret: string;
  amountCents: number;
  /** The set-up's ticket (it becomes the donor's pass once paid) and the donor's e-mail. */
  ticket: string | null;
  /** For a monthly gift: "$25.00 every month, next on …, until you cancel". */
  monthlyLine: string | null;
  email: string;
  /** The gift as the donor entered it, label and value, to check before paying. */
  summary: [string, string][];
  copy: DonateCopy;
  texts: DonateTexts;
  onChange: () => void;
}

export function PaymentStep(props: Props) {
  const { idPrefix, publishableKey, clientSecret, summary, copy } = props;
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <div className="mt-6 space-y-6">
      <section aria-labelledby={`${idPrefix}-review`} className="rounded-xl bg-cream p-5">
        <h3 id={`${idPrefix}-review`} ref={heading} tabIndex={-1} className="font-serif text-xl font-bold text-navy">
          {copy.reviewHeading}
        </h3>
        <dl className="mt-3 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
          {summary.map(([label, value]) => (
            <div key={label} className="contents">
              <dt className="font-semibold text-slate-700">{label}</dt>
              <dd className="break-words text-ink">{value}</dd>
            </div>
          ))}
        </dl>
        <button type="button" className="mt-4 font-semibold text-navy underline underline-offset-4 hover:text-crimson" onClick={props.onChange}>
          {copy.changeLabel}
        </button>
      </section>
      <Elements stripe={stripeFor(publishableKey)} options={{ clientSecret, appearance: { theme: 'stripe', variables: { colorPrimary: '#14213d' } } }}>
        <PaymentForm {...props} />
      </Elements>
    </div>
  );
}

function PaymentForm({ idPrefix, amountCents, ticket, monthlyLine, email, copy, texts }: Props) {
  const stripe = useStripe();
  const elements = useElements();
  const [ready, setReady] = useState(false);
  const [slow, setSlow] = useState(false);
  const [pending, setPending] = useState(false);

  useEffect(() => {
    if (ready) return;
    const timer = setTimeout(() => setSlow(true), OVERLAY_DELAY_MS);
    return () => clearTimeout(timer);
  }, [ready]);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!stripe || !elements || pending) return;
    setPending(true);
    try {
      rememberPayment({ amountCents, ticket, email });
      const { error } = await stripe.confirmPayment({
        elements,
        confirmParams: { return_url: `${window.location.origin}/donate?success=true` },
      });
      // Reached only when the payment did not go through: on success Stripe takes the
      // browser to the return address.
      toast({ variant: 'destructive', title: texts.paymentFailed.title, description: error?.message || texts.paymentFailed.description });
    } catch {
      toast({ variant: 'destructive', title: texts.paymentError.title, description: texts.paymentError.description });
    } finally {
      setPending(false);
    }
  }

  const loading = !ready && slow;
  return (
    <form onSubmit={onSubmit} aria-labelledby={`${idPrefix}-payment`} className="space-y-4">
      <h3 id={`${idPrefix}-payment`} className="font-serif text-xl font-bold text-navy">
        {copy.paymentHeading}
      </h3>
      <div className="relative min-h-40" aria-busy={!ready}>
        <PaymentElement onReady={() => setReady(true)} />
        {loading && (
          <div role="status" className="absolute inset-0 flex items-center justify-center rounded-lg bg-white/90 text-slate-700">
            {copy.paymentLoading}
          </div>
        )}
      </div>
      {monthlyLine && (
        <p id={`${idPrefix}-pay-monthly`} className="font-semibold text-navy">
          {monthlyLine}
        </p>
      )}
      <button
        type="submit"
        className="btn btn-donate w-full text-base"
        disabled={!stripe || !elements || !ready || pending}
        aria-describedby={monthlyLine ? `${idPrefix}-pay-monthly` : undefined}
      >
        {pending ? texts.confirmPending : copy.confirmLabel.replace('$A', formatAmount(amountCents))}
      </button>
    </form>
  );
}
