// What staff do on the dashboard: delete (confirmed or not), sort donations, export every
// list, publish a draft, and reach the blog editor.
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { expectAccessible, failedLoad, toastRegion } from './fixtures';
import { expect, holdRequests, panel, seedEverything, signIn, tab, test } from './admin-fixtures';

const DELETES = [
  {
    tab: 'Contacts',
    table: 'contact_messages',
    button: 'Delete contact submission from Ruth Alvarez',
    dialog: 'Delete contact submission?',
    names: /“Hosting a town hall” from Ruth Alvarez \(ruth@example\.org\)/,
    failure: 'Failed to delete contact submission',
    id: 'contactOld',
    remaining: 'Yard signs',
  },
  {
    tab: 'Volunteers',
    table: 'volunteer_signups',
    button: 'Delete volunteer signup of Lena Park',
    dialog: 'Delete volunteer signup?',
    names: /Lena Park \(lena@example\.org\)/,
    failure: 'Failed to delete volunteer signup',
    id: 'volunteerFull',
    remaining: 'Omar Haddad',
  },
  {
    tab: 'Newsletter',
    table: 'newsletter_signups',
    button: 'Delete newsletter signup of news@example.org',
    dialog: 'Delete newsletter signup?',
    names: /news@example\.org/,
    failure: 'Failed to delete newsletter signup',
    id: 'newsletterFull',
    remaining: 'quiet@example.org',
  },
  {
    tab: 'Blogs',
    table: 'blog_posts',
    button: 'Delete Why we run',
    dialog: 'Delete blog post?',
    names: /“Why we run” will be deleted and taken off the website/,
    failure: 'Failed to delete blog post',
    id: 'published',
    remaining: 'Draft on ballot access',
  },
] as const;

for (const d of DELETES) {
  test(`${d.tab}: delete asks first; Cancel keeps the item, Delete removes it and updates the count`, async ({ page, db }) => {
    const ids = seedEverything(db);
    await signIn(page);
    await tab(page, d.tab).click();
    await expect(tab(page, d.tab)).toHaveText(`${d.tab}2`);

    await panel(page).getByRole('button', { name: d.button }).click();
    const dialog = page.getByRole('alertdialog', { name: d.dialog });
    await expect(dialog).toContainText(d.names);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    expect(db.query(`SELECT id FROM ${d.table} WHERE id = ${ids[d.id]}`)).toHaveLength(1);

    const release = await holdRequests(page, `**/api/admin/*/${ids[d.id]}`);
    await panel(page).getByRole('button', { name: d.button }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    // Only this item's button waits for its delete.
    await expect(panel(page).getByRole('button', { name: d.button })).toBeDisabled();
    await expect(panel(page).getByRole('button', { name: /^Delete/, disabled: true })).toHaveCount(1);
    await expect(panel(page).getByRole('button', { name: /^Delete/, disabled: false })).toHaveCount(1);
    release();
    await expect(panel(page).getByRole('button', { name: d.button })).toHaveCount(0);
    await expect(panel(page)).toContainText(d.remaining);
    await expect(tab(page, d.tab)).toHaveText(`${d.tab}1`);
    expect(db.query(`SELECT id FROM ${d.table} WHERE id = ${ids[d.id]}`)).toEqual([]);
  });
}

test('a delete that fails says so with the server reason', async ({ page, db, allowConsole }) => {
  allowConsole(failedLoad(404));
  const ids = seedEverything(db);
  await signIn(page);
  // Someone else deleted it after the list was shown (not before: it would not be listed):
  // the server answers 404.
  const trigger = panel(page).getByRole('button', { name: 'Delete contact submission from Ruth Alvarez' });
  await expect(trigger).toBeVisible();
  db.exec(`DELETE FROM contact_messages WHERE id = ${ids.contactOld}`);
  await trigger.click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
  const toast = toastRegion(page).getByRole('listitem');
  await expect(toast).toContainText('Failed to delete contact submission');
  await expect(toast).toContainText(`There is no contact submission ${ids.contactOld}.`);
});

test('the dialogs work from the keyboard, and have no violations at 1440 and 390 px', async ({ page, db }) => {
  seedEverything(db);
  await signIn(page);
  const trigger = panel(page).getByRole('button', { name: 'Delete contact submission from Ruth Alvarez' });
  await trigger.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('alertdialog');
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 800 });
    await expectAccessible(page);
  }
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Delete' })).toBeFocused();
  await page.keyboard.press('Tab'); // focus stays in the dialog
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(trigger).toBeFocused();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(panel(page).getByRole('listitem')).toHaveCount(1);
});

