// A small modal that asks for one value (a link's address, an image's alt text), on Radix
// Dialog: focus moves into it, is trapped there, Escape cancels, and the page behind is
// inert to assistive technology.
import * as Dialog from '@radix-ui/react-dialog';
import { useId, useState, type FormEvent } from 'react';

export type PromptDialogProps = {
  title: string;
  description: string;
  label: string;
  initialValue: string;
  submitLabel: string;
  inputType?: 'text' | 'url';
  maxLength?: number;
  /** An error message for a value that cannot be used, else null. */
  validate?: (value: string) => string | null;
  onSubmit: (value: string) => void;
  onCancel: () => void;
  /** A further action, such as removing the link. */
  extra?: { label: string; onClick: () => void };
  /** Where focus goes once the dialog has closed (by default, back to what opened it). */
  onClosed?: () => void;
};

export function PromptDialog(props: PromptDialogProps) {
  const { title, description, label, initialValue, submitLabel, inputType = 'text', maxLength, validate, onSubmit, onCancel, extra, onClosed } = props;
  const [value, setValue] = useState(initialValue);
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();
  const errorId = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = value.trim();
    const problem = validate?.(trimmed) ?? null;
    setError(problem);
    if (problem === null) onSubmit(trimmed);
  };
  return (
    <Dialog.Root open onOpenChange={(open) => !open && onCancel()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/40" />
        <Dialog.Content
          className="fixed top-1/2 left-1/2 z-50 w-[min(28rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 rounded-lg bg-white p-6 shadow-xl"
          onCloseAutoFocus={(event) => {
            if (onClosed) {
              event.preventDefault();
              onClosed();
            }
          }}
        >
          <Dialog.Title className="text-lg font-bold text-navy">{title}</Dialog.Title>
          <Dialog.Description className="mt-1 text-sm text-slate-700">{description}</Dialog.Description>
          <form className="mt-4" onSubmit={submit} noValidate>
            <label htmlFor={inputId} className="field-label">
              {label}
            </label>
            <input
              id={inputId}
              type={inputType}
              className="field-input"
              value={value}
              maxLength={maxLength}
              onChange={(event) => setValue(event.target.value)}
              aria-invalid={error !== null}
              aria-describedby={error ? errorId : undefined}
              autoComplete="off"
            />
            <p id={errorId} role="alert" className="mt-2 min-h-5 text-sm font-semibold text-crimson">
              {error}
            </p>
            <div className="mt-4 flex flex-wrap justify-end gap-2">
              {extra && (
                <button type="button" className="btn btn-outline mr-auto" onClick={extra.onClick}>
                  {extra.label}
                </button>
              )}
              <Dialog.Close asChild>
                <button type="button" className="btn btn-outline">
                  Cancel
                </button>
              </Dialog.Close>
              <button type="submit" className="btn btn-primary">
                {submitLabel}
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
