import { type Page } from '@playwright/test';
import { expect, failedLoad, query, sql, test, toastRegion, uniqueEmail } from './fixtures';

async function fill(page: Page, email: string, phone: string, zip: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Phone').fill(phone);
  await page.getByLabel('ZIP code').fill(zip);
}

test.describe('newsletter signup on the home page', () => {
  test('stores the signup, shows the pending state, thanks the visitor and clears the form', async ({ page }) => {
    await page.goto('/');
    const email = uniqueEmail('join');
    await fill(page, email, '(555) 201-3344', '43215');
    // Hold the request briefly so the pending state can be seen; the real server answers it.
    await page.route('**/api/newsletter-signup', async (route) => {
      await new Promise((r) => setTimeout(r, 600));
      await route.continue();
    });
    const sent = page.waitForRequest('**/api/newsletter-signup');
    await page.getByRole('button', { name: 'Join the Movement' }).click();
    // The payload is exactly the spec's: no empty honeypot or other extra keys.
    expect((await sent).postDataJSON()).toEqual({ email, phone: '(555) 201-3344', zipCode: '43215' });
    const pending = page.getByRole('button', { name: 'Joining...' });
    await expect(pending).toBeVisible();
    await expect(pending).toBeDisabled();

    const toast = toastRegion(page).getByRole('listitem');
    await expect(toast).toHaveCount(1);
    await expect(toast).toContainText('Thank you for joining!');
    await expect(toast).toContainText("You'll receive updates about activities and news.");
    await expect(page.getByLabel('Email')).toHaveValue('');
    await expect(page.getByLabel('ZIP code')).toHaveValue('');
    await expect(page.getByRole('button', { name: 'Join the Movement' })).toBeEnabled();

    const rows = query(`SELECT email, phone, zip_code FROM newsletter_signups WHERE email = ${sql(email)}`);
    expect(rows).toEqual([{ email, phone: '(555) 201-3344', zip_code: '43215' }]);
  });

  test("keeps the fields and shows the server's reason when the signup is refused", async ({ page, allowConsole }) => {
    allowConsole(failedLoad(400));
    await page.goto('/');
    // The browser accepts this address; the server does not (no public domain).
    await fill(page, 'someone@localhost', '', '43215');
    await page.getByRole('button', { name: 'Join the Movement' }).click();
    const toast = toastRegion(page).getByRole('listitem');
    await expect(toast).toContainText('Signup Failed');
    await expect(toast).toContainText('Please enter a valid email address.');
    await expect(page.getByLabel('Email')).toHaveValue('someone@localhost');
    await expect(page.getByLabel('ZIP code')).toHaveValue('43215');
    expect(query(`SELECT id FROM newsletter_signups WHERE email = 'someone@localhost'`)).toEqual([]);
  });

  test('shows the fallback message when the server cannot be reached', async ({ page, allowConsole }) => {
    allowConsole(/net::ERR_INTERNET_DISCONNECTED/);
    await page.goto('/');
    await fill(page, uniqueEmail('offline'), '', '43215');
    await page.route('**/api/newsletter-signup', (route) => route.abort('internetdisconnected'));
    await page.getByRole('button', { name: 'Join the Movement' }).click();
    const toast = toastRegion(page).getByRole('listitem');
    await expect(toast).toContainText('Signup Failed');
    await expect(toast).toContainText('There was an error processing your signup. Please try again.');
  });

  test('the browser checks required fields and the ZIP format before sending', async ({ page }) => {
    await page.goto('/');
    let posted = false;
    page.on('request', (r) => {
      if (r.url().endsWith('/api/newsletter-signup')) posted = true;
    });
    await fill(page, uniqueEmail('zip'), '', '4321');
    await page.getByRole('button', { name: 'Join the Movement' }).click();
    expect(await page.getByLabel('ZIP code').evaluate((el: HTMLInputElement) => el.validity.patternMismatch)).toBe(true);
    await page.getByLabel('ZIP code').fill('');
    await page.getByRole('button', { name: 'Join the Movement' }).click();
    expect(await page.getByLabel('ZIP code').evaluate((el: HTMLInputElement) => el.validity.valueMissing)).toBe(true);
    expect(posted).toBe(false);
  });

  test('can be completed with the keyboard alone', async ({ page }) => {
    await page.goto('/');
    const email = uniqueEmail('keys');
    await page.getByLabel('Email').focus();
    await page.keyboard.type(email);
    await page.keyboard.press('Tab');
    await expect(page.getByLabel('Phone')).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByLabel('ZIP code')).toBeFocused();
    await page.keyboard.type('10001');
    // Then the box for texts, left unticked, and the privacy policy's link in its disclosure.
    await page.keyboard.press('Tab');
    await expect(page.getByRole('checkbox', { name: /Text me updates/ })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.locator('#signup').getByRole('link', { name: 'privacy policy' })).toBeFocused();
    // The honeypot is skipped: the next stop is the button.
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Join the Movement' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(toastRegion(page).getByRole('listitem')).toContainText('Thank you for joining!');
    expect(query(`SELECT zip_code FROM newsletter_signups WHERE email = ${sql(email)}`)).toEqual([{ zip_code: '10001' }]);
  });

  test('a bot filling the hidden field is thanked but not stored', async ({ page }) => {
    await page.goto('/');
    const email = uniqueEmail('bot');
    await fill(page, email, '', '43215');
    await page.locator('input[name="website"]').fill('http://spam.example', { force: true });
    await page.getByRole('button', { name: 'Join the Movement' }).click();
    await expect(toastRegion(page).getByRole('listitem')).toContainText('Thank you for joining!');
    expect(query(`SELECT id FROM newsletter_signups WHERE email = ${sql(email)}`)).toEqual([]);
  });
});

