// What the blog editor's browser tests share (admin-editor-writing.spec.ts and
// admin-editor-page.spec.ts): posts put straight into the database and read back, the
// page's fields by their labels, and opening the editor.
import type { Page } from '@playwright/test';
import { type Db, expect, minutesAgo } from './admin-fixtures';

export const MOD = process.platform === 'darwin' ? 'Meta' : 'Control';

// A 2×2 PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGM4IacBRAwQCgAgFgQ5YebC6gAAAABJRU5ErkJggg==', 'base64');
export const png = (name: string) => ({ name, mimeType: 'image/png', buffer: PNG });

export function addPost(db: Db, title: string, fields: Record<string, string | null> = {}): number {
  const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  return db.insert('blog_posts', {
    title,
    slug,
    content: `<p>The text of ${title}.</p>`,
    excerpt: `About ${title}.`,
    author_name: 'ACP Team',
    status: 'draft',
    updated_at: minutesAgo(5),
    ...fields,
  });
}

export const stored = (db: Db, id: number) =>
  db.query<{
    title: string;
    slug: string;
    status: string;
    content: string;
    excerpt: string | null;
    featured_image: string | null;
    featured_image_alt: string | null;
  }>(`SELECT title, slug, status, content, excerpt, featured_image, featured_image_alt FROM blog_posts WHERE id = ${id}`)[0];

/** A field by its label ("Slug" or "Slug (optional)"). */
export const field = (page: Page, label: string) => page.getByLabel(new RegExp(`^${label}( \\(optional\\))?$`));
export const content = (page: Page) => page.getByRole('textbox', { name: 'Content' });
export const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });

export async function openEditor(page: Page, id: number | 'new') {
  await page.goto(`/admin/blog/${id}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(id === 'new' ? 'Create New Blog Post' : 'Edit Blog Post');
}
