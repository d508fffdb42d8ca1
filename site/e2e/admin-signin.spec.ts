// The admin shell and the locked card: signing in, every way it can go.
import { ADMIN_PASSWORD, expectAccessible, failedLoad } from './fixtures';
import { expect, signIn, test } from './admin-fixtures';
import { ADMIN_EMAIL } from './settings';
import { startServer } from './server';

test('the shell is never stored nor indexed, and public pages load none of its code', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'script' || r.resourceType() === 'stylesheet') scripts.push(new URL(r.url()).pathname);
  });
  for (const path of ['/admin', '/admin/dashboard', '/admin/blog/new']) {
    const response = await page.goto(path);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['cache-control']).toBe('no-store');
    expect(response?.headers()['x-robots-tag']).toBe('noindex');
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
  }
  const adminFiles = scripts.filter((s) => /\/assets\/admin-/.test(s));
  expect(adminFiles.length).toBeGreaterThanOrEqual(2); // the app's script and stylesheet

  scripts.length = 0;
  for (const path of ['/', '/contact']) {
    await page.goto(path);
    await page.getByRole('main').locator('form').first().focus(); // starts the toaster's load too
  }
  await page.waitForLoadState('networkidle');
  expect(scripts.filter((s) => adminFiles.includes(s) || /admin|BlogEdit/.test(s))).toEqual([]);
});

test('the locked card: its texts, visible labels, and no violations at 1440 and 390 px', async ({ page }) => {
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/admin/dashboard');
    await expect(page.getByRole('heading', { level: 1, name: 'Admin Access' })).toBeVisible();
    const email = page.getByLabel('E-mail');
    await expect(email).toHaveAttribute('type', 'email');
    await expect(email).toHaveAttribute('autocomplete', 'username');
    // The e-mail comes first, then the password.
    await expect(page.getByRole('textbox').first()).toHaveAccessibleName('E-mail');
    await expect(page.getByRole('link', { name: 'Forgot your password?' })).toHaveAttribute('href', '/admin/reset');
    const password = page.getByLabel('Password');
    await expect(password).toHaveAttribute('placeholder', 'Enter admin password');
    await expect(password).toHaveAttribute('type', 'password');
    await expect(page.getByRole('button', { name: 'Access Admin Panel' })).toBeEnabled();
    await expectAccessible(page);
  }
});

test('a blank e-mail or password is refused in the browser, spaces included', async ({ page }) => {
  let logins = 0;
  page.on('request', (r) => {
    if (r.url().endsWith('/api/admin/login')) logins += 1;
  });
  await page.goto('/admin');
  const email = page.getByLabel('E-mail');
  const password = page.getByLabel('Password');
  await page.getByRole('button', { name: 'Access Admin Panel' }).click();
  expect(await email.evaluate((el: HTMLInputElement) => el.validity.valueMissing)).toBe(true);
  await email.fill(ADMIN_EMAIL);
  await page.getByRole('button', { name: 'Access Admin Panel' }).click();
  expect(await password.evaluate((el: HTMLInputElement) => el.validity.valueMissing)).toBe(true);
  await password.fill('   ');
  await password.press('Enter');
  await expect(page.getByRole('alert')).toHaveText('Enter the admin password.');
  await expect(password).toHaveAttribute('aria-invalid', 'true');
  expect(logins).toBe(0);
});

test('a wrong password says "Invalid e-mail or password" in an alert; Enter submits', async ({ page, allowConsole }) => {
  allowConsole(failedLoad(401));
  let dialogs = 0;
  page.on('dialog', () => (dialogs += 1));
  await page.goto('/admin');
  await page.getByLabel('E-mail').fill(ADMIN_EMAIL);
  await page.getByLabel('Password').fill('not the password');
  await page.getByLabel('Password').press('Enter');
  await expect(page.getByRole('alert')).toHaveText('Invalid e-mail or password');
  await expect(page.getByLabel('Password')).toHaveAccessibleDescription('Invalid e-mail or password');
  // An address with no account says exactly the same.
  await page.getByLabel('E-mail').fill('nobody@e2e.test');
  await page.getByLabel('Password').fill(ADMIN_PASSWORD);
  await page.getByLabel('Password').press('Enter');
  await expect(page.getByRole('alert')).toHaveText('Invalid e-mail or password');
  expect(dialogs).toBe(0);
  expect(await page.evaluate(() => sessionStorage.getItem('adminToken'))).toBeNull();
  await expect(page.getByRole('heading', { name: 'Admin Access' })).toBeVisible();
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await expectAccessible(page);
  }
});

test('the right password: "Authenticating...", then the dashboard at /admin/dashboard', async ({ page }) => {
  await page.goto('/admin');
  await page.getByLabel('E-mail').fill(ADMIN_EMAIL);
  await page.getByLabel('Password').fill(ADMIN_PASSWORD);
  let release!: () => void;
  await page.route('**/api/admin/login', async (route) => {
    await new Promise<void>((r) => (release = r));
    await route.continue();
  });
  await page.getByRole('button', { name: 'Access Admin Panel' }).click();
  await expect(page.getByRole('button', { name: 'Authenticating...' })).toBeDisabled();
  release();
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
  await expect(page.getByText('Manage contact submissions, volunteer signups, and donations')).toBeVisible();
  const token = await page.evaluate(() => sessionStorage.getItem('adminToken'));
  expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
  // A reload keeps the session (the token is in sessionStorage), and the lists come with the Bearer header.
  const listed = page.waitForRequest('**/api/admin/contacts');
  await page.reload();
  expect((await listed).headers()['authorization']).toBe(`Bearer ${token}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
});

test('/admin with a session shows the dashboard too', async ({ page }) => {
  await signIn(page);
  await page.goto('/admin');
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
});

test('too many failures: the server says when to try again (429)', async ({ browser, allowConsole }) => {
  allowConsole(failedLoad(401));
  allowConsole(failedLoad(429));
  // A lockout lasts 15 minutes for the address: this test has a server to itself.
  const server = await startServer();
  const context = await browser.newContext({ baseURL: server.baseURL });
  try {
    for (let i = 0; i < 10; i += 1) {
      const res = await context.request.post('/api/admin/login', { data: { email: ADMIN_EMAIL, password: `wrong ${i}` } });
      expect(res.status()).toBe(401);
    }
    const page = await context.newPage();
    await page.goto('/admin');
    await page.getByLabel('E-mail').fill(ADMIN_EMAIL);
    await page.getByLabel('Password').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Access Admin Panel' }).click();
    await expect(page.getByRole('alert')).toHaveText(/^Too many failed sign-in attempts\. Please try again in \d+ minutes\.$/);
    await expect(page.getByRole('heading', { name: 'Admin Access' })).toBeVisible();
  } finally {
    await context.close();
    await server.stop();
  }
});
