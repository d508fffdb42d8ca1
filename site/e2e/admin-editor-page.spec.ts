// The blog editor page (/admin/blog/new, /admin/blog/{id}) against the real server, the
// page around the text: images; counters; preview of unsaved text; no lost work;
// failures; axe. Writing, saving and publishing are admin-editor-writing.spec.ts.
import type { Locator, Page } from '@playwright/test';
import { expectAccessible, expectImageShown, failedLoad, toastRegion } from './fixtures';
import { type Db, expect, signIn, test } from './admin-fixtures';
import { MOD, addPost, button, content, field, openEditor, png, stored } from './admin-editor-helpers';

const tooBig = { name: 'huge.png', mimeType: 'image/png', buffer: Buffer.alloc(5 * 1024 * 1024) };
const wrongType = { name: 'notes.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4') };

test('images: the featured image and images in the text, good, too big and of the wrong type', async ({ page, db, allowConsole }) => {
  allowConsole(failedLoad(400));
  const id = addPost(db, 'Pictures');
  await signIn(page);
  await openEditor(page, id);
  const chooser = field(page, 'Featured Image');
  const toast = toastRegion(page).getByRole('listitem');

  await chooser.setInputFiles(tooBig);
  await expect(toast).toContainText('Image must be less than 5MB');
  await expect(chooser).toHaveValue('');
  await chooser.setInputFiles(wrongType);
  await expect(toast).toContainText('Only JPEG, PNG, GIF or WebP images can be uploaded.');
  // The right type by name, not by its bytes: the server refuses it.
  await chooser.setInputFiles({ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('not a picture') });
  await expect(toast).toContainText('Failed to upload image');
  await expect(chooser).toHaveValue('');
  await expect(button(page, 'Remove Image')).toHaveCount(0);

  await chooser.setInputFiles(png('banner.png'));
  await expect(toast).toContainText('Image "banner.png" uploaded successfully');
  const preview = page.getByRole('img', { name: 'Featured image preview' });
  await expect(preview).toBeVisible();
  await expectImageShown(preview, 2);
  await expect(page.getByText('banner.png', { exact: true })).toBeVisible();
  await button(page, 'Remove Image').click();
  await expect(preview).toHaveCount(0);
  await expect(chooser).toBeFocused();
  await chooser.setInputFiles(png('banner.png'));
  await expect(preview).toBeVisible();
  await field(page, 'Image Alt Text').fill('A crowd at the statehouse');

  // In the text, the same checks before any upload.
  await content(page).click();
  for (const [file, message] of [
    [tooBig, 'Image must be less than 5MB'],
    [wrongType, 'Only JPEG, PNG, GIF or WebP images can be uploaded.'],
  ] as const) {
    const picker = page.waitForEvent('filechooser');
    await button(page, 'Insert image').click();
    await (await picker).setFiles(file);
    await expect(page.getByRole('alert').filter({ hasText: message })).toBeVisible();
  }

  await button(page, 'Save Draft').click();
  await expect(toast).toContainText('Blog updated successfully');
  expect(stored(db, id)).toMatchObject({
    featured_image: expect.stringMatching(/^\/uploads\/[0-9a-f]+\.png$/),
    featured_image_alt: 'A crowd at the statehouse',
  });
});

/** A text colour as sRGB channels (the browser may report it as oklch). */
function rgb(element: Locator): Promise<[number, number, number]> {
  return element.evaluate((e) => {
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = 1;
    const context = canvas.getContext('2d')!;
    context.fillStyle = getComputedStyle(e).color;
    context.fillRect(0, 0, 1, 1);
    const [r, g, b] = context.getImageData(0, 0, 1, 1).data;
    return [r, g, b] as [number, number, number];
  });
}

const looks = {
  normal: ([r, g, b]: number[]) => Math.max(r, g, b) < 128, // dark grey
  warn: ([r, g, b]: number[]) => r > 150 && g > 0.25 * r && g < 0.6 * r && b < g, // orange
  over: ([r, g, b]: number[]) => r > 150 && g < 0.2 * r && b < 0.2 * r, // red
};

test('counters change colour at their thresholds; the excerpt may run long, the alt text may not', async ({ page, db }) => {
  const id = addPost(db, 'Counting', { excerpt: null });
  await signIn(page);
  await openEditor(page, id);
  const steps: [string, number, string, keyof typeof looks][] = [
    ['Excerpt', 250, '250/300', 'normal'],
    ['Excerpt', 251, '251/300', 'warn'],
    ['Excerpt', 300, '300/300', 'warn'],
    ['Excerpt', 320, '320/300', 'over'],
    ['SEO Keywords', 450, '450/500', 'normal'],
    ['SEO Keywords', 451, '451/500', 'warn'],
    ['Image Alt Text', 100, '100/125', 'normal'],
    ['Image Alt Text', 101, '101/125', 'warn'],
    ['Image Alt Text', 126, '126/125', 'over'],
  ];
  for (const [label, length, shown, tone] of steps) {
    const input = field(page, label);
    await input.fill('x'.repeat(length));
    const count = page.locator(`[id="${await input.getAttribute('aria-describedby')}"]`);
    await expect(count).toHaveText(shown);
    await expect(count).toHaveAttribute('data-tone', tone);
    expect(looks[tone](await rgb(count)), `${label} at ${length}: ${tone}`).toBe(true);
  }
  // Said to screen readers politely once typing pauses.
  await expect(page.getByRole('status').filter({ hasText: 'Image Alt Text: 126 of 125 characters, over the recommended length' })).toBeAttached();

  // The alt text stops at 200; the excerpt's 300 is advice, and saving is never blocked.
  await field(page, 'Image Alt Text').fill('y'.repeat(250));
  await expect(field(page, 'Image Alt Text')).toHaveValue('y'.repeat(200));
  await button(page, 'Save Draft').click();
  await expect(toastRegion(page).getByRole('listitem')).toContainText('Blog updated successfully');
  expect(stored(db, id).excerpt).toHaveLength(320);
});

