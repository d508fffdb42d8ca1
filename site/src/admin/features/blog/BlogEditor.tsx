// The blog editor's page (spec §2 "Blog editor"): the top bar, the fields in the spec's
// order, and the offer of unsaved work from an earlier visit. What it does (Preview, Save
// Draft, Publish, and no lost work) is in useBlogEditor.ts.
import { useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { can, useMe } from '../../app/me';
import { LIMITS, RichTextEditor } from '../../../editor';
import { CountedField } from '../../components/CountedField';
import { LeaveGuard } from '../../components/LeaveGuard';
import { formatExact } from '../../components/dates';
import { TextField, type TextFieldProps } from '../../components/Field';
import { useAnnouncement } from '../../components/useAnnouncement';
import { useFocusWhenLost } from '../../components/useFocusWhenLost';
import { type BlogKind, type BlogPost, uploadBlogImage } from './api';
import { FeaturedImage } from './FeaturedImage';
import { HistoryPanel } from './HistoryPanel';
import { ScheduleDialog } from './ScheduleDialog';
import { formatInZone } from './schedule';
import { useBlogEditor } from './useBlogEditor';

interface Props {
  /** The stored post, or null for a new one. */
  post: BlogPost | null;
  /** What a new one is: a post, or a plain newsletter (only mailed, never published). */
  kind?: BlogKind;
  defaultAuthor: string;
}

/** The heading: what is being written. */
function title(newsletter: boolean, stored: boolean): string {
  if (newsletter) return stored ? 'Edit Newsletter' : 'Write a Newsletter';
  return stored ? 'Edit Blog Post' : 'Create New Blog Post';
}

export function BlogEditor({ post, kind = 'post', defaultAuthor }: Props) {
  const ids = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  useFocusWhenLost(heading);
  const { me } = useMe();
  const editor = useBlogEditor(post, defaultAuthor, kind);
  // A newsletter has no page: no address, excerpt, keywords or byline, and it is never
  // published or scheduled, only sent by e-mail.
  const newsletter = editor.form.kind === 'newsletter';
  const mailable = editor.saved !== null && (newsletter || editor.saved.status === 'published') && can(me, 'mail.broadcast');
  const [showHistory, setShowHistory] = useState(false);
  const { form, update, busy, offer } = editor;
  const announcedCharacters = useAnnouncement(`Content: ${editor.characters} characters`);
  const field = (name: string) => `${ids}-${name}`;
  const text = (key: 'title' | 'slug' | 'authorName', label: string, placeholder: string, more: Partial<TextFieldProps> = {}) => (
    <TextField
      id={field(key)}
      label={label}
      value={form[key]}
      maxLength={LIMITS[key].max}
      placeholder={placeholder}
      onChange={(value) => update(key, value)}
      {...more}
    />
  );
  const counted = (key: 'excerpt' | 'keywords' | 'featuredImageAlt', label: string, placeholder: string, rows?: number) => (
    <CountedField
      id={field(key)}
      label={label}
      rows={rows}
      value={form[key]}
      limit={LIMITS[key]}
      placeholder={placeholder}
      onChange={(value) => update(key, value)}
    />
  );

  return (
    <div>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Link to="/admin/dashboard?tab=blogs" className="btn btn-outline">
          Back to Admin
        </Link>
        <div className="flex flex-wrap gap-3">
          {editor.saved && (
            <button type="button" className="btn btn-outline" aria-expanded={showHistory} onClick={() => setShowHistory((s) => !s)}>
              History
            </button>
          )}
          {!newsletter && (
            <button type="button" className="btn btn-outline" disabled={form.content === ''} onClick={editor.preview}>
              Preview
            </button>
          )}
          <button type="button" className="btn btn-outline" disabled={busy !== null} onClick={() => void editor.save('draft')}>
            {busy === 'draft' ? 'Saving...' : 'Save Draft'}
          </button>
          {!newsletter && (
            <button type="button" className="btn btn-primary" disabled={busy !== null} onClick={() => void editor.save('publish')}>
              {busy === 'publish' ? 'Publishing...' : 'Publish'}
            </button>
          )}
          {/* The mail page shows what is stored: unsaved edits are offered to the leave guard. */}
          {mailable && (
            <Link to={`/admin/blog/${editor.saved!.id}/mail`} className={`btn ${newsletter ? 'btn-primary' : 'btn-outline'}`}>
              Send by e-mail
            </Link>
          )}
          {!newsletter && editor.saved?.status !== 'published' && (
            <ScheduleDialog
              scheduledFor={editor.saved?.status === 'scheduled' ? editor.saved.publishDate : null}
              zone={editor.zone}
              onSchedule={editor.schedule}
            />
          )}
        </div>
      </div>

      <h1 ref={heading} tabIndex={-1} className="mt-6 font-serif text-3xl font-bold text-navy focus:outline-none sm:text-4xl">
        {title(newsletter, post !== null)}
      </h1>

      {showHistory && editor.saved && <HistoryPanel key={editor.saved.version} post={editor.saved} current={form} onRestore={(r) => void editor.restore(r)} />}

      {editor.saved?.status === 'scheduled' && editor.saved.publishDate && (
        <section
          aria-labelledby={field('scheduled')}
          className="mt-6 flex flex-wrap items-center justify-between gap-3 rounded-lg border border-navy/30 bg-white p-4"
        >
          <p id={field('scheduled')} className="text-ink">
            Scheduled: goes live on <strong className="font-semibold">{formatInZone(editor.saved.publishDate, editor.zone)}</strong>.
          </p>
          <button type="button" className="btn btn-outline" onClick={() => void editor.unschedule()}>
            Unschedule
          </button>
        </section>
      )}

      {editor.stale && (
        <section role="alert" aria-labelledby={field('stale')} className="mt-6 rounded-lg border border-crimson bg-cream p-4">
          <h2 id={field('stale')} className="font-semibold text-ink">
            This post was changed elsewhere
          </h2>
          <p className="mt-1 text-slate-700">
            Someone saved it (perhaps you, in another tab) after you opened it. Load the saved post, or keep your text: it is saved as a new revision and the
            other version stays in the post&apos;s history.
          </p>
          <div className="mt-3 flex flex-wrap gap-3">
            <button type="button" className="btn btn-outline" onClick={() => void editor.resolveStale(false)}>
              Reload the saved post
            </button>
            <button type="button" className="btn btn-primary" onClick={() => void editor.resolveStale(true)}>
              Keep my text as a new revision
            </button>
          </div>
        </section>
      )}

      {offer && (
        <section aria-labelledby={field('offer')} className="mt-6 rounded-lg border border-gold bg-cream p-4">
          <h2 id={field('offer')} className="font-semibold text-ink">
            Unsaved changes found
          </h2>
          <p className="mt-1 text-slate-700">
            Changes to this post that were not saved were kept in this browser on {formatExact(new Date(offer.keptAt).toISOString())}.
          </p>
          <div className="mt-3 flex flex-wrap gap-3">
            <button type="button" className="btn btn-primary" onClick={() => editor.answerOffer(true)}>
              Restore changes
            </button>
            <button type="button" className="btn btn-outline" onClick={() => editor.answerOffer(false)}>
              Discard them
            </button>
          </div>
        </section>
      )}

      <div className="mt-8 space-y-6">
        {text('title', 'Title', newsletter ? "The e-mail's subject" : "Enter the post's title", { inputRef: editor.titleInput })}

        {newsletter && (
          <p className="text-slate-700">
            A newsletter is mailed to the list and never published on the website. Save it, then choose Send by e-mail to preview it, send yourself a test and
            send it.
          </p>
        )}

        {!newsletter &&
          text('slug', 'Slug', 'made from the title when empty', {
            hint: '(optional)',
            describedBy: field('slug-help'),
            children: (
              <p id={field('slug-help')} className="mt-1 text-sm text-slate-700" aria-live="polite">
                {editor.slug ? (
                  <>
                    The post&apos;s address: <strong className="font-semibold break-all text-ink">/blog/{editor.slug}</strong>
                  </>
                ) : (
                  'The address is made from the slug, or from the title when the slug is empty.'
                )}
              </p>
            ),
          })}

        {!newsletter && (
          <>
            {counted('excerpt', 'Excerpt', 'A short summary for the blog list', 3)}

            {text('authorName', 'Author Name', defaultAuthor, { hint: '(optional)' })}

            {counted('keywords', 'SEO Keywords', 'Comma-separated, e.g. ballot access, independent voters')}
          </>
        )}

        <FeaturedImage
          id={field('image')}
          image={form.featuredImage}
          name={form.featuredImageName}
          upload={uploadBlogImage}
          onChange={editor.setFeaturedImage}
        />

        {counted('featuredImageAlt', 'Image Alt Text', 'Describe the featured image')}

        <div>
          {/* The text area is a contenteditable, which a <label> cannot point at. */}
          <div id={field('content-label')} className="field-label mb-1" onClick={() => document.getElementById(field('content'))?.focus()}>
            Content
          </div>
          <RichTextEditor
            key={editor.editorKey}
            id={field('content')}
            labelledBy={field('content-label')}
            describedBy={field('content-help')}
            initialHtml={form.content}
            uploadImage={uploadBlogImage}
            onChange={editor.setContent}
          />
          <p id={field('content-help')} className="mt-1 text-sm text-slate-700">
            <span className="tabular-nums">{editor.characters} characters</span>.{' '}
            {newsletter ? 'What every subscriber receives.' : 'Content is optional for drafts, recommended for publishing.'}
          </p>
          <span role="status" className="sr-only">
            {announcedCharacters}
          </span>
        </div>
      </div>

      <LeaveGuard
        description="This post has changes that are not saved. They stay in this browser and are offered back when you open the post again."
        isDirty={editor.isDirty}
        dirty={editor.dirty}
      />
    </div>
  );
}
