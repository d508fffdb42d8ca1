// The dialog `proved` opens when a change to how someone signs in needs their password
// again (proof.ts). It proves it for the session and lets the change go on; closing it
// cancels the change. Its own refusal ("That password isn't right.") shows under the field.
import * as Dialog from '@radix-ui/react-dialog';
import { type FormEvent, useId, useState } from 'react';
import { useStore } from 'zustand';
import { failureText } from '../../../lib/api';
import { isUnauthorized } from '../../app/client';
import { answered, proofStore, prove } from './proof';

export function ProvePassword({ email }: { email: string }) {
  const id = useId();
  const asking = useStore(proofStore, (s) => s.asking);
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const close = (proved: boolean) => {
    setPassword('');
    setProblem(null);
    answered(proved);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (!password) {
      setProblem('Enter your password.');
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      await prove(password);
      close(true);
    } catch (error) {
      if (isUnauthorized(error)) close(false);
      else setProblem(failureText(error, 'Could not reach the server. Please try again.'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog.Root open={asking} onOpenChange={(open) => !open && close(false)}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-ink/60" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-xl bg-white p-6 shadow-xl focus:outline-none">
          <Dialog.Title className="font-serif text-xl font-bold text-navy">Enter your password</Dialog.Title>
          <Dialog.Description className="mt-3 text-slate-700">
            To change how you sign in, confirm it's you. You won't be asked again for the next 5 minutes.
          </Dialog.Description>
          <form onSubmit={submit} className="mt-5" noValidate>
            <input type="text" name="username" autoComplete="username" hidden readOnly value={email} />
            <label htmlFor={`${id}-password`} className="field-label">
              Password
            </label>
            <input
              id={`${id}-password`}
              type="password"
              required
              autoComplete="current-password"
              className="field-input"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? `${id}-problem` : undefined}
            />
            <p id={`${id}-problem`} role="alert" className="mt-2 min-h-5 text-sm font-semibold text-crimson-dark">
              {problem}
            </p>
            <div className="mt-4 flex flex-wrap justify-end gap-3">
              <Dialog.Close className="btn btn-outline">Cancel</Dialog.Close>
              <button type="submit" className="btn btn-primary" disabled={busy}>
                {busy ? 'Checking...' : 'Confirm'}
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
