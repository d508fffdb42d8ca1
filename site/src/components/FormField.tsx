import { type FieldRule, inputTypes } from '../lib/forms';

interface Props {
  rule: FieldRule;
  id: string;
}

/** A field's visible label: its text, and an asterisk (hidden from screen readers, which
 * hear the field's own required state) or "(optional)". */
export function FieldLabel({ rule, id }: Props) {
  return (
    <label htmlFor={id} className="field-label">
      {rule.label}
      {rule.required ? (
        <span aria-hidden="true" className="text-crimson">
          {' '}
          *
        </span>
      ) : (
        <span className="font-normal text-slate-600"> (optional)</span>
      )}
    </label>
  );
}

/** A labelled input whose label, help and limits come from the server's rules. */
export function FormField({ rule, id }: Props) {
  const common = {
    id,
    name: rule.name,
    required: rule.required,
    maxLength: rule.maxLength,
    autoComplete: rule.autocomplete,
    className: 'field-input',
    'aria-describedby': rule.hint ? `${id}-hint` : undefined,
  };
  return (
    <div>
      <FieldLabel rule={rule} id={id} />
      {rule.kind === 'longText' ? (
        <textarea {...common} rows={rule.rows ?? 5} />
      ) : (
        <input
          {...common}
          type={inputTypes[rule.kind]}
          inputMode={rule.kind === 'zip' ? 'numeric' : undefined}
          pattern={rule.pattern}
          title={rule.kind === 'zip' ? '5-digit ZIP code, or ZIP+4' : undefined}
        />
      )}
      {rule.hint && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600">
          {rule.hint}
        </p>
      )}
    </div>
  );
}

/** A field people never see or reach; bots that fill it are answered but not stored. */
export function Honeypot({ id, name }: { id: string; name: string }) {
  return (
    <div className="honeypot" aria-hidden="true">
      <label htmlFor={id}>Leave this field empty</label>
      <input id={id} name={name} type="text" tabIndex={-1} autoComplete="off" />
    </div>
  );
}
