// Signing in as a staff member, every step: the first Owner's first sign-in (no second step,
// the device cookie, then Security), a browser that has not signed in before (a code from the
// authenticator app, a recovery code, a passkey, or a mailed code; none at all when mail is
// not set up), a sign-in that expires, and "Forgot your password?" to a new password.
import type { BrowserContext, Page } from '@playwright/test';
import { expectAccessible, failedLoad } from './fixtures';
import { expect, expectAccessibleAtBothWidths, signIn, startPasskeyServer, test, virtualAuthenticator } from './admin-fixtures';
import { startServer } from './server';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from './settings';
import { type StaffMember, DEVICE_COOKIE, createUser, deviceCookie, lastMailId, mailedCode, mailedLink, strongPassword } from './staff';
import { startSmtpSink } from './smtp';

/** Fills the first step and sends it. */
async function firstStep(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/admin');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Access Admin Panel' }).click();
}

const secondStep = (page: Page) => page.getByRole('heading', { level: 2, name: "Confirm it's you" });
const dashboard = (page: Page) => page.getByRole('heading', { level: 1, name: 'Admin Dashboard' });

async function deviceOf(context: BrowserContext) {
  return (await context.cookies()).find((c) => c.name === DEVICE_COOKIE);
}

test("the Owner's very first sign-in needs no second step, keeps this browser, and opens Security first", async ({ browser }) => {
  const server = await startServer({}, { owner: false });
  const context = await browser.newContext({ baseURL: server.baseURL });
  try {
    const page = await context.newPage();
    await firstStep(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await expect(page).toHaveURL(/\/admin\/security$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Security' })).toBeVisible();
    await expect(page.getByRole('note')).toContainText('Your role requires an authenticator app or a passkey.');
    const device = await deviceOf(context);
    expect(device).toMatchObject({ path: '/api/admin', httpOnly: true, secure: true, sameSite: 'Strict' });
    expect(device?.value).toMatch(/^[\w-]{20,}$/);
  } finally {
    await context.close();
    await server.stop();
  }
});

test("a new browser: the authenticator app's code, said wrong in the alert, then right; the browser is kept", async ({ page, makeUser, allowConsole }) => {
  allowConsole(failedLoad(401));
  const admin = await makeUser('administrator', { enrol: true });
  await firstStep(page, admin.email, admin.password);
  await expect(secondStep(page)).toBeFocused();
  await expect(page.getByText("Confirm it's you with your second factor.")).toBeVisible();
  const code = page.getByLabel('Code', { exact: true });
  await expect(code).toHaveAttribute('inputmode', 'numeric');
  await expect(code).toHaveAttribute('autocomplete', 'one-time-code');
  await expect(page.getByRole('switch', { name: 'Use a recovery code' })).toHaveAttribute('aria-checked', 'false');
  await expect(page.getByRole('button', { name: 'Use a passkey' })).toHaveCount(0);
  // The password field is gone, and with it the password.
  await expect(page.getByLabel('Password')).toHaveCount(0);
  await expectAccessibleAtBothWidths(page);

  await code.fill('12345');
  await code.press('Enter');
  await expect(page.getByRole('alert')).toHaveText('Enter the 6-digit code.');
  await code.fill(admin.totp!.codeAt(admin.totp!.lastStep + 40));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('alert')).toHaveText("That code isn't right.");
  await expect(code).toHaveAttribute('aria-invalid', 'true');
  await expect(code).toHaveAccessibleDescription("That code isn't right.");
  await expectAccessible(page);

  await code.fill(await admin.totp!.next());
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(dashboard(page)).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await expect(page.getByText(`Signed in as ${admin.name} (Administrator)`)).toBeVisible();
  expect(await deviceOf(page.context())).toBeTruthy();

  // This browser is known now: the next sign-in has no second step.
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page.getByLabel('E-mail')).toHaveValue(admin.email); // remembered for the next time
  await page.getByLabel('Password').fill(admin.password);
  await page.getByRole('button', { name: 'Access Admin Panel' }).click();
  await expect(dashboard(page)).toBeVisible();
});

