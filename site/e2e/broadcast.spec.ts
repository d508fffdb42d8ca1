// Mailing a published post to the newsletter list, in a browser, with the server sending
// real mail to a local SMTP sink: the preview, a test copy to the staff member, the typed
// count that enables Send, the send's panel counting up to Sent (one message for each
// confirmed subscriber), a second send refused and sent again only to those it missed, a
// failed recipient retried, the list message's unsubscribe link (one click, and its page),
// the suppression list, and a send at a time (cancelled) or missed (sent now).
//
// Each test starts from empty lists on this worker's own server (admin-fixtures), and seeds
// its subscribers as confirmed rows directly in the database, as the other admin tests seed
// their data; posts are published through the admin API.
import { type Page } from '@playwright/test';
import { type Db, expect, panel, signIn, tab, test as base } from './admin-fixtures';
import { type Server, startServer } from './server';
import { type SmtpSink, smtpSinkFixture } from './smtp';
import { ADMIN_EMAIL } from './settings';
import { apiSignIn, ownerToken } from './staff';

const test = base.extend<{ api: Api; clean: void; subscribers: (...emails: string[]) => string[] }, { sink: SmtpSink; server: Server }>({
  sink: smtpSinkFixture,
  server: [
    async ({ sink }, use) => {
      // A few messages a second: a send takes long enough for its panel to poll.
      const server = await startServer({ SMTP_URL: sink.url, MAIL_RATE: '4/s' });
      await use(server);
      await server.stop();
    },
    { scope: 'worker' },
  ],
  // The lists admin-fixtures empties leave sends and suppressions behind. The posts went
  // (a new one reuses an old one's id), so earlier sends lose their post, as the foreign
  // key would do; the sends themselves stay, since the server keeps each send's message by
  // its id while it mails it.
  clean: [
    async ({ db, allowConsole }, use) => {
      db.exec('UPDATE broadcasts SET post_id = NULL; DELETE FROM mail_suppressions;');
      // The preview's frame is sandboxed without scripts: Chromium says so when the test
      // browser's own helpers try to run in it.
      allowConsole(/Blocked script execution in 'about:srcdoc'/);
      await use();
    },
    { auto: true },
  ],
  api: async ({ server }, use) => use(new Api(server.baseURL, await ownerToken(server.baseURL))),
  subscribers: async ({ db }, use) => use((...emails) => confirmed(db, emails)),
});

/** Per-test addresses, so the worker's one sink tells each test's messages apart. */
let seq = 0;
function address(tag: string): string {
  seq += 1;
  return `${tag}-${process.pid}-${seq}-${Date.now().toString(36)}@list.e2e.test`;
}

function confirmed(db: Db, emails: string[]): string[] {
  for (const email of emails) db.insert('newsletter_signups', { email, zip_code: '43215', status: 'confirmed' });
  return emails;
}

class Api {
  constructor(
    readonly base: string,
    readonly token: string,
  ) {}

  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.base}${path}`, {
      method,
      headers: { authorization: `Bearer ${this.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return (text ? JSON.parse(text) : null) as T;
  }

  /** A published post. */
  async publish(title: string, content = `<p>News from the campaign: ${title}.</p>`): Promise<number> {
    return (await this.call<{ id: number }>('POST', '/api/admin/blogs', { title, content, status: 'published' })).id;
  }

  /** Mails post `postId` to everyone the preview counts, and returns the send's id. */
  async send(postId: number): Promise<number> {
    const { recipients } = await this.call<{ recipients: number }>('POST', '/api/admin/broadcasts/preview', { postId });
    return (await this.call<{ id: number }>('POST', '/api/admin/broadcasts', { postId, confirm: recipients })).id;
  }
}

/** The send's status, said in words in the panel's live region. */
function status(page: Page) {
  return page.getByRole('status').filter({ hasText: 'Status:' });
}

/** The count the panel shows under `label` (Queued, Sent, Failed, Excluded). */
function count(page: Page, label: string) {
  return page.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::dd');
}

/** Opens the mail page of post `title` from its row on the Blogs tab. */
async function openMailPage(page: Page, title: string) {
  await page.goto('/admin/dashboard?tab=blogs');
  await expect(tab(page, 'Blogs')).toHaveAttribute('aria-selected', 'true');
  await panel(page)
    .getByRole('link', { name: `Send ${title} by e-mail` })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: `Send “${title}” by e-mail` })).toBeVisible();
}

