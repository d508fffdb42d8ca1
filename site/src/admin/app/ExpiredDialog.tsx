import * as AlertDialog from '@radix-ui/react-alert-dialog';
import { useStore } from 'zustand';
import { dismissExpiredNotice, sessionStore } from './session';

/** Says the session ran out (60 minutes after sign-in); the admin is already signed out
 *  behind it. Closing it puts focus in the sign-in card's first empty field (the password:
 *  the card remembers the e-mail this tab signed in with), ready to sign in again. */
export function ExpiredDialog() {
  const open = useStore(sessionStore, (s) => s.expiredNotice);
  return (
    <AlertDialog.Root open={open} onOpenChange={(next) => !next && dismissExpiredNotice()}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-ink/60" />
        <AlertDialog.Content
          className="fixed top-1/2 left-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-xl bg-white p-6 shadow-xl focus:outline-none"
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            const fields = [...document.querySelectorAll<HTMLInputElement>('#admin-root input[type="email"], #admin-root input[type="password"]')];
            (fields.find((f) => f.value === '') ?? fields.at(-1))?.focus();
          }}
        >
          <AlertDialog.Title className="font-serif text-xl font-bold text-navy">Session expired</AlertDialog.Title>
          <AlertDialog.Description className="mt-3 text-slate-700">Your admin session has expired. Please sign in again.</AlertDialog.Description>
          <div className="mt-6 flex justify-end">
            {/* Cancel, not Action: it takes the focus when the alert opens. */}
            <AlertDialog.Cancel className="btn btn-primary">OK</AlertDialog.Cancel>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
