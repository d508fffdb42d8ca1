// The public site's copy in the deploy bucket (DEPLOY_URL), as staff see it on the dashboard.
// A server of its own whose bucket can never be reached (port 9 refuses every connection):
// a post published through the admin API queues its files, their copy fails, and the
// dashboard says which file, why and when it is tried next; "Try again now" tries at once and
// shows the count go up. A Contributor, who cannot publish, is neither shown it nor asks for
// it; and the shared server, which has no bucket, shows nothing.
import { cpSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type APIRequestContext, type Page } from '@playwright/test';
import { expectAccessibleAtBothWidths, holdRequests, signIn } from './admin-fixtures';
import { expect, test as base, toastRegion } from './fixtures';
import { type Server, startServer } from './server';
import { createUser, ownerToken } from './staff';

interface DeployStatus {
  target: string | null;
  waiting: number;
  oldestQueuedAt: string | null;
  failing: { path: string; attempts: number; lastError: string; nextAttemptAt: string } | null;
}

const test = base.extend<object, { server: Server }>({
  server: [
    async ({}, use) => {
      const server = await startServer({
        DEPLOY_URL: 's3://acp-site',
        DEPLOY_ENDPOINT: 'http://127.0.0.1:9',
        DEPLOY_ACCESS_KEY_ID: 'test',
        DEPLOY_SECRET_ACCESS_KEY: 'test',
      });
      await use(server);
      await server.stop();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ server }, use) => use(server.baseURL),
});

const BEHIND = "The public site's copy is behind";
const root = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');

async function call<T>(request: APIRequestContext, token: string, method: 'GET' | 'POST', path: string, data?: object): Promise<T> {
  const res = await request.fetch(path, { method, headers: { authorization: `Bearer ${token}` }, data });
  expect(res.ok(), await res.text()).toBe(true);
  return (await res.json()) as T;
}

/** Publishes a post (its page and the lists that show it are queued for the bucket) and
 *  waits until the server has tried the copy at the head of the queue and failed. */
async function publishUntilFailing(request: APIRequestContext, server: Server): Promise<DeployStatus & { failing: object }> {
  const token = await ownerToken(server.baseURL);
  await call(request, token, 'POST', '/api/admin/blogs', { title: 'Ballot access in Ohio', content: '<p>We are on the ballot.</p>', status: 'published' });
  let status: DeployStatus | undefined;
  // The publish rings the queue; each try waits out the S3 client's own quick retries.
  await expect
    .poll(async () => (status = await call<DeployStatus>(request, token, 'GET', '/api/admin/deploy')).failing, {
      timeout: 30_000,
      message: 'the server tries the queued copy on its own and records its failure',
    })
    .not.toBeNull();
  return status as DeployStatus & { failing: object };
}

/** The warning's sentence for `status`, its date written as the admin writes dates, in the
 *  browser's time zone. */
async function sentence(page: Page, { waiting, target, failing }: DeployStatus): Promise<string> {
  if (!failing) throw new Error('nothing is failing');
  const next = await page.evaluate(
    (iso) => new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeStyle: 'short' }).format(Date.parse(iso)),
    failing.nextAttemptAt,
  );
  const files = waiting === 1 ? '1 changed file is' : `${waiting} changed files are`;
  const times = failing.attempts === 1 ? '1 time' : `${failing.attempts} times`;
  return `${files} waiting to reach ${target}. Copying ${failing.path} failed ${times}: ${failing.lastError}. Next try: ${next}.`;
}

function deployAnswer(page: Page, path: '/api/admin/deploy' | '/api/admin/deploy/retry') {
  return page.waitForResponse((r) => new URL(r.url()).pathname === path);
}

