// The blog editor's page (spec §2 "Blog editor"): the top bar, the fields in the spec's
// order, and the flows of §4: Preview, Save Draft, Publish, and no lost work (drafts.ts,
// LeaveGuard.tsx). `post` is the stored post, or null for a new one.
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useCallback, useEffect, useId, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { failureText } from '../../../lib/api';
import { toast } from '../../../lib/toast';
import { LIMITS, RichTextEditor, canonicalHtml, countCharacters, openPreview } from '../../../editor';
import { type BlogPost, blogsQuery, previewBlog, publishSavedBlog, saveBlog, slugQuery, uploadBlogImage } from './api';
import { isUnauthorized } from '../../app/client';
import { useFocusWhenLost } from '../../components/useFocusWhenLost';
import { formatExact } from '../../components/dates';
import { ANNOUNCE_AFTER_MS, Counter } from './Counter';
import { type KeptDraft, clearDraft, keepDraft, readDraft } from './drafts';
import { FeaturedImage } from './FeaturedImage';
import { type BlogForm, EMPTY_FORM, counterTone, formFromPost, length, missingNotice, sameForm, toInput } from './form';
import { LeaveGuard } from './LeaveGuard';
import { FAILURE, type SaveAction, runSave } from './saveFlow';
import { useDebounced } from '../../components/useDebounced';

/** Spec §9: the "missing" warning follows the success toast after 500 ms. */
export const WARNING_DELAY_MS = 500;
/** Unsaved work is written to localStorage once typing pauses this long (and on leaving). */
const KEEP_AFTER_MS = 400;
/** The slug is looked up once the title or slug has not changed for this long. */
const SLUG_AFTER_MS = 300;

interface Props {
  post: BlogPost | null;
  defaultAuthor: string;
}

