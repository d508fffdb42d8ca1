// The donate page: choose an amount, say who you are (and confirm what federal law asks),
// then pay with Stripe's Payment Element. Rules, limits and texts come from the server's
// rules (generator/src/donations.rs) through the props; the server checks everything again.
// The state and the flow are in donate/useDonateFlow.ts; this draws them.
import { Suspense, lazy } from 'react';
import { AllowanceLine, Checkbox, DonorField, ErrorText, type FieldProps } from '../donate/fields';
import { type DonateCopy, type DonateRules, EMPLOYMENT_FIELDS, formatAmount, formatDollars, limitMessage } from '../donate/rules';
import { loadPaymentStep, paymentSummary, useDonateFlow } from '../donate/useDonateFlow';

const PaymentStep = lazy(() => loadPaymentStep().then((m) => ({ default: m.PaymentStep })));

interface Props {
  idPrefix: string;
  rules: DonateRules;
  copy: DonateCopy;
}

export default function DonateFlow({ idPrefix, rules, copy }: Props) {
  const { texts } = rules;
  const id = (name: string) => `${idPrefix}-${name}`;
  const flow = useDonateFlow(rules, id);
  const { stage, config, values, problem, invalid, error } = flow;

  if (stage.name === 'done') {
    return (
      <div className="mt-6 rounded-xl bg-cream p-6" role="status">
        <p className="font-serif text-2xl font-bold text-navy">{texts.success}</p>
        {stage.amountCents !== null && <p className="mt-2 text-slate-800">{copy.thankYou.replace('$A', formatAmount(stage.amountCents))}</p>}
        <button type="button" className="btn btn-primary mt-5" onClick={flow.reset}>
          {copy.giveAgain}
        </button>
      </div>
    );
  }

  if (stage.name === 'payment' && config.status === 'ready' && config.publishableKey) {
    return (
      <Suspense>
        <PaymentStep
          idPrefix={idPrefix}
          publishableKey={config.publishableKey}
          clientSecret={stage.clientSecret}
          amountCents={stage.amountCents}
          ticket={stage.ticket}
          monthlyLine={stage.monthlyLine}
          email={values.donorEmail?.trim() ?? ''}
          summary={paymentSummary(rules, values, stage.amountCents, stage.monthlyLine !== null)}
          copy={copy}
          texts={texts}
          onChange={flow.backToDetails}
        />
      </Suspense>
    );
  }

  const fieldRule = (name: string) => rules.fields.find((f) => f.name === name)!;
  const donorField = (name: string, more: Partial<FieldProps> = {}) => (
    <DonorField
      key={name}
      rule={fieldRule(name)}
      id={id(name)}
      value={values[name]}
      onChange={flow.set}
      invalid={invalid(name)}
      error={error(name)}
      {...more}
    />
  );

  return (
    <form noValidate onSubmit={flow.onSubmit} className="mt-6 space-y-8" aria-describedby={id('tax')}>
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
                checked={flow.preset === dollars}
                onChange={() => flow.choosePreset(dollars)}
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
            max={flow.ceiling === null ? rules.defaultMax : flow.allowance ? flow.ceiling / 100 : rules.defaultMax}
            value={flow.custom}
            onChange={(e) => flow.setCustomAmount(e.target.value)}
            aria-invalid={invalid('amount') || undefined}
            aria-describedby={error('amount') ? id('amount-error') : undefined}
            className="field-input !mt-0 pl-7"
          />
        </div>
        <p id={id('limit-note')} className="mt-2 text-sm text-slate-700">
          {flow.limit !== null && copy.limitNote.replace('$L', `$${formatDollars(flow.limit * 100)}`).replace('{year}', String(flow.year))}
        </p>
        <ErrorText id={id('amount-error')} text={error('amount')} />
        <div aria-live="polite">
          {flow.overLimit && (
            <div className="mt-3 rounded-lg border-2 border-crimson bg-crimson/5 p-4 text-sm text-ink">
              <p className="font-semibold text-crimson-dark">{texts.limitExceeded.title}</p>
              <p className="mt-1">{limitMessage(texts, flow.ceiling ?? 0)}</p>
            </div>
          )}
        </div>
      </fieldset>

      <fieldset aria-describedby={flow.monthlyLine ? id('monthly-line') : undefined}>
        <legend className="field-label text-base">{texts.frequencyLegend}</legend>
        <div className="mt-3 flex flex-wrap gap-x-8 gap-y-3">
          {[
            { value: false, label: texts.once, key: 'once' },
            { value: true, label: texts.monthly, key: 'monthly' },
          ].map((choice) => (
            <label key={choice.key} htmlFor={id(`frequency-${choice.key}`)} className="flex min-h-11 cursor-pointer items-center gap-3 text-base text-ink">
              <input
                type="radio"
                id={id(`frequency-${choice.key}`)}
                name="frequency"
                value={choice.key}
                checked={flow.monthly === choice.value}
                onChange={() => flow.chooseMonthly(choice.value)}
                className="size-5 accent-navy"
              />
              {choice.label}
            </label>
          ))}
        </div>
      </fieldset>

      <fieldset className="space-y-5">
        <legend className="field-label text-base">{copy.donorLegend}</legend>
        <div className="grid gap-5 sm:grid-cols-2">
          {donorField('donorFirstName')}
          {donorField('donorLastName')}
        </div>
        {donorField('donorEmail', {
          extraDescribedBy: id('allowance'),
          children: <AllowanceLine id={id('allowance')} state={flow.allowanceState} texts={rules.texts} />,
        })}
        {donorField('donorAddress')}
        <div className="grid gap-5 sm:grid-cols-[2fr_2fr_1fr]">
          {donorField('donorCity')}
          {donorField('donorState', { choices: rules.states })}
          {donorField('donorZipCode')}
        </div>
      </fieldset>

      <fieldset className="space-y-5" aria-describedby={id('employment-hint')}>
        <legend className="field-label text-base">{copy.employmentLegend}</legend>
        <p id={id('employment-hint')} className="-mt-3 text-sm text-slate-700">
          {copy.employmentHint}
        </p>
        <div className="grid gap-5 sm:grid-cols-2">
          {EMPLOYMENT_FIELDS.filter((n) => n !== 'contributionPurpose').map((name) =>
            donorField(name, { rule: { ...fieldRule(name), required: flow.employmentRequired } }),
          )}
        </div>
        {donorField('contributionPurpose', { rule: { ...fieldRule('contributionPurpose'), required: flow.employmentRequired }, choices: rules.purposes })}
      </fieldset>

      <fieldset className="space-y-4">
        <legend className="field-label text-base">{copy.confirmLegend}</legend>
        <Checkbox
          id={id('citizenshipConfirmed')}
          checked={flow.citizenship}
          invalid={invalid('citizenshipConfirmed')}
          error={error('citizenshipConfirmed')}
          onChange={flow.confirmCitizenship}
        >
          {copy.citizenshipLabel}
        </Checkbox>
        <Checkbox
          id={id('attestationsConfirmed')}
          checked={flow.attestations}
          invalid={invalid('attestationsConfirmed')}
          error={error('attestationsConfirmed')}
          describedBy={id('attestations')}
          onChange={flow.confirmAttestations}
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

      {flow.unavailable && (
        <p role="status" className="rounded-lg bg-cream p-4 font-semibold text-ink">
          {texts.unavailable}
        </p>
      )}
      <div>
        {flow.monthlyLine && (
          <p id={id('monthly-line')} className="mb-3 font-semibold text-navy">
            {flow.monthlyLine}
          </p>
        )}
        <button type="submit" className="btn btn-donate w-full text-base sm:w-auto" disabled={!flow.hydrated || flow.pending || flow.unavailable}>
          {flow.pending ? texts.proceedPending : texts.proceed}
        </button>
      </div>
    </form>
  );
}
