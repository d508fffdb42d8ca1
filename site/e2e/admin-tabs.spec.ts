// The dashboard's seven lists in each of their states: loading, empty, failed and full. The
// Owner signed in here also has Events (admin-events.spec.ts) and Users (admin-users.spec.ts).
import { expectAccessible, failedLoad } from './fixtures';
import { expect, holdRequests, panel, seedEverything, signIn, tab, test } from './admin-fixtures';

const TABS = [
  { name: 'Contacts', loading: 'Loading contact submissions...', empty: 'No contact submissions yet' },
  { name: 'Volunteers', loading: 'Loading volunteer signups...', empty: 'No volunteer signups yet' },
  { name: 'Donations', loading: 'Loading donations...', empty: 'No donations yet' },
  { name: 'Recurring', loading: 'Loading monthly gifts...', empty: 'No monthly gifts yet' },
  { name: 'Newsletter', loading: 'Loading newsletter signups...', empty: 'No newsletter signups yet' },
  // A person's export is on their page: the list has none.
  { name: 'People', loading: 'Loading people...', empty: 'No people yet', noExport: true },
  { name: 'Blogs', loading: 'Loading blogs...', empty: 'No blog posts yet' },
];

test("the Owner's tabs, Contacts first; each list shows its loading text until the server answers", async ({ page }) => {
  await signIn(page);
  const release = await holdRequests(page, /\/api\/admin\/(contacts|volunteers|donations|plans|newsletters|people|blogs)(\?|$)/);
  await page.reload();
  await expect(page.getByRole('tab')).toHaveText([...TABS.map((t) => t.name), /^Events/, /^Users/]);
  await expect(tab(page, 'Contacts')).toHaveAttribute('aria-selected', 'true');
  for (const t of TABS) {
    await tab(page, t.name).click();
    await expect(panel(page).getByRole('status')).toHaveText(t.loading);
  }
  release();
  await expect(panel(page).getByText('No blog posts yet')).toBeVisible();
});

test('empty lists: the empty texts, counts of 0 and Export disabled', async ({ page }) => {
  await signIn(page);
  for (const t of TABS) {
    await expect(tab(page, t.name)).toHaveText(`${t.name}0`);
    await tab(page, t.name).click();
    await expect(panel(page).getByText(t.empty)).toBeVisible();
    if (!t.noExport) await expect(panel(page).getByRole('button', { name: 'Export to CSV' })).toBeDisabled();
  }
});

test('a list the server cannot load: "Error loading ..." with the cause', async ({ page, db, allowConsole }) => {
  allowConsole(failedLoad(500));
  await signIn(page);
  const tables = ['contact_messages', 'volunteer_signups', 'donations', 'donation_plans', 'newsletter_signups', 'people_list', 'blog_posts'];
  // Real failures: the tables are briefly not where the server looks.
  db.exec(tables.map((t) => `ALTER TABLE ${t} RENAME TO ${t}_away;`).join(' '));
  try {
    await page.reload();
    const expected = [
      'Error loading contact submissions: Failed to fetch contacts',
      'Error loading volunteer signups: Failed to fetch volunteers',
      'Error loading donations: Failed to fetch donations',
      'Error loading monthly gifts: Failed to fetch monthly gifts',
      'Error loading newsletter signups: Failed to fetch newsletters',
      'Error loading people: Failed to fetch people',
      'Error loading blogs: Failed to fetch blogs',
    ];
    for (const [i, t] of TABS.entries()) {
      await tab(page, t.name).click();
      const alert = panel(page).getByRole('alert');
      await expect(alert).toContainText(expected[i]);
      await expect(alert).toContainText('Internal Server Error');
      await expect(tab(page, t.name)).toHaveText(t.name); // no count without a list
    }
  } finally {
    db.exec(tables.map((t) => `ALTER TABLE ${t}_away RENAME TO ${t};`).join(' '));
  }
});

