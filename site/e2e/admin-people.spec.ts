// The People tab and a person's page: one row per person across the forms, found by name,
// e-mail or phone; one timeline; merge and undo; export and erase; and the treasurer's review
// of contributors who may be one person (on the Donations tab).
import { type APIRequestContext } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { expectAccessible, toastRegion } from './fixtures';
import { type Db, expect, panel, signIn, tab, test } from './admin-fixtures';

/** Rosa sends the three forms as a visitor does (through the API the pages call): a
 *  volunteer signup and a message from her work address, a newsletter signup from home. */
async function rosa(request: APIRequestContext) {
  const posts: [string, Record<string, unknown>][] = [
    ['/api/volunteer', { name: 'Rosa Diaz', email: 'rosa@example.org', phone: '555-201-3344', zipCode: '62701', interests: 'Canvassing' }],
    ['/api/contact', { name: 'Rosa Diaz', email: 'Rosa@Example.org', subject: 'Town hall', message: 'When is it?' }],
    ['/api/newsletter-signup', { email: 'rdiaz@home.example', zipCode: '62704' }],
  ];
  for (const [path, data] of posts) {
    const res = await request.post(path, { data });
    expect(res.ok(), path).toBe(true);
  }
}

async function openPeople(page: import('@playwright/test').Page) {
  await signIn(page);
  await tab(page, 'People').click();
}

test('one row per person, found by name, e-mail or phone; the page has one timeline', async ({ page }) => {
  await rosa(page.request);
  await openPeople(page);
  await expect(tab(page, 'People')).toHaveText('People2');
  const rows = panel(page)
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { level: 3 }) });
  await expect(rows).toHaveCount(2);
  const search = panel(page).getByLabel('Search by name, e-mail or phone');
  for (const q of ['rosa diaz', 'ROSA@example.org', '201-3344']) {
    await search.fill(q);
    await expect(panel(page).getByRole('status')).toHaveText('1 person');
    await expect(rows).toHaveCount(1);
  }
  const work = rows.first();
  await expect(work.getByRole('heading', { level: 3 })).toHaveText('Rosa Diaz');
  await expect(work.getByRole('list', { name: 'What they have done' })).toHaveText(['Volunteered', 'Wrote'].join(''));
  await search.fill('nobody-here');
  await expect(panel(page).getByText('No one matches that search')).toBeVisible();
  await search.fill('rosa');
  await rows.first().getByRole('link', { name: 'Rosa Diaz' }).click();

  await expect(page.getByRole('heading', { level: 1, name: 'Rosa Diaz' })).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/person\/\d+$/);
  await expect(page.getByText('rosa@example.org', { exact: true })).toBeVisible();
  const timeline = page.getByRole('region', { name: 'Timeline' }).getByRole('listitem');
  await expect(timeline.filter({ hasText: 'Volunteered from rosa@example.org' })).toContainText('Interests: Canvassing');
  await expect(timeline.filter({ hasText: 'Wrote from Rosa@Example.org: Town hall' })).toContainText('When is it?');
  await expect(page.getByRole('region', { name: 'What they told us' })).toContainText('+15552013344');
  await expectAccessible(page);
  await page.getByRole('link', { name: 'Back to People' }).click();
  await expect(tab(page, 'People')).toHaveAttribute('aria-selected', 'true');
});

