// The blog editor page (/admin/blog/new, /admin/blog/{id}) against the real server, the
// writing: write, save, publish and see it live; every toolbar button from the keyboard
// alone; formatting exactly the highlighted text; the writing area. The page around the
// text (fields, images, preview, no lost work, failures, axe) is admin-editor-page.spec.ts.
// What e2e/editor.spec.ts already proves of the editor on its bench (paste, tooltips,
// mouse formatting) is not repeated here.
import type { Locator, Page } from '@playwright/test';
import { toastRegion } from './fixtures';
import { expect, signIn, test } from './admin-fixtures';
import { MOD, addPost, button, content, field, openEditor, png, stored } from './admin-editor-helpers';

const REL = 'rel="noopener noreferrer"';

/** Records every toast that appears from now on (one is on screen at a time, and the
 *  "missing" warning replaces the success toast after half a second). */
async function recordToasts(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { seenToasts: string[] }).seenToasts = seen;
    const current = () =>
      [...document.querySelectorAll('#toaster li')]
        .map((li) => (li.querySelector('.grid') as HTMLElement | null)?.innerText.replace(/\s+/g, ' ').trim() ?? '')
        .join(' | ');
    let last = current(); // what is on screen already is not news
    new MutationObserver(() => {
      const now = current();
      if (now && now !== last) seen.push(now);
      last = now;
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  });
  return () => page.evaluate(() => (window as unknown as { seenToasts: string[] }).seenToasts);
}

