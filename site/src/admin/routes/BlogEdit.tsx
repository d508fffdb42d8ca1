// /admin/blog/{id}: the blog editor's page (issue 14 fills it in, from site/src/editor/).
// For now: the right heading, the way back, and no way in without a session.
import { useStore } from 'zustand';
import { Link, Navigate, useParams } from 'react-router';
import { sessionStore } from '../session';

export default function BlogEdit() {
  const token = useStore(sessionStore, (s) => s.token);
  const { id } = useParams();
  if (!token) return <Navigate to="/admin" replace />;
  return (
    <div>
      <Link to="/admin/dashboard?tab=blogs" className="btn btn-outline">
        Back to Admin
      </Link>
      <h1 className="mt-6 font-serif text-3xl font-bold text-navy sm:text-4xl">
        {id === 'new' ? 'Create New Blog Post' : 'Edit Blog Post'}
      </h1>
      <p className="mt-4 text-slate-700">The blog editor is on its way.</p>
    </div>
  );
}
