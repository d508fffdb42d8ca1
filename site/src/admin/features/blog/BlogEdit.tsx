// /admin/blog/new (?kind=newsletter for a plain newsletter) and /admin/blog/{id}: the blog
// editor (BlogEditor.tsx), once the post has loaded. No way in without a session; an id that names no post says so, with a way back.
import { useQuery } from '@tanstack/react-query';
import { useRef } from 'react';
import { Link, Navigate, useParams, useSearchParams } from 'react-router';
import { useStore } from 'zustand';
import { ApiError } from '../../../lib/api';
import { blogQuery } from './api';
import { BlogEditor } from './BlogEditor';
import { useFocusWhenLost } from '../../components/useFocusWhenLost';
import { sessionStore } from '../../app/session';

/** The author a post gets when none is named: the shell page carries it from site.yaml. */
function defaultAuthor(): string {
  return document.getElementById('admin-root')?.dataset.defaultAuthor ?? '';
}

export default function BlogEdit() {
  const token = useStore(sessionStore, (s) => s.token);
  const { id = '' } = useParams();
  const [search] = useSearchParams();
  if (!token) return <Navigate to="/admin" replace />;
  if (id === 'new') {
    const kind = search.get('kind') === 'newsletter' ? 'newsletter' : 'post';
    return <BlogEditor key={`new-${kind}`} post={null} kind={kind} defaultAuthor={defaultAuthor()} />;
  }
  // Only whole numbers name posts; anything else is as missing as a deleted post.
  if (!/^[1-9]\d{0,15}$/.test(id)) return <NotFound />;
  return <ExistingPost key={id} id={Number(id)} />;
}

function ExistingPost({ id }: { id: number }) {
  const query = useQuery(blogQuery(id));
  if (query.isPending) {
    return (
      <p role="status" className="py-10 text-center text-slate-700">
        Loading blog post...
      </p>
    );
  }
  if (query.isError) {
    const error = query.error;
    if (error instanceof ApiError && (error.status === 404 || error.status === 400)) return <NotFound />;
    return (
      <Problem title="Error loading blog post">
        {error instanceof ApiError ? error.message : 'The post could not be loaded. Please check your connection and try again.'}
      </Problem>
    );
  }
  return <BlogEditor post={query.data} defaultAuthor={defaultAuthor()} />;
}

function NotFound() {
  return <Problem title="Blog Post Not Found">There is no such blog post. It may have been deleted.</Problem>;
}

function Problem({ title, children }: { title: string; children: string }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useFocusWhenLost(heading);
  return (
    <div>
      <h1 ref={heading} tabIndex={-1} className="font-serif text-3xl font-bold text-navy focus:outline-none sm:text-4xl">
        {title}
      </h1>
      <p className="mt-4 text-slate-700">{children}</p>
      <Link to="/admin/dashboard?tab=blogs" className="btn btn-primary mt-6">
        Back to Admin
      </Link>
    </div>
  );
}
