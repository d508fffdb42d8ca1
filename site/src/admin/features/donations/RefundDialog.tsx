// "Refund" on a completed gift: how much (all that is left, unless staff type less) and why
// (required, kept in the audit log), confirmed in a dialog whose button names the amount.
// The server checks everything again; its refusal shows in the dialog, on the field it names.
import * as Dialog from '@radix-ui/react-dialog';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { ApiError } from '../../../lib/api';
import { toast } from '../../../lib/toast';
import { isUnauthorized } from '../../app/client';
import { formatDay } from '../../components/dates';
import { type Donation, refundDonation } from './api';
import { formatAmount } from './format';

interface Problem {
  field: 'amount' | 'reason' | null;
  message: string;
}

export function RefundDialog({ donation: d }: { donation: Donation }) {
  const id = useId();
  const qc = useQueryClient();
  const left = d.refundable ?? '0.00';
  const [open, setOpen] = useState(false);
  const [amount, setAmount] = useState(left);
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<Problem | null>(null);
  const refund = useMutation({
    ...refundDonation(qc),
    onSuccess: async (result, input, context, meta) => {
      setOpen(false);
      toast({ title: 'Refund made', description: `Refunded ${formatAmount(input.amount)} to ${d.donorName}. They will get an e-mail.` });
      await refundDonation(qc).onSuccess?.(result, input, context, meta);
    },
    onError: (error) => {
      if (isUnauthorized(error)) return;
      if (error instanceof ApiError) {
        const field = error.field === 'amount' || error.field === 'reason' ? error.field : null;
        setProblem({ field, message: error.message });
      } else {
        setProblem({ field: null, message: 'The refund could not be made. Please try again.' });
      }
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (refund.isPending) return;
    setProblem(null);
    refund.mutate({ id: d.id, amount: amount.trim(), reason: reason.trim() });
  };
  const invalid = (field: Problem['field']) => (problem?.field === field ? { 'aria-invalid': true as const, 'aria-describedby': `${id}-problem` } : {});

  return (
    <Dialog.Root
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) {
          setAmount(left);
          setReason('');
          setProblem(null);
        }
      }}
    >
      <Dialog.Trigger className="btn btn-outline px-3" aria-label={`Refund the gift of ${formatAmount(d.amount)} from ${d.donorName}`}>
        Refund
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-ink/60" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-xl bg-white p-6 shadow-xl focus:outline-none">
          <Dialog.Title className="font-serif text-xl font-bold text-navy">Refund a gift</Dialog.Title>
          <Dialog.Description className="mt-3 text-slate-700">
            {d.donorName} gave {formatAmount(d.amount)} on {formatDay(d.createdAt)}. Stripe returns the refund to their card, they get an e-mail, and it is
            recorded with your reason. A refund cannot be undone.
          </Dialog.Description>
          <form onSubmit={submit} className="mt-5 space-y-4" noValidate>
            <div>
              <label htmlFor={`${id}-amount`} className="field-label">
                Amount to refund <span className="font-normal text-slate-700">(at most {formatAmount(left)})</span>
              </label>
              <input
                id={`${id}-amount`}
                inputMode="decimal"
                autoComplete="off"
                value={amount}
                onChange={(e) => {
                  setAmount(e.target.value);
                  setProblem(null);
                }}
                className="field-input"
                {...invalid('amount')}
              />
            </div>
            <div>
              <label htmlFor={`${id}-reason`} className="field-label">
                Reason
              </label>
              <textarea
                id={`${id}-reason`}
                rows={3}
                maxLength={500}
                required
                value={reason}
                onChange={(e) => {
                  setReason(e.target.value);
                  setProblem(null);
                }}
                className="field-input"
                {...invalid('reason')}
              />
            </div>
            <p id={`${id}-problem`} role="alert" className="min-h-5 text-sm font-semibold text-crimson-dark">
              {problem?.message}
            </p>
            <div className="flex flex-wrap justify-end gap-3">
              <Dialog.Close className="btn btn-outline">Cancel</Dialog.Close>
              <button type="submit" className="btn bg-crimson text-white hover:bg-crimson-dark" disabled={refund.isPending || !reason.trim() || !amount.trim()}>
                {refund.isPending ? 'Refunding...' : `Refund ${formatAmount(amount.trim().replace(/^\$/, ''))}`}
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
