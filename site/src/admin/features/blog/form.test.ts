import { describe, expect, it } from 'vitest';
import type { BlogPost } from './api';
import { EMPTY_FORM, fileNameOf, formFromPost, missingNotice, publishPlan, sameForm, toInput } from './form';

const post: BlogPost = {
  id: 7,
  title: 'Why we run',
  slug: 'why-we-run',
  excerpt: null,
  content: '<p>Because</p>',
  featuredImage: '/uploads/ab12.png',
  featuredImageAlt: null,
  keywords: null,
  authorName: 'ACP Team',
  status: 'scheduled',
  publishDate: null,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
  version: 3,
  kind: 'post',
};

describe('formFromPost', () => {
  it('fills the form from a stored post: nulls as empty fields, a scheduled post keeping its status (so a save keeps its time)', () => {
    const form = formFromPost(post, (html) => `canonical:${html}`, 'Someone Else');
    expect(form).toEqual({
      title: 'Why we run',
      slug: 'why-we-run',
      excerpt: '',
      authorName: 'ACP Team',
      keywords: '',
      featuredImage: '/uploads/ab12.png',
      featuredImageName: 'ab12.png',
      featuredImageAlt: '',
      content: 'canonical:<p>Because</p>',
      status: 'scheduled',
      kind: 'post',
    });
    expect(formFromPost({ ...post, status: 'published' }, String, '').status).toBe('published');
  });

  it('shows the default author as the placeholder, not as a value', () => {
    expect(formFromPost(post, String, 'ACP Team').authorName).toBe('');
  });
});

describe('toInput', () => {
  it('sends every field, and the slug only when there is one', () => {
    const form = { ...EMPTY_FORM, title: 'T', slug: '  ', featuredImageName: 'x.png' };
    const input = toInput(form);
    expect(input).not.toHaveProperty('slug');
    expect(input).not.toHaveProperty('featuredImageName');
    expect(input).toEqual({
      title: 'T',
      content: '',
      excerpt: '',
      keywords: '',
      featuredImage: null,
      featuredImageAlt: '',
      authorName: '',
      status: 'draft',
      kind: 'post',
    });
    expect(toInput({ ...form, slug: ' my-post ' }, 'published')).toMatchObject({ slug: 'my-post', status: 'published' });
  });
});

describe('a newsletter', () => {
  it('keeps its kind through a save and is never missing an excerpt', () => {
    const form = { ...EMPTY_FORM, kind: 'newsletter' as const, title: 'November', content: '<p>News</p>' };
    expect(toInput(form).kind).toBe('newsletter');
    expect(missingNotice(form)).toBeNull();
    expect(missingNotice({ ...form, content: '' })).toBe('Newsletter saved, but missing: content');
    expect(formFromPost({ ...post, kind: 'newsletter' }, String, '').kind).toBe('newsletter');
  });
});

describe('sameForm', () => {
  it('compares what a save would send; the shown file name is not part of the post', () => {
    expect(sameForm(EMPTY_FORM, { ...EMPTY_FORM, featuredImageName: 'a.png' })).toBe(true);
    expect(sameForm(EMPTY_FORM, { ...EMPTY_FORM, content: '<p>a</p>' })).toBe(false);
    expect(sameForm(EMPTY_FORM, { ...EMPTY_FORM, status: 'published' })).toBe(false);
  });
});

describe('missingNotice', () => {
  it('names the empty ones of title, content and excerpt, in that order', () => {
    expect(missingNotice(EMPTY_FORM)).toBe('Blog saved, but missing: title, content, excerpt');
    expect(missingNotice({ ...EMPTY_FORM, title: '  ', content: '<p>x</p>' })).toBe('Blog saved, but missing: title, excerpt');
    expect(missingNotice({ ...EMPTY_FORM, title: 'T', content: '<p>x</p>', excerpt: 'E' })).toBeNull();
  });
});

describe('publishPlan', () => {
  it('uses the publish route for a saved post not yet live, saving unsaved edits first', () => {
    expect(publishPlan({ ...post, status: 'draft' }, true)).toEqual({ kind: 'publish-route', saveFirst: true });
    expect(publishPlan(post, false)).toEqual({ kind: 'publish-route', saveFirst: false });
  });
  it('saves a new or already published post with status published', () => {
    expect(publishPlan(null, true)).toEqual({ kind: 'save-published' });
    expect(publishPlan({ ...post, status: 'published' }, true)).toEqual({ kind: 'save-published' });
  });
});

describe('small helpers', () => {
  it('names a stored image by its file', () => {
    expect(fileNameOf('/uploads/ab12.png?v=1')).toBe('ab12.png');
  });
});
