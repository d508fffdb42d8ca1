// The donate page: choose an amount, say who you are (and confirm what federal law asks),
// then pay with Stripe's Payment Element. Rules, limits and texts come from the server's
// rules (generator/src/donations.rs) through the props; the server checks everything again.
import { type FormEvent, type ReactNode, Suspense, lazy, useEffect, useMemo, useState } from 'react';
import { ApiError, apiRequest, failureText } from '../lib/api';
import type { FieldRule } from '../lib/forms';
import { toast } from '../lib/toast';
import { FieldLabel } from '../components/FormField';
import {
  type Allowance,
  type DonateCopy,
  type DonateRules,
  type Draft,
  type Problem,
  EMPLOYMENT_FIELDS,
  ceilingCents,
  firstProblem,
  formatAmount,
  formatDollars,
  isOverLimit,
  limitFor,
  limitMessage,
  needsEmployment,
  paymentRequest,
  toCents,
  yearIn,
} from '../donate/rules';
import { passHeaders, redeemTicket } from '../donate/pass';
import { takePayment } from '../donate/pending';
import { type AllowanceState, useAllowance } from '../donate/useAllowance';

// The payment step (Stripe's React bindings and loader) is a chunk of its own: most visitors
// never reach it, and it is fetched while the server sets the payment up.
const loadPaymentStep = () => import('../donate/PaymentStep');
const PaymentStep = lazy(() => loadPaymentStep().then((m) => ({ default: m.PaymentStep })));

interface Props {
  idPrefix: string;
  rules: DonateRules;
  copy: DonateCopy;
}

type Config = { status: 'loading' } | { status: 'ready'; publishableKey: string | null } | { status: 'error' };
type Stage =
  { name: 'details' } | { name: 'payment'; clientSecret: string; ticket: string | null; amountCents: number } | { name: 'done'; amountCents: number | null };

const DONOR_FIELDS = ['donorFirstName', 'donorLastName', 'donorEmail', 'donorAddress', 'donorCity', 'donorState', 'donorZipCode'];