test('Preview shows the unsaved text as the public page will, in a new tab', async ({ page, db }) => {
  const id = addPost(db, 'Preview me');
  await signIn(page);
  await openEditor(page, 'new');
  await expect(button(page, 'Preview')).toBeDisabled();

  await openEditor(page, id);
  await field(page, 'Title').fill('Preview me, changed');
  await content(page).click();
  await page.keyboard.press(`${MOD}+End`);
  await page.keyboard.type(' Not saved yet.');
  const opened = page.context().waitForEvent('page');
  await button(page, 'Preview').click();
  const tab = await opened;
  await expect(tab).toHaveURL(/\/admin\/preview\/[0-9a-f]+$/);
  await expect(tab.getByRole('heading', { level: 1 })).toHaveText('Preview me, changed');
  await expect(tab.getByText('The text of Preview me. Not saved yet.')).toBeVisible();
  // Opened without a handle on the editor: the new tab got no copy of the staff session.
  await tab.goto('/admin/dashboard');
  await expect(tab.getByRole('heading', { level: 1, name: 'Admin Access' })).toBeVisible();
  await tab.close();
  expect(stored(db, id)).toMatchObject({ title: 'Preview me', content: '<p>The text of Preview me.</p>' });
});

/** Changes the title and adds to the text of the open post, as a writer does. */
async function editHalfDone(page: Page): Promise<void> {
  await field(page, 'Title').fill('Half done, and more');
  await content(page).click();
  await page.keyboard.press(`${MOD}+End`);
  await page.keyboard.type(' A second thought.');
}

