// Send a published post by e-mail (/admin/blog/:id/mail, capability mail.broadcast): the
// subject (the title unless changed), the e-mail as it will arrive (its HTML in a sandboxed
// frame, its text part), a test copy to the staff member, the recipient count, an optional
// time, and the count typed to confirm. A post mailed before is refused by the server, which
// then offers to reach only those it missed. The post's earlier sends are listed, each
// opening its panel. Loaded lazily: none of this weighs on the dashboard.
import * as Tabs from '@radix-ui/react-tabs';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError } from '../../../lib/api';
import { toast } from '../../../lib/toast';
import { isUnauthorized } from '../../app/client';
import { length } from '../../components/count';
import { formatExact } from '../../components/dates';
import { Field } from '../../components/Field';
import { useDebounced } from '../../components/useDebounced';
import { useFocusWhenLost } from '../../components/useFocusWhenLost';
import { type PostTitle, type Summary, postQuery, previewQuery, sendTest, sendsQuery, startSend } from './api';
import { countMatches, offersAgain, people, statusLabel } from './format';

export const MAX_SUBJECT = 150;

export default function MailPostPage() {
  const { id = '' } = useParams();
  const n = Number(id);
  if (!Number.isInteger(n) || n <= 0) return <Problem message="There is no such post." />;
  return <Loaded id={n} />;
}

function BackLink() {
  return (
    <Link to="/admin/dashboard?tab=blogs" className="text-navy underline underline-offset-2">
      Back to Blogs
    </Link>
  );
}

function Problem({ message }: { message: string }) {
  return (
    <div className="py-6">
      <BackLink />
      <div role="alert" className="mt-4 rounded-lg border border-crimson/40 bg-crimson/5 p-4 text-crimson-dark">
        {message}
      </div>
    </div>
  );
}

function Loaded({ id }: { id: number }) {
  const query = useQuery(postQuery(id));
  if (query.isPending) {
    return (
      <p role="status" className="py-10 text-center text-slate-700">
        Loading the post...
      </p>
    );
  }
  if (query.error) return <Problem message={query.error instanceof ApiError ? query.error.message : 'The post could not be loaded.'} />;
  return <MailPost post={query.data} />;
}

function MailPost({ post }: { post: PostTitle }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useFocusWhenLost(heading);
  return (
    <div>
      <BackLink />
      <h1 ref={heading} tabIndex={-1} className="mt-4 font-serif text-3xl font-bold break-words text-navy focus:outline-none">
        Send “{post.title}” by e-mail
      </h1>
      {post.status === 'published' || post.kind === 'newsletter' ? (
        <SendForm post={post} />
      ) : (
        <p role="alert" className="mt-4 text-slate-700">
          Publish the post before mailing it: the e-mail links to it on the website.
        </p>
      )}
      <PastSends postId={post.id} />
    </div>
  );
}

