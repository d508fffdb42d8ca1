// The Security screen (/admin/security): an Owner without a second factor is sent there
// first; the authenticator app (QR code and key, a code, ten recovery codes shown once;
// removed), new recovery codes, passkeys, the password, where one is signed in and signing
// out everywhere, and the Owner's service tokens.
import type { Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { Secret, TOTP } from 'otpauth';
import { failedLoad, toastRegion } from './fixtures';
import { expect, expectAccessibleAtBothWidths, signIn, startPasskeyServer, test, virtualAuthenticator } from './admin-fixtures';
import { type StaffMember, apiSignIn, deviceCookie, strongPassword } from './staff';
import { startServer } from './server';

const security = (page: Page) => page.getByRole('heading', { level: 1, name: 'Security' });
const section = (page: Page, name: string) => page.getByRole('region', { name });
const toast = (page: Page) => toastRegion(page).getByRole('listitem');

/** Signs `member` in (from their own browser) and opens Security from the dashboard. */
async function openSecurity(page: Page, member: StaffMember): Promise<void> {
  await signIn(page, member);
  await page.getByRole('link', { name: 'Security' }).click();
  await expect(security(page)).toBeVisible();
}

/** Logs out from the dashboard's header. */
async function logOut(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'Back to Admin' }).click();
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Access' })).toBeVisible();
}

/** What the server answers the token of `member`'s session `token` on GET /api/admin/me. */
async function meStatus(page: Page, token: string): Promise<number> {
  return (await page.request.get('/api/admin/me', { headers: { Authorization: `Bearer ${token}` } })).status();
}

test('an Owner without an app or a passkey is sent to Security, told why, and nothing else opens', async ({ page, makeUser, server }) => {
  const owner = await makeUser('owner');
  const lists: string[] = [];
  page.on('request', (r) => {
    if (/\/api\/admin\/(contacts|volunteers|newsletters|donations|plans|people|blogs|users|mail)(\?|$|\/)/.test(r.url())) lists.push(r.url());
  });
  await page.context().addCookies([deviceCookie(server.baseURL, owner)]);
  await page.goto('/admin');
  await page.getByLabel('E-mail').fill(owner.email);
  await page.getByLabel('Password').fill(owner.password);
  await page.getByRole('button', { name: 'Access Admin Panel' }).click();
  await expect(page).toHaveURL(/\/admin\/security$/);
  await expect(security(page)).toBeVisible();
  const note = page.getByRole('note');
  await expect(note).toContainText('Your role requires an authenticator app or a passkey.');
  await expect(note).toContainText('until then, the rest of the admin area stays closed');
  await expectAccessibleAtBothWidths(page);

  // The dashboard, by its link or typed in with a tab, comes back here.
  await page.getByRole('link', { name: 'Back to Admin' }).click();
  await expect(page).toHaveURL(/\/admin\/security$/);
  await page.goto('/admin/dashboard?tab=donations');
  await expect(page).toHaveURL(/\/admin\/security$/);
  await expect(note).toBeVisible();
  expect(lists).toEqual([]);
});

