// The toast viewport (Radix Toast): announced to screen readers, F8 focuses it, swipe
// right to dismiss, 5 s on screen. Mounted once per page by islands.ts, client-only.
import * as ToastPrimitive from '@radix-ui/react-toast';
import { StrictMode, useSyncExternalStore } from 'react';
import { createRoot } from 'react-dom/client';
import { TOAST_DURATION, dismiss, toastStore } from './lib/toast';

function Toaster() {
  const { toasts } = useSyncExternalStore(toastStore.subscribe, toastStore.getState, toastStore.getState);
  return (
    <ToastPrimitive.Provider swipeDirection="right" swipeThreshold={50} duration={TOAST_DURATION}>
      {toasts.map((t) => (
        <ToastPrimitive.Root
          key={t.id}
          open={t.open}
          onOpenChange={(open) => {
            if (!open) dismiss(t.id);
          }}
          type={t.variant === 'destructive' ? 'foreground' : 'background'}
          data-variant={t.variant ?? 'default'}
          className={`toast ${t.variant === 'destructive' ? 'toast-destructive' : 'toast-default'}`}
        >
          <div className="grid gap-1">
            <ToastPrimitive.Title className="text-sm font-semibold">{t.title}</ToastPrimitive.Title>
            {t.description && <ToastPrimitive.Description className="text-sm opacity-95">{t.description}</ToastPrimitive.Description>}
          </div>
          <ToastPrimitive.Close aria-label="Close" className="toast-close">
            <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor">
              <path d="M6.28 5.22a.75.75 0 0 0-1.06 1.06L8.94 10l-3.72 3.72a.75.75 0 1 0 1.06 1.06L10 11.06l3.72 3.72a.75.75 0 1 0 1.06-1.06L11.06 10l3.72-3.72a.75.75 0 0 0-1.06-1.06L10 8.94 6.28 5.22Z" />
            </svg>
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ))}
      <ToastPrimitive.Viewport hotkey={['F8']} label="Notifications ({hotkey})" className="toast-viewport" />
    </ToastPrimitive.Provider>
  );
}

let mounted = false;

export function mountToaster(): void {
  if (mounted) return;
  mounted = true;
  const host = document.createElement('div');
  host.id = 'toaster';
  document.body.append(host);
  createRoot(host).render(
    <StrictMode>
      <Toaster />
    </StrictMode>,
  );
}
