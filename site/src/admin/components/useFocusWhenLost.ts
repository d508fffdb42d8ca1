import { type RefObject, useEffect } from 'react';

/** Focuses `ref` (a heading with tabIndex -1) when it appears and nothing has focus: the
 *  control that had it went away (the sign-in form, the Logout button), so a keyboard or
 *  screen-reader user starts again at the top of what replaced it. Without scrolling: the
 *  route change has put the page at its top already, and a focus that lands before or after
 *  that (a lazily loaded route, a post still loading) must not move it again. */
export function useFocusWhenLost(ref: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const active = document.activeElement;
    if (!active || active === document.body) ref.current?.focus({ preventScroll: true });
  }, [ref]);
}
