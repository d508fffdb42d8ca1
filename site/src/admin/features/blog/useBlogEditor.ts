// The blog editor page's state and flows (spec §4): the form against what is stored, the
// slug a save would give, Preview, Save Draft and Publish, and no lost work: unsaved work
// kept in this browser (drafts.ts) and offered back. BlogEditor.tsx draws it.
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { canonicalHtml, countCharacters, openPreview } from '../../../editor';
import { ApiError, failureText } from '../../../lib/api';
import { toast } from '../../../lib/toast';
import { isUnauthorized } from '../../app/client';
import { useDebounced } from '../../components/useDebounced';
import {
  type BlogKind,
  type BlogPost,
  type Revision,
  blogsQuery,
  loadBlog,
  previewBlog,
  publishSavedBlog,
  restoreRevision,
  revisionsQuery,
  saveBlog,
  scheduleBlog,
  slugQuery,
  unscheduleBlog,
} from './api';
import { type KeptDraft, clearDraft, keepDraft, readDraft } from './drafts';
import { type BlogForm, EMPTY_FORM, formFromPost, missingNotice, sameForm, toInput } from './form';
import { FAILURE, type SaveAction, runSave } from './saveFlow';
import { formatInZone, partyTimeZone } from './schedule';

/** Spec §9: the "missing" warning follows the success toast after 500 ms. */
export const WARNING_DELAY_MS = 500;
/** Unsaved work is written to localStorage once typing pauses this long (and on leaving). */
const KEEP_AFTER_MS = 400;
/** The slug is looked up once the title or slug has not changed for this long. */
const SLUG_AFTER_MS = 300;