test('merge another person in, then undo it: exactly the two people there were', async ({ page }) => {
  await rosa(page.request);
  await openPeople(page);
  await panel(page).getByRole('link', { name: 'Rosa Diaz' }).click();
  await page.getByRole('button', { name: 'Merge another person in' }).click();
  const dialog = page.getByRole('dialog', { name: 'Merge into Rosa Diaz' });
  await dialog.getByLabel("The other person's e-mail address").fill('nobody@example.org');
  await dialog.getByRole('button', { name: 'Merge' }).click();
  await expect(dialog).toContainText('No one has that e-mail address.');
  await dialog.getByLabel("The other person's e-mail address").fill('rdiaz@home.example');
  await dialog.getByRole('button', { name: 'Merge' }).click();
  await expect(toastRegion(page)).toContainText('Merged');
  await expect(page.getByText('rosa@example.org, rdiaz@home.example', { exact: true })).toBeVisible();
  const timeline = page.getByRole('region', { name: 'Timeline' });
  await expect(timeline).toContainText('Signed up for the newsletter as rdiaz@home.example');
  // The newsletter's ZIP is the latest: it shows, with the earlier one kept.
  const told = page.getByRole('region', { name: 'What they told us' });
  await expect(told).toContainText('62704');
  await told.getByText('Earlier (1)').first().click();

  await page.getByRole('button', { name: 'Undo the merge of rdiaz@home.example' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Undo the merge' }).click();
  await expect(toastRegion(page)).toContainText('Merge undone');
  await expect(page.getByText('rosa@example.org', { exact: true })).toBeVisible();
  await expect(timeline).not.toContainText('rdiaz@home.example');
  await page.getByRole('link', { name: 'Back to People' }).click();
  await expect(tab(page, 'People')).toHaveText('People2');
});

test('export everything held about a person, then erase them whole', async ({ page, db }) => {
  await rosa(page.request);
  await openPeople(page);
  await panel(page).getByRole('link', { name: 'Rosa Diaz' }).click();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export everything held' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^person-\d+\.json$/);
  const held = JSON.parse(readFileSync(await file.path(), 'utf8'));
  expect(held.tables.contact_messages[0].subject).toBe('Town hall');
  expect(held.tables.volunteer_signups[0].interests).toBe('Canvassing');

  await page.getByRole('button', { name: 'Erase Rosa Diaz' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Erase' }).click();
  await expect(toastRegion(page)).toContainText('Person erased');
  await expect(tab(page, 'People')).toHaveAttribute('aria-selected', 'true');
  await expect(tab(page, 'People')).toHaveText('People1');
  expect(db.query('SELECT email FROM contact_messages UNION ALL SELECT email FROM volunteer_signups')).toEqual([]);
  expect(db.query<{ n: number }>('SELECT COUNT(*) AS n FROM suppressed_emails')[0].n).toBe(1);
});

/** Two contributors at one address whose names may be one person's, each with a paid gift. */
function nearMatch(db: Db) {
  const contributor = (name: string) => {
    const id = db.insert('contributors', { name_key: name, street_key: '9 pine st', zip5: '62701', root_id: 0, created_at: new Date().toISOString() });
    db.exec(`UPDATE contributors SET root_id = id WHERE id = ${id}`);
    return id;
  };
  const [a, b] = [contributor('jon smith'), contributor('jonathan smith')];
  for (const [id, first] of [
    [a, 'Jon'],
    [b, 'Jonathan'],
  ] as const) {
    db.insert('donations', {
      amount_cents: 5000,
      donor_name: `${first} Smith`,
      donor_first_name: first,
      donor_last_name: 'Smith',
      donor_email: `${first.toLowerCase()}@example.org`,
      donor_address: '9 Pine St',
      donor_city: 'Springfield',
      donor_state: 'IL',
      donor_zip_code: '62701',
      citizenship_confirmed: true,
      status: 'completed',
      contributor_id: id,
    });
  }
  db.exec(`INSERT INTO contributor_matches (a, b, why, found_at) VALUES (${a}, ${b}, 'similar names at one address', '${new Date().toISOString()}')`);
  return [a, b];
}

test('the treasurer says whether two contributors are one person', async ({ page, db }) => {
  const [a, b] = nearMatch(db);
  await signIn(page);
  await tab(page, 'Donations').click();
  const review = panel(page).getByRole('region', { name: /Contributors to review/ });
  await expect(review).toContainText('Jon Smith, 9 Pine St, Springfield, IL 62701 (1 gift)');
  await expect(review).toContainText('Jonathan Smith');
  await expectAccessible(page);
  await review.getByRole('button', { name: 'Yes, Jon Smith and Jonathan Smith are one person' }).click();
  await expect(toastRegion(page)).toContainText('Combined as one person');
  await expect(review).toHaveCount(0);
  const roots = db.query<{ root_id: number }>(`SELECT DISTINCT root_id FROM contributors WHERE id IN (${a}, ${b})`);
  expect(roots).toEqual([{ root_id: a }]);
});

test('No keeps two people apart and the pair is not asked again', async ({ page, db }) => {
  const [a, b] = nearMatch(db);
  await signIn(page);
  await tab(page, 'Donations').click();
  const review = panel(page).getByRole('region', { name: /Contributors to review/ });
  await review.getByRole('button', { name: 'No, Jon Smith and Jonathan Smith are two people' }).click();
  await expect(toastRegion(page)).toContainText('Kept as two people');
  await expect(review).toHaveCount(0);
  await page.reload();
  await tab(page, 'Donations').click();
  await expect(panel(page).getByRole('heading', { level: 2, name: 'Donations' })).toBeVisible();
  await expect(panel(page).getByRole('region', { name: /Contributors to review/ })).toHaveCount(0);
  expect(db.query(`SELECT DISTINCT root_id FROM contributors WHERE id IN (${a}, ${b})`)).toHaveLength(2);
});