/** The https link of a list message's List-Unsubscribe header, as a path on the server. */
function unsubscribePath(header: string | undefined): string {
  const url = /<(https?:\/\/[^>]+)>/.exec(header ?? '')?.[1];
  if (!url) throw new Error(`no https link in List-Unsubscribe: ${header}`);
  return new URL(url).pathname;
}

test('preview, a test copy to me, the typed count, then the send counts up to Sent with one message for each subscriber', async ({
  page,
  api,
  subscribers,
  sink,
  db,
}) => {
  const title = `Turnout report ${seq}`;
  const postId = await api.publish(title, '<p>We knocked on 4,000 doors this weekend.</p>');
  await api.call('POST', '/api/admin/blogs', { title: 'A draft not to mail', status: 'draft' });
  const list = subscribers(address('ann'), address('ben'), address('cy'));
  db.insert('newsletter_signups', { email: address('pending'), zip_code: '43215', status: 'pending' });

  await signIn(page);
  await page.goto('/admin/dashboard?tab=blogs');
  // A draft is not mailed: its row has no such button.
  await expect(panel(page).getByRole('row', { name: /A draft not to mail/ })).toBeVisible();
  await expect(panel(page).getByRole('link', { name: 'Send A draft not to mail by e-mail' })).toHaveCount(0);
  await openMailPage(page, title);

  await expect(page.getByLabel('Subject')).toHaveValue(title);
  const preview = page.frameLocator(`iframe[title="E-mail preview: ${title}"]`);
  await expect(preview.getByText('We knocked on 4,000 doors this weekend.')).toBeVisible();
  await page.getByRole('tab', { name: 'Plain text' }).click();
  await expect(page.getByLabel(`Plain-text part: ${title}`)).toContainText('We knocked on 4,000 doors this weekend.');
  // Three confirmed; the pending one is not counted.
  await expect(page.getByText('This will go to 3 people.')).toBeVisible();

  await page.getByRole('button', { name: 'Send a test to me' }).click();
  await expect(page.getByText(`Test sent to ${ADMIN_EMAIL}`, { exact: true })).toBeVisible();
  const copy = await sink.waitFor(ADMIN_EMAIL, `[Test] ${title}`);
  expect(copy.headers.to).toContain(ADMIN_EMAIL);
  expect(copy.text).toContain('We knocked on 4,000 doors this weekend.');

  const send = page.getByRole('button', { name: 'Send', exact: true });
  const typed = page.getByLabel('Type 3 to confirm');
  await expect(send).toBeDisabled();
  await typed.fill('30');
  await expect(send).toBeDisabled();
  await typed.fill('3');
  await expect(send).toBeEnabled();
  await send.click();

  await expect(page).toHaveURL(/\/admin\/broadcasts\/\d+$/);
  await expect(page.getByRole('heading', { level: 1, name: `“${title}”` })).toBeVisible();
  await expect(status(page)).toHaveText('Status: Sent', { timeout: 15_000 });
  await expect(count(page, 'Sent')).toHaveText('3');
  await expect(count(page, 'Queued')).toHaveText('0');
  await expect(count(page, 'Failed')).toHaveText('0');
  await expect(page.getByText('of Recipients').locator('xpath=following-sibling::dd')).toHaveText('3');
  for (const email of list) expect(await sink.waitForCount(email, title, 1)).toHaveLength(1);

  // The post's page lists the send, and opens its panel again.
  await page.getByRole('link', { name: "This post's sends" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/blog/${postId}/mail$`));
  await expect(page.getByRole('heading', { name: 'Earlier sends of this post' })).toBeVisible();
  await page.getByRole('link', { name: /^Open the send of/ }).click();
  await expect(status(page)).toHaveText('Status: Sent');
});

test('a second send is refused, then goes only to the people it has not reached', async ({ page, api, subscribers, sink, db, allowConsole }) => {
  // The refusal is a 409, which Chromium logs.
  allowConsole(/status of 409/);
  const title = `Ballot access update ${seq}`;
  const postId = await api.publish(title);
  const first = subscribers(address('early1'), address('early2'));
  await api.send(postId);
  for (const email of first) await sink.waitForCount(email, title, 1);
  const late = confirmed(db, [address('late')])[0];

  await signIn(page);
  await openMailPage(page, title);
  await expect(page.getByText('This post was mailed to the list before.')).toBeVisible();
  await expect(page.getByText('This will go to 3 people.')).toBeVisible();
  await page.getByLabel('Type 3 to confirm').fill('3');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'already mailed' })).toContainText("Send again to people who haven't received it");

  await page.getByRole('button', { name: "Send again to people who haven't received it" }).click();
  await expect(page.getByText('This will go to 1 person.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeDisabled();
  await page.getByLabel('Type 1 to confirm').fill('1');
  await page.getByRole('button', { name: 'Send', exact: true }).click();

  await expect(status(page)).toHaveText('Status: Sent', { timeout: 15_000 });
  await expect(count(page, 'Sent')).toHaveText('1');
  expect(await sink.waitForCount(late, title, 1)).toHaveLength(1);
  for (const email of first) expect(await sink.waitForCount(email, title, 1)).toHaveLength(1);
});

test('a failed recipient is shown with the answer, and Retry the remaining sends to them', async ({ page, api, subscribers, sink, db }) => {
  const title = `Volunteer weekend ${seq}`;
  const postId = await api.publish(title);
  const [ok, bad] = subscribers(address('ok'), address('bad'));
  const id = await api.send(postId);
  await sink.waitForCount(ok, title, 1);
  await sink.waitForCount(bad, title, 1);
  await expect.poll(() => db.query<{ status: string }>(`SELECT status FROM broadcasts WHERE id = ${id}`)[0]?.status).toBe('sent');
  // As if the mail server had refused it each time.
  db.exec(
    `UPDATE broadcast_recipients SET status = 'failed', attempts = 3, answer = '451 4.3.0 Mailbox temporarily unavailable' WHERE broadcast_id = ${id} AND email = '${bad}'`,
  );

  await signIn(page);
  await openMailPage(page, title);
  await page.getByRole('link', { name: /^Open the send of/ }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/broadcasts/${id}$`));
  await expect(count(page, 'Failed')).toHaveText('1');
  await expect(count(page, 'Sent')).toHaveText('1');
  await page.getByRole('button', { name: 'Show failed recipients (1)' }).click();
  const failed = page.getByRole('table', { name: 'Failed recipients' });
  await expect(failed.getByRole('row', { name: new RegExp(bad) })).toContainText('451 4.3.0 Mailbox temporarily unavailable');

  await page.getByRole('button', { name: 'Retry the remaining 1' }).click();
  await expect(status(page)).toHaveText('Status: Sent', { timeout: 15_000 });
  await expect(count(page, 'Sent')).toHaveText('2');
  await expect(count(page, 'Failed')).toHaveText('0');
  await expect(page.getByRole('button', { name: /^Retry the remaining/ })).toHaveCount(0);
  expect(await sink.waitForCount(bad, title, 2)).toHaveLength(2);
});

