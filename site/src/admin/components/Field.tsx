import type { ReactNode, Ref } from 'react';

/** A form field: its label (with an optional hint such as "(optional)"), something at the
 *  label's right such as a counter, then the control. */
export function Field({
  label,
  htmlFor,
  hint,
  counter,
  children,
}: {
  label: string;
  htmlFor: string;
  hint?: string;
  counter?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div>
      <div className="flex items-end justify-between gap-3">
        <label htmlFor={htmlFor} className="field-label">
          {label}
          {hint && <span className="font-normal text-slate-700"> {hint}</span>}
        </label>
        {counter}
      </div>
      {children}
    </div>
  );
}

export interface TextFieldProps {
  id: string;
  label: string;
  hint?: string;
  value: string;
  maxLength: number;
  placeholder: string;
  /** A text area of this many rows; without it, a one-line input. */
  rows?: number;
  /** The id of what describes the control (a help line, a counter). */
  describedBy?: string;
  inputRef?: Ref<HTMLInputElement>;
  /** At the label's right. */
  counter?: ReactNode;
  onChange: (value: string) => void;
  /** Below the control: a help line. */
  children?: ReactNode;
}

/** A labelled text input (or text area). */
export function TextField({ id, label, hint, value, maxLength, placeholder, rows, describedBy, inputRef, counter, onChange, children }: TextFieldProps) {
  const control = { id, className: 'field-input', value, maxLength, placeholder, 'aria-describedby': describedBy };
  return (
    <Field label={label} htmlFor={id} hint={hint} counter={counter}>
      {rows ? (
        <textarea rows={rows} {...control} onChange={(e) => onChange(e.target.value)} />
      ) : (
        <input ref={inputRef} {...control} onChange={(e) => onChange(e.target.value)} />
      )}
      {children}
    </Field>
  );
}
