// The three public forms with JavaScript off: they post as plain HTML, the server stores
// them (or refuses them with the same rules) and the browser lands on a page in the site's
// layout that says what happened, with the visitor's input kept after a refusal.
import { type Browser, type Page } from '@playwright/test';
import { expect, failedLoad, query, sql, test, uniqueEmail } from './fixtures';

async function noScriptPage(browser: Browser, baseURL: string | undefined): Promise<Page> {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
  return context.newPage();
}

test.describe('forms without JavaScript', () => {
  test('the newsletter signup is stored and thanks the visitor', async ({ browser, baseURL }) => {
    const page = await noScriptPage(browser, baseURL);
    await page.goto('/join');
    const email = uniqueEmail('nojs-join');
    const form = page.locator('#newsletter-signup form');
    await form.getByLabel('Email').fill(email);
    await form.getByLabel('ZIP code').fill('43215');
    await form.getByRole('button', { name: 'Join the Movement' }).click();
    await expect(page).toHaveURL(/\/forms\/newsletter\/thank-you$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Thank you for joining!');
    await expect(page.getByText("You'll receive updates about activities and news.")).toBeVisible();
    await expect(page.getByRole('contentinfo')).toBeVisible(); // the site's own layout
    expect(query(`SELECT email, phone, zip_code FROM newsletter_signups WHERE email = ${sql(email)}`)).toEqual([{ email, phone: null, zip_code: '43215' }]);
    await page.context().close();
  });

  test('a refused newsletter signup keeps the input, says why and can be fixed in place', async ({ browser, baseURL }) => {
    const page = await noScriptPage(browser, baseURL);
    await page.goto('/');
    const email = uniqueEmail('nojs-badzip');
    const form = page.locator('#signup form');
    await form.getByLabel('Email').fill(email);
    await form.getByLabel('Phone').fill('(555) 201-3344');
    // The browser's own pattern check would stop "1234"; a script-less visitor on an old
    // browser, or one who skips it, still meets the server's rule.
    await form.getByLabel('ZIP code').evaluate((input: HTMLInputElement) => input.removeAttribute('pattern'));
    await form.getByLabel('ZIP code').fill('1234');
    await form.getByRole('button', { name: 'Join the Movement' }).click();

    await expect(page).toHaveURL(/\/forms\/newsletter\/problem\/[0-9a-f]{32}$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Signup Failed');
    await expect(page.getByRole('alert')).toContainText('Please enter a valid ZIP code (5 digits, or ZIP+4).');
    await expect(page.getByLabel('Email')).toHaveValue(email);
    await expect(page.getByLabel('Phone')).toHaveValue('(555) 201-3344');
    await expect(page.getByLabel('ZIP code')).toHaveValue('1234');
    await expect(page.getByLabel('ZIP code')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByRole('link', { name: 'Back to the page you were on' })).toHaveAttribute('href', '/');
    expect(query(`SELECT id FROM newsletter_signups WHERE email = ${sql(email)}`)).toEqual([]);

    // Fixed right there, it goes through.
    await page.getByLabel('ZIP code').fill('43215');
    await page.getByRole('button', { name: 'Join the Movement' }).click();
    await expect(page).toHaveURL(/\/forms\/newsletter\/thank-you$/);
    expect(query(`SELECT zip_code FROM newsletter_signups WHERE email = ${sql(email)}`)).toEqual([{ zip_code: '43215' }]);
    await page.context().close();
  });

  test('the box for texts works without JavaScript, and a refusal keeps it ticked', async ({ browser, baseURL }) => {
    const page = await noScriptPage(browser, baseURL);
    await page.goto('/join');
    const email = uniqueEmail('nojs-texts');
    const form = page.locator('#newsletter-signup form');
    await form.getByLabel('Email').fill(email);
    await form.getByLabel('ZIP code').fill('43215');
    await form.getByRole('checkbox', { name: /Text me updates/ }).check();
    await form.getByRole('button', { name: 'Join the Movement' }).click();

    await expect(page).toHaveURL(/\/forms\/newsletter\/problem\/[0-9a-f]{32}$/);
    await expect(page.getByRole('alert')).toContainText('Please enter your phone number to get text updates.');
    await expect(page.getByLabel('Phone')).toHaveAttribute('aria-invalid', 'true');
    const box = page.getByRole('checkbox', { name: /Text me updates/ });
    await expect(box).toBeChecked();
    await expect(box).toHaveAccessibleDescription(/Reply STOP to end, HELP for help\./);

    await page.getByLabel('Phone').fill('555.201.9911');
    await page.getByRole('button', { name: 'Join the Movement' }).click();
    await expect(page).toHaveURL(/\/forms\/newsletter\/thank-you$/);
    expect(query(`SELECT action, source FROM sms_consents WHERE phone = '+15552019911'`)).toEqual([{ action: 'granted', source: 'newsletter' }]);
    await page.context().close();
  });

  test('a contact message is stored, and a refused one keeps every word', async ({ browser, baseURL }) => {
    const page = await noScriptPage(browser, baseURL);
    await page.goto('/contact');
    const email = uniqueEmail('nojs-contact');
    const form = page.locator('main form');
    await form.getByLabel('Name').fill('Ruth Alvarez');
    await form.getByLabel('Email').fill(email);
    await form.getByLabel('Subject').fill('Town hall');
    await form.getByLabel('Message').fill('Tuesday evenings work.\nCan you send a speaker?');
    await form.getByRole('button', { name: 'Send Message' }).click();
    await expect(page).toHaveURL(/\/forms\/contact\/thank-you$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Message sent!');
    await expect(page.getByText("Thank you for reaching out. We'll get back to you soon.")).toBeVisible();
    expect(query(`SELECT name, subject, message FROM contact_messages WHERE email = ${sql(email)}`)).toEqual([
      { name: 'Ruth Alvarez', subject: 'Town hall', message: 'Tuesday evenings work.\r\nCan you send a speaker?' },
    ]);

    // The browser accepts this address; the server does not (no public domain).
    await page.goto('/contact');
    await form.getByLabel('Name').fill('Ruth Alvarez');
    await form.getByLabel('Email').fill('ruth@localhost');
    await form.getByLabel('Subject').fill('Town hall');
    await form.getByLabel('Message').fill('Every word of this stays.');
    await form.getByRole('button', { name: 'Send Message' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Failed to send message');
    await expect(page.getByRole('alert')).toContainText('Please enter a valid email address.');
    await expect(page.locator('main form').getByLabel('Message')).toHaveValue('Every word of this stays.');
    await expect(page.getByRole('link', { name: 'Back to the page you were on' })).toHaveAttribute('href', '/contact');
    expect(query(`SELECT id FROM contact_messages WHERE email = 'ruth@localhost'`)).toEqual([]);
    await page.context().close();
  });

  test('a volunteer signup is stored, and a bad ZIP is refused with the input kept', async ({ browser, baseURL }) => {
    const page = await noScriptPage(browser, baseURL);
    await page.goto('/take-action');
    const email = uniqueEmail('nojs-volunteer');
    const form = page.locator('main form');
    await form.getByLabel('Name').fill('Sam Lee');
    await form.getByLabel('Email').fill(email);
    await form.getByLabel('ZIP code').fill('98101');
    await form.getByLabel('Areas of interest').fill('Phone banking');
    await form.getByRole('button', { name: 'Sign Up to Volunteer' }).click();
    await expect(page).toHaveURL(/\/forms\/volunteer\/thank-you$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Thank you for volunteering!');
    expect(query(`SELECT name, zip_code, interests FROM volunteer_signups WHERE email = ${sql(email)}`)).toEqual([
      { name: 'Sam Lee', zip_code: '98101', interests: 'Phone banking' },
    ]);

    await page.goto('/take-action');
    const other = uniqueEmail('nojs-volunteer-bad');
    await form.getByLabel('Name').fill('Sam Lee');
    await form.getByLabel('Email').fill(other);
    await form.getByLabel('ZIP code').evaluate((input: HTMLInputElement) => input.removeAttribute('pattern'));
    await form.getByLabel('ZIP code').fill('ABCDE');
    await form.getByRole('button', { name: 'Sign Up to Volunteer' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Signup Failed');
    await expect(page.getByRole('alert')).toContainText('Please enter a valid ZIP code (5 digits, or ZIP+4).');
    await expect(page.getByLabel('Name')).toHaveValue('Sam Lee');
    await expect(page.getByLabel('ZIP code')).toHaveValue('ABCDE');
    expect(query(`SELECT id FROM volunteer_signups WHERE email = ${sql(other)}`)).toEqual([]);
    await page.context().close();
  });

  test('with JavaScript on, a click before the island hydrates still lands on a page, not on JSON', async ({ page, baseURL }) => {
    // A page of our own, without the fixture's wait for hydration; the form's code is held
    // back so the click certainly comes first.
    const early = await page.context().newPage();
    await early.route('**/assets/NewsletterForm-*.js', () => {});
    await early.goto(`${baseURL}/`, { waitUntil: 'domcontentloaded' });
    const email = uniqueEmail('early-click');
    const form = early.locator('#signup form');
    await form.getByLabel('Email').fill(email);
    await form.getByLabel('ZIP code').fill('43215');
    await expect(early.locator('[data-island="NewsletterForm"]')).not.toHaveAttribute('data-hydrated');
    await form.getByRole('button', { name: 'Join the Movement' }).click();
    await expect(early).toHaveURL(/\/forms\/newsletter\/thank-you$/);
    await expect(early.getByRole('heading', { level: 1 })).toHaveText('Thank you for joining!');
    expect(query(`SELECT zip_code FROM newsletter_signups WHERE email = ${sql(email)}`)).toEqual([{ zip_code: '43215' }]);
    await early.close();
  });

  test("another site's page cannot post a form in the visitor's name", async ({ page, baseURL, allowConsole }) => {
    allowConsole(failedLoad(403));
    const email = uniqueEmail('csrf');
    // A page on another origin that posts to our contact form, as an attacker's would.
    await page.route('http://attacker.test/**', (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<form method="post" action="${baseURL}/api/contact">
          <input name="name" value="Mallory"><input name="email" value="${email}">
          <input name="subject" value="Hi"><input name="message" value="Spam">
          <button>Send</button></form>`,
      }),
    );
    await page.goto('http://attacker.test/');
    const answer = page.waitForResponse(`${baseURL}/api/contact`);
    await page.getByRole('button', { name: 'Send' }).click();
    const response = await answer;
    expect(response.status()).toBe(403);
    expect(await response.json()).toEqual({ message: "Forms can only be sent from this website's own pages." });
    expect(query(`SELECT id FROM contact_messages WHERE email = ${sql(email)}`)).toEqual([]);
  });
});
