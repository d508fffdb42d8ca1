// The blog editor's form as plain data: what it starts from, what a save sends, what a
// save leaves missing, and what Publish does. No React here, so all of it is unit-tested.
import type { BlogInput, BlogKind, BlogPost } from './api';

export interface BlogForm {
  title: string;
  slug: string;
  excerpt: string;
  authorName: string;
  keywords: string;
  featuredImage: string | null;
  /** The uploaded file's name, shown beside the preview (a stored image: its file name). */
  featuredImageName: string;
  featuredImageAlt: string;
  /** The content's HTML as the editor writes it. */
  content: string;
  /** A scheduled post is edited as a draft (spec §3): saving it keeps its time. */
  status: 'draft' | 'published' | 'scheduled';
  /** A post, or a plain newsletter (only mailed: no address, excerpt or keywords). */
  kind: BlogKind;
}

export const EMPTY_FORM: BlogForm = {
  title: '',
  slug: '',
  excerpt: '',
  authorName: '',
  keywords: '',
  featuredImage: null,
  featuredImageName: '',
  featuredImageAlt: '',
  content: '',
  status: 'draft',
  kind: 'post',
};

/** The last part of an image's address: the name shown for a stored featured image. */
export function fileNameOf(url: string): string {
  return url.split(/[?#]/)[0].split('/').pop() ?? url;
}

/** The form for a stored post; `canonical` is its content as the editor writes it back. */
export function formFromPost(post: BlogPost, canonical: (html: string) => string, defaultAuthor: string): BlogForm {
  return {
    title: post.title,
    slug: post.slug,
    excerpt: post.excerpt ?? '',
    // The default author is what a blank field gives: show it as the placeholder instead.
    authorName: post.authorName === defaultAuthor ? '' : post.authorName,
    keywords: post.keywords ?? '',
    featuredImage: post.featuredImage,
    featuredImageName: post.featuredImage ? fileNameOf(post.featuredImage) : '',
    featuredImageAlt: post.featuredImageAlt ?? '',
    content: canonical(post.content),
    status: post.status,
    kind: post.kind,
  };
}

/** The body of a save (spec §7): every field, an empty slug left out (the server keeps a
 *  saved post's slug, or makes one from the title). */
export function toInput(form: BlogForm, status: BlogInput['status'] = form.status): BlogInput {
  const slug = form.slug.trim();
  return {
    title: form.title,
    ...(slug ? { slug } : {}),
    content: form.content,
    excerpt: form.excerpt,
    keywords: form.keywords,
    featuredImage: form.featuredImage,
    featuredImageAlt: form.featuredImageAlt,
    authorName: form.authorName,
    status,
    kind: form.kind,
  };
}

/** Whether two forms would save the same post. */
export function sameForm(a: BlogForm, b: BlogForm): boolean {
  return (Object.keys(a) as (keyof BlogForm)[]).every((key) => key === 'featuredImageName' || a[key] === b[key]);
}

/** What a saved post lacks (spec §5): title, content and excerpt, in that order. A
 *  newsletter has no excerpt (it is never listed). */
export function missingFields(form: BlogForm): string[] {
  const missing: string[] = [];
  if (form.title.trim() === '') missing.push('title');
  if (form.content === '') missing.push('content');
  if (form.kind === 'post' && form.excerpt.trim() === '') missing.push('excerpt');
  return missing;
}

/** The "Warning" notice after a save that lacks something, or null. */
export function missingNotice(form: BlogForm): string | null {
  const missing = missingFields(form);
  return missing.length ? `${form.kind === 'newsletter' ? 'Newsletter' : 'Blog'} saved, but missing: ${missing.join(', ')}` : null;
}

/** What Publish does (spec §4): a saved post not yet live is saved (when it has unsaved
 *  edits) and then published through the publish route, so what goes live is what is on
 *  screen; a new or already published post is saved with status published. */
export type PublishPlan = { kind: 'publish-route'; saveFirst: boolean } | { kind: 'save-published' };

export function publishPlan(saved: BlogPost | null, dirty: boolean): PublishPlan {
  if (saved && saved.status !== 'published') return { kind: 'publish-route', saveFirst: dirty };
  return { kind: 'save-published' };
}
