// The Events tab (docs/events.md), in a browser against the real server: a draft made in
// the form (its description in the blog's editor) after the server refuses an end before
// the start, then edited into another time zone and published, with its public page; an
// online event's private link; a published event's change of time told to the people
// coming; a cancellation with a message; a draft deleted (a published event has no Delete);
// the attendee list with an RSVP made through the public API, its counts, filter, CSV
// export and attendance once the event has started; the roles that do not see it; and the
// event pages opened at their own addresses (a reload, a bookmark), which needs the server
// to answer /admin/events/{id} and /admin/events/{id}/attendees with the admin shell.
//
// Each test starts from empty lists on this worker's own server (admin-fixtures); events are
// made and published through the admin API, RSVPs through the public one, as a visitor's
// form posts them (same-origin).
import { readFileSync } from 'node:fs';
import { type Page } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { type Db, expect, expectAccessibleAtBothWidths, panel, signIn, tab, test as base } from './admin-fixtures';
import { expectAccessible, failedLoad, toastRegion } from './fixtures';
import { ownerToken, unQuote } from './staff';

interface AdminEvent {
  id: number;
  slug: string;
  url: string;
  title: string;
  status: string;
  startsAt: string;
}

/** The admin API as the Owner, to arrange what a test starts from. */
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

  /** A draft: a town hall in Springfield, Illinois, next March (fields may be changed). */
  async draft(title: string, fields: Record<string, unknown> = {}): Promise<AdminEvent> {
    const input = {
      title,
      description: `<p>About ${title}.</p>`,
      kind: 'town_hall',
      start: '2031-03-12T18:00',
      end: '2031-03-12T20:00',
      timeZone: 'America/Chicago',
      venue: '12 Elm Street, Springfield, IL 62701',
      online: false,
      videoLink: null,
      capacity: null,
      rsvpDeadline: null,
      waitlist: true,
      ...fields,
    };
    return (await this.call<{ event: AdminEvent }>('POST', '/api/admin/events', input)).event;
  }

  async published(title: string, fields: Record<string, unknown> = {}): Promise<AdminEvent> {
    const { id } = await this.draft(title, fields);
    return (await this.call<{ event: AdminEvent }>('POST', `/api/admin/events/${id}/publish`)).event;
  }
}

const test = base.extend<{ api: Api; rsvp: (slug: string, name: string, email: string, guests?: number) => Promise<void> }>({
  api: async ({ server }, use) => use(new Api(server.baseURL, await ownerToken(server.baseURL))),
  // An RSVP as the event page's form sends it (JSON, from the site's own origin), then
  // confirmed by the link mailed to the address, as its reader would press it.
  rsvp: async ({ page, server, db }, use) =>
    use(async (slug, name, email, guests = 0) => {
      const response = await page.request.post(`${server.baseURL}/api/events/rsvp`, {
        headers: { Origin: server.baseURL },
        // Every value as text, as the site's forms send them (a number is refused).
        data: { event: slug, name, email, zipCode: '62701', guests: String(guests) },
      });
      expect(response.ok(), `RSVP of ${email}: ${response.status()} ${await response.text()}`).toBe(true);
      const [row] = db.query<{ m: string }>(
        `SELECT CAST(message AS TEXT) AS m FROM mail_queue WHERE event_key LIKE 'event-rsvp-ask:%' AND about = '${email}' ORDER BY id DESC LIMIT 1`,
      );
      const link = row && /\/events\/rsvp\/confirm\/[\w-]+/.exec(unQuote(row.m))?.[0];
      expect(link, `the link mailed to ${email}`).toBeTruthy();
      const confirmed = await page.request.post(`${server.baseURL}${link}`);
      expect(confirmed.ok(), `confirming ${email}: ${confirmed.status()}`).toBe(true);
    }),
});

/** The event's row in the Events table (the dashboard is wide enough for the table). */
function row(page: Page, title: string) {
  return panel(page).getByRole('row', { name: new RegExp(title) });
}

function toast(page: Page) {
  return toastRegion(page).getByRole('listitem');
}

async function openEvents(page: Page) {
  await page.goto('/admin/dashboard?tab=events');
  await expect(tab(page, 'Events')).toHaveAttribute('aria-selected', 'true');
}

/** A time as the server stores one (RFC 3339, UTC), in the stored value's own shape. */
function storedTime(like: string, at: number): string {
  const iso = new Date(at).toISOString();
  return /\.\d+Z$/.test(like) ? iso : iso.replace(/\.\d{3}Z$/, 'Z');
}

