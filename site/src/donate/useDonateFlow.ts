// The donate page's state and flow: the amount, the donor's details and confirmations, the
// problem to show, the donor's year (useAllowance), then the payment set-up and Stripe's
// return. The island (islands/DonateFlow.tsx) draws it.
import { type FormEvent, useEffect, useState } from 'react';
import { ApiError, apiRequest, failureText } from '../lib/api';
import { toast } from '../lib/toast';
import { holdTicket, passHeaders, redeemHeldTicket, redeemHistoryLink } from './pass';
import { takePayment } from './pending';
import {
  type DonateRules,
  type Draft,
  type Problem,
  ceilingCents,
  firstProblem,
  formatAmount,
  isOverLimit,
  limitFor,
  monthlyLine,
  monthsLeft,
  needsEmployment,
  nextMonthly,
  paymentRequest,
  toCents,
  yearIn,
} from './rules';
import { useAllowance } from './useAllowance';

// The payment step (Stripe's React bindings and loader) is a chunk of its own: most visitors
// never reach it, and it is fetched while the server sets the payment up.
export const loadPaymentStep = () => import('./PaymentStep');

type Config = { status: 'loading' } | { status: 'ready'; publishableKey: string | null } | { status: 'error' };
type Stage =
  | { name: 'details' }
  | { name: 'payment'; clientSecret: string; ticket: string | null; amountCents: number; monthlyLine: string | null }
  | { name: 'done'; amountCents: number | null };

const DONOR_FIELDS = ['donorFirstName', 'donorLastName', 'donorEmail', 'donorAddress', 'donorCity', 'donorState', 'donorZipCode'];

