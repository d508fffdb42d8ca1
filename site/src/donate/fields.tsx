// The donate form's fields: a donor field (text input or select, with its hint and error),
// a confirmation checkbox, and the line that tells the donor what is left of the year's
// limit.
import { type ReactNode, useMemo } from 'react';
import { FieldLabel } from '../components/FormField';
import { type FieldRule, inputTypes } from '../lib/forms';
import { type Allowance, type DonateRules, formatDollars } from './rules';
import type { AllowanceState } from './useAllowance';

export function ErrorText({ id, text }: { id: string; text?: string }) {
  return text ? (
    <p id={id} className="mt-1 text-sm font-semibold text-crimson-dark">
      {text}
    </p>
  ) : null;
}

export interface FieldProps {
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

export function DonorField({ rule, id, value, onChange, invalid, error, choices, extraDescribedBy, children }: FieldProps) {
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

export function AllowanceLine({ id, state, texts }: { id: string; state: AllowanceState; texts: DonateRules['texts'] }) {
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

export function Checkbox({ id, checked, invalid, error, describedBy, onChange, children }: CheckboxProps) {
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
