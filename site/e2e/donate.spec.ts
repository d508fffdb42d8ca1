// The donate page against the real server, with the fake Stripe in place of Stripe (see
// stripe.ts): whole gifts from the amount to the thank-you and the admin's list, every rule
// and message of spec §5 and §8, failures at Stripe, the keyboard, and axe on every stage.
import { type Locator, type Page } from '@playwright/test';
import { expect, expectAccessible, failedLoad, query, sql, test, toastRegion, uniqueEmail } from './fixtures';
import { confirmAll, fillDonor, form, giveOnce, historyLink, openHistoryLink, pay, proceed } from './donate-steps';
import { startServer } from './server';
import { routeStripe } from './stripe';
import { signIn } from './admin-fixtures';

test.beforeEach(async ({ page }) => {
  await routeStripe(page);
});

const toast = (page: Page) => toastRegion(page).getByRole('listitem');

async function expectProblem(page: Page, title: string, description: string, field: Locator) {
  await expect(toast(page)).toContainText(title);
  await expect(toast(page)).toContainText(description);
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(field).toBeFocused();
  const described = (await field.getAttribute('aria-describedby')) ?? '';
  const texts = await Promise.all(described.split(' ').map((id) => page.locator(`[id="${id}"]`).textContent()));
  expect(texts.join(' ')).toContain(description);
}

function donation(email: string) {
  return query<{ status: string; amount_cents: number; donor_occupation: string | null; contribution_purpose: string | null }>(
    `SELECT status, amount_cents, donor_occupation, contribution_purpose FROM donations WHERE donor_email = ${sql(email)} ORDER BY id`,
  );
}

