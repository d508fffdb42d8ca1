// A post's history in the editor against the real server: the list newest first, a
// revision shown read-only beside the text on screen, Restore after confirming (a new
// save); and a save made from an older version refused with "This post was changed
// elsewhere", then reloaded or kept as a new revision.
import { expect, minutesAgo, signIn, test } from './admin-fixtures';
import { addPost, button, content, field, openEditor, stored } from './admin-editor-helpers';
import type { Db } from './admin-fixtures';
import { failedLoad } from './fixtures';

const revisions = (db: Db, id: number) =>
  db.query<{ reason: string; title: string }>(`SELECT reason, title FROM blog_revisions WHERE post_id = ${id} ORDER BY id DESC`);

test('History: newest first, a version beside the text without changing it, Restore after confirming', async ({ page, db }) => {
  const id = addPost(db, 'Today');
  const revision = (title: string, reason: string, minutes: number, words: string) =>
    db.insert('blog_revisions', { post_id: id, reason, title, excerpt: `About ${title}.`, content: `<p>${words}</p>`, created_at: minutesAgo(minutes) });
  revision('Long Ago', 'saved', 90, 'The first words.');
  revision('Yesterday', 'published', 30, 'The published words.');
  await signIn(page);
  await openEditor(page, id);

  await button(page, 'History').click();
  const list = page.getByRole('list', { name: 'Revisions, newest first' }).getByRole('button');
  await expect(list).toHaveCount(2);
  await expect(list.nth(0)).toContainText(/^Published · .* · Yesterday$/);
  await expect(list.nth(1)).toContainText(/^Saved · .* · Long Ago$/);
  await list.nth(1).click();
  await expect(page.getByText('The first words.')).toBeVisible();
  const now = page.getByRole('heading', { name: 'On screen now' }).locator('..');
  await expect(now).toContainText('The text of Today.');
  // Looking changes nothing.
  expect(stored(db, id).title).toBe('Today');
  expect(revisions(db, id)).toHaveLength(2);

  await button(page, 'Restore this version').click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText('Nothing goes live until you publish.');
  await dialog.getByRole('button', { name: 'Restore', exact: true }).click();
  await expect(page.getByText('Version restored', { exact: true })).toBeVisible();
  await expect(field(page, 'Title')).toHaveValue('Long Ago');
  await expect(content(page)).toContainText('The first words.');
  expect(stored(db, id)).toMatchObject({ title: 'Long Ago', content: '<p>The first words.</p>', status: 'draft' });
  expect(revisions(db, id)[0]).toEqual({ reason: 'restored', title: 'Long Ago' });
  await expect(list).toHaveCount(3);
  await expect(list.nth(0)).toContainText(/^Restored · /);
});

test('a save from an older version: "changed elsewhere", then reload or keep my text', async ({ page, db, allowConsole }) => {
  allowConsole(failedLoad(409));
  const id = addPost(db, 'Shared Post');
  await signIn(page);
  await openEditor(page, id);
  // Another tab saves meanwhile.
  db.exec(`UPDATE blog_posts SET title = 'Their Title', version = version + 1 WHERE id = ${id}`);

  await field(page, 'Title').fill('My Title');
  await button(page, 'Save Draft').click();
  const alert = page.getByRole('alert').filter({ hasText: 'This post was changed elsewhere' });
  await expect(alert).toBeVisible();
  expect(stored(db, id).title).toBe('Their Title');

  // Reload: theirs on screen.
  await alert.getByRole('button', { name: 'Reload the saved post' }).click();
  await expect(field(page, 'Title')).toHaveValue('Their Title');
  await expect(alert).toHaveCount(0);

  // Again, and this time keep mine: saved over theirs, both in the history.
  db.exec(`UPDATE blog_posts SET title = 'Theirs Again', version = version + 1 WHERE id = ${id}`);
  await field(page, 'Title').fill('Mine After All');
  await button(page, 'Save Draft').click();
  await expect(alert).toBeVisible();
  await alert.getByRole('button', { name: 'Keep my text as a new revision' }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard\?tab=blogs$/);
  expect(stored(db, id).title).toBe('Mine After All');
  expect(revisions(db, id)[0]).toEqual({ reason: 'saved', title: 'Mine After All' });
});