function SendForm({ post }: { post: PostTitle }) {
  const id = useId();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [subject, setSubject] = useState(post.title);
  const [sendAt, setSendAt] = useState('');
  const [typed, setTyped] = useState('');
  const [again, setAgain] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [testNote, setTestNote] = useState('');
  const count = useRef<HTMLParagraphElement>(null);
  const settledSubject = useDebounced(subject.trim(), 400);
  const input = { postId: post.id, subject: settledSubject || undefined, again };
  const preview = useQuery(previewQuery(input));
  const recipients = preview.data?.recipients;
  const start = useMutation(startSend(qc));
  const test = useMutation({ mutationFn: sendTest });
  const tooLong = length(subject) > MAX_SUBJECT;
  const ready = recipients !== undefined && countMatches(typed, recipients) && !tooLong && !preview.isFetching;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!ready || start.isPending || recipients === undefined) return;
    setProblem(null);
    try {
      const summary: Summary = await start.mutateAsync({
        postId: post.id,
        subject: subject.trim() || undefined,
        confirm: recipients,
        sendAt: sendAt || undefined,
        again,
      });
      toast({
        title: summary.status === 'scheduled' ? 'Send scheduled' : 'Sending started',
        description: `“${summary.subject}” to ${people(summary.recipients)}.`,
      });
      navigate(`/admin/broadcasts/${summary.id}`);
    } catch (error) {
      if (isUnauthorized(error)) return;
      setProblem(error instanceof ApiError ? error.message : 'The send could not be started. Please try again.');
    }
  };

  const chooseAgain = () => {
    setAgain(true);
    setTyped('');
    setProblem(null);
    count.current?.focus();
  };

  const runTest = async () => {
    setTestNote('');
    try {
      const { to } = await test.mutateAsync({ postId: post.id, subject: subject.trim() || undefined });
      // Said in the status line beside the button (a toast as well would say it twice).
      setTestNote(`Test sent to ${to}`);
    } catch (error) {
      if (isUnauthorized(error)) return;
      toast({ variant: 'destructive', title: 'The test could not be sent', description: error instanceof ApiError ? error.message : undefined });
    }
  };

  return (
    <form onSubmit={submit} noValidate className="mt-6 space-y-6">
      <Field
        label="Subject"
        htmlFor={`${id}-subject`}
        counter={
          <span id={`${id}-subject-count`} className={`text-sm ${tooLong ? 'font-semibold text-crimson-dark' : 'text-slate-700'}`}>
            {length(subject)}/{MAX_SUBJECT}
          </span>
        }
      >
        <input
          id={`${id}-subject`}
          className="field-input"
          value={subject}
          onChange={(e) => setSubject(e.target.value)}
          aria-describedby={`${id}-subject-count`}
          aria-invalid={tooLong || undefined}
        />
        {tooLong && <p className="mt-1 text-sm font-semibold text-crimson-dark">The subject must be {MAX_SUBJECT} characters or fewer.</p>}
      </Field>

      <section aria-labelledby={`${id}-preview`}>
        <h2 id={`${id}-preview`} className="font-serif text-xl font-bold text-navy">
          Preview
        </h2>
        {preview.error ? (
          <p role="alert" className="mt-2 rounded-lg border border-crimson/40 bg-crimson/5 p-4 text-crimson-dark">
            {preview.error instanceof ApiError ? preview.error.message : 'The preview could not be loaded.'}
          </p>
        ) : !preview.data ? (
          <p role="status" className="mt-2 text-slate-700">
            Loading the preview...
          </p>
        ) : (
          <Tabs.Root defaultValue="html" className="mt-2">
            <Tabs.List aria-label="Preview as" className="flex gap-1 rounded-lg bg-slate-100 p-1">
              {[
                ['html', 'As formatted'],
                ['text', 'Plain text'],
              ].map(([value, label]) => (
                <Tabs.Trigger
                  key={value}
                  value={value}
                  className="inline-flex min-h-11 items-center rounded-md px-3 py-2 text-sm font-semibold text-slate-700 hover:text-navy data-[state=active]:bg-white data-[state=active]:text-navy data-[state=active]:shadow-sm"
                >
                  {label}
                </Tabs.Trigger>
              ))}
            </Tabs.List>
            <p className="mt-2 text-sm text-slate-700">
              Subject: <span className="font-semibold text-ink">{preview.data.subject}</span>
            </p>
            <Tabs.Content value="html" className="mt-2">
              <iframe
                title={`E-mail preview: ${preview.data.subject}`}
                srcDoc={preview.data.html}
                sandbox=""
                className="h-[32rem] w-full rounded-lg border border-slate-300 bg-white"
              />
            </Tabs.Content>
            <Tabs.Content value="text" className="mt-2">
              <pre
                aria-label={`Plain-text part: ${preview.data.subject}`}
                className="max-h-[32rem] overflow-auto rounded-lg border border-slate-300 bg-white p-4 text-sm whitespace-pre-wrap"
              >
                {preview.data.text}
              </pre>
            </Tabs.Content>
          </Tabs.Root>
        )}
        <div className="mt-3 flex flex-wrap items-center gap-3">
          <button type="button" className="btn btn-outline" onClick={runTest} disabled={test.isPending || tooLong}>
            {test.isPending ? 'Sending a test...' : 'Send a test to me'}
          </button>
          <p role="status" className="text-sm text-slate-700">
            {testNote}
          </p>
        </div>
      </section>

      <section aria-labelledby={`${id}-send`} className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
        <h2 id={`${id}-send`} className="font-serif text-xl font-bold text-navy">
          {again ? "Send again to people who haven't received it" : 'Send to the list'}
        </h2>
        {preview.data?.alreadySent && !again && <p className="mt-2 text-slate-700">This post was mailed to the list before.</p>}
        <p ref={count} tabIndex={-1} role="status" className="mt-2 text-lg font-semibold text-ink focus:outline-none">
          {recipients === undefined ? '' : recipients === 0 ? 'Nobody would receive it.' : `This will go to ${people(recipients)}.`}
        </p>
        <div className="mt-4 grid gap-4 sm:grid-cols-2">
          <Field label="Schedule for" hint="(optional, the party's local time)" htmlFor={`${id}-at`}>
            <input id={`${id}-at`} type="datetime-local" className="field-input" value={sendAt} onChange={(e) => setSendAt(e.target.value)} />
          </Field>
          {recipients !== undefined && recipients > 0 && (
            <Field label={`Type ${recipients} to confirm`} htmlFor={`${id}-confirm`}>
              <input
                id={`${id}-confirm`}
                className="field-input"
                inputMode="numeric"
                autoComplete="off"
                value={typed}
                onChange={(e) => setTyped(e.target.value)}
                aria-describedby={problem ? `${id}-problem` : undefined}
                aria-invalid={problem ? true : undefined}
              />
            </Field>
          )}
        </div>
        <p id={`${id}-problem`} role="alert" className="mt-3 min-h-5 text-sm font-semibold text-crimson-dark">
          {problem}
        </p>
        <div className="mt-2 flex flex-wrap gap-3">
          {offersAgain(problem) && !again && (
            <button type="button" className="btn btn-outline" onClick={chooseAgain}>
              Send again to people who haven&apos;t received it
            </button>
          )}
          <button type="submit" className="btn btn-primary" disabled={!ready || start.isPending}>
            {start.isPending ? 'Sending...' : sendAt ? 'Schedule' : 'Send'}
          </button>
        </div>
      </section>
    </form>
  );
}

function PastSends({ postId }: { postId: number }) {
  const query = useQuery(sendsQuery(postId));
  const sends = query.data ?? [];
  if (sends.length === 0) return null;
  return (
    <section aria-labelledby="past-sends" className="mt-8">
      <h2 id="past-sends" className="font-serif text-xl font-bold text-navy">
        Earlier sends of this post
      </h2>
      <ul className="mt-3 divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white">
        {sends.map((s) => (
          <li key={s.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
            <span>
              <span className="font-semibold text-ink">{statusLabel(s.status)}</span>
              {s.again && ' (again)'} · {people(s.recipients)} · {formatExact(s.scheduledFor ?? s.createdAt)}
            </span>
            <Link to={`/admin/broadcasts/${s.id}`} className="btn btn-outline px-3" aria-label={`Open the send of ${formatExact(s.createdAt)}`}>
              Open
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
