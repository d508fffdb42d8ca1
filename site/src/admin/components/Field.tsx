import type { ReactNode } from 'react';

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
