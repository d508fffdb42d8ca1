// Monthly gifts in a browser, against a server of its own (its own fake Stripe sending it
// signed events, a local SMTP server it mails through, and its test clock: ENABLE_TEST_CLOCK
// lets a signed-in request move the server's one clock and run its timed work at once, so a
// month passes without waiting for it). One-time stays the default; "Give monthly" is chosen,
// paid on the page, charged again by the server a month on with its own receipt, and ended
// from the receipt's link; a declined charge is retried, stops, and a new card from the mailed
// link starts it again; staff see and cancel plans on the Recurring tab.
import type { APIRequestContext } from '@playwright/test';
import { Db, panel, signIn, tab } from './admin-fixtures';
import { confirmAll, fillDonor, form, pay, proceed } from './donate-steps';
import { expect, expectAccessible, failedLoad, test as base, uniqueEmail } from './fixtures';
import { type Server, startServer } from './server';
import { ownerToken } from './staff';
import { type Mail, type SmtpSink, smtpSinkFixture } from './smtp';
import { type FakeStripe, STRIPE_ENV, pointWebhookAt, routeStripe, startFakeStripe } from './stripe';

const test = base.extend<object, { sink: SmtpSink; stripe: FakeStripe; server: Server }>({
  sink: smtpSinkFixture,
  stripe: [
    async ({}, use) => {
      const stripe = await startFakeStripe();
      await use(stripe);
      stripe.stop();
    },
    { scope: 'worker' },
  ],
  server: [
    async ({ sink, stripe }, use) => {
      const server = await startServer({
        ...STRIPE_ENV,
        STRIPE_API_BASE: `${stripe.url}/`,
        SMTP_URL: sink.url,
        STAFF_EMAIL: 'Party Staff <staff@example.org>',
        ENABLE_TEST_CLOCK: '1',
      });
      await pointWebhookAt(stripe.url, server.baseURL);
      await use(server);
      await server.stop();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ server }, use) => use(server.baseURL),
});

const DAY = 86_400;
const MONTH = 31 * DAY;
const TIME_ZONE = 'America/New_York';

/** Moves the server's clock on and waits for its charges, publishes and mail to run. */
async function moveClock(server: Server, request: APIRequestContext, seconds: number): Promise<void> {
  const token = await ownerToken(server.baseURL);
  const moved = await request.post('/api/admin/test-clock', { headers: { Authorization: `Bearer ${token}` }, data: { advanceSeconds: seconds } });
  expect(moved.ok(), await moved.text()).toBe(true);
  // The Owner's authenticator codes go by the server's clock (their browser's device cookie
  // runs out 30 days on, and the next sign-in asks for a code).
  server.owner.totp!.offsetMs = Date.parse(((await moved.json()) as { now: string }).now) - Date.now();
}

/** The path (and query) of the link in a message that leads to `path`. */
function linkIn(mail: Mail, path: string): string {
  const found = mail.text.split(/\s+/).find((word) => word.startsWith('http') && word.includes(path));
  if (!found) throw new Error(`no ${path} link in:\n${mail.text}`);
  const url = new URL(found);
  return url.pathname + url.search;
}

/** "December 27, 2026": a month from today in the party's zone, as the page computes it. */
function aMonthOn(now = new Date()): string {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: TIME_ZONE, year: 'numeric', month: 'numeric', day: 'numeric' }).formatToParts(now);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const [y, m] = part('month') === 12 ? [part('year') + 1, 1] : [part('year'), part('month') + 1];
  const day = Math.min(part('day'), new Date(Date.UTC(y, m, 0)).getUTCDate());
  return new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'long', day: 'numeric', year: 'numeric' }).format(Date.UTC(y, m - 1, day));
}

/** Signs `email` up for `dollars` a month through the API and pays the first gift at the
 *  fake (whose event reaches the server): the plan's id. At most $16, so that twelve of them
 *  need no occupation in whatever month the server's moved clock has reached. */
async function signUpQuickly(request: APIRequestContext, stripe: FakeStripe, db: Db, email: string, dollars: number): Promise<number> {
  const res = await request.post('/api/create-payment-intent', {
    data: {
      amount: dollars,
      frequency: 'monthly',
      donorInfo: {
        donorFirstName: 'Rosa',
        donorLastName: 'Parks',
        donorEmail: email,
        donorAddress: '1 Main Street',
        donorCity: 'Montgomery',
        donorState: 'AL',
        donorZipCode: '36104',
        citizenshipConfirmed: 'confirmed',
        attestationsConfirmed: true,
      },
    },
  });
  expect(res.ok(), await res.text()).toBe(true);
  const { clientSecret } = (await res.json()) as { clientSecret: string };
  const paid = await request.post(`${stripe.url}/__fake/payment_intents/${clientSecret.split('_secret_')[0]}/succeed`);
  expect(paid.ok()).toBe(true);
  await expect.poll(() => db.query<{ status: string }>(`SELECT status FROM donation_plans WHERE donor_email = '${email}'`)[0]?.status).toBe('active');
  return db.query<{ id: number }>(`SELECT id FROM donation_plans WHERE donor_email = '${email}'`)[0].id;
}

