// The "spots left" line on an event's page. The page is static and cached like any other,
// so the count comes from a small endpoint that is never cached (GET /api/events/{slug}/spots).
// Without JavaScript, or when the count cannot be had, the line stays empty: the form still
// works, and its answer says whether the visitor got a seat.

export interface Spots {
  open: boolean;
  /** Seats left; `null` when the event has no limit. */
  left: number | null;
  waitlist: boolean;
}

/** What the line says. */
export function spotsText({ open, left, waitlist }: Spots): string {
  if (!open || left === null) return '';
  if (left === 0) return waitlist ? 'The event is full: RSVP to join the waitlist.' : 'The event is full.';
  return left === 1 ? '1 spot left.' : `${left} spots left.`;
}

/** Fills in the page's `[data-spots]` line, if it has one. */
export async function showSpots(root: Document): Promise<void> {
  const line = root.querySelector<HTMLElement>('[data-spots]');
  const url = line?.dataset.spots;
  if (!line || !url) return;
  try {
    const response = await fetch(url, { cache: 'no-store', headers: { accept: 'application/json' } });
    if (!response.ok) return;
    line.textContent = spotsText((await response.json()) as Spots);
  } catch {
    // Offline or refused: say nothing rather than something wrong.
  }
}
