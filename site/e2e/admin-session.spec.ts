// The staff session: 60 minutes from sign-in, a 401 ends it at once, and logout forgets
// the token, every cached list and the unsaved editor drafts.
import { ADMIN_PASSWORD, expectAccessible, failedLoad, toastRegion } from './fixtures';
import { expect, minutesAgo, panel, seedEverything, signIn, test } from './admin-fixtures';

const token = (page: import('@playwright/test').Page) => page.evaluate(() => sessionStorage.getItem('adminToken'));

test('60 minutes after sign-in an alert says the session expired, and the admin is signed out', async ({ page, db }) => {
  seedEverything(db);
  await page.clock.install();
  await signIn(page);
  await page.clock.fastForward('30:00');
  // A reload does not restart the hour.
  await page.reload();
  await expect(panel(page).getByRole('listitem').first()).toBeVisible();
  await page.clock.fastForward('29:50');
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
  expect(await token(page)).not.toBeNull();

  await page.clock.fastForward('00:11');
  const alert = page.getByRole('alertdialog', { name: 'Session expired' });
  await expect(alert).toContainText('Your admin session has expired. Please sign in again.');
  await expect(alert.getByRole('button', { name: 'OK' })).toBeFocused();
  expect(await token(page)).toBeNull();
  await page.mouse.move(0, 0); // off the buttons: none is scanned mid-way through its hover colour
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await expectAccessible(page);
  }
  await page.keyboard.press('Enter');
  await expect(alert).toBeHidden();
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Access' })).toBeVisible();
  await expect(page.getByLabel('Password')).toBeFocused();
  await expect(page.getByText('Yard signs')).toHaveCount(0);
});

test('a 401 mid-session signs the admin out at once', async ({ page, db, request, allowConsole }) => {
  allowConsole(failedLoad(401));
  seedEverything(db);
  await signIn(page);
  // The staff member sees the list first; only then does the token stop being good behind
  // the app's back (signed out elsewhere). Revoking while the list is still loading would
  // sign the admin out before there is anything to click (which is right, but not this test).
  const remove = panel(page).getByRole('button', { name: 'Delete contact submission from Ruth Alvarez' });
  await expect(remove).toBeVisible();
  await page.waitForLoadState('networkidle'); // the other tabs' counts and the mail line too
  const revoked = await request.post('/api/admin/logout', { headers: { Authorization: `Bearer ${await token(page)}` } });
  expect(revoked.ok()).toBe(true);
  await remove.click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Access' })).toBeVisible();
  expect(await token(page)).toBeNull();
  const toast = toastRegion(page).getByRole('listitem');
  await expect(toast).toContainText('Signed out');
  await expect(toast).not.toContainText('Failed to delete');
  expect(db.query('SELECT COUNT(*) AS n FROM contact_messages')).toEqual([{ n: 2 }]);
});

test('logout signs out on the server, forgets the token and the unsaved drafts, and discards every cached list', async ({ page, db, request }) => {
  seedEverything(db);
  await signIn(page);
  await expect(panel(page).getByRole('listitem')).toHaveCount(2);
  const old = await token(page);

  // Unsaved editor work, as the editor keeps it: a deliberate logout forgets it.
  const draftKey = 'acp:blog-draft:new';
  await page.evaluate((key) => localStorage.setItem(key, '{"form":{},"keptAt":0}'), draftKey);

  const loggedOut = page.waitForResponse('**/api/admin/logout');
  await page.getByRole('button', { name: 'Logout' }).click();
  expect((await loggedOut).ok()).toBe(true);
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Access' })).toBeFocused();
  expect(await token(page)).toBeNull();
  expect(await page.evaluate((key) => localStorage.getItem(key), draftKey)).toBeNull();
  expect((await request.get('/api/admin/contacts', { headers: { Authorization: `Bearer ${old}` } })).status()).toBe(401);

  // Lists are never stale while signed in; after a logout they are fetched afresh.
  db.insert('contact_messages', {
    name: 'New Person',
    email: 'new@example.org',
    subject: 'Arrived after logout',
    message: 'Hello',
    created_at: minutesAgo(0),
  });
  const listed = page.waitForRequest('**/api/admin/contacts');
  await page.getByLabel('Password').fill(ADMIN_PASSWORD);
  await page.getByLabel('Password').press('Enter');
  await listed;
  await expect(panel(page).getByRole('listitem')).toHaveCount(3);
  await expect(panel(page).getByRole('listitem').first()).toContainText('Arrived after logout');
});