/** Moves event `id` so that it began an hour ago and ends in an hour. */
function startedAlready(db: Db, id: number) {
  const [{ starts_at: like }] = db.query<{ starts_at: string }>(`SELECT starts_at FROM events WHERE id = ${id}`);
  const now = Date.now();
  db.exec(`UPDATE events SET starts_at = '${storedTime(like, now - 3_600_000)}', ends_at = '${storedTime(like, now + 3_600_000)}' WHERE id = ${id}`);
}

test('a draft made in the form: the server refuses an end before the start, then it is saved, edited and published', async ({ page, db, allowConsole }) => {
  allowConsole(failedLoad(400));
  const title = 'Town hall in Springfield';
  await signIn(page);
  await tab(page, 'Events').click();
  await expect(tab(page, 'Events')).toHaveText('Events0');
  await expect(panel(page).getByText('No events yet')).toBeVisible();

  await panel(page).getByRole('link', { name: 'New event' }).click();
  await expect(page).toHaveURL(/\/admin\/events\/new$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('New event');
  // The party's time zone (content/site.yaml) comes first, and is chosen.
  const zone = page.getByLabel('Time zone');
  await expect(zone).toHaveValue('America/New_York');
  await expect(zone.locator('option').first()).toHaveText("Eastern (America/New_York), the party's time zone");
  await expect(zone.locator('option')).toHaveCount(7);
  // The video link is an online event's only.
  await expect(page.getByLabel('Private video link')).toHaveCount(0);

  await page.getByLabel('Title', { exact: true }).fill(title);
  const description = page.getByRole('textbox', { name: 'Description' });
  await description.click();
  await page.keyboard.type('Ask the candidates anything. ');
  await page.keyboard.press('Control+b');
  await page.keyboard.type('Bring a neighbour.');
  await page.getByLabel('Kind').selectOption({ label: 'Town hall' });
  await page.getByLabel('Start', { exact: true }).fill('2031-03-12T18:00');
  await page.getByLabel('End', { exact: true }).fill('2031-03-12T17:00');
  await page.getByLabel('Venue address').fill('12 Elm Street, Springfield, IL 62701');
  await page.getByLabel('Capacity (optional)').fill('20');
  await expect(page.getByLabel('Keep a waitlist when full')).toBeChecked();

  await page.getByRole('button', { name: 'Save draft' }).click();
  const refusal = page.getByRole('alert').filter({ hasText: /\S/ });
  await expect(refusal).toContainText('The end must be after the start.');
  await expect(page).toHaveURL(/\/admin\/events\/new$/);
  expect(db.query('SELECT id FROM events')).toEqual([]);
  await expectAccessible(page);

  await page.getByLabel('End', { exact: true }).fill('2031-03-12T20:00');
  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(toast(page)).toContainText('Draft saved');
  await expect(page).toHaveURL(/\/admin\/dashboard\?tab=events$/);
  await expect(tab(page, 'Events')).toHaveText('Events1');
  const saved = row(page, title);
  await expect(saved).toContainText('Town hall');
  await expect(saved).toContainText('Wednesday, March 12, 2031 at 6:00 PM EDT');
  await expect(saved).toContainText('Draft');
  await expect(saved).toContainText('0 of 20 going');
  await expect(saved).toContainText('0 waitlisted');
  // A draft has no page yet, and nothing to cancel.
  await expect(saved.getByRole('link', { name: /^View the page of/ })).toHaveCount(0);
  await expect(saved.getByRole('button', { name: `Cancel ${title}` })).toHaveCount(0);
  const [stored] = db.query<{ id: number; status: string; time_zone: string; description: string; capacity: number; waitlist: number; slug: string }>(
    'SELECT id, status, time_zone, description, capacity, waitlist, slug FROM events',
  );
  expect(stored).toMatchObject({ status: 'draft', time_zone: 'America/New_York', capacity: 20, waitlist: 1 });
  expect(stored.description).toContain('Ask the candidates anything.');
  expect(stored.description).toMatch(/<strong>Bring a neighbour\.<\/strong>/);

  // Edit: the form holds what was saved; the event moves to Central time, for 25.
  await saved.getByRole('link', { name: `Edit ${title}` }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/events/${stored.id}$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Edit event');
  await expect(page.getByLabel('Title', { exact: true })).toHaveValue(title);
  await expect(page.getByLabel('Start', { exact: true })).toHaveValue('2031-03-12T18:00');
  await expect(page.getByLabel('End', { exact: true })).toHaveValue('2031-03-12T20:00');
  await expect(page.getByLabel('Capacity (optional)')).toHaveValue('20');
  await expect(page.getByRole('textbox', { name: 'Description' })).toContainText('Bring a neighbour.');
  await page.getByLabel('Time zone').selectOption('America/Chicago');
  await page.getByLabel('Capacity (optional)').fill('25');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(toast(page)).toContainText('Event saved');
  await expect(row(page, title)).toContainText('Wednesday, March 12, 2031 at 6:00 PM CDT');
  await expect(row(page, title)).toContainText('0 of 25 going');
  expect(db.query(`SELECT time_zone, capacity FROM events WHERE id = ${stored.id}`)).toEqual([{ time_zone: 'America/Chicago', capacity: 25 }]);

  // Publish, asked first.
  await row(page, title)
    .getByRole('button', { name: `Publish ${title}` })
    .click();
  const ask = page.getByRole('alertdialog', { name: 'Publish event?' });
  await expect(ask).toContainText(`/events/${stored.slug}`);
  await ask.getByRole('button', { name: 'Publish' }).click();
  await expect(toast(page)).toContainText('Event published');
  await expect(row(page, title)).toContainText('Published');
  await expect(row(page, title).getByRole('button', { name: `Publish ${title}` })).toHaveCount(0);
  await expect(row(page, title).getByRole('button', { name: `Delete ${title}` })).toHaveCount(0);
  const view = row(page, title).getByRole('link', { name: `View the page of ${title} (opens in a new tab)` });
  await expect(view).toHaveAttribute('href', `/events/${stored.slug}`);
  await expect(view).toHaveAttribute('target', '_blank');
  const publicPage = await page.request.get(`/events/${stored.slug}`);
  expect(publicPage.status()).toBe(200);
  expect(await publicPage.text()).toContain(title);
  await expectAccessibleAtBothWidths(page);
});

test("an online event: the private video link appears with the box, and the server's refusal points at it", async ({ page, db, allowConsole }) => {
  allowConsole(failedLoad(400));
  await signIn(page);
  await openEvents(page);
  await panel(page).getByRole('link', { name: 'New event' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('New event');
  await page.getByLabel('Title', { exact: true }).fill('Online house meeting');
  await page.getByLabel('Kind').selectOption({ label: 'Meeting' });
  await page.getByLabel('Start', { exact: true }).fill('2031-04-02T19:00');
  await page.getByLabel('End', { exact: true }).fill('2031-04-02T20:00');
  await page.getByLabel('Online event').check();
  const link = page.getByLabel('Private video link');
  await expect(link).toBeVisible();
  await expect(page.getByText('Private: it is only sent to attendees')).toBeVisible();
  await expect(page.getByLabel('Venue address (optional for an online event)')).toBeVisible();
  await link.fill('http://meet.example.org/house');
  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(page.getByRole('alert').filter({ hasText: /\S/ })).toHaveText('The video link must be an https:// address.');
  expect(db.query('SELECT id FROM events')).toEqual([]);

  await link.fill('https://meet.example.org/house');
  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(toast(page)).toContainText('Draft saved');
  await expect(row(page, 'Online house meeting')).toContainText('Meeting');
  expect(db.query('SELECT online, venue, video_link FROM events')).toEqual([{ online: 1, venue: null, video_link: 'https://meet.example.org/house' }]);
});

test('a new time for a published event is told to the people coming', async ({ page, api, rsvp }) => {
  const event = await api.published('Petitioning at the farmers market', { kind: 'petitioning_shift' });
  await rsvp(event.slug, 'Ann Lee', 'ann.market@example.org');
  await signIn(page);
  await openEvents(page);
  await expect(row(page, event.title)).toContainText('Petitioning shift');
  await expect(row(page, event.title)).toContainText('1 going');
  await row(page, event.title)
    .getByRole('link', { name: `Edit ${event.title}` })
    .click();
  await expect(page.getByText('a change of its time or place is e-mailed to everyone going or waiting')).toBeVisible();
  await page.getByLabel('Start', { exact: true }).fill('2031-03-12T19:00');
  await page.getByLabel('End', { exact: true }).fill('2031-03-12T21:00');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(toast(page)).toContainText('Saved. 1 person was told of the change.');
  await expect(row(page, event.title)).toContainText('Wednesday, March 12, 2031 at 7:00 PM CDT');
});

test('cancel a published event with a message: asked first, and everyone going or waiting is told', async ({ page, db, api, rsvp }) => {
  const event = await api.published('Town hall at the library', { capacity: 2 });
  await rsvp(event.slug, 'Ann Lee', 'ann.library@example.org', 1);
  await rsvp(event.slug, 'Ben Ito', 'ben.library@example.org');
  await signIn(page);
  await openEvents(page);
  // Ann and her guest take both seats; Ben waits.
  await expect(row(page, event.title)).toContainText('2 of 2 going');
  await expect(row(page, event.title)).toContainText('1 waitlisted');

  await row(page, event.title)
    .getByRole('button', { name: `Cancel ${event.title}` })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Cancel this event?' });
  await expect(dialog).toContainText('gets an e-mail saying so');
  await dialog.getByRole('button', { name: 'Keep the event' }).click();
  await expect(dialog).toBeHidden();
  expect(db.query(`SELECT status FROM events WHERE id = ${event.id}`)).toEqual([{ status: 'published' }]);

  await row(page, event.title)
    .getByRole('button', { name: `Cancel ${event.title}` })
    .click();
  const message = 'The library is closed for repairs. We will write with a new date.';
  await dialog.getByLabel('Message to attendees (optional)').fill(message);
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Cancel the event' }).click();
  await expect(dialog).toBeHidden();
  await expect(toast(page)).toContainText('Event cancelled. 2 people were told.');
  await expect(row(page, event.title)).toContainText('Cancelled');
  await expect(row(page, event.title).getByRole('button', { name: `Cancel ${event.title}` })).toHaveCount(0);
  await expect(row(page, event.title).getByRole('link', { name: /^View the page of/ })).toBeVisible();
  expect(db.query(`SELECT status, cancel_message FROM events WHERE id = ${event.id}`)).toEqual([{ status: 'cancelled', cancel_message: message }]);
});

test('delete a draft, asked first; a published event has no Delete', async ({ page, db, api }) => {
  const draft = await api.draft('Volunteer meeting draft', { kind: 'meeting' });
  const live = await api.published('Town hall downtown');
  await signIn(page);
  await openEvents(page);
  await expect(tab(page, 'Events')).toHaveText('Events2');
  await expect(row(page, live.title).getByRole('button', { name: `Delete ${live.title}` })).toHaveCount(0);

  const remove = row(page, draft.title).getByRole('button', { name: `Delete ${draft.title}` });
  await remove.click();
  const ask = page.getByRole('alertdialog', { name: 'Delete event?' });
  await expect(ask).toContainText(`The draft “${draft.title}” will be deleted. This cannot be undone.`);
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await expect(ask).toBeHidden();
  await expect(remove).toBeFocused();
  expect(db.query(`SELECT id FROM events WHERE id = ${draft.id}`)).toHaveLength(1);

  await remove.click();
  await ask.getByRole('button', { name: 'Delete' }).click();
  await expect(toast(page)).toContainText('Draft deleted');
  await expect(row(page, draft.title)).toHaveCount(0);
  await expect(tab(page, 'Events')).toHaveText('Events1');
  expect(db.query(`SELECT id FROM events WHERE id = ${draft.id}`)).toEqual([]);
});

test('the attendee list: an RSVP from the public form, the counts, the filter, the CSV, and attendance once it has started', async ({
  page,
  db,
  api,
  rsvp,
}) => {
  const event = await api.published('Town hall on ballot access', { capacity: 3 });
  await rsvp(event.slug, 'Ann Lee', 'ann.ballot@example.org', 2);
  await rsvp(event.slug, 'Ben Ito', 'ben.ballot@example.org');
  await signIn(page);
  await openEvents(page);
  await row(page, event.title)
    .getByRole('link', { name: `Attendees of ${event.title}` })
    .click();
  await expect(page).toHaveURL(new RegExp(`/admin/events/${event.id}/attendees$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Attendees: ${event.title}`);
  await expect(page.getByText('3 of 3 going')).toBeVisible();
  await expect(page.getByText('1 waitlisted')).toBeVisible();

  const table = page.getByRole('table', { name: `RSVPs to ${event.title}` });
  await expect(table.getByRole('columnheader')).toHaveText(['Name', 'E-mail', 'ZIP', 'Phone', 'Guests', 'Status', 'Attended']);
  const ann = table.getByRole('row', { name: /Ann Lee/ });
  await expect(ann.getByRole('cell')).toHaveText(['ann.ballot@example.org', '62701', '—', '2', 'Going', /Not marked/]);
  await expect(table.getByRole('row', { name: /Ben Ito/ })).toContainText('Waitlisted');

  // Before the start, attendance waits, and says why.
  const annAttended = page.getByLabel('Attendance of Ann Lee');
  await expect(annAttended).toBeDisabled();
  await expect(page.getByText('Attendance can be marked once the event has started')).toBeVisible();
  await expectAccessible(page);

  // The filter.
  await page.getByLabel('Show').selectOption('waitlisted');
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table.getByRole('row', { name: /Ben Ito/ })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Showing' })).toHaveText('Showing 1 of 2 RSVPs');
  await page.getByLabel('Show').selectOption('all');
  await expect(table.getByRole('row')).toHaveCount(3);

  // The export, as the server writes it.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export to CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/\.csv$/);
  const records: Record<string, string>[] = parse(readFileSync(await file.path()), { columns: true, bom: true });
  expect(records).toHaveLength(2);
  const values = records.map((r) => Object.values(r));
  expect(values.some((v) => v.includes('ann.ballot@example.org'))).toBe(true);
  expect(values.some((v) => v.includes('ben.ballot@example.org'))).toBe(true);

  // Once the event has begun, who came is marked, kept, and can be taken back. (The list
  // and the event are asked for afresh each time the page opens.)
  startedAlready(db, event.id);
  const reopen = async () => {
    await page.getByRole('link', { name: 'Back to Events' }).click();
    await row(page, event.title)
      .getByRole('link', { name: `Attendees of ${event.title}` })
      .click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Attendees: ${event.title}`);
  };
  await reopen();
  await expect(page.getByText('Mark who came')).toBeVisible();
  await expect(annAttended).toBeEnabled();
  const [{ id: annId }] = db.query<{ id: number }>(`SELECT id FROM event_rsvps WHERE email = 'ann.ballot@example.org'`);
  await annAttended.selectOption({ label: 'Attended' });
  await expect.poll(() => db.query(`SELECT attended FROM event_rsvps WHERE id = ${annId}`)).toEqual([{ attended: 1 }]);
  await annAttended.selectOption({ label: 'No-show' });
  await expect.poll(() => db.query(`SELECT attended FROM event_rsvps WHERE id = ${annId}`)).toEqual([{ attended: 0 }]);
  await reopen();
  await expect(annAttended).toHaveValue('no');
  await annAttended.selectOption({ label: 'Not marked' });
  await expect.poll(() => db.query(`SELECT attended FROM event_rsvps WHERE id = ${annId}`)).toEqual([{ attended: null }]);
});

test('an Editor has no Events tab, and the tab typed in is refused; an Organizer has it', async ({ page, makeUser }) => {
  const editor = await makeUser('editor');
  await signIn(page, editor);
  await expect(page.getByRole('tab')).toHaveText([/^Blogs/]);
  await expect(tab(page, 'Events')).toHaveCount(0);
  const refused = page.getByRole('heading', { level: 1, name: "Your role can't open this page" });
  await page.goto('/admin/dashboard?tab=events');
  await expect(refused).toBeVisible();

  await page.getByRole('link', { name: 'Back to Admin' }).click();
  await page.getByRole('button', { name: 'Logout' }).click();
  const organizer = await makeUser('organizer');
  await signIn(page, organizer);
  await tab(page, 'Events').click();
  await expect(panel(page).getByRole('link', { name: 'New event' })).toBeVisible();
});

test('the event pages open at their own addresses (a reload, a bookmark), and only to a role that has them', async ({ page, api, makeUser }) => {
  const event = await api.draft('Town hall by the river');
  await signIn(page);
  await page.goto('/admin/events/new');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('New event');
  await page.goto(`/admin/events/${event.id}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Edit event');
  await expect(page.getByLabel('Title', { exact: true })).toHaveValue(event.title);
  await page.goto(`/admin/events/${event.id}/attendees`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Attendees: ${event.title}`);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Attendees: ${event.title}`);
  await expect(page.getByText('No RSVPs yet')).toBeVisible();

  await page.getByRole('link', { name: 'Back to Events' }).click();
  await page.getByRole('button', { name: 'Logout' }).click();
  const editor = await makeUser('editor');
  await signIn(page, editor);
  const refused = page.getByRole('heading', { level: 1, name: "Your role can't open this page" });
  for (const address of ['/admin/events/new', `/admin/events/${event.id}`, `/admin/events/${event.id}/attendees`]) {
    await page.goto(address);
    await expect(refused).toBeVisible();
  }
});
