// "Erase a person": the privacy policy's promise of deletion on request, in one place. Staff
// type the e-mail the request came from; the server deletes that person's messages and
// signups and removes their details from gifts that were never paid. Completed gifts stay
// whole (federal record-keeping), and the dialog says so before and after.
import * as Dialog from '@radix-ui/react-dialog';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { ApiError } from '../../../lib/api';
import { toast } from '../../../lib/toast';
import { adminRequest, isUnauthorized } from '../../app/client';

/** What the server did (POST /api/admin/erase). */
export interface Erased {
  contacts: number;
  volunteers: number;
  newsletters: number;
  donationsRedacted: number;
  donationsKept: number;
  donationsInProgress: number;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The toast's sentence for what was done. */
export function describeErasure(e: Erased): string {
  const removed = [
    plural(e.contacts, 'message', 'messages'),
    plural(e.volunteers, 'volunteer signup', 'volunteer signups'),
    plural(e.newsletters, 'newsletter signup', 'newsletter signups'),
  ].join(', ');
  const parts = [`Deleted ${removed}.`];
  if (e.donationsRedacted) parts.push(`Removed the details of ${plural(e.donationsRedacted, 'unpaid gift', 'unpaid gifts')}.`);
  if (e.donationsKept) parts.push(`Kept ${plural(e.donationsKept, 'completed gift', 'completed gifts')}, as federal law requires.`);
  if (e.donationsInProgress) parts.push(`${plural(e.donationsInProgress, 'gift is', 'gifts are')} still being paid: erase again in 15 minutes.`);
  return parts.join(' ');
}

export function ErasePerson() {
  const id = useId();
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const [email, setEmail] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const erase = useMutation({
    mutationFn: (address: string) => adminRequest<Erased>('POST', '/api/admin/erase', { email: address }),
    onSuccess: async (erased) => {
      setOpen(false);
      setEmail('');
      toast({ title: 'Person erased', description: describeErasure(erased) });
      await qc.invalidateQueries({ queryKey: ['admin'] });
    },
    onError: (error) => {
      if (isUnauthorized(error)) return;
      setProblem(error instanceof ApiError ? error.message : 'Failed to erase. Please try again.');
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (erase.isPending) return;
    setProblem(null);
    erase.mutate(email.trim());
  };

  return (
    <Dialog.Root
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setProblem(null);
      }}
    >
      <Dialog.Trigger className="btn btn-outline">Erase a person</Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-ink/60" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-xl bg-white p-6 shadow-xl focus:outline-none">
          <Dialog.Title className="font-serif text-xl font-bold text-navy">Erase a person</Dialog.Title>
          <Dialog.Description className="mt-3 text-slate-700">
            When someone asks to be forgotten: their contact messages and their volunteer and newsletter signups are deleted, and gifts they never paid lose
            their details. Completed gifts stay, because federal law requires the committee to keep them. This cannot be undone.
          </Dialog.Description>
          <form onSubmit={submit} className="mt-5" noValidate>
            <label htmlFor={`${id}-email`} className="field-label">
              Their e-mail address
            </label>
            <input
              id={`${id}-email`}
              type="email"
              required
              autoComplete="off"
              value={email}
              onChange={(e) => {
                setEmail(e.target.value);
                setProblem(null);
              }}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? `${id}-problem` : undefined}
              className="field-input"
            />
            <p id={`${id}-problem`} role="alert" className="mt-2 min-h-5 text-sm font-semibold text-crimson-dark">
              {problem}
            </p>
            <div className="mt-4 flex flex-wrap justify-end gap-3">
              <Dialog.Close className="btn btn-outline">Cancel</Dialog.Close>
              <button type="submit" className="btn bg-crimson text-white hover:bg-crimson-dark" disabled={erase.isPending || !email.trim()}>
                {erase.isPending ? 'Erasing...' : 'Erase'}
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