test('donations sort by name, amount and date, each both ways', async ({ page, db }) => {
  seedEverything(db);
  await signIn(page);
  await tab(page, 'Donations').click();
  const names = panel(page).getByRole('listitem').getByRole('heading', { level: 3 });
  const button = (label: string) => panel(page).getByRole('button', { name: new RegExp(`^${label}`) });
  const pressed = async (active: string) => {
    for (const label of ['Sort by Name', 'Sort by Amount', 'Sort by Date']) {
      await expect(button(label)).toHaveAttribute('aria-pressed', String(label === active));
    }
  };
  /** `request` is the query the server sorts by, or null for an order already loaded (lists are never stale). */
  const order = async (label: string, request: string | null, expected: (string | RegExp)[]) => {
    const sent = request && page.waitForRequest((r) => r.url().endsWith(`/api/admin/donations?${request}`));
    await button(label).click();
    if (sent) await sent;
    await expect(names).toHaveText(expected);
    await pressed(label);
  };
  // The first list: newest first.
  await expect(names).toHaveText([/aaron Diaz/, /Zoe Young/, /Beatriz Cole/]);
  await pressed('Sort by Date');
  await expect(button('Sort by Date')).toHaveAccessibleName(/^Sort by Date\W+newest first$/);

  await order('Sort by Name', 'sortBy=name&sortOrder=asc', [/aaron Diaz/, /Beatriz Cole/, /Zoe Young/]);
  await order('Sort by Name', 'sortBy=name&sortOrder=desc', [/Zoe Young/, /Beatriz Cole/, /aaron Diaz/]);
  await order('Sort by Amount', 'sortBy=amount&sortOrder=desc', [/^\$1,250\.50/, /^\$100\.00/, /^\$25\.00/]);
  await order('Sort by Amount', 'sortBy=amount&sortOrder=asc', [/^\$25\.00/, /^\$100\.00/, /^\$1,250\.50/]);
  await order('Sort by Date', null, [/aaron Diaz/, /Zoe Young/, /Beatriz Cole/]);
  await order('Sort by Date', 'sortBy=date&sortOrder=asc', [/Beatriz Cole/, /Zoe Young/, /aaron Diaz/]);
});

test('every list exports the server CSV under its file name', async ({ page, db }) => {
  seedEverything(db);
  await signIn(page);
  const today = await page.evaluate(() => new Date().toLocaleDateString('en-CA')); // YYYY-MM-DD
  const exports = [
    { tab: 'Contacts', kind: 'contacts', rows: 2, check: ['Subject', 'Hosting a town hall'] },
    { tab: 'Volunteers', kind: 'volunteers', rows: 2, check: ['Areas of Interest', 'Canvassing, phone banking'] },
    { tab: 'Donations', kind: 'donations', rows: 3, check: ['Purpose', 'General Party Use'] },
    { tab: 'Newsletter', kind: 'newsletters', rows: 2, check: ['Email', 'news@example.org'] },
    { tab: 'Blogs', kind: 'blogs', rows: 2, check: ['Title', 'Why we run'] },
  ];
  for (const e of exports) {
    await tab(page, e.tab).click();
    const download = page.waitForEvent('download');
    await panel(page).getByRole('button', { name: 'Export to CSV' }).click();
    const file = await download;
    // The party's date may differ from this machine's by a day around midnight.
    expect(file.suggestedFilename()).toMatch(new RegExp(`^ACP-${e.kind}-\\d{4}-\\d\\d-\\d\\d\\.csv$`));
    expect(Math.abs(Date.parse(file.suggestedFilename().slice(-14, -4)) - Date.parse(today))).toBeLessThanOrEqual(86_400_000);
    const records: Record<string, string>[] = parse(readFileSync(await file.path()), { columns: true, bom: true });
    expect(records, e.kind).toHaveLength(e.rows);
    const [column, value] = e.check;
    expect(
      records.map((r) => r[column]),
      e.kind,
    ).toContain(value);
  }
});