/** `post` is the stored post, or null for a new one of `kind`. */
export function useBlogEditor(post: BlogPost | null, defaultAuthor: string, kind: BlogKind = 'post') {
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  // What is stored (`saved`, `baseline` as a form) and what is on screen (`form`). Refs
  // hold the latest of each for what runs outside rendering: the leave guard, the
  // localStorage writer, and a save that finishes after more typing.
  const [saved, setSaved] = useState<BlogPost | null>(post);
  const [baseline, setBaseline] = useState<BlogForm>(() => (post ? formFromPost(post, canonicalHtml, defaultAuthor) : { ...EMPTY_FORM, kind }));
  const [form, setForm] = useState<BlogForm>(baseline);
  const formRef = useRef(form);
  const baselineRef = useRef(baseline);
  const id = saved?.id ?? null;
  const idRef = useRef(id);
  const isDirty = useCallback(() => !sameForm(formRef.current, baselineRef.current), []);
  const dirty = !sameForm(form, baseline);

  const [characters, setCharacters] = useState(() => countCharacters(baseline.content));
  // The editor reads its HTML once; a restored draft mounts a fresh one.
  const [editorKey, setEditorKey] = useState(0);
  const [busy, setBusy] = useState<SaveAction | null>(null);
  // A save refused because the post changed elsewhere (409): the page offers to reload
  // it or to keep this text as a new revision.
  const [stale, setStale] = useState(false);
  const zone = partyTimeZone();

  // Work kept from an earlier visit, offered back until the admin answers.
  const [offer, setOffer] = useState<KeptDraft | null>(() => {
    const kept = readDraft(post?.id ?? null);
    // Work kept for a new post is not offered in a new newsletter, nor the other way.
    if (kept && post === null && kept.form.kind !== kind) return null;
    if (kept && sameForm(kept.form, baseline)) {
      clearDraft(post?.id ?? null);
      return null;
    }
    return kept;
  });
  const offerRef = useRef(offer);

  // The refs follow each render once it is committed, before any effect or handler reads them.
  useLayoutEffect(() => {
    formRef.current = form;
    baselineRef.current = baseline;
    idRef.current = id;
    offerRef.current = offer;
  });

  const persist = useCallback(() => {
    if (offerRef.current) return; // never over the work on offer
    if (isDirty()) keepDraft(idRef.current, formRef.current);
    else clearDraft(idRef.current);
  }, [isDirty]);

  useEffect(() => {
    const timer = setTimeout(persist, KEEP_AFTER_MS);
    return () => clearTimeout(timer);
  }, [form, baseline, offer, persist]);

  useEffect(() => {
    // Whatever typing has not yet been written goes now: the tab is closing, or the page
    // is left (the session ended, or the admin chose to leave).
    window.addEventListener('pagehide', persist);
    return () => {
      window.removeEventListener('pagehide', persist);
      persist();
    };
  }, [persist]);

  const titleInput = useRef<HTMLInputElement>(null);
  const answerOffer = (restore: boolean) => {
    if (restore && offer) {
      // The status is the stored post's: a draft kept from before it went live must not
      // take it off the site.
      setForm({ ...offer.form, status: baselineRef.current.status, kind: baselineRef.current.kind });
      setCharacters(countCharacters(offer.form.content));
      setEditorKey((k) => k + 1);
    } else {
      clearDraft(id);
    }
    setOffer(null);
    titleInput.current?.focus();
  };

  const update = <K extends keyof BlogForm>(key: K, value: BlogForm[K]) => setForm((f) => ({ ...f, [key]: value }));
  const setFeaturedImage = (image: string | null, name: string) => setForm((f) => ({ ...f, featuredImage: image, featuredImageName: name }));
  const setContent = (html: string, count: number) => {
    setForm((f) => ({ ...f, content: html }));
    setCharacters(count);
  };

  // The slug a save would give: asked of the server, which alone knows the rules and
  // which slugs are taken.
  const slugTitle = useDebounced(form.title, SLUG_AFTER_MS);
  const slugAsked = useDebounced(form.slug.trim(), SLUG_AFTER_MS);
  const slug = useQuery({ ...slugQuery(id, slugTitle, slugAsked), placeholderData: keepPreviousData });

  /** Takes a saved post as the new starting point; typing done meanwhile stays. */
  const markSaved = (stored: BlogPost, sent: BlogForm) => {
    const next = formFromPost(stored, canonicalHtml, defaultAuthor);
    next.featuredImageName = sent.featuredImageName;
    const typedSince = !sameForm(formRef.current, sent);
    baselineRef.current = next;
    setBaseline(next);
    setSaved(stored);
    // The field shows the slug the server chose.
    if (!typedSince) {
      formRef.current = next;
      setForm(next);
    } else if (formRef.current.slug === sent.slug) {
      setForm((f) => ({ ...f, slug: stored.slug }));
    }
    clearDraft(stored.id);
    if (post === null) clearDraft(null);
  };

  const done = (title: string, description?: string) => {
    toast({ title, description });
    void queryClient.invalidateQueries({ queryKey: blogsQuery().queryKey });
    void navigate('/admin/dashboard?tab=blogs');
  };

  /** `base` is the stored post the save starts from (the one just reloaded, when keeping
   *  this text over changes made elsewhere). */
  const save = async (action: SaveAction, base: BlogPost | null = saved) => {
    if (busy) return;
    const sent = formRef.current;
    setBusy(action);
    const outcome = await runSave(action, sent, base, isDirty(), { save: saveBlog, publish: publishSavedBlog });
    setBusy(null);
    if (!outcome.ok) {
      if (outcome.error instanceof ApiError && outcome.error.status === 409) setStale(true);
      if (outcome.saved) markSaved(outcome.saved, sent);
      // A 401 has ended the session: the sign-in card says so, and the work is kept.
      if (!isUnauthorized(outcome.error)) {
        toast({ variant: 'destructive', title: 'Error', description: failureText(outcome.error, FAILURE[outcome.stage]) });
      }
      return;
    }
    markSaved(outcome.post, sent);
    setStale(false);
    const missing = missingNotice(sent);
    // Module-level, not the page's: it shows on the dashboard the app goes to.
    if (missing) setTimeout(() => toast({ title: 'Warning', description: missing }), WARNING_DELAY_MS);
    done(sent.kind === 'newsletter' ? 'Newsletter saved' : outcome.message, outcome.post.warning);
  };

  /** Schedule…: unsaved edits (or a new post) are saved first, so what goes live is what
   *  is on screen. A refusal is thrown for the dialog to show. */
  const schedule = async (local: string) => {
    let base = saved;
    if (base === null || isDirty()) {
      const sent = formRef.current;
      base = await saveBlog(base?.id ?? null, { ...toInput(sent), ...(base ? { version: base.version } : {}) });
      markSaved(base, sent);
    }
    const post = await scheduleBlog(base.id, local);
    markSaved(post, formRef.current);
    done(`Blog scheduled for ${formatInZone(post.publishDate ?? '', zone)}`, post.warning);
  };

  /** Unschedule: back to a draft; what is typed stays on screen. */
  const unschedule = async () => {
    if (!saved) return;
    try {
      const post = await unscheduleBlog(saved.id);
      markSaved(post, baselineRef.current);
      setForm((f) => ({ ...f, status: post.status }));
      toast({ title: 'Blog unscheduled', description: 'It is a draft again.' });
      void queryClient.invalidateQueries({ queryKey: blogsQuery().queryKey });
    } catch (error) {
      if (!isUnauthorized(error)) toast({ variant: 'destructive', title: 'Error', description: failureText(error, 'Failed to unschedule blog') });
    }
  };

  /** After a stale save: `keepMine` saves this text over the stored post (both stay in its
   *  history); otherwise the stored post replaces what is on screen. */
  const resolveStale = async (keepMine: boolean) => {
    if (!saved) return;
    try {
      const stored = await loadBlog(saved.id);
      if (keepMine) {
        // Its status is the stored one: keeping words must not publish or unpublish.
        formRef.current = { ...formRef.current, status: stored.status };
        setForm(formRef.current);
        setSaved(stored);
        await save('draft', stored);
        return;
      }
      takeStored(stored);
    } catch (error) {
      if (!isUnauthorized(error)) toast({ variant: 'destructive', title: 'Error', description: failureText(error, 'Failed to load blog') });
    }
  };

  /** The stored post replaces what is on screen (and any kept draft of it). */
  const takeStored = (stored: BlogPost) => {
    const next = formFromPost(stored, canonicalHtml, defaultAuthor);
    clearDraft(stored.id);
    baselineRef.current = next;
    formRef.current = next;
    setBaseline(next);
    setForm(next);
    setSaved(stored);
    setCharacters(countCharacters(next.content));
    setEditorKey((k) => k + 1);
    setStale(false);
  };

  /** History's Restore (confirmed): the revision saved as the post's text, on screen. */
  const restore = async (revision: Revision) => {
    if (!saved) return;
    try {
      const post = await restoreRevision(saved.id, revision.id, saved.version);
      takeStored(post);
      toast({ title: 'Version restored', description: post.warning });
      void queryClient.invalidateQueries({ queryKey: blogsQuery().queryKey });
      void queryClient.invalidateQueries({ queryKey: revisionsQuery(post.id).queryKey });
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) setStale(true);
      if (!isUnauthorized(error)) toast({ variant: 'destructive', title: 'Error', description: failureText(error, 'Failed to restore this version') });
    }
  };

  const preview = () => {
    // The tab opens once the server has the preview, within the click's activation.
    openPreview(() => previewBlog(id, toInput(formRef.current))).catch((error: unknown) => {
      if (!isUnauthorized(error)) toast({ variant: 'destructive', title: 'Error', description: failureText(error, 'Failed to open the preview') });
    });
  };

  return {
    form,
    update,
    setFeaturedImage,
    setContent,
    /** The content's length in characters, as the server counts them. */
    characters,
    editorKey,
    /** Unsaved work from an earlier visit, until the admin restores or discards it. */
    offer,
    answerOffer,
    /** Takes the focus once the offer is answered. */
    titleInput,
    /** The address a save would give, once the server has said. */
    slug: slug.data,
    busy,
    save,
    preview,
    /** The stored post (null until a new one is first saved). */
    saved,
    /** The party's time zone, in which posts are scheduled. */
    zone,
    schedule,
    unschedule,
    stale,
    resolveStale,
    restore,
    isDirty,
    dirty,
  };
}
