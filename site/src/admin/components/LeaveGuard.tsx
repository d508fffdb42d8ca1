// Asks before unsaved changes are left behind: inside the app (react-router's blocker, with
// an accessible dialog) and when the tab is closed or reloaded (the browser's own
// `beforeunload` prompt). A session that ends is let through (the blog editor keeps its work
// in the browser and offers it back after signing in again). Used by the blog editor and the
// event form.
import * as AlertDialog from '@radix-ui/react-alert-dialog';
import { useCallback, useEffect } from 'react';
import { type BlockerFunction, useBlocker } from 'react-router';
import { sessionStore } from '../app/session';

interface Props {
  /** What the dialog says is lost, or kept, by leaving. */
  description: string;
  /** Whether there are unsaved changes now (read when someone leaves, not when rendered). */
  isDirty: () => boolean;
  /** The same, as state: while true the browser asks before the tab goes. */
  dirty: boolean;
}

export function LeaveGuard({ description, isDirty, dirty }: Props) {
  const shouldBlock = useCallback<BlockerFunction>(
    ({ currentLocation, nextLocation }) => currentLocation.pathname !== nextLocation.pathname && sessionStore.getState().token !== null && isDirty(),
    [isDirty],
  );
  const blocker = useBlocker(shouldBlock);

  useEffect(() => {
    if (!dirty) return;
    const ask = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [dirty]);

  return (
    <AlertDialog.Root open={blocker.state === 'blocked'} onOpenChange={(open) => !open && blocker.reset?.()}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-ink/60" />
        <AlertDialog.Content className="fixed top-1/2 left-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-xl bg-white p-6 shadow-xl focus:outline-none">
          <AlertDialog.Title className="font-serif text-xl font-bold text-navy">Leave without saving?</AlertDialog.Title>
          <AlertDialog.Description className="mt-3 text-slate-700">{description}</AlertDialog.Description>
          <div className="mt-6 flex flex-wrap justify-end gap-3">
            <AlertDialog.Cancel className="btn btn-outline">Stay</AlertDialog.Cancel>
            <AlertDialog.Action
              className="btn bg-crimson text-white hover:bg-crimson-dark"
              onClick={(event) => {
                // Not a close of the dialog (which would reset the blocker): the page goes.
                event.preventDefault();
                blocker.proceed?.();
              }}
            >
              Leave
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