test('a recovery code in place of the app: the switch says which; a code works once', async ({ page, makeUser, allowConsole }) => {
  allowConsole(failedLoad(401));
  const admin = await makeUser('administrator', { enrol: true });
  const [recovery] = admin.recoveryCodes!;
  await firstStep(page, admin.email, admin.password);
  const toggle = page.getByRole('switch', { name: 'Use a recovery code' });
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByLabel('Code', { exact: true })).toHaveCount(0);
  const field = page.getByLabel('Recovery code', { exact: true });
  await expect(field).toHaveAttribute('autocomplete', 'off');
  await expectAccessible(page);
  await field.fill(recovery);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(dashboard(page)).toBeVisible();

  // Used once: a new browser cannot use it again.
  await page.context().clearCookies();
  await page.getByRole('button', { name: 'Logout' }).click();
  await page.getByLabel('Password').fill(admin.password);
  await page.getByRole('button', { name: 'Access Admin Panel' }).click();
  await page.getByRole('switch', { name: 'Use a recovery code' }).click();
  await page.getByLabel('Recovery code', { exact: true }).fill(recovery);
  await page.getByLabel('Recovery code', { exact: true }).press('Enter');
  await expect(page.getByRole('alert')).toHaveText("That code isn't right.");

  // Start over: the first step again, its heading focused.
  await page.getByRole('button', { name: 'Start over' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Access' })).toBeFocused();
  await expect(page.getByLabel('Password')).toBeVisible();
});

test('without mail set up, an account that needs a mailed code is told so (503), as the server says it', async ({ page, makeUser, allowConsole }) => {
  allowConsole(failedLoad(503));
  const editor = await makeUser('editor');
  await firstStep(page, editor.email, editor.password);
  await expect(page.getByRole('alert')).toHaveText("E-mail isn't configured on this server. Use your authenticator app, a recovery code, or ask the owner");
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Access' })).toBeVisible();
  await expect(secondStep(page)).toHaveCount(0);
});

test.describe('with mail set up', () => {
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  let server: Awaited<ReturnType<typeof startServer>>;
  let editor: StaffMember;

  test.beforeAll(async () => {
    sink = await startSmtpSink();
    server = await startServer({ SMTP_URL: sink.url });
    editor = await createUser(server.baseURL, server.dbPath, server.owner, 'editor');
  });
  test.afterAll(async () => {
    await server?.stop();
    sink?.stop();
  });

  test('a code mailed for a new browser signs an account without an app in; it opens only what the role does', async ({ browser }) => {
    const context = await browser.newContext({ baseURL: server.baseURL });
    try {
      const page = await context.newPage();
      const before = lastMailId(server.dbPath);
      await firstStep(page, editor.email, editor.password);
      await expect(secondStep(page)).toBeFocused();
      await expect(page.getByText("We've sent a 6-digit code to your e-mail. It works for 10 minutes.")).toBeVisible();
      await expect(page.getByRole('switch')).toHaveCount(0);
      const { code } = await mailedCode(server.dbPath, editor.email, before);
      await page.getByLabel('Code', { exact: true }).fill(code);
      await page.getByRole('button', { name: 'Verify' }).click();
      await expect(dashboard(page)).toBeVisible();
      await expect(page.getByRole('tab')).toHaveText([/^Blogs/]);
      await expect(page.getByRole('button', { name: 'Erase a person' })).toHaveCount(0);
    } finally {
      await context.close();
    }
  });

  test('wrong codes, then the sign-in expires: back to the first step, saying why', async ({ browser }) => {
    const context = await browser.newContext({ baseURL: server.baseURL });
    try {
      const page = await context.newPage();
      await firstStep(page, editor.email, editor.password);
      await expect(secondStep(page)).toBeVisible();
      const code = page.getByLabel('Code', { exact: true });
      const alert = page.getByRole('alert');
      // Five wrong codes are each said wrong; the sign-in then ends.
      for (let i = 0; i < 6; i += 1) {
        if (!(await code.isVisible())) break;
        await code.fill(String(100000 + i));
        await page.getByRole('button', { name: 'Verify' }).click();
        await expect(alert).toHaveText(/That code isn't right\.|That sign-in has expired\. Please sign in again\./);
      }
      await expect(alert).toHaveText('That sign-in has expired. Please sign in again.');
      await expect(page.getByRole('heading', { level: 1, name: 'Admin Access' })).toBeFocused();
      await expect(page.getByLabel('Password')).toBeVisible();
    } finally {
      await context.close();
    }
  });
});

test('a passkey made on the Security screen signs in from a browser without the device cookie', async ({ browser }) => {
  const server = await startPasskeyServer();
  const context = await browser.newContext({ baseURL: server.baseURL });
  try {
    const page = await context.newPage();
    const authenticator = await virtualAuthenticator(page);
    await signIn(page, server.owner);
    await page.getByRole('link', { name: 'Security' }).click();
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByLabel('Name').fill('Test laptop');
    await page.getByRole('button', { name: 'Add passkey' }).click();
    await expect(page.getByRole('list', { name: 'Your passkeys' }).getByRole('listitem')).toHaveText([/Test laptop/]);
    expect(await authenticator.credentials()).toHaveLength(1);

    await context.clearCookies();
    await page.goto('/admin/dashboard');
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.getByLabel('E-mail').fill(server.owner.email);
    await page.getByLabel('Password').fill(server.owner.password);
    await page.getByRole('button', { name: 'Access Admin Panel' }).click();
    await expect(secondStep(page)).toBeFocused();
    const use = page.getByRole('button', { name: 'Use a passkey' });
    await expect(use).toBeVisible();
    await expectAccessible(page);
    await use.click();
    await expect(dashboard(page)).toBeVisible();
    expect(await deviceOf(context)).toBeTruthy();
  } finally {
    await context.close();
    await server.stop();
  }
});

test('"Forgot your password?": a link by e-mail, a new password, then the next sign-in takes it and asks this browser again', async ({
  page,
  makeUser,
  server,
  allowConsole,
}) => {
  allowConsole(failedLoad(400));
  allowConsole(failedLoad(410));
  allowConsole(failedLoad(503));
  const editor = await makeUser('editor');
  await page.goto('/admin');
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(page).toHaveURL(/\/admin\/reset$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Reset your password' })).toBeFocused();
  await expectAccessibleAtBothWidths(page);
  const before = lastMailId(server.dbPath);
  await page.getByLabel('E-mail').fill(editor.email);
  await page.getByRole('button', { name: 'Send me a link' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Check your e-mail' })).toBeFocused();
  await expect(page.getByRole('status')).toHaveText('If that address belongs to a staff account, a link to reset its password is on its way.');

  // The mailed link, opened from the mailbox: a page load of its own.
  const { token } = await mailedLink(server.dbPath, editor.email, 'reset', before);
  await page.goto('about:blank');
  await page.goto(`/admin/reset#${token}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Choose a new password' })).toBeFocused();
  await expectAccessibleAtBothWidths(page);
  const fresh = strongPassword();
  await page.getByLabel('New password', { exact: true }).fill(fresh);
  await page.getByLabel('Confirm new password').fill(`${fresh}x`);
  await page.getByRole('button', { name: 'Save my new password' }).click();
  await expect(page.getByRole('alert')).toHaveText("The passwords don't match.");
  await page.getByLabel('New password', { exact: true }).fill('password');
  await page.getByLabel('Confirm new password').fill('password');
  await page.getByRole('button', { name: 'Save my new password' }).click();
  await expect(page.getByRole('alert')).toContainText('Choose a password of at least 12 characters');
  await page.getByLabel('New password', { exact: true }).fill(fresh);
  await page.getByLabel('Confirm new password').fill(fresh);
  await page.getByRole('button', { name: 'Save my new password' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Password changed' })).toBeFocused();
  await expect(page.getByRole('status')).toHaveText('Your password is changed. Sign in.');
  await page.getByRole('link', { name: 'Sign in.' }).click();

  // The browser the editor used before is forgotten with the old password: the new one is
  // taken, and a second step is asked (mail is off on this server, so the e-mailed code it
  // needs is said to be unavailable).
  await page.context().addCookies([deviceCookie(server.baseURL, editor)]);
  await page.getByLabel('E-mail').fill(editor.email);
  await page.getByLabel('Password').fill(fresh);
  await page.getByRole('button', { name: 'Access Admin Panel' }).click();
  await expect(page.getByRole('alert')).toHaveText("E-mail isn't configured on this server. Use your authenticator app, a recovery code, or ask the owner");

  // The link worked once.
  await page.goto('about:blank');
  await page.goto(`/admin/reset#${token}`);
  await expect(page.getByRole('heading', { level: 1, name: "This link can't be used" })).toBeFocused();
  await expect(page.getByRole('alert')).toHaveText('This link has expired. Ask for a new one.');
  await page.getByRole('link', { name: 'Ask for a new link' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Reset your password' })).toBeVisible();
});
