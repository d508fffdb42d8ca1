// A button that asks first (Radix AlertDialog): deletes and publishing. Focus starts on
// Cancel, Escape cancels, and focus returns to the button when the dialog closes.
import * as AlertDialog from '@radix-ui/react-alert-dialog';
import type { ReactNode } from 'react';

interface Props {
  /** The button's visible text ("Delete"). */
  trigger: string;
  /** Its accessible name, naming the item ("Delete contact submission from Ann Lee"). */
  triggerLabel: string;
  title: string;
  description: ReactNode;
  confirm: string;
  onConfirm: () => void;
  /** While this item's action is pending. */
  disabled?: boolean;
  tone?: 'danger' | 'primary';
}

export function ConfirmDialog({ trigger, triggerLabel, title, description, confirm, onConfirm, disabled, tone = 'danger' }: Props) {
  const action = tone === 'danger' ? 'btn bg-crimson text-white hover:bg-crimson-dark' : 'btn btn-primary';
  return (
    <AlertDialog.Root>
      <AlertDialog.Trigger
        className={tone === 'danger' ? 'btn border-2 border-crimson px-3 text-crimson hover:bg-crimson hover:text-white' : 'btn btn-primary px-3'}
        aria-label={triggerLabel}
        disabled={disabled}
      >
        {trigger}
      </AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-ink/60" />
        <AlertDialog.Content className="fixed top-1/2 left-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-xl bg-white p-6 shadow-xl focus:outline-none">
          <AlertDialog.Title className="font-serif text-xl font-bold text-navy">{title}</AlertDialog.Title>
          <AlertDialog.Description className="mt-3 text-slate-700">{description}</AlertDialog.Description>
          <div className="mt-6 flex flex-wrap justify-end gap-3">
            <AlertDialog.Cancel className="btn btn-outline">Cancel</AlertDialog.Cancel>
            <AlertDialog.Action className={action} onClick={onConfirm}>
              {confirm}
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
