// Toast state, shared by every island and the toaster through one module-level store.
// As the spec says: one toast visible at a time; a dismissed toast leaves the store
// 1,000,000 ms later (its exit animation needs it to linger).
import { createStore } from 'zustand/vanilla';

export const TOAST_LIMIT = 1;
export const TOAST_REMOVE_DELAY = 1_000_000;
export const TOAST_DURATION = 5000;

export interface ToastInput {
  title: string;
  description?: string;
  variant?: 'default' | 'destructive';
}

export interface Toast extends ToastInput {
  id: number;
  open: boolean;
}

interface ToastState {
  toasts: Toast[];
}

export const toastStore = createStore<ToastState>(() => ({ toasts: [] }));

let nextId = 0;
const removals = new Map<number, ReturnType<typeof setTimeout>>();

/** Shows a toast, replacing any toast already on screen. */
export function toast(input: ToastInput): number {
  const id = ++nextId;
  toastStore.setState(({ toasts }) => ({ toasts: [{ ...input, id, open: true }, ...toasts].slice(0, TOAST_LIMIT) }));
  return id;
}

/** Closes a toast; it is removed from the store after TOAST_REMOVE_DELAY. */
export function dismiss(id: number): void {
  toastStore.setState(({ toasts }) => ({ toasts: toasts.map((t) => (t.id === id ? { ...t, open: false } : t)) }));
  if (removals.has(id)) return;
  removals.set(
    id,
    setTimeout(() => {
      removals.delete(id);
      toastStore.setState(({ toasts }) => ({ toasts: toasts.filter((t) => t.id !== id) }));
    }, TOAST_REMOVE_DELAY),
  );
}
