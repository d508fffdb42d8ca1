// /donate/card: a monthly donor whose card was declined saves another, from the link mailed
// to them (its token is in the address). The server sets up a SetupIntent for the plan's
// customer; Stripe's Payment Element takes the card and Stripe.js saves it, coming back here
// with the SetupIntent's id; the server then gives the plan the card and charges what was
// due. Card details go to Stripe only.
import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { stripeFor } from '../donate/stripe';
import type { DonateTexts } from '../donate/rules';
import { ApiError, apiRequest } from '../lib/api';
import { toast } from '../lib/toast';

/** content/donate.yaml `card`. */
export interface CardCopy {
  title: string;
  intro: string;
  loading: string;
  waiting: string;
  active: string;
  cardHeading: string;
  saveLabel: string;
  saving: string;
  charged: string;
  saved: string;
  declined: string;
  paused: string;
  expired: string;
  invalid: string;
  ended: string;
  failed: string;
  noscript: string;
}

interface Props {
  idPrefix: string;
  copy: CardCopy;
  texts: DonateTexts;
  timeZone: string;
}

/** The plan as the server describes it. */
interface PlanView {
  amount: string;
  status: string;
  waiting: boolean;
  dueAt: string | null;
  nextAt: string | null;
}

type State =
  | { name: 'loading' }
  | { name: 'form'; plan: PlanView; clientSecret: string; publishableKey: string }
  | { name: 'message'; text: string; tone: 'done' | 'problem' };

// Formatted here rather than with the donate page's rules, which this page would otherwise
// split out of the donate page's own script (a request more on /donate).
const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

export default function UpdateCard({ idPrefix, copy, texts, timeZone }: Props) {
  const [state, setState] = useState<State>({ name: 'loading' });
  const day = (utc: string | null) =>
    utc ? new Intl.DateTimeFormat('en-US', { timeZone, month: 'long', day: 'numeric', year: 'numeric' }).format(new Date(utc)) : '';
  const fill = (text: string, plan: PlanView, date: string | null) =>
    text.replaceAll('$A', dollars.format(Number(plan.amount))).replaceAll('{date}', day(date));

  useEffect(() => {
    const params = new URLSearchParams(window.location.search);
    const token = params.get('token') ?? '';
    const problem = (error: unknown) => {
      let text = copy.failed;
      if (error instanceof ApiError) {
        if (error.status === 404 || error.status === 400) text = copy.invalid;
        else if (error.status === 410) text = /expired/i.test(error.message) ? copy.expired : copy.ended;
        else if (error.status === 429 || error.status === 503) text = error.message;
      }
      setState({ name: 'message', text, tone: 'problem' });
    };
    if (!token) {
      problem(new ApiError(404, 'no token'));
      return;
    }
    const setupIntent = params.get('setup_intent');
    if (setupIntent && params.get('redirect_status') === 'succeeded') {
      // Back from Stripe: the card is saved there; the plan takes it.
      apiRequest<{ outcome: string; plan: PlanView }>('POST', '/api/monthly/card/saved', { token, setupIntent })
        .then(({ outcome, plan }) => {
          const text = { charged: copy.charged, declined: copy.declined, paused: copy.paused }[outcome] ?? copy.saved;
          setState({ name: 'message', text: fill(text, plan, plan.nextAt), tone: outcome === 'declined' ? 'problem' : 'done' });
          window.history.replaceState(null, '', `${window.location.pathname}?token=${encodeURIComponent(token)}`);
        })
        .catch(problem);
      return;
    }
    Promise.all([
      apiRequest<{ publishableKey: string | null }>('GET', '/api/donations/config', undefined, { cache: 'no-store' }),
      apiRequest<{ plan: PlanView; clientSecret: string }>('POST', '/api/monthly/card', { token }),
    ])
      .then(([{ publishableKey }, { plan, clientSecret }]) => {
        if (!publishableKey) setState({ name: 'message', text: texts.unavailable, tone: 'problem' });
        else setState({ name: 'form', plan, clientSecret, publishableKey });
      })
      .catch(problem);
    // Once, on arrival.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  if (state.name === 'loading') {
    return (
      // In the same box as the message that replaces it, so its words do not move.
      <p role="status" className="mt-6 rounded-lg p-4 text-slate-700">
        {copy.loading}
      </p>
    );
  }
  if (state.name === 'message') {
    return (
      <p role={state.tone === 'problem' ? 'alert' : 'status'} className="mt-6 rounded-lg bg-cream p-4 font-semibold text-ink">
        {state.text}
      </p>
    );
  }
  const { plan } = state;
  return (
    <div className="mt-6 space-y-6">
      <p className="text-slate-800">{plan.waiting ? fill(copy.waiting, plan, plan.dueAt) : fill(copy.active, plan, plan.nextAt)}</p>
      <Elements
        stripe={stripeFor(state.publishableKey)}
        options={{ clientSecret: state.clientSecret, appearance: { theme: 'stripe', variables: { colorPrimary: '#14213d' } } }}
      >
        <CardForm idPrefix={idPrefix} copy={copy} texts={texts} />
      </Elements>
    </div>
  );
}

function CardForm({ idPrefix, copy, texts }: { idPrefix: string; copy: CardCopy; texts: DonateTexts }) {
  const stripe = useStripe();
  const elements = useElements();
  const [ready, setReady] = useState(false);
  const [pending, setPending] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!stripe || !elements || pending) return;
    setPending(true);
    try {
      const { error } = await stripe.confirmSetup({ elements, confirmParams: { return_url: window.location.href } });
      // Reached only when the card was refused: on success Stripe takes the browser back here.
      toast({ variant: 'destructive', title: texts.paymentFailed.title, description: error?.message || texts.paymentFailed.description });
    } catch {
      toast({ variant: 'destructive', title: texts.paymentError.title, description: texts.paymentError.description });
    } finally {
      setPending(false);
    }
  }

  return (
    <form onSubmit={onSubmit} aria-labelledby={`${idPrefix}-card-heading`} className="space-y-4">
      <h2 id={`${idPrefix}-card-heading`} ref={heading} className="font-serif text-xl font-bold text-navy">
        {copy.cardHeading}
      </h2>
      <div className="min-h-40" aria-busy={!ready}>
        <PaymentElement onReady={() => setReady(true)} />
      </div>
      <button type="submit" className="btn btn-donate w-full text-base" disabled={!stripe || !elements || !ready || pending}>
        {pending ? copy.saving : copy.saveLabel}
      </button>
    </form>
  );
}
