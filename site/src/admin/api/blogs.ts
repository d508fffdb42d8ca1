import { type QueryClient, mutationOptions, queryOptions } from '@tanstack/react-query';
import { adminRequest } from './client';
import { loadOrFail } from './lists';

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

export const blogsQuery = () =>
  queryOptions({
    queryKey: ['admin', 'blogs'] as const,
    queryFn: () =>
      loadOrFail(
        async () =>
          (await adminRequest<{ blogs: BlogPost[] }>('GET', '/api/admin/blogs', undefined, { 'Cache-Control': 'no-cache' })).blogs,
        'Failed to fetch blogs',
      ),
  });

export const publishBlog = (qc: QueryClient) =>
  mutationOptions({
    mutationKey: ['admin', 'blogs', 'publish'] as const,
    mutationFn: (id: number) => adminRequest<SavedPost>('POST', `/api/admin/blogs/${id}/publish`),
    onSuccess: () => qc.invalidateQueries({ queryKey: blogsQuery().queryKey }),
  });

export const deleteBlog = (qc: QueryClient) =>
  mutationOptions({
    mutationKey: ['admin', 'blogs', 'delete'] as const,
    mutationFn: (id: number) => adminRequest('DELETE', `/api/admin/blogs/${id}`),
    onSuccess: () => qc.invalidateQueries({ queryKey: blogsQuery().queryKey }),
  });