const planStatus = (db: Db, id: number) => db.query<{ status: string }>(`SELECT status FROM donation_plans WHERE id = ${id}`)[0]?.status;

test('one time unless chosen; monthly is paid on the page, charged again a month on with its own receipt, and ended from its link', async ({
  page,
  request,
  sink,
  server,
  stripe,
  allowConsole,
}) => {
  allowConsole(failedLoad(410)); // the link of a gift that has ended
  await routeStripe(page, stripe.url);
  const db = new Db(server.dbPath);
  const email = uniqueEmail('monthly');
  await page.goto('/donate');
  const once = form(page).getByRole('radio', { name: 'One time' });
  const monthly = form(page).getByRole('radio', { name: 'Give monthly' });
  await expect(once).toBeChecked();
  await expect(monthly).not.toBeChecked();
  await page.getByText('$25', { exact: true }).click();
  await expect(page.getByText(/every month, next on/)).toHaveCount(0);
  await monthly.check();
  const line = `$25.00 every month, next on ${aMonthOn()}, until you cancel`;
  await expect(form(page).getByText(line)).toBeVisible();
  await expectAccessible(page);
  await fillDonor(page, { email });
  await confirmAll(page);
  await proceed(page).click();
  // The line stays beside the pay button, and the summary says monthly.
  await expect(page.getByText(line)).toBeVisible();
  await expect(page.getByText('$25.00 every month', { exact: true })).toBeVisible();
  await pay(page);
  await expect(page.getByRole('main').getByRole('status').filter({ hasText: 'Thank you for your donation!' })).toBeVisible();
  await expect.poll(() => db.query<{ status: string }>(`SELECT status FROM donation_plans WHERE donor_email = '${email}'`)[0]?.status).toBe('active');
  const [first] = await sink.waitForCount(email, 'Your contribution receipt', 1);
  expect(first.text).toContain(`This is your monthly gift of $25.00. The next one is on ${aMonthOn()}`);

  // A month passes: the server charges the saved card itself, a gift and a receipt of its own.
  await moveClock(server, request, MONTH);
  const gifts = () =>
    db.query<{ status: string }>(
      `SELECT d.status FROM donations d JOIN donation_plans p ON p.id = d.plan_id WHERE p.donor_email = '${email}' ORDER BY d.plan_charge`,
    );
  expect(gifts().map((g) => g.status)).toEqual(['completed', 'completed']);
  const receipts = await sink.waitForCount(email, 'Your contribution receipt', 2);
  const second = receipts[1];
  // The year's total counts both gifts, unless the month passed crossed into a new year
  // (a December run), where the second gift starts the new year's total.
  const year = (at: number) => new Intl.DateTimeFormat('en-US', { timeZone: TIME_ZONE, year: 'numeric' }).format(at);
  const total = year(Date.now()) === year(Date.now() + MONTH * 1000) ? '$50.00' : '$25.00';
  expect(second.text).toContain(`Your contributions this calendar year, this one included: ${total}`);
  const cancelUrl = linkIn(second, '/donate/monthly/cancel/');

  // The link from the receipt: one button, no sign-in, and it works with scripts off too.
  await page.goto(cancelUrl);
  await expect(page.getByRole('heading', { level: 1, name: 'Cancel your monthly gift' })).toBeVisible();
  await expect(page.getByText('You give $25.00 to American Conscience Party every month.')).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Cancel my monthly gift' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Your monthly gift is canceled' })).toBeVisible();
  const [confirmation] = await sink.waitForCount(email, 'Your monthly gift to American Conscience Party is canceled', 1);
  expect(confirmation.text).toContain('No further gifts will be charged.');
  expect(db.query(`SELECT actor, detail FROM audit_log WHERE action = 'cancel_plan'`)).toContainEqual({ actor: 'donor', detail: 'by donor' });
  // Nothing more is charged, however long it runs.
  await moveClock(server, request, MONTH);
  expect(gifts()).toHaveLength(2);
  await page.goto(cancelUrl);
  await expect(page.getByRole('heading', { level: 1, name: 'This monthly gift has ended' })).toBeVisible();

  // Staff see it ended by the donor.
  await signIn(page);
  await tab(page, 'Recurring').click();
  const card = panel(page).getByRole('listitem').filter({ hasText: email });
  await expect(card).toContainText('Canceled');
  await expect(card).toContainText('by the donor');
  await expect(card).toContainText('Total given: $50.00 in 2 gifts');
  await tab(page, 'Donations').click();
  await expect(panel(page).getByRole('listitem').filter({ hasText: email }).getByText('Monthly', { exact: true })).toHaveCount(2);
});

