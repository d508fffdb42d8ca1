// Scheduling from the blog editor against the real server: Schedule… (with the party's time
// zone named, a past time refused in the dialog, unsaved edits saved first), the Blogs tab's
// "Scheduled for …", Reschedule… and Unschedule. The post stays off the public site until
// its time; that the server then publishes it is api/tests/it/blog_schedule.rs (on a clock
// the test moves).
import { expect, signIn, test } from './admin-fixtures';
import { addPost, button, field, openEditor, stored } from './admin-editor-helpers';
import { failedLoad } from './fixtures';

// January: New York (content/site.yaml) is on standard time, EST.
const year = new Date().getFullYear() + 1;
const at = (day: number, time: string) => `${year}-01-${String(day).padStart(2, '0')}T${time}`;

async function scheduleFor(page: import('@playwright/test').Page, value: string) {
  const dialog = page.getByRole('dialog');
  await field(page, 'Goes live on \\(America/New_York\\)').fill(value);
  await dialog.getByRole('button', { name: 'Schedule', exact: true }).click();
}

test('Schedule… and Reschedule…: in the party zone, past times refused, hidden from the public until then', async ({ page, db, allowConsole }) => {
  allowConsole(failedLoad(400));
  const id = addPost(db, 'Election Night Plans');
  await signIn(page);
  await openEditor(page, id);
  await field(page, 'Excerpt').fill('Where we will be that night.');

  await button(page, 'Schedule…').click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Schedule blog post');
  await scheduleFor(page, `${year - 2}-01-15T09:30`);
  await expect(dialog.getByRole('alert')).toHaveText('That time has already passed. Choose a time in the future.');
  expect(stored(db, id).status).toBe('draft');

  await scheduleFor(page, at(15, '09:30'));
  await expect(page).toHaveURL(/\/admin\/dashboard\?tab=blogs$/);
  const row = page.getByRole('row', { name: /Election Night Plans/ });
  await expect(row).toContainText(`Scheduled for January 15, ${year} at 9:30 AM EST`);
  // Unsaved edits went with it, and nothing is public.
  expect(stored(db, id)).toMatchObject({ status: 'scheduled', excerpt: 'Where we will be that night.' });
  expect(db.query<{ d: string }>(`SELECT publish_date AS d FROM blog_posts WHERE id = ${id}`)[0].d).toBe(`${year}-01-15T14:30:00.000Z`);
  expect((await page.request.get('/blog/election-night-plans')).status()).toBe(404);
  expect(await (await page.request.get('/api/blogs')).text()).not.toContain('Election Night Plans');

  // The editor says when; Reschedule… starts from that time.
  await openEditor(page, id);
  await expect(page.getByText(`Scheduled: goes live on January 15, ${year} at 9:30 AM EST.`)).toBeVisible();
  await button(page, 'Reschedule…').click();
  await expect(field(page, 'Goes live on \\(America/New_York\\)')).toHaveValue(at(15, '09:30'));
  await scheduleFor(page, at(16, '14:45'));
  await expect(page.getByRole('row', { name: /Election Night Plans/ })).toContainText(`Scheduled for January 16, ${year} at 2:45 PM EST`);
  expect(db.query<{ d: string }>(`SELECT publish_date AS d FROM blog_posts WHERE id = ${id}`)[0].d).toBe(`${year}-01-16T19:45:00.000Z`);
});

test('Unschedule: a draft again, with no time left; typing on screen stays', async ({ page, db }) => {
  const id = addPost(db, 'Not Yet', { status: 'scheduled', publish_date: `${year}-01-20T15:00:00.000Z` });
  await signIn(page);
  await openEditor(page, id);
  await expect(page.getByText(`Scheduled: goes live on January 20, ${year} at 10:00 AM EST.`)).toBeVisible();
  await field(page, 'Title').fill('Not Yet, Maybe Later');
  await button(page, 'Unschedule').click();
  await expect(page.getByText('Blog unscheduled', { exact: true })).toBeVisible();
  await expect(page.getByText(/Scheduled: goes live/)).toHaveCount(0);
  await expect(button(page, 'Schedule…')).toBeVisible();
  await expect(field(page, 'Title')).toHaveValue('Not Yet, Maybe Later');
  expect(db.query<{ s: string; d: string | null }>(`SELECT status AS s, publish_date AS d FROM blog_posts WHERE id = ${id}`)[0]).toEqual({
    s: 'draft',
    d: null,
  });

  // Saved now, it stays a draft.
  await button(page, 'Save Draft').click();
  await expect(page).toHaveURL(/\/admin\/dashboard\?tab=blogs$/);
  await expect(page.getByRole('row', { name: /Not Yet, Maybe Later/ })).toContainText('Not published');
  expect(stored(db, id)).toMatchObject({ status: 'draft', title: 'Not Yet, Maybe Later' });
});