test('a copy that keeps failing: the file, the error and the next try on the dashboard, and "Try again now" tries at once', async ({
  page,
  request,
  server,
}) => {
  const queued = await publishUntilFailing(request, server);
  expect(queued.target).toBe('s3://acp-site');
  expect(queued.waiting).toBeGreaterThan(0);
  expect(queued.failing.lastError).toContain('Connection refused');

  const loaded = deployAnswer(page, '/api/admin/deploy');
  await signIn(page);
  // What the dashboard was told (a later try may have run since the poll above): the same
  // file, which stays at the head of the queue until it is copied.
  const shown = (await (await loaded).json()) as DeployStatus;
  expect(shown.failing?.path).toBe(queued.failing.path);
  const warning = page.getByRole('status', { name: BEHIND });
  await expect(warning.getByRole('heading', { level: 2 })).toHaveText(BEHIND);
  const line = warning.getByText(/ waiting to reach /);
  await expect(line).toHaveText(await sentence(page, shown));
  await expect(line).toContainText(`Copying ${queued.failing.path} failed `);
  await expectAccessibleAtBothWidths(page);

  const attemptsShown = async () => Number(/ failed (\d+) times?: /.exec((await line.textContent()) ?? '')?.[1]);
  const before = await attemptsShown();
  expect(before).toBe(shown.failing?.attempts);

  // While the server tries, the button says so and keeps the focus.
  const release = await holdRequests(page, '**/api/admin/deploy/retry');
  const retried = deployAnswer(page, '/api/admin/deploy/retry');
  await warning.getByRole('button', { name: 'Try again now' }).click();
  const trying = warning.getByRole('button', { name: 'Trying again...' });
  await expect(trying).toHaveAttribute('aria-disabled', 'true');
  await expect(trying).toBeFocused();
  release();
  const after = (await (await retried).json()) as DeployStatus;
  // Still failing (the bucket cannot be reached): the new count, error and next try shown.
  expect(after.failing?.path).toBe(queued.failing.path);
  await expect(line).toHaveText(await sentence(page, after));
  expect(await attemptsShown()).toBeGreaterThan(before);
  await expect(warning.getByRole('button', { name: 'Try again now' })).toBeFocused();
  await expect(toastRegion(page).getByText("The public site's copy is up to date")).toHaveCount(0);
});

test('a Contributor, who cannot publish, is not shown the warning and does not ask for it', async ({ page, request, server }) => {
  await publishUntilFailing(request, server);
  const contributor = await createUser(server.baseURL, server.dbPath, server.owner, 'contributor');
  const asked: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname.startsWith('/api/admin/deploy')) asked.push(r.url());
  });
  await signIn(page, contributor);
  await expect(page.getByRole('tab', { name: /^Blogs/ })).toHaveAttribute('aria-selected', 'true');
  await page.waitForLoadState('networkidle');
  expect(asked).toEqual([]);
  await expect(page.getByRole('heading', { name: BEHIND })).toHaveCount(0);
});

base('a server without a deploy bucket shows no warning', async ({ page }) => {
  const loaded = deployAnswer(page, '/api/admin/deploy');
  await signIn(page);
  expect(((await (await loaded).json()) as DeployStatus).target).toBeNull();
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
  await expect(page.getByRole('heading', { name: BEHIND })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Try again now' })).toHaveCount(0);
});

test('a publish that could not be written says so on the dashboard until a rebuild succeeds', async ({ browser }) => {
  const server = await startServer({}, { withoutBundles: true });
  const context = await browser.newContext({ baseURL: server.baseURL });
  try {
    const page = await context.newPage();
    const token = await ownerToken(server.baseURL);
    const post = { title: 'Not on the site yet', content: '<p>Saved, not written.</p>', status: 'published' };
    const saved = await call<{ warning?: string }>(page.request, token, 'POST', '/api/admin/blogs', post);
    expect(saved.warning).toContain('could not be updated');
    expect((await page.request.get('/blog/not-on-the-site-yet')).status()).toBe(404);

    await signIn(page);
    const warning = page.getByRole('status', { name: 'The public pages are not up to date' });
    await expect(warning).toContainText('are in the database but not on the website');
    await expect(warning).toContainText('manifest');
    await expectAccessibleAtBothWidths(page);

    // The bundles built: the next change brings the site up to date, and the warning goes.
    cpSync(join(root, 'build', 'client'), join(server.project, 'build', 'client'), { recursive: true });
    await call(page.request, token, 'POST', '/api/admin/blogs', { ...post, title: 'On the site now' });
    expect((await page.request.get('/blog/not-on-the-site-yet')).status()).toBe(200);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'The public pages are not up to date' })).toHaveCount(0);
  } finally {
    await context.close();
    await server.stop();
  }
});
