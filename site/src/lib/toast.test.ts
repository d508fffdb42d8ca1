import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TOAST_REMOVE_DELAY, dismiss, toast, toastStore } from './toast';

describe('toast store', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    toastStore.setState({ toasts: [] });
  });
  afterEach(() => vi.useRealTimers());

  it('keeps only the newest toast', () => {
    toast({ title: 'First' });
    toast({ title: 'Second', variant: 'destructive' });
    const { toasts } = toastStore.getState();
    expect(toasts).toHaveLength(1);
    expect(toasts[0]).toMatchObject({ title: 'Second', variant: 'destructive', open: true });
  });

  it('closes on dismiss and removes the toast only after the remove delay', () => {
    const id = toast({ title: 'Hello' });
    dismiss(id);
    expect(toastStore.getState().toasts[0]).toMatchObject({ id, open: false });
    vi.advanceTimersByTime(TOAST_REMOVE_DELAY - 1);
    expect(toastStore.getState().toasts).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(toastStore.getState().toasts).toHaveLength(0);
  });
});
