// Save Draft and Publish as the spec's flows (§4): which requests, in which order, and what
// the admin is told. The requests are passed in, so the order is unit-tested without a
// server (the browser tests run it against the real one).
import type { BlogPost, BlogInput, SavedPost } from './api';
import { type BlogForm, publishPlan, toInput } from './form';

export type SaveAction = 'draft' | 'publish';

export interface SaveRequests {
  save: (id: number | null, input: BlogInput) => Promise<SavedPost>;
  publish: (id: number) => Promise<SavedPost>;
}

export type SaveOutcome =
  /** Done: the post as stored, and the success toast's title. */
  | { ok: true; post: SavedPost; message: string }
  /** Failed at `stage`; `saved` is the post if the edits were saved before the publish failed. */
  | { ok: false; stage: 'save' | 'publish'; error: unknown; saved: SavedPost | null };

export const SUCCESS = {
  created: 'Blog created successfully',
  updated: 'Blog updated successfully',
  published: 'Blog published successfully',
} as const;

export const FAILURE = { save: 'Failed to save blog', publish: 'Failed to publish blog' } as const;

/**
 * Runs `action` on the form. Save Draft sends the current status (so a published post stays
 * published, a scheduled one keeps its time). Publish on a saved post that is not live saves unsaved edits first and then
 * calls the publish route; on a new or published post it saves with status published.
 */
export async function runSave(action: SaveAction, form: BlogForm, saved: BlogPost | null, dirty: boolean, requests: SaveRequests): Promise<SaveOutcome> {
  const id = saved?.id ?? null;
  // A save says which version it started from, so it cannot overwrite changes made in
  // another tab meanwhile (the server answers 409).
  const input = (status?: BlogInput['status']): BlogInput => ({ ...toInput(form, status), ...(saved ? { version: saved.version } : {}) });
  if (action === 'draft') {
    try {
      const post = await requests.save(id, input());
      return { ok: true, post, message: id === null ? SUCCESS.created : SUCCESS.updated };
    } catch (error) {
      return { ok: false, stage: 'save', error, saved: null };
    }
  }
  const plan = publishPlan(saved, dirty);
  if (plan.kind === 'save-published') {
    try {
      return { ok: true, post: await requests.save(id, input('published')), message: SUCCESS.published };
    } catch (error) {
      return { ok: false, stage: 'save', error, saved: null };
    }
  }
  let stored: SavedPost | null = null;
  if (plan.saveFirst) {
    try {
      stored = await requests.save(id, input());
    } catch (error) {
      return { ok: false, stage: 'save', error, saved: null };
    }
  }
  try {
    return { ok: true, post: await requests.publish(id!), message: SUCCESS.published };
  } catch (error) {
    return { ok: false, stage: 'publish', error, saved: stored };
  }
}
