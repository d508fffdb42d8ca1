import { useState } from 'react';
import { useDebounced } from './useDebounced';

/** How long typing must pause before a count is announced. */
export const ANNOUNCE_AFTER_MS = 1000;

/** What a polite live region should say of `text` (a field's count): nothing until it
 *  first changes, since a page load is not news, then the latest once typing pauses,
 *  rather than on every key. */
export function useAnnouncement(text: string): string {
  const settled = useDebounced(text, ANNOUNCE_AFTER_MS);
  const [initial] = useState(text);
  return settled === initial ? '' : settled;
}
