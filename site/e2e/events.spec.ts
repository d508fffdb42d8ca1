// The public side of events in a browser, against this worker's own server: /events lists
// an event, its page shows the seats left (from the never-cached endpoint) and an RSVP
// form that posts as plain HTML, with JavaScript on and off, landing on "Check your e-mail
// to confirm"; the link mailed to the address (read from the server's mail queue) opens a
// page with one button, which takes the seat ("You're going") or, once the seats are gone,
// a place on the waitlist; Take Action shows the next events; axe passes on every page;
// the private video link is nowhere a visitor can see.
import { type Browser, type Page } from '@playwright/test';
import { type Db, expect, test } from './admin-fixtures';
import { expectAccessible } from './fixtures';
import { ownerToken, unQuote } from './staff';

const SECRET = 'https://meet.example/private-room-42';

async function publish(baseURL: string, title: string, fields: Record<string, unknown>): Promise<{ id: number; slug: string }> {
  const token = await ownerToken(baseURL);
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${baseURL}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    expect(response.ok, `${method} ${path}: ${response.status}`).toBe(true);
    return (await response.json()) as { event: { id: number; slug: string } };
  };
  const { event } = await call('POST', '/api/admin/events', {
    title,
    description: '<p>Clipboards, pens and water are on us. <strong>Wear comfortable shoes.</strong></p>',
    kind: 'petitioning_shift',
    start: '2031-05-10T10:00',
    end: '2031-05-10T13:00',
    timeZone: 'America/Chicago',
    venue: 'Farmers market, 100 Main St, Springfield, IL',
    online: true,
    videoLink: SECRET,
    capacity: 3,
    rsvpDeadline: null,
    waitlist: true,
    ...fields,
  });
  await call('POST', `/api/admin/events/${event.id}/publish`);
  return event;
}

async function fill(page: Page, name: string, email: string, guests: string) {
  const form = page.locator('form[action="/api/events/rsvp"]');
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('ZIP code').fill('62701');
  await form.getByLabel('Guests').selectOption(guests);
  await form.getByRole('button', { name: 'RSVP' }).click();
}

/** The confirmation link last mailed to `email` for an RSVP, as its reader finds it. */
async function mailedLink(db: Db, email: string): Promise<string> {
  for (let i = 0; i < 50; i += 1) {
    const [row] = db.query<{ m: string }>(
      `SELECT CAST(message AS TEXT) AS m FROM mail_queue WHERE event_key LIKE 'event-rsvp-ask:%' AND about = '${email}' ORDER BY id DESC LIMIT 1`,
    );
    const link = row && /\/events\/rsvp\/confirm\/[\w-]+/.exec(unQuote(row.m))?.[0];
    if (link) return link;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no RSVP link was mailed to ${email}`);
}

/** Opens the mailed link and presses its one button. */
async function confirmFromMail(page: Page, db: Db, email: string, title: string): Promise<void> {
  await page.goto(await mailedLink(db, email));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Confirm your RSVP: ${title}`);
  await page.getByRole('button', { name: 'Confirm my RSVP' }).click();
}

function rsvps(db: Db) {
  return db.query<{ email: string; status: string; guests: number }>('SELECT email, status, guests FROM event_rsvps ORDER BY id');
}

async function noScript(browser: Browser, baseURL: string): Promise<Page> {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
  return context.newPage();
}

test('a visitor finds the event, sees the seats left, RSVPs and is going', async ({ page, db, server }) => {
  const event = await publish(server.baseURL, 'Petitioning at the farmers market', {});
  await page.goto('/events');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Events');
  await expectAccessible(page);
  await page.getByRole('link', { name: 'Petitioning at the farmers market' }).click();
  await expect(page).toHaveURL(new RegExp(`/events/${event.slug}$`));
  await expect(page.getByText('Saturday, May 10, 2031, 10:00 AM – 1:00 PM CDT')).toBeVisible();
  await expect(page.getByText('3 spots left.')).toBeVisible();
  await expectAccessible(page);
  await expect(page.locator('body')).not.toContainText('private-room-42');
  expect(await page.content()).not.toContain('private-room-42');
  await fill(page, 'Ann Lee', 'ann@example.org', '1');
  await expect(page).toHaveURL(/\/events\/check-email$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Check your e-mail to confirm');
  await expectAccessible(page);
  // Nothing is held until the mailbox answers.
  expect(rsvps(db)).toEqual([]);
  await page.goto(`/events/${event.slug}`);
  await expect(page.getByText('3 spots left.')).toBeVisible();
  await page.goto(await mailedLink(db, 'ann@example.org'));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Confirm your RSVP: Petitioning at the farmers market');
  await expect(page.getByText('Ann Lee with 1 guest')).toBeVisible();
  await expectAccessible(page);
  expect(rsvps(db)).toEqual([]);
  await page.getByRole('button', { name: 'Confirm my RSVP' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText("You're going!");
  await expectAccessible(page);
  expect(rsvps(db)).toEqual([{ email: 'ann@example.org', status: 'going', guests: 1 }]);
  // Back on the page, the count is today's, not the page's.
  await page.goto(`/events/${event.slug}`);
  await expect(page.getByText('1 spot left.')).toBeVisible();
  // Take Action shows it among the next events.
  await page.goto('/take-action');
  await expect(page.getByRole('heading', { name: 'Upcoming Events' })).toBeVisible();
  await expect(page.getByTestId('next-events').getByRole('link', { name: 'Petitioning at the farmers market' })).toBeVisible();
  await expectAccessible(page);
});

test('without JavaScript the form works too, and the last seats send the next visitor to the waitlist', async ({ browser, db, server }) => {
  const event = await publish(server.baseURL, 'House meeting', { capacity: 2, online: false, videoLink: null });
  const page = await noScript(browser, server.baseURL);
  await page.goto(`/events/${event.slug}`);
  await fill(page, 'Bo Diaz', 'bo@example.org', '1');
  await expect(page).toHaveURL(/\/events\/check-email$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Check your e-mail to confirm');
  await confirmFromMail(page, db, 'bo@example.org', 'House meeting');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText("You're going!");
  await page.goto(`/events/${event.slug}`);
  await fill(page, 'Cy Park', 'cy@example.org', '0');
  await expect(page).toHaveURL(/\/events\/check-email$/);
  await confirmFromMail(page, db, 'cy@example.org', 'House meeting');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText("You're on the waitlist");
  expect(rsvps(db)).toEqual([
    { email: 'bo@example.org', status: 'going', guests: 1 },
    { email: 'cy@example.org', status: 'waitlisted', guests: 0 },
  ]);
  // A mistake keeps what was typed, and the event it was for.
  await page.goto(`/events/${event.slug}`);
  const form = page.locator('form[action="/api/events/rsvp"]');
  await form.getByLabel('ZIP code').evaluate((input: HTMLInputElement) => input.removeAttribute('pattern'));
  await form.getByLabel('Name').fill('Di');
  await form.getByLabel('Email').fill('di@example.org');
  await form.getByLabel('ZIP code').fill('123');
  await form.getByRole('button', { name: 'RSVP' }).click();
  await expect(page).toHaveURL(/\/forms\/rsvp\/problem\//);
  await expect(page.getByRole('alert')).toContainText('Please enter a valid ZIP code');
  await page.getByLabel('ZIP code').fill('62701');
  await page.getByRole('button', { name: 'RSVP' }).click();
  await expect(page).toHaveURL(/\/events\/check-email$/);
  await page.context().close();
});