test('the list message unsubscribes in one click and from its page, and both show on the suppression list', async ({
  page,
  api,
  subscribers,
  sink,
  server,
}) => {
  const title = `Town hall invitation ${seq}`;
  const postId = await api.publish(title);
  const [oneClick, byPage] = subscribers(address('oneclick'), address('bypage'));
  await api.send(postId);
  const [first] = await sink.waitForCount(oneClick, title, 1);
  const [second] = await sink.waitForCount(byPage, title, 1);
  expect(first.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');

  // A mail client's one-click unsubscribe: a plain POST (RFC 8058).
  const response = await fetch(`${server.baseURL}${unsubscribePath(first.headers['list-unsubscribe'])}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'List-Unsubscribe=One-Click',
  });
  expect(response.status).toBe(200);

  // A person opening the link and pressing the button.
  await page.goto(unsubscribePath(second.headers['list-unsubscribe']));
  await page.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'You are unsubscribed' })).toBeVisible();

  await signIn(page);
  await page.getByRole('link', { name: 'Suppression list' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Suppression list' })).toBeVisible();
  for (const email of [oneClick, byPage]) {
    await expect(page.getByRole('row', { name: new RegExp(email) })).toContainText('Unsubscribed');
  }
  // And neither is counted for the next post.
  await openMailPage(page, title);
  await expect(page.getByText('Nobody would receive it.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeDisabled();
});

test('the suppression list: add, search, and lift after asking', async ({ page, allowConsole }) => {
  // The bad address's refusal is a 400, which Chromium logs.
  allowConsole(/status of 400/);
  const complainer = address('complainer');
  const asked = address('asked');
  await signIn(page);
  await page.getByRole('link', { name: 'Suppression list' }).click();
  await expect(page.getByText('No address is on the suppression list')).toBeVisible();

  await page.getByLabel('E-mail').fill(complainer);
  await page.getByLabel('Reason').selectOption('complained');
  await page.getByLabel('Detail').fill('Feedback report from the provider');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.getByRole('row', { name: new RegExp(complainer) })).toContainText('Complained');
  await expect(page.getByRole('row', { name: new RegExp(complainer) })).toContainText('Feedback report from the provider');

  await page.getByLabel('E-mail').fill(asked);
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.getByRole('row', { name: new RegExp(asked) })).toContainText('Added by staff');
  await expect(page.getByText('2 addresses')).toBeVisible();

  // A bad address is refused with the server's words, and nothing is added.
  await page.getByLabel('E-mail').fill('not an address');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Enter an e-mail address.' })).toBeVisible();

  await page.getByLabel('Search addresses').fill('complainer');
  await expect(page.getByText('1 of 2 shown')).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(asked) })).toHaveCount(0);

  await page.getByRole('button', { name: `Lift ${complainer}` }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Lift the suppression?' });
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await dialog.getByRole('button', { name: 'Lift' }).click();
  await expect(page.getByRole('row', { name: new RegExp(complainer) })).toHaveCount(0);
  await page.getByLabel('Search addresses').fill('');
  await expect(page.getByText('1 address', { exact: true })).toBeVisible();
});

test('a send at a time can be cancelled, and a missed one sent now with the count typed again', async ({ page, api, subscribers, sink, db }) => {
  const title = `Debate night ${seq}`;
  await api.publish(title);
  const [reader] = subscribers(address('reader'));

  await signIn(page);
  await openMailPage(page, title);
  await page.getByLabel('Schedule for').fill('2099-12-01T09:30');
  await page.getByLabel('Type 1 to confirm').fill('1');
  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  await expect(status(page)).toContainText('Status: Scheduled');
  await expect(status(page)).toContainText('Scheduled for');
  await page.getByRole('button', { name: `Cancel the send of “${title}”` }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel the send' }).click();
  await expect(status(page)).toHaveText('Status: Cancelled');

  // A cancelled send does not count as mailed: a new one, at a time that then passed.
  await openMailPage(page, title);
  await page.getByLabel('Schedule for').fill('2099-12-01T09:30');
  await page.getByLabel('Type 1 to confirm').fill('1');
  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  await expect(status(page)).toContainText('Status: Scheduled');
  const id = Number(/broadcasts\/(\d+)/.exec(page.url())?.[1]);
  // As if the server had been down at the time.
  db.exec(`UPDATE broadcasts SET status = 'missed' WHERE id = ${id}`);
  await page.getByRole('link', { name: "This post's sends" }).click();
  await page
    .getByRole('link', { name: /^Open the send of/ })
    .first()
    .click();
  await expect(status(page)).toContainText('missed, send now?');
  const now = page.getByRole('button', { name: 'Send now' });
  await expect(now).toBeDisabled();
  await page.getByLabel('Type 1 to confirm').fill('1');
  await now.click();
  await expect(status(page)).toHaveText('Status: Sent', { timeout: 15_000 });
  expect(await sink.waitForCount(reader, title, 1)).toHaveLength(1);
});

test('a newsletter is written in the editor, is never published, and is sent from it', async ({ page, subscribers, sink, server }) => {
  const title = `November newsletter ${seq}`;
  const list = subscribers(address('nl1'), address('nl2'));

  await signIn(page);
  await page.goto('/admin/dashboard?tab=blogs');
  await panel(page).getByRole('link', { name: 'Write a Newsletter' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Write a Newsletter' })).toBeVisible();
  // Nothing here publishes: no Publish, Schedule or page preview, and no address.
  await expect(page.getByRole('button', { name: 'Publish' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Schedule/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Preview' })).toHaveCount(0);
  await expect(page.getByLabel(/^Slug/)).toHaveCount(0);
  await page.getByLabel('Title').fill(title);
  await page.getByRole('textbox', { name: 'Content' }).click();
  await page.keyboard.type('Petitions are due on Friday. Thank you for every signature.');
  await page.getByRole('button', { name: 'Save Draft' }).click();
  await expect(page.getByText('Newsletter saved', { exact: true })).toBeVisible();

  // Listed as a newsletter, with no Publish, and opened again to send it from the editor.
  const row = panel(page).getByRole('row', { name: new RegExp(title) });
  await expect(row.getByText('Newsletter', { exact: true })).toBeVisible();
  await expect(row.getByText('E-mail only')).toBeVisible();
  await expect(row.getByRole('button', { name: `Publish ${title}` })).toHaveCount(0);
  await row.getByRole('link', { name: `Edit ${title}` }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Edit Newsletter' })).toBeVisible();
  await page.getByRole('link', { name: 'Send by e-mail' }).click();

  await expect(page.getByRole('heading', { level: 1, name: `Send “${title}” by e-mail` })).toBeVisible();
  const preview = page.frameLocator(`iframe[title="E-mail preview: ${title}"]`);
  await expect(preview.getByText('Petitions are due on Friday.', { exact: false })).toBeVisible();
  // It has no page on the website to link to.
  await expect(preview.getByText('View this post on the website')).toHaveCount(0);
  await page.getByLabel('Type 2 to confirm').fill('2');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(status(page)).toHaveText('Status: Sent', { timeout: 15_000 });
  for (const email of list) {
    const [message] = await sink.waitForCount(email, title, 1);
    expect(message.text).toContain('Petitions are due on Friday.');
    expect(message.text).not.toContain('/blog/');
  }
  // And nowhere on the public site.
  for (const path of ['/blog', '/blog/feed.xml', '/api/blogs']) {
    const response = await page.request.get(`${server.baseURL}${path}`);
    expect(response.status(), path).toBe(200);
    expect(await response.text(), path).not.toContain(title);
  }
});

test('an Author publishes their own post but has no way to mail the list', async ({ page, server, makeUser }) => {
  const title = `Field notes ${seq}`;
  const author = await makeUser('author');
  const postId = await new Api(server.baseURL, await apiSignIn(server.baseURL, author)).publish(title);

  await signIn(page, author);
  await page.goto('/admin/dashboard?tab=blogs');
  await expect(panel(page).getByRole('row', { name: new RegExp(title) })).toBeVisible();
  await expect(panel(page).getByRole('link', { name: /by e-mail$/ })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Suppression list' })).toHaveCount(0);
  // A typed address says so, without asking the server for the list's count.
  const asked: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/admin/broadcasts')) asked.push(r.url());
  });
  await page.goto(`/admin/blog/${postId}/mail`);
  await expect(page.getByText("Your role can't open this page")).toBeVisible();
  expect(asked).toEqual([]);
});

test('an Editor mails the list and sees why some were not reached, never who', async ({ page, api, subscribers, sink, db, makeUser }) => {
  const title = `Debate night ${seq}`;
  const postId = await api.publish(title);
  const [ok, bad] = subscribers(address('ok'), address('bad'));
  const id = await api.send(postId);
  await sink.waitForCount(ok, title, 1);
  await sink.waitForCount(bad, title, 1);
  await expect.poll(() => db.query<{ status: string }>(`SELECT status FROM broadcasts WHERE id = ${id}`)[0]?.status).toBe('sent');
  db.exec(
    `UPDATE broadcast_recipients SET status = 'failed', attempts = 3, answer = '550 5.1.1 <${bad}>: Recipient address rejected' WHERE broadcast_id = ${id} AND email = '${bad}'`,
  );

  const editor = await makeUser('editor');
  await signIn(page, editor);
  await page.goto(`/admin/broadcasts/${id}`);
  await expect(count(page, 'Failed')).toHaveText('1');
  await page.getByRole('button', { name: 'Show failed recipients (1)' }).click();
  const reasons = page.getByRole('table', { name: 'Failed recipients, by answer' });
  await expect(reasons.getByRole('row', { name: /Recipient address rejected/ })).toContainText('1');
  await expect(page.getByText('Your role sees how many, not who')).toBeVisible();
  await expect(page.getByRole('main')).not.toContainText('@list.e2e.test');
  await expect(page.getByRole('table', { name: 'Failed recipients', exact: true })).toHaveCount(0);
});