test('full lists: every card as the spec lists it, with counts and relative dates', async ({ page, db }) => {
  seedEverything(db);
  await signIn(page);
  await expect(page.getByRole('tab')).toHaveText([
    'Contacts2',
    'Volunteers2',
    'Donations3',
    'Recurring1',
    'Newsletter2',
    'People9',
    'Blogs2',
    'Events0',
    'Users1',
  ]);

  // Contacts, newest first: subject, name, email, when, message.
  const contacts = panel(page).getByRole('listitem');
  await expect(contacts).toHaveCount(2);
  await expect(contacts.nth(0).getByRole('heading', { level: 3 })).toHaveText('Yard signs');
  const ruth = contacts.nth(1);
  await expect(ruth.getByRole('heading', { level: 3 })).toHaveText('Hosting a town hall');
  await expect(ruth).toContainText('Ruth Alvarez');
  await expect(ruth.getByRole('link', { name: 'ruth@example.org' })).toHaveAttribute('href', 'mailto:ruth@example.org');
  await expect(ruth).toContainText('Our church hall is free on Tuesdays.\nWould you send a speaker?');
  const when = ruth.locator('time');
  await expect(when).toHaveText('3 hours ago');
  expect(await when.getAttribute('datetime')).toMatch(/^\d{4}-\d\d-\d\dT/);
  await expect(when).toHaveAttribute('title', /^\w+ \d{1,2}, \d{4} at \d{1,2}:\d\d [AP]M$/);

  await tab(page, 'Volunteers').click();
  const volunteers = panel(page).getByRole('listitem');
  await expect(volunteers.nth(0)).toContainText('Omar Haddad');
  await expect(volunteers.nth(0)).not.toContainText('Phone');
  await expect(volunteers.nth(0)).not.toContainText('Areas of Interest');
  await expect(volunteers.nth(1)).toContainText('Lena Park');
  await expect(volunteers.nth(1)).toContainText('lena@example.org');
  await expect(volunteers.nth(1)).toContainText('Phone: 555-010-2000');
  await expect(volunteers.nth(1)).toContainText('Areas of Interest: Canvassing, phone banking');
  await expect(volunteers.nth(1).locator('time')).toHaveText('1 day ago');

  await tab(page, 'Donations').click();
  const donations = panel(page).getByRole('listitem');
  await expect(donations).toHaveCount(3);
  const [small, failed, big] = [donations.nth(0), donations.nth(1), donations.nth(2)]; // newest first
  await expect(big.getByRole('heading', { level: 3 })).toHaveText('$1,250.50 from Beatriz Cole');
  await expect(big).toContainText('bea@example.org');
  await expect(big).toContainText('Address: 12 Elm Street, Springfield, IL 62701');
  await expect(big).toContainText('Citizenship: Confirmed');
  await expect(big).toContainText('Occupation: Nurse');
  await expect(big).toContainText('Employer: County Hospital');
  await expect(big).toContainText('Purpose: General Party Use');
  await expect(big.getByText('completed', { exact: true })).toHaveAttribute('data-variant', 'default');
  await expect(big.getByText('Monthly', { exact: true })).toBeVisible();
  await expect(small.getByText('Monthly', { exact: true })).toHaveCount(0);
  await expect(small.getByRole('heading', { level: 3 })).toHaveText('$25.00 from aaron Diaz');
  await expect(small.getByText('pending', { exact: true })).toHaveAttribute('data-variant', 'secondary');
  await expect(small).not.toContainText('Occupation');
  await expect(failed.getByText('failed', { exact: true })).toHaveAttribute('data-variant', 'destructive');
  await expect(failed).not.toContainText('Citizenship: Confirmed');
  await expect(panel(page).getByRole('button', { name: /Delete/ })).toHaveCount(0);

  await tab(page, 'Recurring').click();
  const plans = panel(page).getByRole('listitem');
  await expect(plans).toHaveCount(1);
  await expect(plans.first().getByRole('heading', { level: 3 })).toHaveText('$1,250.50 a month from Beatriz Cole');
  await expect(plans.first()).toContainText('Active');
  await expect(plans.first()).toContainText('Total given: $1,250.50 in 1 gift');
  await expect(plans.first()).toContainText('Next charge:');
  await expect(plans.first().getByRole('button', { name: 'Cancel the monthly gift of $1,250.50 from Beatriz Cole' })).toBeVisible();

  await tab(page, 'Newsletter').click();
  const signups = panel(page).getByRole('listitem');
  await expect(signups.nth(0).getByRole('heading', { level: 3 })).toHaveText('news@example.org');
  await expect(signups.nth(0)).toContainText('Phone: 555-010-3000');
  await expect(signups.nth(0)).toContainText('ZIP: 60601');
  await expect(signups.nth(0).locator('time')).toHaveText('5 minutes ago');
  await expect(signups.nth(1)).not.toContainText('Phone');
  await expect(signups.nth(1)).toContainText('ZIP: 30301');

  await tab(page, 'Blogs').click();
  await expect(panel(page).getByRole('columnheader')).toHaveText(['Title', 'Status', 'Published Date', 'Actions']);
  const rows = panel(page).getByRole('row');
  await expect(rows.nth(1)).toContainText('Draft on ballot access');
  await expect(rows.nth(1)).toContainText('draft');
  await expect(rows.nth(1)).toContainText('Not published');
  await expect(rows.nth(1).getByRole('button', { name: 'Publish Draft on ballot access' })).toBeVisible();
  await expect(rows.nth(2)).toContainText('Why we run');
  await expect(rows.nth(2)).toContainText('January 5, 2025');
  await expect(rows.nth(2).getByRole('button', { name: /^Publish/ })).toHaveCount(0);
  await expect(rows.nth(2).getByRole('link', { name: 'Edit Why we run' })).toBeVisible();
});