test('the authenticator app: a QR code and its key, a code from it, then ten recovery codes shown once', async ({ page, makeUser, server, allowConsole }) => {
  allowConsole(failedLoad(400));
  const owner = await makeUser('owner');
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.context().addCookies([deviceCookie(server.baseURL, owner)]);
  await page.goto('/admin');
  await page.getByLabel('E-mail').fill(owner.email);
  await page.getByLabel('Password').fill(owner.password);
  await page.getByRole('button', { name: 'Access Admin Panel' }).click();
  const app = section(page, 'Authenticator app');
  await app.getByRole('button', { name: 'Set up an authenticator app' }).click();

  await expect(app.getByRole('heading', { name: 'Scan this code with the app' })).toBeFocused();
  const qr = app.getByRole('img', { name: 'QR code to add this account to your authenticator app' });
  await expect(qr).toHaveAttribute('src', /^data:image\/svg\+xml;utf8,%3C/);
  expect(await qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  await expect(app.locator('svg')).toHaveCount(0); // an image, never markup put in the page
  const secret = (await app.locator('code').textContent())!.trim();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await expectAccessibleAtBothWidths(page);

  const code = app.getByLabel('Code', { exact: true });
  await expect(code).toHaveAttribute('inputmode', 'numeric');
  await expect(code).toHaveAttribute('autocomplete', 'one-time-code');
  const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
  await code.fill(totp.generate({ timestamp: Date.now() + 10 * 60_000 }));
  await app.getByRole('button', { name: 'Confirm' }).click();
  await expect(app.getByRole('alert')).toHaveText("That code isn't right. Check the time on your phone and try the newest code.");
  await code.fill(totp.generate());
  await app.getByRole('button', { name: 'Confirm' }).click();

  await expect(app.getByRole('heading', { name: 'Your recovery codes' })).toBeFocused();
  const codes = app.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  const shown = (await codes.allTextContents()).map((c) => c.trim());
  for (const c of shown) expect(c).toMatch(/^[a-z0-9]{5}-[a-z0-9]{5}$/);
  await expectAccessibleAtBothWidths(page);

  const downloaded = page.waitForEvent('download');
  await app.getByRole('button', { name: 'Download' }).click();
  const file = await downloaded;
  expect(file.suggestedFilename()).toBe('recovery-codes.txt');
  expect(
    readFileSync(await file.path(), 'utf8')
      .trim()
      .split('\n'),
  ).toEqual(shown);
  await app.getByRole('button', { name: 'Copy' }).click();
  await expect(toast(page)).toContainText('Copied');
  expect((await page.evaluate(() => navigator.clipboard.readText())).trim().split('\n')).toEqual(shown);

  await app.getByRole('button', { name: "I've saved these" }).click();
  await expect(app.getByRole('list', { name: 'Recovery codes' })).toHaveCount(0);
  await expect(app).toContainText('Your authenticator app is set up');
  await expect(section(page, 'Recovery codes')).toContainText('10 recovery codes left.');
  await expect(page.getByRole('note')).toHaveCount(0);
  // The rest of the admin area is open now.
  await page.getByRole('link', { name: 'Back to Admin' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
  await expect(page.getByRole('tab', { name: /^Users/ })).toBeVisible();
});

test('new recovery codes, even with none left; without an app or passkey there are none to make', async ({ page, makeUser, db, allowConsole }) => {
  allowConsole(failedLoad(409));
  const admin = await makeUser('administrator', { enrol: true });
  db.exec(`UPDATE recovery_codes SET used_at = '2026-01-01T00:00:00Z' WHERE user_id = ${admin.id}`);
  await openSecurity(page, admin);
  const recovery = section(page, 'Recovery codes');
  await expect(recovery).toContainText('0 recovery codes left.');
  await recovery.getByRole('button', { name: 'Make new recovery codes' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Make new recovery codes?' });
  await expect(dialog).toContainText('the codes you have now stop working');
  await dialog.getByRole('button', { name: 'Make new codes' }).click();
  await expect(recovery.getByRole('heading', { name: 'Your recovery codes' })).toBeFocused();
  const fresh = (await recovery.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').allTextContents()).map((c) => c.trim());
  expect(fresh).toHaveLength(10);
  expect(fresh.some((c) => admin.recoveryCodes!.includes(c))).toBe(false);
  await recovery.getByRole('button', { name: "I've saved these" }).click();
  await expect(recovery).toContainText('10 recovery codes left.');

  const editor = await makeUser('editor');
  await logOut(page);
  await openSecurity(page, editor);
  await expect(section(page, 'Recovery codes')).toContainText('0 recovery codes left.');
  await section(page, 'Recovery codes').getByRole('button', { name: 'Make new recovery codes' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Make new codes' }).click();
  await expect(toast(page)).toContainText('Recovery codes go with an authenticator app or a passkey: add one first.');
});

test("removing the app: an Owner's only factor stays (409, said as it is); anyone else's goes", async ({ page, makeUser, allowConsole }) => {
  allowConsole(failedLoad(409));
  const owner = await makeUser('owner', { enrol: true });
  await openSecurity(page, owner);
  const app = section(page, 'Authenticator app');
  await app.getByRole('button', { name: 'Remove the authenticator app' }).click();
  await page.getByRole('alertdialog', { name: 'Remove the authenticator app?' }).getByRole('button', { name: 'Remove' }).click();
  await expect(toast(page)).toContainText('Your role (Owner) requires an authenticator app or a passkey: add another before you remove this one.');
  await expect(app).toContainText('Your authenticator app is set up');

  const admin = await makeUser('administrator', { enrol: true });
  await logOut(page);
  await openSecurity(page, admin);
  await app.getByRole('button', { name: 'Remove the authenticator app' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Remove' }).click();
  await expect(toast(page)).toContainText('Authenticator app removed');
  await expect(app.getByRole('button', { name: 'Set up an authenticator app' })).toBeVisible();
  await expect(section(page, 'Recovery codes')).toContainText('0 recovery codes left.');
});

test('changing the password: the current one checked, the new one twice; the other sessions end', async ({ page, makeUser, server, allowConsole }) => {
  allowConsole(failedLoad(400));
  allowConsole(failedLoad(401));
  allowConsole(failedLoad(503));
  const admin = await makeUser('administrator');
  const elsewhere = await apiSignIn(server.baseURL, admin);
  await openSecurity(page, admin);
  const form = section(page, 'Password');
  const fresh = strongPassword();
  await form.getByLabel('Current password').fill('not my password');
  await form.getByLabel('New password', { exact: true }).fill(fresh);
  await form.getByLabel('Confirm new password').fill(fresh);
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(form.getByRole('alert')).toHaveText("Your current password isn't right.");
  await form.getByLabel('Current password').fill(admin.password);
  await form.getByLabel('Confirm new password').fill(`${fresh}!`);
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(form.getByRole('alert')).toHaveText("The new passwords don't match.");
  await expect(form.getByLabel('Confirm new password')).toHaveAttribute('aria-invalid', 'true');
  await form.getByLabel('New password', { exact: true }).fill('short');
  await form.getByLabel('Confirm new password').fill('short');
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(form.getByRole('alert')).toContainText('Choose a password of at least 12 characters');
  await expectAccessibleAtBothWidths(page);
  await form.getByLabel('New password', { exact: true }).fill(fresh);
  await form.getByLabel('Confirm new password').fill(fresh);
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(toast(page)).toContainText('Password changed');
  await expect(form.getByLabel('Current password')).toHaveValue('');
  expect(await meStatus(page, elsewhere)).toBe(401);
  // This browser stays signed in. The next sign-in takes the new password, and asks this
  // browser for a second step again: a new password forgets the browsers the old one signed
  // in (mail is off on this server, so the e-mailed code that step needs is unavailable).
  await page.reload();
  await expect(security(page)).toBeVisible();
  await logOut(page);
  await page.getByLabel('E-mail').fill(admin.email);
  await page.getByLabel('Password').fill(admin.password);
  await page.getByRole('button', { name: 'Access Admin Panel' }).click();
  await expect(page.getByRole('alert')).toHaveText('Invalid e-mail or password');
  await page.getByLabel('Password').fill(fresh);
  await page.getByRole('button', { name: 'Access Admin Panel' }).click();
  await expect(page.getByRole('alert')).toHaveText("E-mail isn't configured on this server. Use your authenticator app, a recovery code, or ask the owner");
});

test("where I'm signed in, this browser marked; signing out everywhere ends them all, this one too", async ({ page, makeUser, server }) => {
  const admin = await makeUser('administrator');
  const elsewhere = await apiSignIn(server.baseURL, admin);
  await openSecurity(page, admin);
  const sessions = section(page, "Where you're signed in").getByRole('list', { name: 'Your sessions' }).getByRole('listitem');
  await expect(sessions).toHaveCount(2);
  const here = sessions.filter({ hasText: 'This browser' });
  await expect(here).toHaveCount(1);
  await expect(here).toContainText('Chrome');
  await expect(here).toContainText('Address 127.0.0.1');
  await expect(here).toContainText(/last seen \d+ (second|minute)s? ago/);
  await section(page, "Where you're signed in").getByRole('button', { name: 'Sign out everywhere' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Sign out everywhere?' });
  await expect(dialog).toContainText('this one included');
  await dialog.getByRole('button', { name: 'Sign out everywhere' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Access' })).toBeVisible();
  await expect(toast(page)).toContainText('Signed out everywhere');
  expect(await page.evaluate(() => sessionStorage.getItem('adminToken'))).toBeNull();
  expect(await meStatus(page, elsewhere)).toBe(401);
});

test('service tokens (Owners only): made with a name and the exports scope, shown once, listed, revoked', async ({ page, owner, makeUser, allowConsole }) => {
  allowConsole(failedLoad(401));
  await openSecurity(page, owner);
  const tokens = section(page, 'Service tokens');
  await expect(tokens).toContainText('No service tokens yet.');
  await tokens.getByRole('button', { name: 'Create a token' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create a service token' });
  await dialog.getByLabel('Name').fill('Nightly backup');
  await expect(dialog.getByLabel('Scope')).toHaveValue('exports');
  await expect(dialog.getByLabel('Works for')).toHaveValue('90');
  await dialog.getByLabel('Works for').selectOption({ label: '30 days' });
  await dialog.getByRole('button', { name: 'Create token' }).click();
  await expect(dialog).toBeHidden();
  await expect(tokens.getByRole('heading', { name: 'Your new token' })).toBeFocused();
  const secret = (await tokens.locator('p.font-mono').textContent())!.trim();
  expect(secret.length).toBeGreaterThan(20);
  await expectAccessibleAtBothWidths(page);
  const exported = await page.request.get('/api/admin/contacts/export', { headers: { Authorization: `Bearer ${secret}` } });
  expect(exported.status()).toBe(200);
  await tokens.getByRole('button', { name: 'Done' }).click();
  await expect(tokens.getByRole('heading', { name: 'Your new token' })).toHaveCount(0);
  await expect(tokens).not.toContainText(secret);
  const listed = tokens.getByRole('list', { name: 'Service tokens' }).getByRole('listitem');
  await expect(listed).toHaveCount(1);
  await expect(listed).toContainText('Nightly backup (exports)');
  await expect(listed).toContainText('not used yet');
  // Thirty days from today, and by whom.
  const until = new Date(Date.now() + 30 * 24 * 3600 * 1000).toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric' });
  await expect(listed).toContainText(`Works until ${until}`);
  await expect(listed).toContainText(`By ${owner.email}`);

  await listed.getByRole('button', { name: 'Revoke the token Nightly backup' }).click();
  await page.getByRole('alertdialog', { name: 'Revoke “Nightly backup”?' }).getByRole('button', { name: 'Revoke' }).click();
  await expect(toast(page)).toContainText('Token revoked');
  await expect(listed).toContainText('Revoked');
  await expect(listed.getByRole('button')).toHaveCount(0);
  expect((await page.request.get('/api/admin/contacts/export', { headers: { Authorization: `Bearer ${secret}` } })).status()).toBe(401);

  // An Administrator has no such section.
  const admin = await makeUser('administrator');
  await logOut(page);
  await openSecurity(page, admin);
  await expect(section(page, 'Passkeys')).toBeVisible();
  await expect(section(page, 'Service tokens')).toHaveCount(0);
});

test('passkeys: added in this browser with a name, listed, removed', async ({ browser }) => {
  const server = await startPasskeyServer();
  const context = await browser.newContext({ baseURL: server.baseURL });
  try {
    const page = await context.newPage();
    await virtualAuthenticator(page);
    await openSecurity(page, server.owner);
    const passkeys = section(page, 'Passkeys');
    await expect(passkeys).toContainText('No passkeys yet.');
    await passkeys.getByRole('button', { name: 'Add a passkey' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a passkey' });
    await expect(dialog.getByRole('button', { name: 'Add passkey' })).toBeDisabled();
    await dialog.getByLabel('Name').fill('Work laptop');
    await dialog.getByRole('button', { name: 'Add passkey' }).click();
    await expect(dialog).toBeHidden();
    await expect(toastRegion(page).getByRole('listitem')).toContainText('Passkey added');
    const listed = passkeys.getByRole('list', { name: 'Your passkeys' }).getByRole('listitem');
    await expect(listed).toHaveCount(1);
    await expect(listed).toContainText('Work laptop');
    await expect(listed).toContainText('not used yet');
    await expectAccessibleAtBothWidths(page);

    await listed.getByRole('button', { name: 'Remove the passkey Work laptop' }).click();
    await page.getByRole('alertdialog', { name: 'Remove the passkey “Work laptop”?' }).getByRole('button', { name: 'Remove' }).click();
    await expect(toastRegion(page).getByRole('listitem')).toContainText('Passkey removed');
    await expect(passkeys).toContainText('No passkeys yet.');
  } finally {
    await context.close();
    await server.stop();
  }
});

test('a factor change minutes after signing in asks for the password first, in a dialog, then goes ahead', async ({ browser }) => {
  const server = await startServer({ ENABLE_TEST_CLOCK: '1' });
  const context = await browser.newContext({ baseURL: server.baseURL });
  try {
    const page = await context.newPage();
    await openSecurity(page, server.owner);
    const token = (await page.evaluate(() => sessionStorage.getItem('adminToken')))!;
    const later = async () => {
      const moved = await page.request.post('/api/admin/test-clock', { headers: { Authorization: `Bearer ${token}` }, data: { advanceSeconds: 6 * 60 } });
      expect(moved.status()).toBe(200);
    };
    await later();
    const recovery = section(page, 'Recovery codes');
    await recovery.getByRole('button', { name: 'Make new recovery codes' }).click();
    await page.getByRole('alertdialog', { name: 'Make new recovery codes?' }).getByRole('button', { name: 'Make new codes' }).click();
    const prove = page.getByRole('dialog', { name: 'Enter your password' });
    await expect(prove).toBeVisible();
    await expect(prove).toContainText("To change how you sign in, confirm it's you.");
    await expect(prove.getByLabel('Password')).toBeFocused();
    await expectAccessibleAtBothWidths(page);
    await prove.getByLabel('Password').fill('not my password');
    await prove.getByRole('button', { name: 'Confirm' }).click();
    await expect(prove.getByRole('alert')).toHaveText("That password isn't right.");
    await prove.getByLabel('Password').fill(server.owner.password);
    await prove.getByRole('button', { name: 'Confirm' }).click();
    await expect(prove).toBeHidden();
    // The change it was asked for goes ahead by itself.
    await expect(recovery.getByRole('heading', { name: 'Your recovery codes' })).toBeFocused();
    await expect(recovery.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem')).toHaveCount(10);
    await recovery.getByRole('button', { name: "I've saved these" }).click();
    // Within the next minutes it is not asked again; later it is, and closing it changes nothing.
    await recovery.getByRole('button', { name: 'Make new recovery codes' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Make new codes' }).click();
    await expect(recovery.getByRole('heading', { name: 'Your recovery codes' })).toBeFocused();
    await recovery.getByRole('button', { name: "I've saved these" }).click();
    await later();
    await recovery.getByRole('button', { name: 'Make new recovery codes' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Make new codes' }).click();
    await prove.getByRole('button', { name: 'Cancel' }).click();
    await expect(prove).toBeHidden();
    await expect(toast(page)).toContainText('Nothing was changed: enter your password to continue.');
    await expect(recovery.getByRole('heading', { name: 'Your recovery codes' })).toHaveCount(0);
  } finally {
    await context.close();
    await server.stop();
  }
});
