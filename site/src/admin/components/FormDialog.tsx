// A button that opens a small form in a dialog (Radix Dialog): for actions that need a few
// words from staff first (erasing a person, recording a text opt-out). The server's refusal
// is shown inside the dialog, under the fields, and the dialog stays open with what was
// typed; success closes it. Focus returns to the button when it closes.
import * as Dialog from '@radix-ui/react-dialog';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { ApiError } from '../../lib/api';
import { isUnauthorized } from '../app/client';

/** What the fields need to point at the problem line. */
export interface ProblemLink {
  invalid: boolean | undefined;
  describedBy: string | undefined;
}

interface Props {
  /** The button's visible text. */
  trigger: string;
  /** Its accessible name, when the text alone does not say which item it is for. */
  triggerLabel?: string;
  triggerClassName?: string;
  title: string;
  description: ReactNode;
  /** The submit button, and its text while the request runs. */
  submit: string;
  pending: string;
  /** The button that closes the dialog without sending ("Cancel" unless this says). */
  dismiss?: string;
  tone?: 'danger' | 'primary';
  /** Whether the fields are complete enough to send. */
  ready: boolean;
  /** Said when the server gave no message (the network is down, say). */
  failure: string;
  /** Sends the form; a thrown ApiError's message is shown in the dialog. */
  onSubmit: () => Promise<void>;
  /** Called when the dialog opens, to fill the fields. */
  onOpened?: () => void;
  /** Called when the dialog closes, to clear the fields. */
  onClosed?: () => void;
  /** Whether focus goes back to the button as the dialog closes (it does unless this says
   *  no: after a success that shows something new, which takes the focus itself). */
  returnFocus?: () => boolean;
  children: (problem: ProblemLink) => ReactNode;
}

export function FormDialog(props: Props) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const change = (next: boolean) => {
    setOpen(next);
    if (next) props.onOpened?.();
    if (!next) {
      setProblem(null);
      props.onClosed?.();
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setProblem(null);
    setBusy(true);
    try {
      await props.onSubmit();
      change(false);
    } catch (error) {
      // A lapsed session is the session's business: it signs staff out and says so.
      if (!isUnauthorized(error)) setProblem(error instanceof ApiError ? error.message : props.failure);
    } finally {
      setBusy(false);
    }
  };

  const action = props.tone === 'primary' ? 'btn btn-primary' : 'btn bg-crimson text-white hover:bg-crimson-dark';
  const link: ProblemLink = { invalid: problem ? true : undefined, describedBy: problem ? `${id}-problem` : undefined };
  return (
    <Dialog.Root open={open} onOpenChange={change}>
      <Dialog.Trigger className={props.triggerClassName ?? 'btn btn-outline'} aria-label={props.triggerLabel}>
        {props.trigger}
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-ink/60" />
        <Dialog.Content
          className="fixed top-1/2 left-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-xl bg-white p-6 shadow-xl focus:outline-none"
          onCloseAutoFocus={(event) => {
            if (props.returnFocus && !props.returnFocus()) event.preventDefault();
          }}
        >
          <Dialog.Title className="font-serif text-xl font-bold text-navy">{props.title}</Dialog.Title>
          <Dialog.Description className="mt-3 text-slate-700">{props.description}</Dialog.Description>
          <form onSubmit={submit} className="mt-5" noValidate>
            {props.children(link)}
            <p id={`${id}-problem`} role="alert" className="mt-2 min-h-5 text-sm font-semibold text-crimson-dark">
              {problem}
            </p>
            <div className="mt-4 flex flex-wrap justify-end gap-3">
              <Dialog.Close className="btn btn-outline">{props.dismiss ?? 'Cancel'}</Dialog.Close>
              <button type="submit" className={action} disabled={busy || !props.ready}>
                {busy ? props.pending : props.submit}
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