export function BlogEditor({ post, defaultAuthor }: Props) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const ids = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  useFocusWhenLost(heading);

  // What is stored (`saved`, `baseline` as a form) and what is on screen (`form`). Refs
  // hold the latest of each for what runs outside rendering: the leave guard, the
  // localStorage writer, and a save that finishes after more typing.
  const [saved, setSaved] = useState<BlogPost | null>(post);
  const [baseline, setBaseline] = useState<BlogForm>(() => (post ? formFromPost(post, canonicalHtml, defaultAuthor) : EMPTY_FORM));
  const [form, setForm] = useState<BlogForm>(baseline);
  const formRef = useRef(form);
  const baselineRef = useRef(baseline);
  formRef.current = form;
  baselineRef.current = baseline;
  const id = saved?.id ?? null;
  const idRef = useRef(id);
  idRef.current = id;
  const isDirty = useCallback(() => !sameForm(formRef.current, baselineRef.current), []);
  const dirty = !sameForm(form, baseline);

  const [characters, setCharacters] = useState(() => countCharacters(baseline.content));
  // The editor reads its HTML once; a restored draft mounts a fresh one.
  const [editorKey, setEditorKey] = useState(0);
  const [busy, setBusy] = useState<SaveAction | null>(null);

  // Work kept from an earlier visit, offered back until the admin answers.
  const [offer, setOffer] = useState<KeptDraft | null>(() => {
    const kept = readDraft(post?.id ?? null);
    if (kept && sameForm(kept.form, baseline)) {
      clearDraft(post?.id ?? null);
      return null;
    }
    return kept;
  });
  const offerRef = useRef(offer);
  offerRef.current = offer;

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
      setForm({ ...offer.form, status: baselineRef.current.status });
      setCharacters(countCharacters(offer.form.content));
      setEditorKey((k) => k + 1);
    } else {
      clearDraft(id);
    }
    setOffer(null);
    titleInput.current?.focus();
  };

  const update = <K extends keyof BlogForm>(key: K, value: BlogForm[K]) => setForm((f) => ({ ...f, [key]: value }));

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

  const save = async (action: SaveAction) => {
    if (busy) return;
    const sent = formRef.current;
    setBusy(action);
    const outcome = await runSave(action, sent, saved, isDirty(), { save: saveBlog, publish: publishSavedBlog });
    setBusy(null);
    if (!outcome.ok) {
      if (outcome.saved) markSaved(outcome.saved, sent);
      // A 401 has ended the session: the sign-in card says so, and the work is kept.
      if (!isUnauthorized(outcome.error)) {
        toast({ variant: 'destructive', title: 'Error', description: failureText(outcome.error, FAILURE[outcome.stage]) });
      }
      return;
    }
    markSaved(outcome.post, sent);
    toast({ title: outcome.message, description: outcome.post.warning });
    const missing = missingNotice(sent);
    // Module-level, not the page's: it shows on the dashboard the app goes to.
    if (missing) setTimeout(() => toast({ title: 'Warning', description: missing }), WARNING_DELAY_MS);
    void queryClient.invalidateQueries({ queryKey: blogsQuery().queryKey });
    void navigate('/admin/dashboard?tab=blogs');
  };

  const preview = () => {
    // The tab opens once the server has the preview, within the click's activation.
    openPreview(() => previewBlog(id, toInput(formRef.current))).catch((error: unknown) => {
      if (!isUnauthorized(error)) toast({ variant: 'destructive', title: 'Error', description: failureText(error, 'Failed to open the preview') });
    });
  };

  const field = (name: string) => `${ids}-${name}`;
  const excerptLength = length(form.excerpt);
  const keywordsLength = length(form.keywords);
  const altLength = length(form.featuredImageAlt);
  const announcedCharacters = useDebounced(characters, ANNOUNCE_AFTER_MS);
  const [initialCharacters] = useState(characters);

  return (
    <div>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Link to="/admin/dashboard?tab=blogs" className="btn btn-outline">
          Back to Admin
        </Link>
        <div className="flex flex-wrap gap-3">
          <button type="button" className="btn btn-outline" disabled={form.content === ''} onClick={preview}>
            Preview
          </button>
          <button type="button" className="btn btn-outline" disabled={busy !== null} onClick={() => void save('draft')}>
            {busy === 'draft' ? 'Saving...' : 'Save Draft'}
          </button>
          <button type="button" className="btn btn-primary" disabled={busy !== null} onClick={() => void save('publish')}>
            {busy === 'publish' ? 'Publishing...' : 'Publish'}
          </button>
        </div>
      </div>

      <h1 ref={heading} tabIndex={-1} className="mt-6 font-serif text-3xl font-bold text-navy focus:outline-none sm:text-4xl">
        {post ? 'Edit Blog Post' : 'Create New Blog Post'}
      </h1>

      {offer && (
        <section aria-labelledby={field('offer')} className="mt-6 rounded-lg border border-gold bg-cream p-4">
          <h2 id={field('offer')} className="font-semibold text-ink">
            Unsaved changes found
          </h2>
          <p className="mt-1 text-slate-700">
            Changes to this post that were not saved were kept in this browser on {formatExact(new Date(offer.keptAt).toISOString())}.
          </p>
          <div className="mt-3 flex flex-wrap gap-3">
            <button type="button" className="btn btn-primary" onClick={() => answerOffer(true)}>
              Restore changes
            </button>
            <button type="button" className="btn btn-outline" onClick={() => answerOffer(false)}>
              Discard them
            </button>
          </div>
        </section>
      )}

      <div className="mt-8 space-y-6">
        <Field label="Title" htmlFor={field('title')}>
          <input
            ref={titleInput}
            id={field('title')}
            className="field-input"
            value={form.title}
            maxLength={LIMITS.title.max}
            placeholder="Enter the post's title"
            onChange={(e) => update('title', e.target.value)}
          />
        </Field>

        <Field label="Slug" htmlFor={field('slug')} hint="(optional)">
          <input
            id={field('slug')}
            className="field-input"
            value={form.slug}
            maxLength={LIMITS.slug.max}
            placeholder="made from the title when empty"
            aria-describedby={field('slug-help')}
            onChange={(e) => update('slug', e.target.value)}
          />
          <p id={field('slug-help')} className="mt-1 text-sm text-slate-700" aria-live="polite">
            {slug.data ? (
              <>
                The post&apos;s address: <strong className="font-semibold break-all text-ink">/blog/{slug.data}</strong>
              </>
            ) : (
              'The address is made from the slug, or from the title when the slug is empty.'
            )}
          </p>
        </Field>

        <Field
          label="Excerpt"
          htmlFor={field('excerpt')}
          counter={
            <Counter
              id={field('excerpt-count')}
              label="Excerpt"
              count={excerptLength}
              of={LIMITS.excerpt.recommended}
              tone={counterTone(excerptLength, LIMITS.excerpt.warnAbove, LIMITS.excerpt.recommended)}
            />
          }
        >
          <textarea
            id={field('excerpt')}
            rows={3}
            className="field-input"
            value={form.excerpt}
            maxLength={LIMITS.excerpt.max}
            placeholder="A short summary for the blog list"
            aria-describedby={field('excerpt-count')}
            onChange={(e) => update('excerpt', e.target.value)}
          />
        </Field>

        <Field label="Author Name" htmlFor={field('author')} hint="(optional)">
          <input
            id={field('author')}
            className="field-input"
            value={form.authorName}
            maxLength={LIMITS.authorName.max}
            placeholder={defaultAuthor}
            onChange={(e) => update('authorName', e.target.value)}
          />
        </Field>

        <Field
          label="SEO Keywords"
          htmlFor={field('keywords')}
          counter={
            <Counter
              id={field('keywords-count')}
              label="SEO Keywords"
              count={keywordsLength}
              of={LIMITS.keywords.max}
              tone={counterTone(keywordsLength, LIMITS.keywords.warnAbove)}
            />
          }
        >
          <input
            id={field('keywords')}
            className="field-input"
            value={form.keywords}
            maxLength={LIMITS.keywords.max}
            placeholder="Comma-separated, e.g. ballot access, independent voters"
            aria-describedby={field('keywords-count')}
            onChange={(e) => update('keywords', e.target.value)}
          />
        </Field>

        <FeaturedImage
          id={field('image')}
          image={form.featuredImage}
          name={form.featuredImageName}
          upload={uploadBlogImage}
          onChange={(image, name) => setForm((f) => ({ ...f, featuredImage: image, featuredImageName: name }))}
        />

        <Field
          label="Image Alt Text"
          htmlFor={field('alt')}
          counter={
            <Counter
              id={field('alt-count')}
              label="Image Alt Text"
              count={altLength}
              of={LIMITS.featuredImageAlt.recommended}
              tone={counterTone(altLength, LIMITS.featuredImageAlt.warnAbove, LIMITS.featuredImageAlt.recommended)}
            />
          }
        >
          <input
            id={field('alt')}
            className="field-input"
            value={form.featuredImageAlt}
            maxLength={LIMITS.featuredImageAlt.max}
            placeholder="Describe the featured image"
            aria-describedby={field('alt-count')}
            onChange={(e) => update('featuredImageAlt', e.target.value)}
          />
        </Field>

        <div>
          {/* The text area is a contenteditable, which a <label> cannot point at. */}
          <div id={field('content-label')} className="field-label mb-1" onClick={() => document.getElementById(field('content'))?.focus()}>
            Content
          </div>
          <RichTextEditor
            key={editorKey}
            id={field('content')}
            labelledBy={field('content-label')}
            describedBy={field('content-help')}
            initialHtml={form.content}
            uploadImage={uploadBlogImage}
            onChange={(html, count) => {
              setForm((f) => ({ ...f, content: html }));
              setCharacters(count);
            }}
          />
          <p id={field('content-help')} className="mt-1 text-sm text-slate-700">
            <span className="tabular-nums">{characters} characters</span>. Content is optional for drafts, recommended for publishing.
          </p>
          <span role="status" className="sr-only">
            {announcedCharacters === initialCharacters ? '' : `Content: ${announcedCharacters} characters`}
          </span>
        </div>
      </div>

      <LeaveGuard isDirty={isDirty} dirty={dirty} />
    </div>
  );
}

function Field({ label, htmlFor, hint, counter, children }: { label: string; htmlFor: string; hint?: string; counter?: ReactNode; children: ReactNode }) {
  return (
    <div>
      <div className="flex items-end justify-between gap-3">
        <label htmlFor={htmlFor} className="field-label">
          {label}
          {hint && <span className="font-normal text-slate-700"> {hint}</span>}
        </label>
        {counter}
      </div>
      {children}
    </div>
  );
}