test('leaving unsaved changes asks first, and Stay keeps them', async ({ page, db }) => {
  const id = addPost(db, 'Half done');
  await signIn(page);
  await openEditor(page, id);
  // Nothing changed: nothing to ask.
  await page.getByRole('link', { name: 'Back to Admin' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Admin Dashboard');

  await openEditor(page, id);
  await editHalfDone(page);
  await page.getByRole('link', { name: 'Back to Admin' }).click();
  const ask = page.getByRole('alertdialog', { name: 'Leave without saving?' });
  await expect(ask).toBeVisible();
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await expectAccessible(page);
  }
  await ask.getByRole('button', { name: 'Stay' }).click();
  await expect(ask).toBeHidden();
  await expect(field(page, 'Title')).toHaveValue('Half done, and more');
  await expect(content(page)).toHaveText('The text of Half done. A second thought.');
});

test('after a reload unsaved changes are offered back, gone once saved, and kept after leaving until discarded', async ({ page, db }) => {
  const id = addPost(db, 'Half done');
  await signIn(page);
  await openEditor(page, id);
  await editHalfDone(page);
  const ask = page.getByRole('alertdialog', { name: 'Leave without saving?' });

  // A reload (or a closed tab) asks the browser's own question first.
  const question = new Promise<string>((resolve) =>
    page.once('dialog', (dialog) => {
      resolve(dialog.type());
      void dialog.accept();
    }),
  );
  await page.reload();
  expect(await question).toBe('beforeunload');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Edit Blog Post');
  await expect(field(page, 'Title')).toHaveValue('Half done');
  const offer = page.getByRole('region', { name: 'Unsaved changes found' });
  await expect(offer).toBeVisible();
  await page.mouse.move(0, 0); // off the buttons: none is scanned mid-way through its hover colour
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await expectAccessible(page);
  }
  await offer.getByRole('button', { name: 'Restore changes' }).click();
  await expect(field(page, 'Title')).toHaveValue('Half done, and more');
  await expect(content(page)).toHaveText('The text of Half done. A second thought.');
  await expect(field(page, 'Title')).toBeFocused();

  await button(page, 'Save Draft').click();
  await expect(toastRegion(page).getByRole('listitem')).toContainText('Blog updated successfully');
  expect(stored(db, id)).toMatchObject({ title: 'Half done, and more', content: '<p>The text of Half done. A second thought.</p>' });
  await openEditor(page, id);
  await expect(field(page, 'Title')).toHaveValue('Half done, and more');
  await expect(offer).toHaveCount(0);

  // Leaving anyway keeps the work in the browser, until it is discarded.
  await field(page, 'Excerpt').fill('Second thoughts');
  await page.getByRole('link', { name: 'Back to Admin' }).click();
  await ask.getByRole('button', { name: 'Leave' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Admin Dashboard');
  await openEditor(page, id);
  await expect(field(page, 'Excerpt')).toHaveValue('About Half done.');
  await offer.getByRole('button', { name: 'Discard them' }).click();
  await expect(offer).toHaveCount(0);
  await expect(field(page, 'Excerpt')).toHaveValue('About Half done.');
  await openEditor(page, id);
  await expect(field(page, 'Title')).toHaveValue('Half done, and more');
  await expect(offer).toHaveCount(0);
});

test('failures keep the form and say why; unknown posts say so; a scheduled post is edited as a draft and keeps its time', async ({
  page,
  db,
  allowConsole,
}) => {
  allowConsole(failedLoad(404));
  allowConsole(/Failed to load resource: net::ERR_FAILED/); // the publish request we stop
  const doomed = addPost(db, 'Doomed');
  const draft = addPost(db, 'Stuck');
  const scheduled = addPost(db, 'Later', { status: 'scheduled', publish_date: '2099-01-05T15:00:00.000Z' });
  await signIn(page);
  const toast = toastRegion(page).getByRole('listitem');

  // Deleted by someone else meanwhile: the server's reason, and the form as it was.
  await openEditor(page, doomed);
  await field(page, 'Title').fill('Doomed, renamed');
  db.exec(`DELETE FROM blog_posts WHERE id = ${doomed}`);
  await button(page, 'Save Draft').click();
  await expect(toast).toContainText('Error');
  await expect(toast).toContainText(`There is no blog post ${doomed}.`);
  await expect(page).toHaveURL(new RegExp(`/admin/blog/${doomed}$`));
  await expect(field(page, 'Title')).toHaveValue('Doomed, renamed');

  // The publish request never arrives.
  await openEditor(page, draft);
  await page.route(`**/api/admin/blogs/${draft}/publish`, (route) => route.abort());
  await button(page, 'Publish').click();
  await expect(toast).toContainText('Failed to publish blog');
  await expect(page).toHaveURL(new RegExp(`/admin/blog/${draft}$`));
  expect(stored(db, draft).status).toBe('draft');

  await openEditor(page, scheduled);
  await field(page, 'Title').fill('Later, edited');
  await button(page, 'Save Draft').click();
  await expect(toast).toContainText('Blog updated successfully');
  expect(stored(db, scheduled)).toMatchObject({ status: 'scheduled', title: 'Later, edited' });

  for (const missing of ['99999', 'not-a-number']) {
    await page.goto(`/admin/blog/${missing}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Blog Post Not Found');
    await expect(page.getByText('There is no such blog post. It may have been deleted.')).toBeVisible();
  }
  await page.getByRole('link', { name: 'Back to Admin' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Admin Dashboard');
});

/** axe at both widths, the pointer out of the way: a button it happens to rest on after a
 *  resize would be scanned halfway through its hover colour change. */
async function scanAtBothWidths(page: Page) {
  await page.mouse.move(0, 0);
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await expectAccessible(page);
  }
}

test('the empty editor and the editor of a post that is not there have no accessibility violations at 1440 and 390 px', async ({ page, allowConsole }) => {
  allowConsole(failedLoad(404)); // the post that is not there
  await signIn(page);
  // A new post, empty (its placeholder showing), and a post that is not there.
  await openEditor(page, 'new');
  await scanAtBothWidths(page);
  await page.goto('/admin/blog/99999');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Blog Post Not Found');
  await scanAtBothWidths(page);
});

/** A post with every kind of content, open in the editor. */
async function openFullPost(page: Page, db: Db) {
  const id = addPost(db, 'Accessible', {
    content:
      '<h2>Title</h2><p>Some <strong>text</strong> and <a href="https://example.org/">a link</a>.</p><ul><li>One</li></ul><img src="/uploads/none.png" alt="Chart">',
    featured_image: '/uploads/none.png',
    featured_image_alt: 'A chart',
  });
  await signIn(page);
  await openEditor(page, id);
  await expect(button(page, 'Remove Image')).toBeVisible();
}

test('a full post in the editor has no accessibility violations at 1440 and 390 px', async ({ page, db, allowConsole }) => {
  allowConsole(failedLoad(404)); // the sample images are not uploaded
  await openFullPost(page, db);
  await page.mouse.move(0, 0);
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await expectAccessible(page);
    expect(await content(page).evaluate((e) => e.getBoundingClientRect().height)).toBeGreaterThanOrEqual(300);
  }
});

test('the editor’s link and image dialogs have no accessibility violations at 1440 and 390 px', async ({ page, db, allowConsole }) => {
  allowConsole(failedLoad(404)); // the sample images are not uploaded
  await openFullPost(page, db);
  await content(page).click();
  await button(page, 'Insert link').click();
  await expect(page.getByRole('dialog', { name: 'Insert link' })).toBeVisible();
  await scanAtBothWidths(page);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'Insert link' })).toBeHidden();
  await button(page, 'Edit alt text').click();
  await expect(page.getByRole('dialog', { name: 'Image description' })).toBeVisible();
  await scanAtBothWidths(page);
});