test.describe('donating', () => {
  test('a $25 gift: pending, paid, completed by the signed webhook, and in the admin list', async ({ page, browser }) => {
    const email = uniqueEmail('donor');
    await page.goto('/donate');
    await page.getByText('$25', { exact: true }).click();
    await fillDonor(page, { email });
    await confirmAll(page);
    const sent = page.waitForRequest('**/api/create-payment-intent');
    await proceed(page).click();
    expect((await sent).postDataJSON()).toEqual({
      amount: 25,
      donorInfo: {
        donorName: 'Grace Hopper',
        donorFirstName: 'Grace',
        donorLastName: 'Hopper',
        donorEmail: email,
        donorAddress: '12 Compiler Lane',
        donorCity: 'Arlington',
        donorState: 'VA',
        donorZipCode: '22201',
        citizenshipConfirmed: 'confirmed',
        attestationsConfirmed: true,
      },
    });
    // The last step: the gift to check, then the card.
    const review = page.getByRole('region', { name: 'Review your gift' });
    await expect(review).toContainText('$25.00');
    await expect(review).toContainText('Grace Hopper');
    await expect(review).toContainText('12 Compiler Lane, Arlington, Virginia 22201');
    await expect(page.getByRole('heading', { name: 'Review your gift' })).toBeFocused();
    expect(donation(email)).toEqual([{ status: 'pending', amount_cents: 2500, donor_occupation: null, contribution_purpose: null }]);

    await pay(page);
    await page.waitForURL(/\/donate\?success=true&payment_intent=pi_fake_/);
    await expect(page.getByText('Thank you for your donation!').first()).toBeVisible();
    await expect(page.getByRole('main').getByRole('status').filter({ hasText: 'Thank you for your donation!' })).toContainText('Your gift of $25.00');
    await expect.poll(() => donation(email)[0]?.status).toBe('completed');

    // Staff see it.
    const admin = await browser.newPage();
    await signIn(admin);
    await admin.getByRole('tab', { name: /Donations/ }).click();
    const card = admin.getByRole('tabpanel').getByRole('listitem').filter({ hasText: email });
    await expect(card).toContainText('$25.00');
    await expect(card).toContainText('completed');
    await admin.close();
  });

  test('$250 needs occupation, employer and purpose, which are stored', async ({ page }) => {
    const email = uniqueEmail('big');
    await page.goto('/donate');
    await page.getByText('$250', { exact: true }).click();
    await fillDonor(page, { email });
    await confirmAll(page);
    await proceed(page).click();
    await expectProblem(
      page,
      'Additional Information Required',
      'For donations over $200, FEC regulations require occupation, employer, and contribution purpose.',
      form(page).getByLabel(/^Occupation/),
    );
    expect(donation(email)).toEqual([]);
    await form(page)
      .getByLabel(/^Occupation/)
      .fill('Rear admiral');
    await form(page)
      .getByLabel(/^Employer/)
      .fill('U.S. Navy');
    await form(page)
      .getByLabel(/^Contribution purpose/)
      .selectOption({ label: 'General election' });
    await proceed(page).click();
    await expect(page.getByRole('heading', { name: 'Review your gift' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Review your gift' })).toContainText('General election');
    expect(donation(email)).toEqual([{ status: 'pending', amount_cents: 25000, donor_occupation: 'Rear admiral', contribution_purpose: 'general_election' }]);
  });

  test('earlier gifts this year make a $150 gift need the extra answers, and the page says why', async ({ page }) => {
    const email = uniqueEmail('repeat');
    const year = new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', year: 'numeric' }).format(new Date());
    // A first gift of $100; the donor opens the link in its receipt.
    await giveOnce(page, '$100', email);
    await expect.poll(() => donation(email)[0]?.status).toBe('completed');

    await openHistoryLink(page, email);
    await page.getByLabel('Other amount').fill('150');
    await fillDonor(page, { email });
    await expect(page.getByText('You have given $100 this year. You can give up to $44,200 more this year.')).toBeVisible();
    await expect(form(page).getByLabel(/^Occupation/)).toHaveAttribute('aria-required', 'true');
    await confirmAll(page);
    await proceed(page).click();
    await expectProblem(
      page,
      'Additional Information Required',
      `For donations over $200, FEC regulations require occupation, employer, and contribution purpose. This gift brings your total for ${year} above $200.`,
      form(page).getByLabel(/^Occupation/),
    );
  });

  test("a donor's year is told only to a browser that opened their receipt's link", async ({ page, browser }) => {
    const email = uniqueEmail('private');
    await giveOnce(page, '$50', email);
    await expect.poll(() => donation(email)[0]?.status).toBe('completed');

    // Paying earns nothing: even the browser that paid is told nothing yet, and the custom
    // amount keeps the spec's default maximum.
    const stranger = await browser.newPage();
    await routeStripe(stranger);
    for (const browserPage of [page, stranger]) {
      const answered = browserPage.waitForResponse('**/api/donations/summary*');
      await browserPage.goto('/donate');
      await form(browserPage)
        .getByLabel(/^Email/)
        .fill(email);
      expect(await (await answered).json()).toEqual({ completed: null, pending: null, remaining: null });
      await expect(browserPage.getByText(/You have given|You can give up to/)).toHaveCount(0);
      await expect(browserPage.getByLabel('Other amount')).toHaveAttribute('max', '50000');
    }
    await stranger.close();

    // The receipt's link, opened here, shows the year on this browser (its address filled
    // in), and leaves the address bar.
    await openHistoryLink(page, email);
    await expect(toast(page)).toContainText('Your giving is shown on this browser');
    expect(new URL(page.url()).hash).toBe('');
    await expect(page.getByText('You have given $50 this year. You can give up to $44,250 more this year.')).toBeVisible();
    await expect(page.getByLabel('Other amount')).toHaveAttribute('max', '44250');
    await expectAccessible(page);
    // Still there on a later visit.
    await page.goto('/donate');
    await form(page)
      .getByLabel(/^Email/)
      .fill(email);
    await expect(page.getByText('You have given $50 this year. You can give up to $44,250 more this year.')).toBeVisible();
  });

  test("a receipt's sign-out link stops every browser showing the donor's year, and its link with it", async ({ page, allowConsole }) => {
    allowConsole(failedLoad(400)); // the signed-out link, refused
    const email = uniqueEmail('signout');
    await giveOnce(page, '$25', email);
    await openHistoryLink(page, email);
    const link = await historyLink(email);
    await expect(page.getByText('You have given $25 this year.', { exact: false })).toBeVisible();

    // The receipt's other link: a page with one button, which works without JavaScript.
    const [row] = query<{ m: string }>(
      `SELECT CAST(message AS TEXT) AS m FROM mail_queue WHERE kind = 'receipt' AND about = ${sql(email)} ORDER BY id DESC LIMIT 1`,
    );
    const decoded = row.m.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    const signOut = /(\/donate\/history\/sign-out\/[A-Za-z0-9_.-]+)/.exec(decoded)![1];
    await page.goto(signOut);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Stop showing your giving');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Stop showing my giving' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your giving is no longer shown');

    await page.goto('/donate');
    await form(page)
      .getByLabel(/^Email/)
      .fill(email);
    await expect(page.getByText(/You have given|You can give up to/)).toHaveCount(0);
    // The link mailed before it no longer works either, and the page says so.
    await page.goto('about:blank');
    await page.goto(`/donate#history=${link}`);
    await expect(toast(page)).toContainText('Your giving cannot be shown');
    await expect(toast(page)).toContainText('This link has expired or was signed out.');
  });

  test('every rule has its message, on its field', async ({ page, allowConsole }) => {
    allowConsole(failedLoad(400));
    await page.goto('/donate');
    await proceed(page).click();
    await expectProblem(page, 'Invalid Amount', 'Please select or enter a valid donation amount.', form(page).getByLabel('Other amount'));
    await page.getByLabel('Other amount').fill('0.5');
    await proceed(page).click();
    await expectProblem(page, 'Invalid Amount', 'Please select or enter a valid donation amount.', form(page).getByLabel('Other amount'));

    await page.getByText('$50', { exact: true }).click();
    await expect(page.getByLabel('Other amount')).toHaveValue('');
    await page.getByLabel('Other amount').fill('60');
    await expect(page.getByRole('radio', { name: '$50', exact: true })).not.toBeChecked();
    await proceed(page).click();
    await expectProblem(page, 'Missing Information', 'Please fill in all required donor information fields.', form(page).getByLabel(/^First name/));
    await expect(form(page).getByLabel(/^ZIP code/)).toHaveAttribute('aria-invalid', 'true');

    await fillDonor(page, { email: uniqueEmail('rules') });
    await proceed(page).click();
    await expectProblem(
      page,
      'Citizenship Confirmation Required',
      'Please confirm your U.S. citizenship status as required by FEC regulations.',
      form(page).getByLabel('I am a U.S. citizen or lawfully admitted permanent resident'),
    );
    await form(page).getByLabel('I am a U.S. citizen or lawfully admitted permanent resident').check();
    await proceed(page).click();
    await expectProblem(
      page,
      'Confirmation Required',
      'Please confirm the contribution statements above.',
      form(page).getByLabel('I confirm that each of the following statements is true.'),
    );
    await expectAccessible(page);

    // A ZIP the server refuses: its message, on its field.
    await form(page).getByLabel('I confirm that each of the following statements is true.').check();
    await form(page)
      .getByLabel(/^ZIP code/)
      .fill('2220');
    await proceed(page).click();
    await expectProblem(page, 'Payment Setup Failed', 'Please enter a valid ZIP code (5 digits, or ZIP+4).', form(page).getByLabel(/^ZIP code/));
  });

  test('over the limit: the warning panel, then "Donation Limit Exceeded"', async ({ page }) => {
    await page.goto('/donate');
    await expect(page.getByText(/up to \$44,300 in \d{4}/)).toBeVisible();
    const custom = page.getByLabel('Other amount');
    await expect(custom).toHaveAttribute('max', '50000');
    await custom.fill('44301');
    const panel = page.locator('main form').getByText('This amount would exceed your annual limit. You can donate up to $44,300 more this year.');
    await expect(panel).toBeVisible();
    await fillDonor(page, { email: uniqueEmail('limit') });
    // A stranger's browser is not told what this donor has left: the default maximum stays.
    await expect(custom).toHaveAttribute('max', '50000');
    await confirmAll(page);
    await proceed(page).click();
    await expectProblem(page, 'Donation Limit Exceeded', 'This amount would exceed your annual limit. You can donate up to $44,300 more this year.', custom);
    await custom.fill('44300');
    await expect(panel).toBeHidden();
  });

  test('the donation status: checking, then nothing for an unknown donor, or a note when it cannot be loaded', async ({ page, allowConsole }) => {
    allowConsole(/Failed to load resource/);
    // Every status request waits until `hold()` lets them all go (typing may send more than
    // one), and any after that goes at once.
    const held: (() => void)[] = [];
    let released = false;
    const hold = () => {
      released = true;
      for (const release of held.splice(0)) release();
    };
    await page.route('**/api/donations/summary*', async (route) => {
      if (!released) await new Promise<void>((release) => held.push(release));
      await route.continue();
    });
    await page.goto('/donate');
    await form(page)
      .getByLabel(/^Email/)
      .fill(uniqueEmail('status'));
    await expect(page.getByText('Checking donation status...')).toBeVisible();
    hold();
    await expect(page.getByText('Checking donation status...')).toBeHidden();
    await expect(page.getByText(/You can give up to/)).toHaveCount(0);

    await page.unroute('**/api/donations/summary*');
    await page.route('**/api/donations/summary*', (route) => route.abort());
    await form(page)
      .getByLabel(/^Email/)
      .fill(uniqueEmail('offline'));
    await expect(page.getByText('Unable to load donation status. You can still proceed with your donation.')).toBeVisible();
  });

  test('Stripe refusing the setup: "Payment Setup Failed", and the gift does not count', async ({ page, allowConsole }) => {
    allowConsole(failedLoad(502));
    const email = uniqueEmail('setup');
    await fetch(`${process.env.FAKE_STRIPE_URL}/__fake/fail-next`, {
      method: 'POST',
      // An amount no other test gives, so a test running beside this one is not refused.
      body: JSON.stringify({ status: 500, message: 'boom', amount: 13723 }),
    });
    await page.goto('/donate');
    await page.getByLabel('Other amount').fill('137.23');
    await fillDonor(page, { email });
    await confirmAll(page);
    await proceed(page).click();
    await expect(toast(page)).toContainText('Payment Setup Failed');
    await expect(toast(page)).toContainText('Failed to set up payment. Please try again.');
    await expect(proceed(page)).toBeEnabled();
    expect(donation(email).map((d) => d.status)).toEqual(['failed']);
  });

  test('a declined card: "Payment Failed" with the card message, and another card can still pay', async ({ page, allowConsole }) => {
    allowConsole(failedLoad(402));
    const email = uniqueEmail('declined');
    await page.goto('/donate');
    await page.getByText('$50', { exact: true }).click();
    await fillDonor(page, { email });
    await confirmAll(page);
    await proceed(page).click();
    await pay(page, '4000 0000 0000 0002');
    await expect(toast(page)).toContainText('Payment Failed');
    await expect(toast(page)).toContainText('Your card was declined.');
    await expect.poll(() => donation(email)[0]?.status).toBe('failed');
    await pay(page, '4242 4242 4242 4242');
    await page.waitForURL(/success=true/);
    await expect.poll(() => donation(email)[0]?.status).toBe('completed');
  });

  test('the payment form shows a loading note when Stripe is slow', async ({ page }) => {
    await page.addInitScript(() => ((window as unknown as { __fakeStripeReadyDelay: number }).__fakeStripeReadyDelay = 1500));
    await page.goto('/donate');
    await page.getByText('$25', { exact: true }).click();
    await fillDonor(page, { email: uniqueEmail('slow') });
    await confirmAll(page);
    await proceed(page).click();
    const note = page.getByRole('status').filter({ hasText: 'Loading the secure payment form...' });
    await expect(note).toBeVisible();
    await expect(page.getByRole('button', { name: 'Donate $25.00' })).toBeDisabled();
    await expect(note).toBeHidden();
    await expect(page.getByRole('button', { name: 'Donate $25.00' })).toBeEnabled();
  });

  test('can be given with the keyboard alone', async ({ page }) => {
    const email = uniqueEmail('keys');
    await page.goto('/donate');
    await page.getByText('$25', { exact: true }).focus();
    await page.getByRole('radio', { name: '$25', exact: true }).focus();
    await page.keyboard.press('ArrowRight'); // $50
    await expect(page.getByRole('radio', { name: '$50', exact: true })).toBeChecked();
    const typeInto = async (label: string, text: string) => {
      for (
        let i = 0;
        i < 20 &&
        !(await form(page)
          .getByLabel(label)
          .evaluate((e) => e === document.activeElement));
        i++
      ) {
        await page.keyboard.press('Tab');
      }
      await expect(form(page).getByLabel(label)).toBeFocused();
      await page.keyboard.type(text);
    };
    await typeInto('First name', 'Ada');
    await typeInto('Last name', 'Byron');
    await typeInto('Email', email);
    await typeInto('Street address', '1 Main St');
    await typeInto('City', 'Denver');
    await page.keyboard.press('Tab');
    await expect(form(page).getByLabel(/^State/)).toBeFocused();
    await page.keyboard.type('Colorado');
    await typeInto('ZIP code', '80202');
    for (const label of ['I am a U.S. citizen or lawfully admitted permanent resident', 'I confirm that each of the following statements is true.']) {
      for (
        let i = 0;
        i < 10 &&
        !(await form(page)
          .getByLabel(label)
          .evaluate((e) => e === document.activeElement));
        i++
      ) {
        await page.keyboard.press('Tab');
      }
      await page.keyboard.press('Space');
    }
    await page.keyboard.press('Tab');
    await expect(proceed(page)).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Review your gift' })).toBeFocused();
    for (let i = 0; i < 5 && !(await page.getByLabel('Card number').evaluate((e) => e === document.activeElement)); i++) {
      await page.keyboard.press('Tab');
    }
    await page.keyboard.type('4242424242424242');
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Donate $50.00' })).toBeFocused();
    await page.keyboard.press('Enter');
    await page.waitForURL(/success=true/);
    await expect.poll(() => donation(email)[0]?.status).toBe('completed');
  });

  for (const width of [1440, 390]) {
    test(`every stage passes axe at ${width} px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/donate');
      await expectAccessible(page);
      await page.getByText('$250', { exact: true }).click();
      await proceed(page).click();
      await expect(toast(page)).toContainText('Missing Information');
      await expectAccessible(page);
      await fillDonor(page, { email: uniqueEmail(`axe${width}`), occupation: 'Teacher', employer: 'Denver Schools', purpose: 'Primary election' });
      await confirmAll(page);
      await proceed(page).click();
      await expect(page.getByLabel('Card number')).toBeVisible();
      await expectAccessible(page);
      await pay(page);
      await page.waitForURL(/success=true/);
      await expect(page.getByRole('main').getByRole('status').filter({ hasText: 'Thank you for your donation!' })).toBeVisible();
      await expectAccessible(page);
    });
  }

  test('Stripe.js loads on /donate only, and only when the donor reaches the card', async ({ page }) => {
    const stripeRequests: string[] = [];
    page.on('request', (r) => r.url().includes('stripe.com') && stripeRequests.push(r.url()));
    for (const path of ['/', '/contact', '/take-action', '/donate']) await page.goto(path);
    expect(stripeRequests).toEqual([]);
    await page.getByText('$25', { exact: true }).click();
    await fillDonor(page, { email: uniqueEmail('lazy') });
    await confirmAll(page);
    await proceed(page).click();
    await expect(page.getByLabel('Card number')).toBeVisible();
    expect(stripeRequests.some((u) => u.startsWith('https://js.stripe.com/'))).toBe(true);
  });
});

test('without Stripe keys the page says payments are not available', async ({ page }) => {
  const server = await startServer();
  try {
    await page.goto(`${server.baseURL}/donate`);
    await expect(page.getByText('Payment system is not available. Please check back later.')).toBeVisible();
    await expect(proceed(page)).toBeDisabled();
    await expectAccessible(page);
  } finally {
    await server.stop();
  }
});