export default function DonateFlow({ idPrefix, rules, copy }: Props) {
  const { texts } = rules;
  const id = (name: string) => `${idPrefix}-${name}`;
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
  const [problem, setProblem] = useState<Problem | null>(null);
  const [missing, setMissing] = useState<string[]>([]);
  const [pending, setPending] = useState(false);
  const allowanceState = useAllowance(values.donorEmail ?? '', year);
  const allowance = allowanceState.status === 'ready' ? allowanceState.allowance : null;

  useEffect(() => {
    setHydrated(true);
    setYear(yearIn(rules.timeZone));
    const params = new URLSearchParams(window.location.search);
    if (params.get('success') === 'true') {
      const { amountCents, ticket, email } = takePayment();
      if (ticket && email && params.get('redirect_status') !== 'failed') void redeemTicket(ticket, email);
      if (params.get('redirect_status') === 'failed') {
        toast({ variant: 'destructive', title: texts.paymentFailed.title, description: texts.paymentFailed.description });
      } else {
        setStage({ name: 'done', amountCents });
        toast({ title: texts.success, description: amountCents === null ? undefined : formatAmount(amountCents) });
      }
    }
    apiRequest<{ publishableKey: string | null }>('GET', '/api/donations/config', undefined, { cache: 'no-store' })
      .then(({ publishableKey }) => setConfig({ status: 'ready', publishableKey }))
      .catch(() => setConfig({ status: 'error' }));
  }, [rules.timeZone, texts]);

  const amountCents = preset !== null ? preset * 100 : custom ? toCents(custom) : null;
  const limit = limitFor(rules.annualLimits, year);
  const ceiling = ceilingCents(rules, year, allowance);
  const overLimit = isOverLimit(rules, year, amountCents, allowance);
  const employmentRequired = needsEmployment(rules, amountCents, allowance);
  const unavailable = config.status === 'ready' && config.publishableKey === null;
  const draft: Draft = { amountCents, values, citizenship, attestations };

  // A problem goes away once the donor changes what it was about.
  const set = (name: string, value: string) => {
    setValues((v) => ({ ...v, [name]: value }));
    if (problem?.field === name) setProblem(null);
    setMissing((m) => m.filter((f) => f !== name));
  };
  const clearAmountProblem = () => problem?.field === 'amount' && setProblem(null);

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
    const found = firstProblem(rules, year, draft, allowance);
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
      setStage({ name: 'payment', clientSecret: reply.clientSecret, ticket: reply.ticket ?? null, amountCents: amountCents! });
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
    window.history.replaceState(null, '', window.location.pathname);
  }

  if (stage.name === 'done') {
    return (
      <div className="mt-6 rounded-xl bg-cream p-6" role="status">
        <p className="font-serif text-2xl font-bold text-navy">{texts.success}</p>
        {stage.amountCents !== null && <p className="mt-2 text-slate-800">{copy.thankYou.replace('$A', formatAmount(stage.amountCents))}</p>}
        <button type="button" className="btn btn-primary mt-5" onClick={reset}>
          {copy.giveAgain}
        </button>
      </div>
    );
  }

  if (stage.name === 'payment' && config.status === 'ready' && config.publishableKey) {
    const purpose = rules.purposes.find((p) => p.value === values.contributionPurpose)?.label;
    const state = rules.states.find((s) => s.value === values.donorState)?.label ?? values.donorState;
    const summary: [string, string][] = [
      ['Amount', formatAmount(stage.amountCents)],
      ['Name', `${values.donorFirstName?.trim()} ${values.donorLastName?.trim()}`],
      ['Email', values.donorEmail?.trim() ?? ''],
      ['Address', `${values.donorAddress?.trim()}, ${values.donorCity?.trim()}, ${state} ${values.donorZipCode?.trim()}`],
    ];
    if (values.donorOccupation?.trim()) summary.push(['Occupation', values.donorOccupation.trim()]);
    if (values.donorEmployer?.trim()) summary.push(['Employer', values.donorEmployer.trim()]);
    if (purpose) summary.push(['Purpose', purpose]);
    return (
      <Suspense>
        <PaymentStep
          idPrefix={idPrefix}
          publishableKey={config.publishableKey}
          clientSecret={stage.clientSecret}
          amountCents={stage.amountCents}
          ticket={stage.ticket}
          email={values.donorEmail?.trim() ?? ''}
          summary={summary}
          copy={copy}
          texts={texts}
          onChange={() => setStage({ name: 'details' })}
        />
      </Suspense>
    );
  }

  const fieldRule = (name: string) => rules.fields.find((f) => f.name === name)!;
  const invalid = (name: string) => problem?.field === name || missing.includes(name);
  const error = (name: string) => (problem?.field === name ? problem.description : undefined);

  return (
    <form noValidate onSubmit={onSubmit} className="mt-6 space-y-8" aria-describedby={id('tax')}>
      <fieldset aria-describedby={`${id('limit-note')} ${problem?.field === 'amount' ? id('amount-error') : ''}`.trim()}>
        <legend className="field-label text-base">{copy.amountLegend}</legend>
        <div className="mt-3 grid grid-cols-3 gap-3">
          {rules.presets.map((dollars) => (
            <div key={dollars}>
              <input
                type="radio"
                className="peer sr-only"
                name="preset"
                id={id(`preset-${dollars}`)}
                value={dollars}
                checked={preset === dollars}
                onChange={() => {
                  setPreset(dollars);
                  setCustom('');
                  clearAmountProblem();
                }}
              />
              <label
                htmlFor={id(`preset-${dollars}`)}
                className="flex min-h-11 cursor-pointer items-center justify-center rounded-md border-2 border-navy px-3 py-2 text-base font-semibold text-navy peer-checked:bg-navy peer-checked:text-white peer-focus-visible:outline-3 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-gold hover:bg-navy/10 peer-checked:hover:bg-navy"
              >
                ${dollars.toLocaleString('en-US')}
              </label>
            </div>
          ))}
        </div>
        <label htmlFor={id('amount')} className="field-label mt-4">
          {copy.customLabel}
        </label>
        <div className="relative mt-1 max-w-xs">
          <span aria-hidden="true" className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-slate-600">
            $
          </span>
          <input
            id={id('amount')}
            name="amount"
            type="number"
            inputMode="decimal"
            min={1}
            step={0.01}
            max={ceiling === null ? rules.defaultMax : allowance ? ceiling / 100 : rules.defaultMax}
            value={custom}
            onChange={(e) => {
              setCustom(e.target.value);
              setPreset(null);
              clearAmountProblem();
            }}
            aria-invalid={invalid('amount') || undefined}
            aria-describedby={error('amount') ? id('amount-error') : undefined}
            className="field-input !mt-0 pl-7"
          />
        </div>
        <p id={id('limit-note')} className="mt-2 text-sm text-slate-700">
          {limit !== null && copy.limitNote.replace('$L', `$${formatDollars(limit * 100)}`).replace('{year}', String(year))}
        </p>
        <ErrorText id={id('amount-error')} text={error('amount')} />
        <div aria-live="polite">
          {overLimit && (
            <div className="mt-3 rounded-lg border-2 border-crimson bg-crimson/5 p-4 text-sm text-ink">
              <p className="font-semibold text-crimson-dark">{texts.limitExceeded.title}</p>
              <p className="mt-1">{limitMessage(texts, ceiling ?? 0)}</p>
            </div>
          )}
        </div>
      </fieldset>

      <fieldset className="space-y-5">
        <legend className="field-label text-base">{copy.donorLegend}</legend>
        <div className="grid gap-5 sm:grid-cols-2">
          <DonorField
            rule={fieldRule('donorFirstName')}
            id={id('donorFirstName')}
            value={values.donorFirstName}
            onChange={set}
            invalid={invalid('donorFirstName')}
            error={error('donorFirstName')}
          />
          <DonorField
            rule={fieldRule('donorLastName')}
            id={id('donorLastName')}
            value={values.donorLastName}
            onChange={set}
            invalid={invalid('donorLastName')}
            error={error('donorLastName')}
          />
        </div>
        <DonorField
          rule={fieldRule('donorEmail')}
          id={id('donorEmail')}
          value={values.donorEmail}
          onChange={set}
          invalid={invalid('donorEmail')}
          error={error('donorEmail')}
          extraDescribedBy={id('allowance')}
        >
          <AllowanceLine id={id('allowance')} state={allowanceState} texts={rules.texts} />
        </DonorField>
        <DonorField
          rule={fieldRule('donorAddress')}
          id={id('donorAddress')}
          value={values.donorAddress}
          onChange={set}
          invalid={invalid('donorAddress')}
          error={error('donorAddress')}
        />
        <div className="grid gap-5 sm:grid-cols-[2fr_2fr_1fr]">
          <DonorField
            rule={fieldRule('donorCity')}
            id={id('donorCity')}
            value={values.donorCity}
            onChange={set}
            invalid={invalid('donorCity')}
            error={error('donorCity')}
          />
          <DonorField
            rule={fieldRule('donorState')}
            id={id('donorState')}
            value={values.donorState}
            onChange={set}
            invalid={invalid('donorState')}
            error={error('donorState')}
            choices={rules.states}
          />
          <DonorField
            rule={fieldRule('donorZipCode')}
            id={id('donorZipCode')}
            value={values.donorZipCode}
            onChange={set}
            invalid={invalid('donorZipCode')}
            error={error('donorZipCode')}
          />
        </div>
      </fieldset>

      <fieldset className="space-y-5" aria-describedby={id('employment-hint')}>
        <legend className="field-label text-base">{copy.employmentLegend}</legend>
        <p id={id('employment-hint')} className="-mt-3 text-sm text-slate-700">
          {copy.employmentHint}
        </p>
        <div className="grid gap-5 sm:grid-cols-2">
          {EMPLOYMENT_FIELDS.filter((n) => n !== 'contributionPurpose').map((name) => (
            <DonorField
              key={name}
              rule={{ ...fieldRule(name), required: employmentRequired }}
              id={id(name)}
              value={values[name]}
              onChange={set}
              invalid={invalid(name)}
              error={error(name)}
            />
          ))}
        </div>
        <DonorField
          rule={{ ...fieldRule('contributionPurpose'), required: employmentRequired }}
          id={id('contributionPurpose')}
          value={values.contributionPurpose}
          onChange={set}
          invalid={invalid('contributionPurpose')}
          error={error('contributionPurpose')}
          choices={rules.purposes}
        />
      </fieldset>

      <fieldset className="space-y-4">
        <legend className="field-label text-base">{copy.confirmLegend}</legend>
        <Checkbox
          id={id('citizenshipConfirmed')}
          checked={citizenship}
          invalid={invalid('citizenshipConfirmed')}
          error={error('citizenshipConfirmed')}
          onChange={(on) => {
            setCitizenship(on);
            if (problem?.field === 'citizenshipConfirmed') setProblem(null);
          }}
        >
          {copy.citizenshipLabel}
        </Checkbox>
        <Checkbox
          id={id('attestationsConfirmed')}
          checked={attestations}
          invalid={invalid('attestationsConfirmed')}
          error={error('attestationsConfirmed')}
          describedBy={id('attestations')}
          onChange={(on) => {
            setAttestations(on);
            if (problem?.field === 'attestationsConfirmed') setProblem(null);
          }}
        >
          {copy.attestationsLabel}
        </Checkbox>
        <ul id={id('attestations')} className="ml-8 list-disc space-y-1 text-sm text-slate-700">
          {copy.attestations.map((statement) => (
            <li key={statement}>{statement}</li>
          ))}
        </ul>
        <p className="text-sm text-slate-700">{copy.legalNotice}</p>
        <p id={id('tax')} className="text-sm text-slate-700">
          {copy.taxNotice}
        </p>
      </fieldset>

      {unavailable && (
        <p role="status" className="rounded-lg bg-cream p-4 font-semibold text-ink">
          {texts.unavailable}
        </p>
      )}
      <button type="submit" className="btn btn-donate w-full text-base sm:w-auto" disabled={!hydrated || pending || unavailable}>
        {pending ? texts.proceedPending : texts.proceed}
      </button>
    </form>
  );
}