/** `id` gives a field's element id, to move the focus to a field at fault. */
export function useDonateFlow(rules: DonateRules, id: (name: string) => string) {
  const { texts } = rules;
  // The year is the party's (its time zone); the build and the browser agree on it except
  // in the hours around New Year, where the browser's own clock decides after hydration.
  const [year, setYear] = useState(() => yearIn(rules.timeZone));
  const [hydrated, setHydrated] = useState(false);
  const [config, setConfig] = useState<Config>({ status: 'loading' });
  const [stage, setStage] = useState<Stage>({ name: 'details' });
  const [preset, setPreset] = useState<number | null>(null);
  const [custom, setCustom] = useState('');
  const [values, setValues] = useState<Record<string, string>>({});
  const [citizenship, setCitizenship] = useState(false);
  const [attestations, setAttestations] = useState(false);
  // One time unless the donor chooses otherwise: never a preselected monthly gift.
  const [monthly, setMonthly] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [missing, setMissing] = useState<string[]>([]);
  const [pending, setPending] = useState(false);
  const allowanceState = useAllowance(values.donorEmail ?? '', year);
  const allowance = allowanceState.status === 'ready' ? allowanceState.allowance : null;

  useEffect(() => {
    // After hydration on purpose: the server's HTML is the page before any script runs.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setHydrated(true);
    setYear(yearIn(rules.timeZone));
    const params = new URLSearchParams(window.location.search);
    if (params.get('success') === 'true') {
      const { amountCents, ticket, email } = takePayment();
      if (ticket && email && params.get('redirect_status') !== 'failed') holdTicket(ticket, email);
      if (params.get('redirect_status') === 'failed') {
        toast({ variant: 'destructive', title: texts.paymentFailed.title, description: texts.paymentFailed.description });
      } else {
        setStage({ name: 'done', amountCents });
        toast({ title: texts.success, description: amountCents === null ? undefined : formatAmount(amountCents) });
      }
    }
    void redeemHeldTicket();
    // A receipt's link: this browser now shows the donor's year, for the address it names.
    redeemHistoryLink()
      .then((email) => {
        if (!email) return;
        setValues((v) => ({ ...v, donorEmail: email }));
        toast({ title: texts.historyShown.title, description: texts.historyShown.description });
      })
      .catch((error: unknown) => toast({ variant: 'destructive', title: texts.historyRefused, description: failureText(error, '') }));
    apiRequest<{ publishableKey: string | null }>('GET', '/api/donations/config', undefined, { cache: 'no-store' })
      .then(({ publishableKey }) => setConfig({ status: 'ready', publishableKey }))
      .catch(() => setConfig({ status: 'error' }));
  }, [rules.timeZone, texts]);

  const amountCents = preset !== null ? preset * 100 : custom ? toCents(custom) : null;
  const draft: Draft = { amountCents, values, citizenship, attestations, monthly };
  // Read on the client only (the choice is off in the server's HTML): the party's date now.
  const months = monthly ? monthsLeft(rules.timeZone) : 1;
  const line = monthly && amountCents !== null ? monthlyLine(texts, amountCents, nextMonthly(rules.timeZone)) : null;

  // A problem goes away once the donor changes what it was about.
  const clearProblem = (field: string) => problem?.field === field && setProblem(null);
  const set = (name: string, value: string) => {
    setValues((v) => ({ ...v, [name]: value }));
    clearProblem(name);
    setMissing((m) => m.filter((f) => f !== name));
  };

  function show(found: Problem, title = found.title) {
    setProblem(found);
    toast({ variant: 'destructive', title, description: found.description });
    // After React has marked the field, move focus to it (WCAG 3.3.1).
    requestAnimationFrame(() => {
      const target = found.field === 'amount' && preset !== null ? document.getElementById(id(`preset-${preset}`)) : document.getElementById(id(found.field));
      target?.focus();
    });
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (pending) return;
    const found = firstProblem(rules, year, draft, allowance, months);
    setMissing(found?.field && found.title === texts.missingInfo.title ? DONOR_FIELDS.filter((f) => !values[f]?.trim()) : []);
    if (found) return show(found);
    setProblem(null);
    if (config.status !== 'ready' || config.publishableKey === null) {
      toast({ variant: 'destructive', title: texts.setupFailed.title, description: texts.unavailable });
      return;
    }
    setPending(true);
    const step = loadPaymentStep();
    try {
      const reply = await apiRequest<{ clientSecret?: string; ticket?: string }>('POST', '/api/create-payment-intent', paymentRequest(draft, amountCents!), {
        headers: passHeaders(values.donorEmail ?? ''),
      });
      if (!reply?.clientSecret) {
        toast({ variant: 'destructive', title: texts.setupFailed.title, description: texts.noClientSecret });
        return;
      }
      await step;
      setStage({ name: 'payment', clientSecret: reply.clientSecret, ticket: reply.ticket ?? null, amountCents: amountCents!, monthlyLine: line });
    } catch (error) {
      const description = failureText(error, texts.setupFailed.description);
      if (error instanceof ApiError && error.field) show({ title: texts.setupFailed.title, description, field: error.field });
      else toast({ variant: 'destructive', title: texts.setupFailed.title, description });
    } finally {
      setPending(false);
    }
  }

  function reset() {
    setStage({ name: 'details' });
    setPreset(null);
    setCustom('');
    setValues({});
    setCitizenship(false);
    setAttestations(false);
    setMonthly(false);
    window.history.replaceState(null, '', window.location.pathname);
  }

  return {
    year,
    hydrated,
    config,
    stage,
    preset,
    custom,
    values,
    citizenship,
    attestations,
    monthly,
    monthlyLine: line,
    problem,
    pending,
    allowanceState,
    allowance,
    limit: limitFor(rules.annualLimits, year),
    ceiling: ceilingCents(rules, year, allowance),
    overLimit: isOverLimit(rules, year, amountCents, allowance),
    employmentRequired: needsEmployment(rules, amountCents, allowance, months),
    unavailable: config.status === 'ready' && config.publishableKey === null,
    /** Whether field `name` is marked as at fault, and what is wrong with it. */
    invalid: (name: string) => problem?.field === name || missing.includes(name),
    error: (name: string) => (problem?.field === name ? problem.description : undefined),
    set,
    choosePreset: (dollars: number) => {
      setPreset(dollars);
      setCustom('');
      clearProblem('amount');
    },
    setCustomAmount: (value: string) => {
      setCustom(value);
      setPreset(null);
      clearProblem('amount');
    },
    confirmCitizenship: (on: boolean) => {
      setCitizenship(on);
      clearProblem('citizenshipConfirmed');
    },
    chooseMonthly: (on: boolean) => setMonthly(on),
    confirmAttestations: (on: boolean) => {
      setAttestations(on);
      clearProblem('attestationsConfirmed');
    },
    onSubmit,
    reset,
    backToDetails: () => setStage({ name: 'details' }),
  };
}

/** What the payment step lists back to the donor: amount, name, e-mail, address, and the
 *  employment details and purpose when given. */
export function paymentSummary(rules: DonateRules, values: Record<string, string>, amountCents: number, monthly = false): [string, string][] {
  const purpose = rules.purposes.find((p) => p.value === values.contributionPurpose)?.label;
  const state = rules.states.find((s) => s.value === values.donorState)?.label ?? values.donorState;
  const summary: [string, string][] = [
    ['Amount', monthly ? `${formatAmount(amountCents)} every month` : formatAmount(amountCents)],
    ['Name', `${values.donorFirstName?.trim()} ${values.donorLastName?.trim()}`],
    ['Email', values.donorEmail?.trim() ?? ''],
    ['Address', `${values.donorAddress?.trim()}, ${values.donorCity?.trim()}, ${state} ${values.donorZipCode?.trim()}`],
  ];
  if (values.donorOccupation?.trim()) summary.push(['Occupation', values.donorOccupation.trim()]);
  if (values.donorEmployer?.trim()) summary.push(['Employer', values.donorEmployer.trim()]);
  if (purpose) summary.push(['Purpose', purpose]);
  return summary;
}
