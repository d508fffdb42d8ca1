import { type QueryClient, mutationOptions, queryOptions } from '@tanstack/react-query';
import { adminRequest, loadOrFail } from '../../app/client';

/** A post as the admin API sends it (spec §3, "Blog post"). */
export interface BlogPost {
  id: number;
  title: string;
  slug: string;
  excerpt: string | null;
  content: string;
  featuredImage: string | null;
  featuredImageAlt: string | null;
  keywords: string | null;
  authorName: string;
  status: 'draft' | 'published' | 'scheduled';
  publishDate: string | null;
  createdAt: string;
  updatedAt: string;
  /** Counts every change: a save sends the version it started from (409 when stale). */
  version: number;
  /** A plain newsletter is written here but only mailed to the list, never published. */
  kind: BlogKind;
}

export type BlogKind = 'post' | 'newsletter';

/** What a change answers: the post, and a warning when the public pages lag behind. */
export type SavedPost = BlogPost & { warning?: string };

export const blogsExportUrl = '/api/admin/blogs/export';

/** What a save sends (spec §7): every field, the slug only when there is one. */
export interface BlogInput {
  title: string;
  slug?: string;
  content: string;
  excerpt: string;
  keywords: string;
  featuredImage: string | null;
  featuredImageAlt: string;
  authorName: string;
  /** Scheduled only keeps a scheduled post's time; Schedule… sets it. */
  status: 'draft' | 'published' | 'scheduled';
  /** Chosen when it is made; a stored one's is sent unchanged. */
  kind: BlogKind;
  /** The version the edit started from: a save over changes made elsewhere gets a 409. */
  version?: number;
}

export const blogsQuery = () =>
  queryOptions({
    queryKey: ['admin', 'blogs'] as const,
    queryFn: () =>
      loadOrFail(
        async () => (await adminRequest<{ blogs: BlogPost[] }>('GET', '/api/admin/blogs', undefined, { 'Cache-Control': 'no-cache' })).blogs,
        'Failed to fetch blogs',
      ),
  });

export const publishBlog = (qc: QueryClient) =>
  mutationOptions({
    mutationKey: ['admin', 'blogs', 'publish'] as const,
    mutationFn: publishSavedBlog,
    onSuccess: () => qc.invalidateQueries({ queryKey: blogsQuery().queryKey }),
  });

export const deleteBlog = (qc: QueryClient) =>
  mutationOptions({
    mutationKey: ['admin', 'blogs', 'delete'] as const,
    mutationFn: (id: number) => adminRequest('DELETE', `/api/admin/blogs/${id}`),
    onSuccess: () => qc.invalidateQueries({ queryKey: blogsQuery().queryKey }),
  });

/** One post, for the editor. Not kept once the editor is left (`gcTime: 0`): every visit
 *  loads the post as it is now, never a copy from before the last save. */
export const blogQuery = (id: number) =>
  queryOptions({
    queryKey: ['admin', 'blog', id] as const,
    queryFn: () => adminRequest<BlogPost>('GET', `/api/admin/blogs/${id}`),
    gcTime: 0,
  });

/** Post `id` as it is stored now (after a save was refused as stale). */
export function loadBlog(id: number): Promise<BlogPost> {
  return adminRequest<BlogPost>('GET', `/api/admin/blogs/${id}`);
}

/** The slug a save of this title and slug would give post `id` (or a new post). A slug
 *  left out keeps a saved post's slug, as a save without one does. */
export const slugQuery = (id: number | null, title: string, slug: string) =>
  queryOptions({
    queryKey: ['admin', 'blog-slug', id, title, slug] as const,
    queryFn: async () => {
      const params = new URLSearchParams({ title });
      if (slug) params.set('slug', slug);
      if (id !== null) params.set('id', String(id));
      return (await adminRequest<{ slug: string }>('GET', `/api/admin/blogs/slug?${params}`)).slug;
    },
  });

/** Creates post (id null) or saves the changes to post `id`. */
export function saveBlog(id: number | null, input: BlogInput): Promise<SavedPost> {
  return id === null ? adminRequest<SavedPost>('POST', '/api/admin/blogs', input) : adminRequest<SavedPost>('PATCH', `/api/admin/blogs/${id}`, input);
}

/** Publishes saved post `id` as it is stored. */
export function publishSavedBlog(id: number): Promise<SavedPost> {
  return adminRequest<SavedPost>('POST', `/api/admin/blogs/${id}/publish`);
}

/** A one-time address showing `input` as its public page will (nothing is saved). */
export async function previewBlog(id: number | null, input: BlogInput): Promise<string> {
  const url = id === null ? '/api/admin/blogs/preview' : `/api/admin/blogs/${id}/preview`;
  return (await adminRequest<{ url: string }>('POST', url, input)).url;
}

/** Uploads an image (a post's featured image or one in its text) and gives its address. */
export async function uploadBlogImage(file: File): Promise<string> {
  const body = new FormData();
  body.append('image', file);
  return (await adminRequest<{ url: string }>('POST', '/api/admin/blogs/upload-image', body)).url;
}

/** Schedules post `id` to go live at `publishDate`, a date and time where the party is. */
export function scheduleBlog(id: number, publishDate: string): Promise<SavedPost> {
  return adminRequest<SavedPost>('POST', `/api/admin/blogs/${id}/schedule`, { publishDate });
}

/** Takes scheduled post `id` back to a draft. */
export function unscheduleBlog(id: number): Promise<SavedPost> {
  return adminRequest<SavedPost>('POST', `/api/admin/blogs/${id}/unschedule`);
}

/** A line of a post's history (newest first from the server). */
export interface RevisionSummary {
  id: number;
  reason: 'saved' | 'published' | 'unpublished' | 'restored';
  createdAt: string;
  title: string;
}

/** One revision, whole: what a reader saw of the post then. */
export interface Revision extends RevisionSummary {
  postId: number;
  excerpt: string | null;
  content: string;
  featuredImage: string | null;
  featuredImageAlt: string | null;
}

/** Post `id`'s history. Loaded each time History is opened (`gcTime: 0`). */
export const revisionsQuery = (id: number) =>
  queryOptions({
    queryKey: ['admin', 'blog', id, 'revisions'] as const,
    queryFn: async () => (await adminRequest<{ revisions: RevisionSummary[] }>('GET', `/api/admin/blogs/${id}/revisions`)).revisions,
    gcTime: 0,
  });

export const revisionQuery = (id: number, rev: number) =>
  queryOptions({
    queryKey: ['admin', 'blog', id, 'revisions', rev] as const,
    queryFn: () => adminRequest<Revision>('GET', `/api/admin/blogs/${id}/revisions/${rev}`),
  });

/** Saves revision `rev` as post `id`'s text again; `version` is the one the editor has. */
export function restoreRevision(id: number, rev: number, version: number): Promise<SavedPost> {
  return adminRequest<SavedPost>('POST', `/api/admin/blogs/${id}/revisions/${rev}/restore`, { version });
}