test('a declined charge is retried on days 1, 3, 5 and 7, stops, and a new card from the mailed link starts it again', async ({
  page,
  request,
  sink,
  server,
  stripe,
  allowConsole,
}) => {
  allowConsole(failedLoad(402));
  allowConsole(failedLoad(404));
  await routeStripe(page, stripe.url);
  const db = new Db(server.dbPath);
  const email = uniqueEmail('declined');
  const plan = await signUpQuickly(request, stripe, db, email, 15);
  const [{ payment_method: card }] = db.query<{ payment_method: string }>(`SELECT payment_method FROM donation_plans WHERE id = ${plan}`);
  await request.post(`${stripe.url}/__fake/payment_methods/${card}/charges`, { data: { outcome: 'decline' } });

  await moveClock(server, request, MONTH);
  expect(planStatus(db, plan)).toBe('retrying');
  const [declined] = await sink.waitForCount(email, 'Your monthly gift to American Conscience Party could not be charged', 1);
  expect(declined.text).toContain('Your card was declined for your monthly gift of $15.00');
  await signIn(page);
  await tab(page, 'Recurring').click();
  await expect(panel(page).getByRole('listitem').filter({ hasText: email })).toContainText('Retrying');
  for (const days of [1, 2, 2, 2]) await moveClock(server, request, days * DAY);
  expect(planStatus(db, plan)).toBe('inactive');
  const [stopped] = await sink.waitForCount(email, 'Your monthly gift to American Conscience Party has stopped', 1);
  const tries = await (await request.get(`${stripe.url}/__fake/requests`)).json();
  expect((tries as { params: Record<string, string> }[]).filter((r) => r.params.off_session === 'true')).toHaveLength(5);

  // A link that is not one says so.
  await page.goto('/donate/card?token=12-34-abc');
  await expect(page.getByRole('alert')).toHaveText('This link is not valid. Please copy the whole link from the message we sent you.');

  // The link from the last notice: the page says what is owed, takes a new card, charges it.
  await page.goto(linkIn(stopped, '/donate/card?token='));
  await expect(page.getByRole('heading', { level: 1, name: 'Give with another card' })).toBeVisible();
  await expect(page.getByText(/Your monthly gift of \$15\.00 due on .* has not been charged yet/)).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel('Card number').fill('4000 0000 0000 0002');
  await page.getByRole('button', { name: 'Save this card' }).click();
  await expect(page.getByRole('region', { name: /Notifications/ }).getByText('Payment Failed')).toBeVisible();
  expect(planStatus(db, plan)).toBe('inactive');
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByRole('button', { name: 'Save this card' }).click();
  await expect(page.getByRole('status')).toContainText('Thank you. Your new card is saved and was charged $15.00 for the gift that was due.');
  expect(planStatus(db, plan)).toBe('active');
  expect(db.query<{ status: string }>(`SELECT status FROM donations WHERE plan_id = ${plan} AND plan_charge = 1`)[0].status).toBe('completed');
  await sink.waitForCount(email, 'Your contribution receipt', 2);
});

test('staff cancel a monthly gift from the Recurring tab, with a reason', async ({ page, request, sink, server, stripe }) => {
  const db = new Db(server.dbPath);
  const email = uniqueEmail('staff-cancel');
  const plan = await signUpQuickly(request, stripe, db, email, 12);
  await signIn(page);
  await tab(page, 'Recurring').click();
  const card = panel(page).getByRole('listitem').filter({ hasText: email });
  await expect(card).toContainText('Active');
  await expect(card).toContainText('$12.00 a month from Rosa Parks');
  await card.getByRole('button', { name: 'Cancel the monthly gift of $12.00 from Rosa Parks' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cancel a monthly gift' });
  await expectAccessible(page);
  const confirm = dialog.getByRole('button', { name: 'Cancel the monthly gift' });
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel('Reason').fill('Asked by phone to stop');
  await confirm.click();
  await expect(dialog).toBeHidden();
  await expect(card).toContainText('Canceled');
  await expect(card).toContainText('by staff: Asked by phone to stop');
  expect(planStatus(db, plan)).toBe('canceled');
  await sink.waitForCount(email, 'Your monthly gift to American Conscience Party is canceled', 1);
});