test('on a phone each blog post is a card (title, status, date, Edit / Publish / Delete); from 768 px a table', async ({ page, db }) => {
  seedEverything(db);
  await page.setViewportSize({ width: 390, height: 800 });
  await signIn(page);
  await tab(page, 'Blogs').click();
  await expect(panel(page).getByRole('table')).toHaveCount(0);
  const cards = panel(page).getByRole('listitem');
  await expect(cards).toHaveCount(2);
  await expect(cards.getByRole('heading', { level: 3 })).toHaveText(['Draft on ballot access', 'Why we run']);
  const card = (title: string) => cards.filter({ has: page.getByRole('heading', { level: 3, name: title }) });
  const [draft, published] = [card('Draft on ballot access'), card('Why we run')];
  await expect(draft.getByRole('heading', { level: 3 })).toHaveText('Draft on ballot access');
  await expect(draft).toContainText('draft');
  await expect(draft).toContainText('Not published');
  await expect(published.getByRole('heading', { level: 3 })).toHaveText('Why we run');
  await expect(published).toContainText('published');
  await expect(published).toContainText('January 5, 2025');
  await expect(published.getByRole('button', { name: /^Publish/ })).toHaveCount(0);
  // Every control whole on screen: nothing to scroll sideways for.
  const controls = [
    draft.getByRole('link', { name: 'Edit Draft on ballot access' }),
    draft.getByRole('button', { name: 'Publish Draft on ballot access' }),
    draft.getByRole('button', { name: 'Delete Draft on ballot access' }),
    published.getByRole('link', { name: 'Edit Why we run' }),
    published.getByRole('button', { name: 'Delete Why we run' }),
  ];
  for (const control of controls) {
    const box = (await control.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
  }
  const overflowing = await panel(page).evaluate(
    (p) => [p, ...p.querySelectorAll('*')].filter((e) => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible').length,
  );
  expect(overflowing).toBe(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // The card's buttons work as the table's do.
  await draft.getByRole('button', { name: 'Publish Draft on ballot access' }).click();
  await page.getByRole('alertdialog', { name: 'Publish blog post?' }).getByRole('button', { name: 'Publish' }).click();
  await expect(draft).toContainText('published');
  await expect(draft.getByRole('button', { name: /^Publish/ })).toHaveCount(0);
  await draft.getByRole('link', { name: 'Edit Draft on ballot access' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Edit Blog Post');
  await page.goBack();

  // Wide: the table, and no cards.
  await page.setViewportSize({ width: 1440, height: 800 });
  await expect(panel(page).getByRole('table')).toBeVisible();
  await expect(panel(page).getByRole('listitem')).toHaveCount(0);
  await expect(panel(page).getByRole('row')).toHaveCount(3);
});

for (const width of [1440, 390]) {
  test(`no violations on every tab at ${width} px`, async ({ page, db }) => {
    seedEverything(db);
    await page.setViewportSize({ width, height: 900 });
    await signIn(page);
    for (const t of TABS) {
      await tab(page, t.name).click();
      if (t.noExport) await expect(panel(page).getByRole('listitem').first()).toBeVisible();
      else await expect(panel(page).getByRole('button', { name: 'Export to CSV' })).toBeEnabled();
      await expectAccessible(page);
    }
  });
}

test('the tabs work from the keyboard alone', async ({ page, db }) => {
  seedEverything(db);
  await signIn(page);
  await page.getByRole('button', { name: 'Logout' }).focus();
  await page.keyboard.press('Tab');
  await expect(tab(page, 'Contacts')).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(tab(page, 'Volunteers')).toBeFocused();
  await expect(tab(page, 'Volunteers')).toHaveAttribute('aria-selected', 'true');
  await expect(panel(page).getByRole('heading', { level: 2 })).toHaveText('Volunteer Signups');
  await page.keyboard.press('End');
  await expect(tab(page, 'Users')).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('ArrowRight'); // wraps around
  await expect(tab(page, 'Contacts')).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('ArrowLeft');
  await expect(tab(page, 'Users')).toBeFocused();
  // Tab leaves the list for the open panel, then its controls. It is pressed once Home has
  // visibly moved focus, as a person does, but without waiting for the panel: the switch must
  // show in the same moment. (Radix moves focus on a timer after the keydown, so a Tab sent
  // within the same millisecond, faster than any hand, would still leave from Users.)
  await page.keyboard.press('Home');
  await expect(tab(page, 'Contacts')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(tab(page, 'Contacts')).toHaveAttribute('aria-selected', 'true');
  await expect(panel(page)).toBeFocused();
  await expect(panel(page).getByRole('heading', { level: 2 })).toHaveText('Contact Submissions');
  await page.keyboard.press('Tab');
  await expect(panel(page).getByRole('button', { name: 'Export to CSV' })).toBeFocused();
  // The open tab is in the address, so a reload (or Back from the editor) returns to it.
  await tab(page, 'Donations').click();
  await expect(page).toHaveURL(/\?tab=donations$/);
  await page.reload();
  await expect(tab(page, 'Donations')).toHaveAttribute('aria-selected', 'true');
});
