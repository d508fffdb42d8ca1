import { type Page } from '@playwright/test';
import { expect, failedLoad, query, sql, test, toastRegion, uniqueEmail } from './fixtures';

/** Holds a form post briefly so its pending state can be seen; the real server answers. */
async function slowDown(page: Page, path: string) {
  await page.route(`**${path}`, async (route) => {
    await new Promise((r) => setTimeout(r, 600));
    await route.continue();
  });
}

test.describe('contact form', () => {
  test('sends a message: pending label, stored row, thank-you toast, cleared fields', async ({ page }) => {
    await page.goto('/contact');
    const email = uniqueEmail('contact');
    await page.locator('main form').getByLabel('Name').fill('Ruth Alvarez');
    await page.locator('main form').getByLabel('Email').fill(email);
    await page.locator('main form').getByLabel('Subject').fill('Hosting a town hall');
    await page.locator('main form').getByLabel('Message').fill('Our church hall is free on Tuesdays.\nWould you send a speaker?');
    await slowDown(page, '/api/contact');
    const sent = page.waitForRequest('**/api/contact');
    await page.getByRole('button', { name: 'Send Message' }).click();
    await expect(page.getByRole('button', { name: 'Sending...' })).toBeDisabled();
    expect((await sent).postDataJSON()).toEqual({
      name: 'Ruth Alvarez',
      email,
      subject: 'Hosting a town hall',
      message: 'Our church hall is free on Tuesdays.\nWould you send a speaker?',
    });
    const toast = toastRegion(page).getByRole('listitem');
    await expect(toast).toContainText('Message sent!');
    await expect(toast).toContainText("Thank you for reaching out. We'll get back to you soon.");
    for (const label of ['Name', 'Email', 'Subject', 'Message']) await expect(page.locator('main form').getByLabel(label)).toHaveValue('');
    expect(query(`SELECT name, subject, message FROM contact_messages WHERE email = ${sql(email)}`)).toEqual([
      { name: 'Ruth Alvarez', subject: 'Hosting a town hall', message: 'Our church hall is free on Tuesdays.\nWould you send a speaker?' },
    ]);
  });

  test("keeps the fields and shows the server's reason on failure", async ({ page, allowConsole }) => {
    allowConsole(failedLoad(400));
    await page.goto('/contact');
    await page.locator('main form').getByLabel('Name').fill('Ruth');
    await page.locator('main form').getByLabel('Email').fill('ruth@localhost');
    await page.locator('main form').getByLabel('Subject').fill('Hello');
    await page.locator('main form').getByLabel('Message').fill('Hi there');
    await page.getByRole('button', { name: 'Send Message' }).click();
    const toast = toastRegion(page).getByRole('listitem');
    await expect(toast).toContainText('Failed to send message');
    await expect(toast).toContainText('Please enter a valid email address.');
    await expect(page.locator('main form').getByLabel('Message')).toHaveValue('Hi there');
    expect(query(`SELECT id FROM contact_messages WHERE email = 'ruth@localhost'`)).toEqual([]);
  });

  test('shows the fallback message when the server cannot be reached', async ({ page, allowConsole }) => {
    allowConsole(/net::ERR_INTERNET_DISCONNECTED/);
    await page.goto('/contact');
    await page.locator('main form').getByLabel('Name').fill('Ruth');
    await page.locator('main form').getByLabel('Email').fill(uniqueEmail('down'));
    await page.locator('main form').getByLabel('Subject').fill('Hello');
    await page.locator('main form').getByLabel('Message').fill('Hi');
    await page.route('**/api/contact', (route) => route.abort('internetdisconnected'));
    await page.getByRole('button', { name: 'Send Message' }).click();
    await expect(toastRegion(page).getByRole('listitem')).toContainText('There was an error sending your message. Please try again.');
  });

  test('can be completed with the keyboard alone', async ({ page }) => {
    await page.goto('/contact');
    const email = uniqueEmail('contact-keys');
    await page.locator('main form').getByLabel('Name').focus();
    await page.keyboard.type('Kay Board');
    await page.keyboard.press('Tab');
    await page.keyboard.type(email);
    await page.keyboard.press('Tab');
    await page.keyboard.type('Keyboard only');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Typed without a mouse.');
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Send Message' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(toastRegion(page).getByRole('listitem')).toContainText('Message sent!');
    expect(query(`SELECT subject FROM contact_messages WHERE email = ${sql(email)}`)).toEqual([{ subject: 'Keyboard only' }]);
  });
});

