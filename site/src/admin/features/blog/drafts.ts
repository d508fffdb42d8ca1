// Unsaved work, kept in localStorage per post ("new" for a post not yet saved) so a crash,
// a closed tab or an ended session loses nothing: the editor offers it back next time and
// forgets it once the post is saved. A deliberate logout forgets all of it, so unpublished
// words do not stay behind on a shared computer.
import { onSignedOut } from '../../app/session';
import type { BlogForm } from './form';

const PREFIX = 'acp:blog-draft:';

export interface KeptDraft {
  form: BlogForm;
  /** When it was kept (epoch milliseconds). */
  keptAt: number;
}

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null; // Storage blocked: the page's own warnings are all there is.
  }
}

const keyOf = (id: number | null) => `${PREFIX}${id ?? 'new'}`;

function isForm(value: unknown): value is BlogForm {
  if (!value || typeof value !== 'object') return false;
  const form = value as Record<string, unknown>;
  const texts = ['title', 'slug', 'excerpt', 'authorName', 'keywords', 'featuredImageName', 'featuredImageAlt', 'content'];
  return (
    texts.every((key) => typeof form[key] === 'string') &&
    (form.featuredImage === null || typeof form.featuredImage === 'string') &&
    (form.status === 'draft' || form.status === 'published')
  );
}

/** The unsaved work kept for post `id`, if any (anything unreadable is dropped). */
export function readDraft(id: number | null): KeptDraft | null {
  const raw = storage()?.getItem(keyOf(id));
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as Partial<KeptDraft>;
    if (isForm(parsed.form) && typeof parsed.keptAt === 'number') {
      // Work kept before newsletters existed is a post's.
      return { form: { ...parsed.form, kind: parsed.form.kind === 'newsletter' ? 'newsletter' : 'post' }, keptAt: parsed.keptAt };
    }
  } catch {
    // Not ours, or cut short: nothing to offer.
  }
  clearDraft(id);
  return null;
}

/** Keeps `form` as the unsaved work on post `id`. Returns false when the browser would
 *  not keep it (storage full or blocked). */
export function keepDraft(id: number | null, form: BlogForm, now: number = Date.now()): boolean {
  try {
    storage()?.setItem(keyOf(id), JSON.stringify({ form, keptAt: now } satisfies KeptDraft));
    return storage() !== null;
  } catch {
    return false;
  }
}

export function clearDraft(id: number | null): void {
  storage()?.removeItem(keyOf(id));
}

/** Forgets the unsaved work on every post. */
export function clearAllDrafts(): void {
  const store = storage();
  if (!store) return;
  const ours = Array.from({ length: store.length }, (_, i) => store.key(i)).filter((key) => key?.startsWith(PREFIX));
  for (const key of ours) store.removeItem(key!);
}

/** From now on, a logout the admin chose forgets the unsaved work on every post; a session
 *  that merely ran out keeps it, to be offered back after signing in again. The admin app's
 *  entry calls this once. Returns what stops it. */
export function forgetDraftsOnLogout(): () => void {
  return onSignedOut((why) => {
    if (why === 'user') clearAllDrafts();
  });
}
