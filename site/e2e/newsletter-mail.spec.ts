// The newsletter's double opt-in in a browser, with the server sending real mail to a local
// SMTP server: sign up on the home page, read the confirmation, open its link (which must
// not confirm by itself), press Confirm, see the admin list the address as Confirmed; then
// the welcome's unsubscribe link, and the one-click POST (RFC 8058) as a mail client sends
// it, with a plain HTTP request.
import { type Page } from '@playwright/test';
import { panel, signIn, tab } from './admin-fixtures';
import { expect, expectAccessible, test as base, toastRegion, uniqueEmail } from './fixtures';
import { type Server, startServer } from './server';
import { type SmtpSink, smtpSinkFixture } from './smtp';

const test = base.extend<object, { sink: SmtpSink; server: Server }>({
  sink: smtpSinkFixture,
  server: [
    async ({ sink }, use) => {
      const server = await startServer({ SMTP_URL: sink.url });
      await use(server);
      await server.stop();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ server }, use) => use(server.baseURL),
});

/** The path of the first link to `prefix` in a message. */
function linkPath(text: string, prefix: string): string {
  const match = new RegExp(`https?://\\S+(${prefix}[0-9a-f-]+)`).exec(text);
  if (!match) throw new Error(`no ${prefix} link in:\n${text}`);
  return match[1];
}

/** The admin's Newsletter tab, freshly loaded (signed in already in this tab). */
async function newsletterTab(page: Page) {
  await page.goto('/admin/dashboard?tab=newsletter');
  await expect(tab(page, 'Newsletter')).toHaveAttribute('aria-selected', 'true');
}

test('sign up, confirm from the mail, see Confirmed in the admin, then unsubscribe in one click', async ({ page, sink, server }) => {
  const email = uniqueEmail('optin');
  await page.goto('/');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('ZIP code').fill('43215');
  await page.getByRole('button', { name: 'Join the Movement' }).click();
  // The spec's toast, whatever happens behind it.
  await expect(toastRegion(page).getByRole('listitem')).toContainText('Thank you for joining!');

  const confirmation = await sink.waitFor(email, 'Confirm your subscription');
  const confirm = linkPath(confirmation.text, '/newsletter/confirm/');
  await page.goto(confirm);
  await expect(page.getByRole('heading', { level: 1, name: 'Confirm your subscription' })).toBeVisible();
  // In the site's own layout: its header and footer around the question.
  await expect(page).toHaveTitle(/^Confirm your subscription \| /);
  await expect(page.getByRole('contentinfo')).toBeVisible();
  await expectAccessible(page);
  await expect(page.getByText('By confirming, you agree')).toBeVisible();
  // Opening the link confirmed nothing: a mail scanner that fetches it must not.
  await signIn(page);
  await tab(page, 'Newsletter').click();
  await expect(panel(page).getByRole('listitem').filter({ hasText: email })).toContainText('Pending');

  await page.goto(confirm);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'You are subscribed' })).toBeVisible();

  await newsletterTab(page);
  await expect(panel(page).getByRole('listitem').filter({ hasText: email })).toContainText('Confirmed');

  const welcome = await sink.waitFor(email, 'Welcome to American Conscience Party');
  const unsubscribe = linkPath(welcome.text, '/newsletter/unsubscribe/');
  expect(welcome.headers['list-unsubscribe']).toMatch(new RegExp(`^<https?://\\S+${unsubscribe}>$`));
  expect(welcome.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');

  // The link's page: one button, no sign-in; opening it changes nothing.
  await page.goto(unsubscribe);
  await expect(page.getByRole('button', { name: 'Unsubscribe' })).toBeVisible();

  // A mail client's one-click unsubscribe: a plain POST, no page, no cookie, no script.
  const oneClick = await fetch(`${server.baseURL}${unsubscribe}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'List-Unsubscribe=One-Click',
  });
  expect(oneClick.status).toBe(200);

  await newsletterTab(page);
  await expect(panel(page).getByRole('listitem').filter({ hasText: email })).toContainText('Unsubscribed');

  // The page's button works too (again, harmlessly).
  await page.goto(unsubscribe);
  await page.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'You are unsubscribed' })).toBeVisible();
});
