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
}

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
  status: 'draft' | 'published';
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