function ErrorText({ id, text }: { id: string; text?: string }) {
  return text ? (
    <p id={id} className="mt-1 text-sm font-semibold text-crimson-dark">
      {text}
    </p>
  ) : null;
}

interface FieldProps {
  rule: FieldRule;
  id: string;
  value?: string;
  onChange: (name: string, value: string) => void;
  invalid: boolean;
  error?: string;
  /** A select's options instead of a text input. */
  choices?: { value: string; label: string }[];
  extraDescribedBy?: string;
  children?: ReactNode;
}

const inputTypes = { text: 'text', longText: 'text', email: 'email', phone: 'tel', zip: 'text' } as const;

function DonorField({ rule, id, value, onChange, invalid, error, choices, extraDescribedBy, children }: FieldProps) {
  const describedBy = [rule.hint && `${id}-hint`, extraDescribedBy, error && `${id}-error`].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    name: rule.name,
    value: value ?? '',
    'aria-required': rule.required || undefined,
    'aria-invalid': invalid || undefined,
    'aria-describedby': describedBy,
    autoComplete: rule.autocomplete,
    className: 'field-input',
  };
  return (
    <div>
      <FieldLabel rule={rule} id={id} />
      {choices ? (
        <select {...common} onChange={(e) => onChange(rule.name, e.target.value)}>
          <option value="">Select…</option>
          {choices.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </select>
      ) : (
        <input
          {...common}
          type={inputTypes[rule.kind]}
          maxLength={rule.maxLength}
          inputMode={rule.kind === 'zip' ? 'numeric' : undefined}
          pattern={rule.pattern}
          onChange={(e) => onChange(rule.name, e.target.value)}
        />
      )}
      {rule.hint && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600">
          {rule.hint}
        </p>
      )}
      {children}
      <ErrorText id={`${id}-error`} text={error} />
    </div>
  );
}