test('create, save a draft, edit, publish: the post is live on its page', async ({ page, db, request }) => {
  await signIn(page);
  await page.getByRole('tab', { name: /^Blogs/ }).click();
  await page.getByRole('link', { name: 'Create New Blog' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Create New Blog Post');
  await expect(button(page, 'Preview')).toBeDisabled();

  // The labels in the spec's order.
  const labels = await page.locator('#admin-root label, #admin-root [id$="content-label"]').allInnerTexts();
  expect(labels.map((l) => l.replace(/\s*\(optional\)$/, ''))).toEqual([
    'Title',
    'Slug',
    'Excerpt',
    'Author Name',
    'SEO Keywords',
    'Featured Image',
    'Image Alt Text',
    'Content',
  ]);
  await expect(field(page, 'Author Name')).toHaveAttribute('placeholder', 'American Conscience Party Team');

  // The slug a save would give, from the server: normalised, and numbered when taken.
  addPost(db, 'Ballot Access Now');
  await field(page, 'Title').fill('Ballot Access Now!');
  await expect(page.getByText("The post's address:")).toContainText('/blog/ballot-access-now-2');
  await field(page, 'Slug').fill('  Access For ALL ');
  await expect(page.getByText("The post's address:")).toContainText('/blog/access-for-all');

  await content(page).click();
  await page.keyboard.type('Every voter deserves a choice.');
  await expect(page.getByText('30 characters')).toBeVisible();
  const toasts = await recordToasts(page);
  await button(page, 'Save Draft').click();
  await expect(page).toHaveURL(/\/admin\/dashboard\?tab=blogs$/);
  await expect(toastRegion(page).getByRole('listitem')).toContainText('Blog saved, but missing: excerpt');
  expect(await toasts()).toEqual(['Blog created successfully', 'Warning Blog saved, but missing: excerpt']);
  const row = page.getByRole('row', { name: /Ballot Access Now!/ });
  await expect(row).toContainText('draft');
  const [{ id }] = db.query<{ id: number }>("SELECT id FROM blog_posts WHERE slug = 'access-for-all'");
  expect(stored(db, id)).toMatchObject({ status: 'draft', content: '<p>Every voter deserves a choice.</p>', excerpt: null });
  expect((await request.get('/blog/access-for-all')).status()).toBe(404);

  // Edit it, and publish what is on screen: the edits are saved, then the publish route runs.
  await row.getByRole('link', { name: /^Edit/ }).click();
  await expect(field(page, 'Title')).toHaveValue('Ballot Access Now!');
  await expect(field(page, 'Slug')).toHaveValue('access-for-all');
  await field(page, 'Excerpt').fill('Why every ballot should list more than two names.');
  await content(page).click();
  await page.keyboard.press(`${MOD}+End`);
  await page.keyboard.type(' Even in Ohio.');
  const calls: string[] = [];
  page.on('request', (r) => r.url().includes(`/api/admin/blogs/${id}`) && calls.push(`${r.method()} ${new URL(r.url()).pathname}`));
  const after = await recordToasts(page);
  await button(page, 'Publish').click();
  await expect(page).toHaveURL(/\/admin\/dashboard\?tab=blogs$/);
  await expect(toastRegion(page).getByRole('listitem')).toContainText('Blog published successfully');
  expect(calls).toEqual([`PATCH /api/admin/blogs/${id}`, `POST /api/admin/blogs/${id}/publish`]);
  expect(await after()).toEqual(['Blog published successfully']);
  await expect(page.getByRole('row', { name: /Ballot Access Now!/ })).toContainText('published');

  await page.goto('/blog/access-for-all');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Ballot Access Now!');
  await expect(page.getByText('Every voter deserves a choice. Even in Ohio.')).toBeVisible();
});

/** Presses a toolbar button with the keyboard: into the toolbar (one tab stop), along it
 *  with the arrow keys, Enter, and Tab back into the text. */
async function tool(page: Page, name: string) {
  const toolbar = page.getByRole('toolbar', { name: 'Formatting' });
  if (await content(page).evaluate((e) => e === document.activeElement)) await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Home');
  const target = toolbar.getByRole('button', { name, exact: true });
  for (let i = 0; i < 13 && !(await target.evaluate((e) => e === document.activeElement)); i++) await page.keyboard.press('ArrowRight');
  await expect(target).toBeFocused();
  const pressed = await target.getAttribute('aria-pressed');
  await page.keyboard.press('Enter');
  // A formatting toggle shows its new state, as the writer sees before going back to the
  // text (the link button opens a dialog instead).
  if (pressed !== null && !name.includes('link')) await expect(target).toHaveAttribute('aria-pressed', pressed === 'true' ? 'false' : 'true');
}

async function backToText(page: Page) {
  await page.keyboard.press('Tab');
  await expect(content(page)).toBeFocused();
}

/** Tabs (forwards or back) until `target` has focus. */
async function tabTo(page: Page, target: Locator, key: 'Tab' | 'Shift+Tab') {
  for (let i = 0; i < 40 && !(await target.evaluate((e) => e === document.activeElement)); i++) await page.keyboard.press(key);
  await expect(target).toBeFocused();
}

test('written and published with the keyboard alone, with every toolbar button', async ({ page, db }) => {
  // One long sitting at the keyboard (some hundred key presses and checks): it gets twice a
  // short test's time, none of which is waiting on the product.
  test.setTimeout(60_000);
  await signIn(page);
  await openEditor(page, 'new');
  await page.keyboard.press('Tab');
  await expect(field(page, 'Title')).toBeFocused();
  await page.keyboard.type('Keyboard post');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(field(page, 'Excerpt')).toBeFocused();
  await page.keyboard.type('Written without a mouse.');
  await tabTo(page, content(page), 'Tab');

  await tool(page, 'Heading 1');
  await backToText(page);
  await page.keyboard.type('Our plan');
  await page.keyboard.press('Enter');
  await page.keyboard.type('We ');
  await tool(page, 'Bold');
  await backToText(page);
  await page.keyboard.type('will');
  await page.keyboard.press(`${MOD}+b`);
  await page.keyboard.type(' win ');
  await tool(page, 'Italic');
  await backToText(page);
  await page.keyboard.type('together');
  await page.keyboard.press(`${MOD}+i`);
  await page.keyboard.type(' with ');
  await tool(page, 'Inline code');
  await backToText(page);
  await page.keyboard.type('ACP-2028');
  await tool(page, 'Inline code');
  await backToText(page);
  await page.keyboard.type(' today.');
  await page.keyboard.press('Enter');
  await tool(page, 'Heading 2');
  await backToText(page);
  await page.keyboard.type('Steps');
  await page.keyboard.press('Enter');
  await tool(page, 'Numbered list');
  await backToText(page);
  await page.keyboard.type('Register');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Vote');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter'); // an empty item leaves the list
  await tool(page, 'Bullet list');
  await backToText(page);
  await page.keyboard.type('Tell a friend');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await tool(page, 'Heading 3');
  await backToText(page);
  await page.keyboard.type('Words');
  await page.keyboard.press('Enter');
  await tool(page, 'Quote');
  await backToText(page);
  await page.keyboard.type('Be the change');
  await page.keyboard.press('Enter');
  await tool(page, 'Quote');
  await backToText(page);

  // An image in the text: uploaded, then described.
  const chooser = page.waitForEvent('filechooser');
  await tool(page, 'Insert image');
  await (await chooser).setFiles(png('rally.png'));
  const altDialog = page.getByRole('dialog', { name: 'Image description' });
  await expect(altDialog.getByLabel('Alt text')).toBeFocused();
  await page.keyboard.type('Supporters at the rally');
  await page.keyboard.press('Enter');
  await expect(altDialog).toBeHidden();
  await expect(content(page)).toBeFocused();

  // Undo and redo, by button and by key. The word arrives as one input (as a paste or an
  // input method sends it): typed key by key on a loaded machine, a pause over the spec's
  // 500 ms grouping delay rightly makes two undo steps of it.
  await page.keyboard.insertText('Oops');
  await expect(content(page)).toContainText('Oops');
  await tool(page, 'Undo');
  await expect(content(page)).not.toContainText('Oop');
  await page.keyboard.press('ArrowRight'); // Redo is next
  await expect(page.getByRole('button', { name: 'Redo' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(content(page)).toContainText('Oops');
  await backToText(page);
  await page.keyboard.press(`${MOD}+z`);
  await expect(content(page)).not.toContainText('Oop');

  // A link: a refused scheme, then a good one.
  await page.keyboard.type('Join us');
  await page.keyboard.press('Shift+Home');
  await tool(page, 'Insert link');
  const linkDialog = page.getByRole('dialog', { name: 'Insert link' });
  const url = linkDialog.getByLabel('URL');
  await expect(url).toBeFocused();
  await page.keyboard.press(`${MOD}+a`);
  await page.keyboard.type('javascript:alert(1)');
  await page.keyboard.press('Enter');
  await expect(linkDialog.getByRole('alert')).toContainText('starting with http, https, ftp, ftps, mailto, tel, callto, sms, cid or xmpp');
  await page.keyboard.press(`${MOD}+a`);
  await page.keyboard.type('https://example.org/join');
  await page.keyboard.press('Enter');
  await expect(linkDialog).toBeHidden();
  await expect(content(page)).toBeFocused();

  // Publish, from the keyboard: back up to the top bar.
  await tabTo(page, button(page, 'Publish'), 'Shift+Tab');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/admin\/dashboard\?tab=blogs$/);
  await expect(toastRegion(page).getByRole('listitem')).toContainText('Blog published successfully');
  const [post] = db.query<{ status: string; content: string }>("SELECT status, content FROM blog_posts WHERE slug = 'keyboard-post'");
  expect(post.status).toBe('published');
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  expect(post.content).toMatch(
    new RegExp(
      '^' +
        escape(
          '<h1>Our plan</h1>' +
            '<p>We <strong>will</strong> win <em>together</em> with <code>ACP-2028</code> today.</p>' +
            '<h2>Steps</h2><ol><li>Register</li><li>Vote</li></ol><ul><li>Tell a friend</li></ul>' +
            '<h3>Words</h3><blockquote><p>Be the change</p></blockquote>',
        ) +
        '<img src="/uploads/[0-9a-f]+\\.png" alt="Supporters at the rally">' +
        escape(`<p><a href="https://example.org/join" ${REL}>Join us</a></p>`) +
        '$',
    ),
  );
});

/** The text the browser shows highlighted. */
const highlighted = (page: Page) => page.evaluate(() => getSelection()?.toString());

test('formatting acts on exactly the highlighted text, pressed right after the last Shift+Arrow', async ({ page, db }) => {
  await signIn(page);
  await openEditor(page, 'new');
  // The other fields first: the slug's address preview and the counters re-render the page
  // while the text is being selected, as they do for a person.
  await field(page, 'Title').pressSequentially('What you see');
  await field(page, 'Slug').pressSequentially('what-you-see');
  await field(page, 'Excerpt').pressSequentially('Is what you format.');
  await content(page).click();
  await expect(content(page)).toBeFocused();

  /** Types "Plain words then {words}." as a paragraph and highlights `words`: a plain arrow
   *  back over the full stop, then one Shift+Left per character, nothing waited for. */
  const highlight = async (words: string) => {
    await page.keyboard.type(`Plain words then ${words}.`);
    await page.keyboard.press('ArrowLeft');
    for (let i = 0; i < words.length; i++) await page.keyboard.press('Shift+ArrowLeft');
  };
  const nextParagraph = async () => {
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
  };
  const box = content(page);

  await highlight('Bold words');
  await button(page, 'Bold').click();
  await expect(box.locator('strong')).toHaveText(['Bold words']);
  expect(await highlighted(page)).toBe('Bold words');
  await nextParagraph();

  await highlight('strong words');
  await page.keyboard.press(`${MOD}+b`);
  await expect(box.locator('strong')).toHaveText(['Bold words', 'strong words']);
  expect(await highlighted(page)).toBe('strong words');
  await nextParagraph();

  await highlight('slanted words');
  await button(page, 'Italic').click();
  await expect(box.locator('em')).toHaveText(['slanted words']);
  expect(await highlighted(page)).toBe('slanted words');
  await nextParagraph();

  await highlight('leaning words');
  await page.keyboard.press(`${MOD}+i`);
  await expect(box.locator('em')).toHaveText(['slanted words', 'leaning words']);
  expect(await highlighted(page)).toBe('leaning words');
  await nextParagraph();

  await highlight('linked words');
  await button(page, 'Insert link').click();
  const linkDialog = page.getByRole('dialog', { name: 'Insert link' });
  await linkDialog.getByLabel('URL').fill('https://example.org/');
  await linkDialog.getByLabel('URL').press('Enter');
  await expect(linkDialog).toBeHidden();
  await expect(box.getByRole('link')).toHaveText(['linked words']);
  await expect(box).toBeFocused(); // the cursor is back in the text
  await nextParagraph();

  // A heading for every block the highlight reaches into: from the end of the second line
  // back over it and into the first.
  await page.keyboard.type('Heading one');
  await page.keyboard.press('Enter');
  await page.keyboard.type('and two.');
  for (let i = 0; i < 'and two.'.length + 1; i++) await page.keyboard.press('Shift+ArrowLeft');
  await button(page, 'Heading 2').click();
  await expect(box.getByRole('heading', { level: 2 })).toHaveText(['Heading one', 'and two.']);

  // What Save Draft sends is what the editor showed.
  await button(page, 'Save Draft').click();
  await expect(page).toHaveURL(/\/admin\/dashboard\?tab=blogs$/);
  const [post] = db.query<{ content: string }>("SELECT content FROM blog_posts WHERE slug = 'what-you-see'");
  expect(post.content).toBe(
    '<p>Plain words then <strong>Bold words</strong>.</p>' +
      '<p>Plain words then <strong>strong words</strong>.</p>' +
      '<p>Plain words then <em>slanted words</em>.</p>' +
      '<p>Plain words then <em>leaning words</em>.</p>' +
      `<p>Plain words then <a href="https://example.org/" ${REL}>linked words</a>.</p>` +
      '<h2>Heading one</h2><h2>and two.</h2>',
  );
});

test('the writing area is at least 300 px tall, grows with the text, and takes the cursor wherever it is clicked', async ({ page }) => {
  await signIn(page);
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.evaluate(() => localStorage.clear()); // no kept draft from the first round
    await openEditor(page, 'new');
    const box = content(page);
    const empty = await box.boundingBox();
    expect(empty!.height).toBeGreaterThanOrEqual(300);

    // Near the bottom of the empty area: the cursor goes into the text.
    await box.click({ position: { x: 40, y: empty!.height - 12 } });
    await expect(box).toBeFocused();
    await page.keyboard.type('First line');
    await expect(box).toHaveText('First line');
    // Below the last line, at the right: the cursor goes to the end of that line.
    await page.getByLabel(/^Title/).click();
    await box.click({ position: { x: empty!.width - 24, y: empty!.height - 12 } });
    await expect(box).toBeFocused();
    await page.keyboard.type(', continued');
    await expect(box).toHaveText('First line, continued');

    // Longer text makes it taller, all of it shown (no scrolling inside).
    for (let i = 0; i < 14; i++) {
      await page.keyboard.press('Enter');
      await page.keyboard.type(`Line ${i + 2}`);
    }
    const full = await box.boundingBox();
    expect(full!.height).toBeGreaterThan(empty!.height);
    expect(await box.evaluate((e) => e.scrollHeight <= e.clientHeight)).toBe(true);
    await expect(box.getByText('Line 15')).toBeInViewport();
  }
});