test.describe('consent to texts', () => {
  test('is its own unticked box beside the full disclosure, and ticking it is recorded', async ({ page, request }) => {
    await page.goto('/');
    const box = page.getByRole('checkbox', { name: 'Text me updates from the American Conscience Party (optional)' });
    await expect(box).not.toBeChecked();
    // Who sends, how often, the rates, STOP and HELP, and the privacy policy, read with the box.
    await expect(box).toHaveAccessibleDescription(/from the American Conscience Party .* up to 8 messages a month\./);
    await expect(box).toHaveAccessibleDescription(/Msg & data rates may apply\. Reply STOP to end, HELP for help\./);
    const privacy = page.locator('#signup').getByRole('link', { name: 'privacy policy' });
    expect((await request.get((await privacy.getAttribute('href'))!)).status()).toBe(200);

    const email = uniqueEmail('texts');
    await fill(page, email, '(555) 201-7788', '43215');
    await box.check();
    const sent = page.waitForRequest('**/api/newsletter-signup');
    await page.getByRole('button', { name: 'Join the Movement' }).click();
    expect((await sent).postDataJSON()).toEqual({ email, phone: '(555) 201-7788', zipCode: '43215', smsConsent: true });
    await expect(toastRegion(page).getByRole('listitem')).toContainText('Thank you for joining!');
    await expect(box).not.toBeChecked(); // the form is cleared for the next visitor

    const [record] = query<{ action: string; source: string; ip: string; user_agent: string; label: string; disclosure: string }>(
      `SELECT c.action, c.source, c.ip, c.user_agent, d.label, d.disclosure FROM sms_consents c
       JOIN sms_disclosures d ON d.version = c.disclosure_version WHERE c.phone = '+15552017788' ORDER BY c.id DESC LIMIT 1`,
    );
    expect(record).toMatchObject({ action: 'granted', source: 'newsletter', ip: '127.0.0.1', label: 'Text me updates from the American Conscience Party' });
    expect(record.user_agent).toContain('Chrome');
    expect(record.disclosure).toContain('Reply STOP to end, HELP for help.');
  });

  test('a ticked box without a number is refused, and the form keeps what was entered', async ({ page, allowConsole }) => {
    allowConsole(failedLoad(400));
    await page.goto('/');
    const email = uniqueEmail('texts-nophone');
    await fill(page, email, '', '43215');
    const box = page.getByRole('checkbox', { name: /Text me updates/ });
    await box.check();
    await page.getByRole('button', { name: 'Join the Movement' }).click();
    const toast = toastRegion(page).getByRole('listitem');
    await expect(toast).toContainText('Signup Failed');
    await expect(toast).toContainText('Please enter your phone number to get text updates.');
    await expect(box).toBeChecked();
    await expect(page.getByLabel('Email')).toHaveValue(email);
    expect(query(`SELECT id FROM newsletter_signups WHERE email = ${sql(email)}`)).toEqual([]);
  });
});

test.describe('toasts', () => {
  // These tests provoke a refused signup to get a toast on screen.
  test.beforeEach(({ allowConsole }) => allowConsole(failedLoad(400)));

  async function showToast(page: Page, email = 'someone@localhost') {
    await fill(page, email, '', '43215');
    await page.getByRole('button', { name: 'Join the Movement' }).click();
    await expect(toastRegion(page).getByRole('listitem')).toHaveCount(1);
  }

  test('only one is visible at a time', async ({ page }) => {
    await page.goto('/');
    await showToast(page);
    await expect(toastRegion(page).getByRole('listitem')).toContainText('Signup Failed');
    await showToast(page, uniqueEmail('second'));
    const toasts = toastRegion(page).getByRole('listitem');
    await expect(toasts).toHaveCount(1);
    await expect(toasts).toContainText('Thank you for joining!');
  });

  test('F8 moves focus to the notifications', async ({ page }) => {
    await page.goto('/');
    await showToast(page);
    await page.getByLabel('Email').focus();
    await page.keyboard.press('F8');
    await expect(toastRegion(page).getByRole('list')).toBeFocused();
  });

  test('swiping right dismisses a toast', async ({ page }) => {
    await page.goto('/');
    await showToast(page);
    const toast = toastRegion(page).getByRole('listitem');
    const box = (await toast.boundingBox())!;
    await page.mouse.move(box.x + 20, box.y + box.height / 2);
    await page.mouse.down();
    for (let dx = 10; dx <= 120; dx += 10) await page.mouse.move(box.x + 20 + dx, box.y + box.height / 2);
    await page.mouse.up();
    await expect(toast).toHaveCount(0);
  });

  test('a toast leaves by itself after five seconds', async ({ page }) => {
    // The page's clock, moved by the test: five seconds pass without waiting for them.
    // Installed, the clock still runs on its own: it is stopped as soon as the toast shows,
    // so the time the test takes to see the toast (long on a loaded machine) is bounded.
    await page.clock.install();
    await page.goto('/');
    await showToast(page);
    // (Half a second ahead: pausing cannot move the clock back, and it keeps running meanwhile.)
    await page.clock.pauseAt(await page.evaluate(() => Date.now() + 500));
    await page.mouse.move(0, 0);
    await page.clock.runFor(2500);
    await expect(toastRegion(page).getByRole('listitem')).toHaveCount(1);
    await page.clock.runFor(3000);
    await expect(toastRegion(page).getByRole('listitem')).toHaveCount(0);
  });
});