test.describe('volunteer form', () => {
  test('signs up a volunteer: pending label, stored row, toast, cleared fields', async ({ page }) => {
    await page.goto('/take-action');
    const email = uniqueEmail('volunteer');
    await page.locator('main form').getByLabel('Name').fill('Sam Okoro');
    await page.locator('main form').getByLabel('Email').fill(email);
    await page.locator('main form').getByLabel('Phone').fill('555-404-1212');
    await page.locator('main form').getByLabel('ZIP code').fill('97201-1234');
    await page.locator('main form').getByLabel('Areas of interest').fill('Phone banking, petitions');
    await slowDown(page, '/api/volunteer');
    const sent = page.waitForRequest('**/api/volunteer');
    await page.getByRole('button', { name: 'Sign Up to Volunteer' }).click();
    await expect(page.getByRole('button', { name: 'Signing Up...' })).toBeDisabled();
    expect((await sent).postDataJSON()).toEqual({
      name: 'Sam Okoro',
      email,
      phone: '555-404-1212',
      zipCode: '97201-1234',
      interests: 'Phone banking, petitions',
    });
    const toast = toastRegion(page).getByRole('listitem');
    await expect(toast).toContainText('Thank you for volunteering!');
    await expect(toast).toContainText("We'll be in touch with volunteer opportunities in your area.");
    await expect(page.locator('main form').getByLabel('Name')).toHaveValue('');
    await expect(page.locator('main form').getByLabel('Areas of interest')).toHaveValue('');
    expect(query(`SELECT name, phone, zip_code, interests FROM volunteer_signups WHERE email = ${sql(email)}`)).toEqual([
      { name: 'Sam Okoro', phone: '555-404-1212', zip_code: '97201-1234', interests: 'Phone banking, petitions' },
    ]);
  });

  test('the ZIP code field takes at most 10 characters', async ({ page }) => {
    await page.goto('/take-action');
    await expect(page.locator('main form').getByLabel('ZIP code')).toHaveAttribute('maxlength', '10');
    await page.locator('main form').getByLabel('ZIP code').pressSequentially('12345-678901');
    await expect(page.locator('main form').getByLabel('ZIP code')).toHaveValue('12345-6789');
  });

  test("keeps the fields and shows the server's reason on failure", async ({ page, allowConsole }) => {
    allowConsole(failedLoad(400));
    await page.goto('/take-action');
    await page.locator('main form').getByLabel('Name').fill('Sam');
    await page.locator('main form').getByLabel('Email').fill('sam@localhost');
    await page.locator('main form').getByLabel('ZIP code').fill('97201');
    await page.getByRole('button', { name: 'Sign Up to Volunteer' }).click();
    const toast = toastRegion(page).getByRole('listitem');
    await expect(toast).toContainText('Signup Failed');
    await expect(toast).toContainText('Please enter a valid email address.');
    await expect(page.locator('main form').getByLabel('Name')).toHaveValue('Sam');
    expect(query(`SELECT id FROM volunteer_signups WHERE email = 'sam@localhost'`)).toEqual([]);
  });

  test('shows the fallback message when the server cannot be reached', async ({ page, allowConsole }) => {
    allowConsole(/net::ERR_INTERNET_DISCONNECTED/);
    await page.goto('/take-action');
    await page.locator('main form').getByLabel('Name').fill('Sam');
    await page.locator('main form').getByLabel('Email').fill(uniqueEmail('down'));
    await page.locator('main form').getByLabel('ZIP code').fill('97201');
    await page.route('**/api/volunteer', (route) => route.abort('internetdisconnected'));
    await page.getByRole('button', { name: 'Sign Up to Volunteer' }).click();
    await expect(toastRegion(page).getByRole('listitem')).toContainText('There was an error processing your volunteer signup. Please try again.');
  });

  test('can be completed with the keyboard alone', async ({ page }) => {
    await page.goto('/take-action');
    const email = uniqueEmail('volunteer-keys');
    await page.locator('main form').getByLabel('Name').focus();
    await page.keyboard.type('Kim Keys');
    await page.keyboard.press('Tab');
    await page.keyboard.type(email);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect(page.locator('main form').getByLabel('ZIP code')).toBeFocused();
    await page.keyboard.type('30301');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Events');
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Sign Up to Volunteer' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(toastRegion(page).getByRole('listitem')).toContainText('Thank you for volunteering!');
    expect(query(`SELECT zip_code, interests FROM volunteer_signups WHERE email = ${sql(email)}`)).toEqual([{ zip_code: '30301', interests: 'Events' }]);
  });

  test('a bot filling the hidden field is thanked but not stored', async ({ page }) => {
    await page.goto('/take-action');
    const email = uniqueEmail('volunteer-bot');
    await page.locator('main form').getByLabel('Name').fill('Bot');
    await page.locator('main form').getByLabel('Email').fill(email);
    await page.locator('main form').getByLabel('ZIP code').fill('30301');
    await page.locator('input[name="website"]').fill('http://spam.example', { force: true });
    await page.getByRole('button', { name: 'Sign Up to Volunteer' }).click();
    await expect(toastRegion(page).getByRole('listitem')).toContainText('Thank you for volunteering!');
    expect(query(`SELECT id FROM volunteer_signups WHERE email = ${sql(email)}`)).toEqual([]);
  });
});