test('publishing a draft from the table asks first, then puts it live', async ({ page, db, request }) => {
  const ids = seedEverything(db);
  await signIn(page);
  await tab(page, 'Blogs').click();
  const publish = panel(page).getByRole('button', { name: 'Publish Draft on ballot access' });

  await publish.click();
  const dialog = page.getByRole('alertdialog', { name: 'Publish blog post?' });
  await expect(dialog).toContainText('“Draft on ballot access” will be live on the website at once.');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  expect(db.query(`SELECT status FROM blog_posts WHERE id = ${ids.draft}`)).toEqual([{ status: 'draft' }]);

  await publish.click();
  await dialog.getByRole('button', { name: 'Publish' }).click();
  await expect(toastRegion(page).getByRole('listitem')).toContainText('Blog published successfully');
  const row = panel(page).getByRole('row', { name: /Draft on ballot access/ });
  await expect(row).toContainText('published');
  await expect(row).not.toContainText('Not published');
  await expect(row.getByRole('button', { name: /^Publish/ })).toHaveCount(0);
  expect(db.query(`SELECT status FROM blog_posts WHERE id = ${ids.draft}`)).toEqual([{ status: 'published' }]);
  expect((await request.get('/blog/draft-on-ballot-access')).status()).toBe(200);
});

test('a publish that fails says "Failed to publish blog"', async ({ page, db, allowConsole }) => {
  allowConsole(failedLoad(404));
  const ids = seedEverything(db);
  await signIn(page);
  await tab(page, 'Blogs').click();
  const publish = panel(page).getByRole('button', { name: 'Publish Draft on ballot access' });
  await expect(publish).toBeVisible(); // listed before it goes
  db.exec(`DELETE FROM blog_posts WHERE id = ${ids.draft}`);
  await publish.click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Publish' }).click();
  await expect(toastRegion(page).getByRole('listitem')).toContainText('Failed to publish blog');
});

