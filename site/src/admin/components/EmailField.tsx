import type { ProblemLink } from './FormDialog';

/** A dialog's e-mail address field, tied to the dialog's problem line when it has one. */
export function EmailField({
  id,
  label,
  value,
  onChange,
  problem,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  problem: ProblemLink;
}) {
  return (
    <>
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <input
        id={id}
        type="email"
        required
        autoComplete="off"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={problem.invalid}
        aria-describedby={problem.describedBy}
        className="field-input"
      />
    </>
  );
}
