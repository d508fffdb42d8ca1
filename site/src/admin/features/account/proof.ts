// A change to how someone signs in (an authenticator app, recovery codes, a passkey) is
// taken only within minutes of proving the password: the server answers 403 with
// `"reauth": true` otherwise. `proved` runs such a change, and on that answer asks for the
// password in the one dialog (ProvePassword), proves it, and runs the change once more.
import { createStore } from 'zustand/vanilla';
import { ApiError } from '../../../lib/api';
import { adminRequest } from '../../app/client';

interface Proof {
  /** Whether the dialog is open, waiting for the password. */
  asking: boolean;
  /** Settles the change waiting on it: `true` once the password was proved. */
  settle: ((proved: boolean) => void) | null;
}

export const proofStore = createStore<Proof>(() => ({ asking: false, settle: null }));

/** Opens the dialog; resolves once the password is proved (`true`) or the dialog is closed. */
function askForPassword(): Promise<boolean> {
  proofStore.getState().settle?.(false);
  return new Promise((settle) => proofStore.setState({ asking: true, settle }));
}

/** The dialog's answer. */
export function answered(proved: boolean): void {
  const { settle } = proofStore.getState();
  proofStore.setState({ asking: false, settle: null });
  settle?.(proved);
}

/** Proves the password for this session (the next few minutes of changes). */
export function prove(password: string): Promise<unknown> {
  return adminRequest('POST', '/api/admin/security/confirm', { password });
}

/** What a change says when the dialog was closed without the password. */
export const NOT_PROVED = 'Nothing was changed: enter your password to continue.';

/** Runs `change`; when the server asks for the password first, asks for it and runs it again. */
export async function proved<T>(change: () => Promise<T>): Promise<T> {
  try {
    return await change();
  } catch (error) {
    if (!(error instanceof ApiError && error.reauth)) throw error;
    if (!(await askForPassword())) throw new ApiError(403, NOT_PROVED);
    return change();
  }
}
