// "History" in the editor: the post's revisions, newest first; choosing one shows it
// read-only beside the text on screen (changing nothing), and "Restore this version" asks
// first, then saves it as the post's text (a new revision). The HTML shown is the server's,
// cleaned with the one allowlist when it was saved.
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { formatExact } from '../../components/dates';
import { type BlogPost, type Revision, revisionQuery, revisionsQuery } from './api';
import type { BlogForm } from './form';

const REASONS = { saved: 'Saved', published: 'Published', unpublished: 'Unpublished', restored: 'Restored' } as const;

interface Props {
  post: BlogPost;
  /** What is on screen now. */
  current: BlogForm;
  onRestore: (revision: Revision) => void;
}

function Version({ heading, title, excerpt, html }: { heading: string; title: string; excerpt: string | null; html: string }) {
  return (
    <div className="min-w-0 rounded-lg border border-slate-300 bg-white p-4">
      <h3 className="text-sm font-semibold tracking-wide text-slate-700 uppercase">{heading}</h3>
      <p className="mt-2 font-serif text-xl font-bold break-words text-navy">{title}</p>
      {excerpt && <p className="mt-1 text-slate-700 italic">{excerpt}</p>}
      <div className="mt-3 space-y-2 break-words" dangerouslySetInnerHTML={{ __html: html }} />
    </div>
  );
}

export function HistoryPanel({ post, current, onRestore }: Props) {
  const id = useId();
  const list = useQuery(revisionsQuery(post.id));
  const [chosen, setChosen] = useState<number | null>(null);
  const revision = useQuery({ ...revisionQuery(post.id, chosen ?? 0), enabled: chosen !== null });

  return (
    <section aria-labelledby={`${id}-h`} className="mt-6 rounded-lg border border-slate-300 bg-cream p-4">
      <h2 id={`${id}-h`} className="font-semibold text-ink">
        History
      </h2>
      {list.isPending && <p className="mt-2 text-slate-700">Loading history...</p>}
      {list.isError && <p className="mt-2 text-crimson-dark">Error loading history</p>}
      {list.data?.length === 0 && <p className="mt-2 text-slate-700">No earlier versions yet.</p>}
      {list.data && list.data.length > 0 && (
        <ol className="mt-2 max-h-64 space-y-1 overflow-y-auto" aria-label="Revisions, newest first">
          {list.data.map((r) => (
            <li key={r.id}>
              <button
                type="button"
                className={`w-full rounded px-2 py-1 text-left hover:bg-white ${chosen === r.id ? 'bg-white font-semibold' : ''}`}
                aria-pressed={chosen === r.id}
                onClick={() => setChosen(r.id)}
              >
                {REASONS[r.reason]} · {formatExact(r.createdAt)} · {r.title}
              </button>
            </li>
          ))}
        </ol>
      )}
      {chosen !== null && revision.isError && <p className="mt-3 text-crimson-dark">Error loading this version</p>}
      {chosen !== null && revision.data && (
        <div className="mt-4">
          <div className="grid gap-4 md:grid-cols-2">
            <Version
              heading={`${REASONS[revision.data.reason]} ${formatExact(revision.data.createdAt)}`}
              title={revision.data.title}
              excerpt={revision.data.excerpt}
              html={revision.data.content}
            />
            <Version heading="On screen now" title={current.title} excerpt={current.excerpt || null} html={current.content} />
          </div>
          <div className="mt-3">
            <ConfirmDialog
              trigger="Restore this version"
              triggerLabel="Restore this version"
              title="Restore this version?"
              description={
                post.status === 'published'
                  ? 'Its title, excerpt, text and image are saved as the post’s, replacing what is on screen; the live page shows them at once, as after any save of a published post. The text it replaces stays in the history.'
                  : 'Its title, excerpt, text and image are saved as the post’s, replacing what is on screen. Nothing goes live until you publish. The text it replaces stays in the history.'
              }
              confirm="Restore"
              tone="primary"
              onConfirm={() => onRestore(revision.data)}
            />
          </div>
        </div>
      )}
    </section>
  );
}