test('Create New Blog and Edit lead to the editor; without a session it sends you back', async ({ page, db }) => {
  const ids = seedEverything(db);
  await signIn(page);
  await tab(page, 'Blogs').click();
  await panel(page).getByRole('link', { name: 'Create New Blog' }).click();
  await expect(page).toHaveURL(/\/admin\/blog\/new$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Create New Blog Post');
  await page.getByRole('link', { name: 'Back to Admin' }).click();
  await expect(tab(page, 'Blogs')).toHaveAttribute('aria-selected', 'true');
  await panel(page).getByRole('link', { name: 'Edit Why we run' }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/blog/${ids.published}$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Edit Blog Post');

  await page.evaluate(() => sessionStorage.clear());
  await page.goto(`/admin/blog/${ids.published}`);
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Access' })).toBeVisible();
});

test('each route change starts at the top of the page', async ({ page, db }) => {
  for (let i = 0; i < 12; i += 1) {
    db.insert('blog_posts', { title: `Post ${i}`, slug: `post-${i}`, author_name: 'ACP Team', status: 'draft' });
  }
  await page.setViewportSize({ width: 390, height: 600 });
  await signIn(page);
  await tab(page, 'Blogs').click();
  const last = panel(page).getByRole('link', { name: 'Edit Post 0' });
  await last.scrollIntoViewIfNeeded();
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(300);
  await last.click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Edit Blog Post');
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
});

declare global {
  interface Window {
    /** The smallest `scrollY` (nearest the top) since a test began watching. */
    lowestScroll: number;
  }
}

test('switching tabs keeps the page where it is', async ({ page, db }) => {
  for (let i = 0; i < 8; i += 1) {
    db.insert('contact_messages', { name: `Writer ${i}`, email: `writer${i}@example.org`, subject: 'Hello', message: 'A note.' });
    db.insert('blog_posts', { title: `Post ${i}`, slug: `post-${i}`, author_name: 'ACP Team', status: 'draft' });
  }
  await page.setViewportSize({ width: 390, height: 600 });
  await signIn(page);
  await expect(panel(page).getByRole('button', { name: 'Delete contact submission from Writer 0' })).toBeAttached();
  // Down until the tabs are just under the header, as on a phone, and a tap on another one.
  const { y } = (await page.getByRole('tablist').boundingBox())!;
  const header = (await page.getByRole('banner').boundingBox())!;
  await page.mouse.wheel(0, y - header.height - 8);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(100);
  const before = await page.evaluate(() => {
    window.lowestScroll = window.scrollY;
    addEventListener('scroll', () => (window.lowestScroll = Math.min(window.lowestScroll, window.scrollY)));
    return window.scrollY;
  });
  await tab(page, 'Blogs').click();
  await expect(page).toHaveURL(/\?tab=blogs$/);
  await expect(panel(page).getByRole('link', { name: 'Edit Post 0' })).toBeVisible();
  // The address changes first and the router renders for it after; two frames on, a scroll
  // that render began has moved the page.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  expect(await page.evaluate(() => window.lowestScroll)).toBe(before);
  await expect(tab(page, 'Blogs')).toBeInViewport();
});

test('Erase a person: a request to be forgotten, done from the dashboard', async ({ page, db, allowConsole }) => {
  allowConsole(failedLoad(400));
  const ids = seedEverything(db);
  // Zoe also wrote and signed up; her failed gift keeps its amount but loses her details.
  db.insert('contact_messages', { name: 'Zoe Young', email: 'ZOE@example.org', subject: 'Forget me', message: 'Please delete my details.' });
  db.insert('newsletter_signups', { email: 'zoe@example.org', phone: null, zip_code: '30301' });
  await signIn(page);
  await expect(tab(page, 'Contacts')).toHaveText('Contacts3');

  await page.getByRole('button', { name: 'Erase a person' }).click();
  const dialog = page.getByRole('dialog', { name: 'Erase a person' });
  await expect(dialog).toContainText('Completed gifts stay, because federal law requires the committee to keep them.');
  await dialog.getByLabel('Their e-mail address').fill('not an address');
  await dialog.getByRole('button', { name: 'Erase' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Please enter a valid email address.');
  await expect(dialog.getByLabel('Their e-mail address')).toHaveAttribute('aria-invalid', 'true');
  await expectAccessible(page);

  await dialog.getByLabel('Their e-mail address').fill('zoe@example.org');
  await dialog.getByRole('button', { name: 'Erase' }).click();
  await expect(dialog).toBeHidden();
  await expect(toastRegion(page).getByRole('listitem')).toContainText(
    'Deleted 1 message, 0 volunteer signups, 1 newsletter signup. Removed the details of 1 unpaid gift.',
  );
  // The lists show it at once.
  await expect(tab(page, 'Contacts')).toHaveText('Contacts2');
  await expect(tab(page, 'Newsletter')).toHaveText('Newsletter2');
  await tab(page, 'Donations').click();
  const erased = panel(page).getByRole('listitem').filter({ hasText: '$100.00' });
  await expect(erased).toContainText('from a donor whose details were erased');
  await expect(panel(page)).not.toContainText('Zoe');
  expect(db.query(`SELECT donor_name, donor_email, donor_address FROM donations WHERE id = ${ids.donationFailed}`)).toEqual([
    { donor_name: 'Erased', donor_email: '', donor_address: '' },
  ]);
  // A completed gift is never erased.
  expect(db.query(`SELECT donor_name FROM donations WHERE id = ${ids.donationBig}`)).toEqual([{ donor_name: 'Beatriz Cole' }]);
});

test('Record text opt-out: a STOP heard by staff takes the number out of the exports', async ({ page, db }) => {
  seedEverything(db);
  // news@example.org ticked the box for texts when signing up.
  db.exec(`INSERT OR IGNORE INTO sms_disclosures (version, label, disclosure, first_recorded_at)
           VALUES ('e2e', 'Text me updates', 'Reply STOP to end.', '2026-01-01T00:00:00.000Z');
           INSERT INTO sms_consents (phone, action, at, source, ip, disclosure_version)
           VALUES ('+15550103000', 'granted', '2026-01-02T00:00:00.000Z', 'newsletter', '10.0.0.1', 'e2e');`);
  await signIn(page);
  await tab(page, 'Newsletter').click();
  const card = panel(page).getByRole('listitem').filter({ hasText: 'news@example.org' });
  await expect(card).toContainText('Texts: Consented');

  await card.getByRole('button', { name: 'Record text opt-out for 555-010-3000' }).click();
  const dialog = page.getByRole('dialog', { name: 'Record a text opt-out' });
  await expect(dialog).toContainText('555-010-3000 will be marked as opted out of texts and left out of every export');
  const record = dialog.getByRole('button', { name: 'Record opt-out' });
  await expect(record).toBeDisabled(); // until staff say how they were told
  await dialog.getByLabel('How did they ask to stop?').selectOption({ label: 'Replied STOP to a text' });
  await dialog.getByLabel('Note').fill('STOP reply reported by the texting service.');
  await expectAccessible(page);
  await record.click();
  await expect(dialog).toBeHidden();
  await expect(toastRegion(page).getByRole('listitem')).toContainText('Text opt-out recorded');
  await expect(card).toContainText('Texts: Opted out');
  await expect(card.getByRole('button', { name: /Record text opt-out/ })).toHaveCount(0);
  expect(db.query(`SELECT action, method, note FROM sms_consents WHERE phone = '+15550103000' ORDER BY id DESC LIMIT 1`)).toEqual([
    { action: 'revoked', method: 'text', note: 'STOP reply reported by the texting service.' },
  ]);

  // The export staff hand to a texting or calling tool no longer has the number.
  const download = page.waitForEvent('download');
  await panel(page).getByRole('button', { name: 'Export to CSV' }).click();
  const records: Record<string, string>[] = parse(readFileSync(await (await download).path()), { columns: true, bom: true });
  expect(records.find((r) => r.Email === 'news@example.org')).toMatchObject({ Phone: '', 'Text Consent': 'Opted out' });
});

test('Record consent to texts: only staff undo a stop, saying how the owner asked', async ({ page, db }) => {
  seedEverything(db);
  db.exec(`INSERT OR IGNORE INTO sms_disclosures (version, label, disclosure, first_recorded_at)
           VALUES ('e2e', 'Text me updates', 'Reply STOP to end.', '2026-01-01T00:00:00.000Z');
           INSERT INTO sms_consents (phone, action, at, source, ip, disclosure_version)
           VALUES ('+15550103000', 'granted', '2026-01-02T00:00:00.000Z', 'newsletter', '10.0.0.1', 'e2e');
           INSERT INTO sms_consents (phone, action, at, source, method)
           VALUES ('+15550103000', 'revoked', '2026-01-03T00:00:00.000Z', 'staff', 'text');`);
  await signIn(page);
  await tab(page, 'Newsletter').click();
  const card = panel(page).getByRole('listitem').filter({ hasText: 'news@example.org' });
  await expect(card).toContainText('Texts: Opted out');
  await expect(card.getByRole('button', { name: /Record text opt-out/ })).toHaveCount(0);

  await card.getByRole('button', { name: 'Record consent to texts for 555-010-3000' }).click();
  const dialog = page.getByRole('dialog', { name: 'Record consent to texts again' });
  await expect(dialog).toContainText('Only when the owner of 555-010-3000 asked you themselves.');
  const record = dialog.getByRole('button', { name: 'Record consent' });
  await expect(record).toBeDisabled(); // until staff say how the owner asked
  await dialog.getByLabel('How and when did they ask?').fill('Called the office on May 3 asking to get texts again.');
  await expectAccessible(page);
  await record.click();
  await expect(dialog).toBeHidden();
  await expect(toastRegion(page).getByRole('listitem')).toContainText('Consent to texts recorded');
  await expect(card).toContainText('Texts: Consented');
  expect(db.query(`SELECT action, source, note FROM sms_consents WHERE phone = '+15550103000' ORDER BY id DESC LIMIT 1`)).toEqual([
    { action: 'granted', source: 'staff', note: 'Called the office on May 3 asking to get texts again.' },
  ]);
  expect(db.query(`SELECT COUNT(*) AS n FROM audit_log WHERE action = 'opt_in' AND target = 'sms:…3000'`)).toEqual([{ n: 1 }]);
});