function AllowanceLine({ id, state, texts }: { id: string; state: AllowanceState; texts: DonateRules['texts'] }) {
  const text = useMemo(() => {
    switch (state.status) {
      case 'idle':
      case 'unknown':
        return '';
      case 'loading':
        return texts.summaryLoading;
      case 'error':
        return texts.summaryError;
      case 'ready':
        return describe(state.allowance);
    }
  }, [state, texts]);
  // Two lines are kept free, so the answer never pushes the form down.
  return (
    <p id={id} aria-live="polite" className="mt-1 min-h-10 text-sm text-slate-700">
      {text}
    </p>
  );
}

function describe({ completed, pending, remaining }: Allowance): string {
  const dollars = (n: number) => `$${formatDollars(Math.round(n * 100))}`;
  const given = completed > 0 ? `You have given ${dollars(completed)} this year. ` : '';
  const waiting = pending > 0 ? `${dollars(pending)} is still being processed. ` : '';
  return `${given}${waiting}You can give up to ${dollars(remaining)} more this year.`;
}

interface CheckboxProps {
  id: string;
  checked: boolean;
  invalid: boolean;
  error?: string;
  describedBy?: string;
  onChange: (checked: boolean) => void;
  children: ReactNode;
}

function Checkbox({ id, checked, invalid, error, describedBy, onChange, children }: CheckboxProps) {
  return (
    <div>
      <div className="flex items-start gap-3">
        <input
          id={id}
          type="checkbox"
          checked={checked}
          onChange={(e) => onChange(e.target.checked)}
          aria-required="true"
          aria-invalid={invalid || undefined}
          aria-describedby={[describedBy, error && `${id}-error`].filter(Boolean).join(' ') || undefined}
          className="mt-1 h-5 w-5 shrink-0 accent-navy"
        />
        <label htmlFor={id} className="text-sm font-medium text-ink">
          {children}
        </label>
      </div>
      <ErrorText id={`${id}-error`} text={error} />
    </div>
  );
}
