// Money going back, in a browser against a server of its own (its own fake Stripe sending
// it signed events, and a local SMTP server it mails through): a gift paid on /donate and
// refunded in part from the admin (the card, the e-mail, the audit row, Schedule B, the
// donor's own total), and a dispute opened and lost at the fake.
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { Db, panel, signIn, tab } from './admin-fixtures';
import { confirmAll, fillDonor, form, pay, proceed } from './donate-steps';
import { expect, expectAccessible, failedLoad, test as base, toastRegion, uniqueEmail } from './fixtures';
import { type Server, startServer } from './server';
import { type SmtpSink, smtpSinkFixture } from './smtp';
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
        FEC_COMMITTEE_ID: 'C00123456',
      });
      await pointWebhookAt(stripe.url, server.baseURL);
      await use(server);
      await server.stop();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ server }, use) => use(server.baseURL),
});

/** YYYY-MM-DD `days` from now (UTC), for a range that holds today in any time zone. */
function dayFromNow(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

test('a gift paid on the page, refunded in part from the admin: the card, the e-mail, the audit row, Schedule B and the donor’s total', async ({
  page,
  sink,
  server,
  stripe,
  allowConsole,
}) => {
  allowConsole(failedLoad(400));
  await routeStripe(page, stripe.url);
  const db = new Db(server.dbPath);
  const email = uniqueEmail('refund');
  await page.goto('/donate');
  await page.getByText('$250', { exact: true }).click();
  await fillDonor(page, { email, occupation: 'Rear admiral', employer: 'U.S. Navy', purpose: 'General election' });
  await confirmAll(page);
  await proceed(page).click();
  await pay(page);
  await expect(page.getByRole('main').getByRole('status').filter({ hasText: 'Thank you for your donation!' })).toBeVisible();
  await expect.poll(() => db.query<{ status: string }>(`SELECT status FROM donations WHERE donor_email = '${email}'`)[0]?.status).toBe('completed');
  const [{ id }] = db.query<{ id: number }>(`SELECT id FROM donations WHERE donor_email = '${email}'`);

  await signIn(page);
  await tab(page, 'Donations').click();
  const card = panel(page).getByRole('listitem').filter({ hasText: email });
  await expect(card).toContainText('completed');
  await card.getByRole('button', { name: 'Refund the gift of $250.00 from Grace Hopper' }).click();
  const dialog = page.getByRole('dialog', { name: 'Refund a gift' });
  const amount = dialog.getByLabel(/^Amount to refund/);
  await expect(amount).toHaveValue('250.00');
  await expectAccessible(page);
  // Without a reason there is nothing to confirm.
  await expect(dialog.getByRole('button', { name: 'Refund $250.00' })).toBeDisabled();
  await dialog.getByLabel('Reason').fill('Donor asked for part back');
  // More than was paid: the server says so, on the amount, and nothing happens.
  await amount.fill('300');
  await dialog.getByRole('button', { name: 'Refund $300.00' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('At most $250.00 of this gift can be refunded.');
  await expect(amount).toHaveAttribute('aria-invalid', 'true');
  expect(db.query('SELECT id FROM donation_refunds')).toEqual([]);

  await amount.fill('100');
  await dialog.getByRole('button', { name: 'Refund $100.00' }).click();
  await expect(toastRegion(page).getByRole('listitem')).toContainText('Refund made');
  await expect(dialog).toBeHidden();
  await expect(card).toContainText('Partly refunded');
  // Who gave it back, where staff look at the gift (the Owner has no name: their address).
  await expect(card).toContainText(/Refunded \$100\.00 by owner@e2e\.test, [A-Z][a-z]+ \d{1,2}, \d{4}/);

  // The donor's e-mail, through the mail queue and real SMTP.
  const notice = await sink.waitFor(email, 'Your contribution to American Conscience Party has been refunded');
  expect(notice.text).toContain('We have refunded $100.00 of your contribution of $250.00');
  expect(notice.text).toMatch(/Your contributions for \d{4}, after this refund: \$150\.00/);

  // The audit log: who, the amount and the reason; the refund's own event added no second refund.
  expect(db.query(`SELECT action, target, ip IS NOT NULL AS withAddress, detail FROM audit_log WHERE action = 'refund'`)).toEqual([
    {
      action: 'refund',
      target: `donation:${id}`,
      withAddress: 1,
      detail: expect.stringMatching(/^100\.00 refunded \(re_fake_\w+\): Donor asked for part back$/),
    },
  ]);
  expect(db.query(`SELECT amount_cents, status FROM donation_refunds`)).toEqual([{ amount_cents: 10000, status: 'succeeded' }]);

  // Schedule B for a range holding today: the refund, tied to its gift.
  await panel(page).getByText("Treasurer's export").click();
  await panel(page).getByLabel('From', { exact: true }).fill(dayFromNow(-2));
  await panel(page).getByLabel('To', { exact: true }).fill(dayFromNow(1));
  let download = page.waitForEvent('download');
  await panel(page).getByRole('button', { name: 'Schedule B (CSV)' }).click();
  let file = await download;
  expect(file.suggestedFilename()).toMatch(/^ACP-schedule-b-\d{4}-\d\d-\d\d_\d{4}-\d\d-\d\d\.csv$/);
  const rows: Record<string, string>[] = parse(readFileSync(await file.path()), { columns: true, bom: true });
  expect(rows).toEqual([
    expect.objectContaining({
      'Form Type': 'SB28A',
      'Back Reference Tran ID': `DON${id}`,
      'Payee Last Name': 'Hopper',
      'Expenditure Amount': '100.00',
      'Original Contribution Amount': '250.00',
      Kind: 'Refund',
      Itemized: 'Yes',
    }),
  ]);
  download = page.waitForEvent('download');
  await panel(page).getByRole('button', { name: 'Schedule B (.fec)' }).click();
  file = await download;
  const lines = readFileSync(await file.path(), 'ascii')
    .trimEnd()
    .split('\n');
  expect(lines[0].split('\x1c').slice(0, 3)).toEqual(['HDR', 'FEC', '8.4']);
  expect(lines[1].split('\x1c').slice(0, 6)).toEqual(['SB28A', 'C00123456', expect.stringMatching(/^REF\d+$/), `DON${id}`, 'SA11AI', 'IND']);

  // The donor, opening the link in their receipt, sees the year's total less what went back.
  const [receipt] = await sink.waitForCount(email, 'Your contribution receipt', 1);
  const link = /\/donate#history=[A-Za-z0-9_.-]+/.exec(receipt.text)![0];
  await page.goto('about:blank');
  await page.goto(link);
  await expect(form(page).getByLabel(/^Email/)).toHaveValue(email);
  await expect(page.getByText('You have given $150 this year. You can give up to $44,150 more this year.')).toBeVisible();
});

test('a dispute opened at Stripe shows as Disputed, without a refund, and once lost counts as refunded', async ({ page, request, server, stripe }) => {
  const db = new Db(server.dbPath);
  const email = uniqueEmail('dispute');
  // A gift set up and paid without a browser, as the fake lets a test do.
  const set = await request.post('/api/create-payment-intent', {
    data: {
      amount: 40,
      donorInfo: {
        donorFirstName: 'Ada',
        donorLastName: 'Byron',
        donorEmail: email,
        donorAddress: '1 Main St',
        donorCity: 'Springfield',
        donorState: 'IL',
        donorZipCode: '62701',
        citizenshipConfirmed: 'confirmed',
        attestationsConfirmed: true,
      },
    },
  });
  expect(set.status()).toBe(200);
  const intent = ((await set.json()) as { clientSecret: string }).clientSecret.split('_secret_')[0];
  const control = (path: string, body: object = {}) => fetch(`${stripe.url}/__fake/${path}`, { method: 'POST', body: JSON.stringify(body) });
  expect((await control(`payment_intents/${intent}/succeed`)).status).toBe(200);
  await expect.poll(() => db.query<{ status: string }>(`SELECT status FROM donations WHERE donor_email = '${email}'`)[0]?.status).toBe('completed');

  const dispute = (await (await control(`payment_intents/${intent}/dispute`, { reason: 'fraudulent' })).json()) as { id: string };
  await signIn(page);
  await tab(page, 'Donations').click();
  const card = panel(page).getByRole('listitem').filter({ hasText: email });
  await expect(card).toContainText('Disputed');
  await expect(card).toContainText('The card issuer is holding the money');
  await expect(card.getByRole('button', { name: /^Refund/ })).toHaveCount(0);
  await expect.poll(() => db.query(`SELECT kind FROM mail_queue WHERE event_key LIKE 'dispute:%'`)).toEqual([{ kind: 'staff_alert' }]);

  expect((await control(`disputes/${dispute.id}/close`, { won: false })).status).toBe(200);
  await page.reload();
  await tab(page, 'Donations').click();
  await expect(card).toContainText('Refunded');
  await expect(card).toContainText('(dispute lost)');
});
