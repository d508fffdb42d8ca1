// The admin app's tests: each Playwright worker gets a server of its own (server.ts), and
// every test starts from empty lists in it, so what a test seeds is exactly what the
// dashboard shows, whatever the public-form tests are posting to the shared server.
import { type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { type Server, startServer } from './server';
import { ADMIN_PASSWORD, expect, test as base } from './fixtures';

/** The server's database, through the sqlite3 CLI (which sees the WAL). */
export class Db {
  constructor(readonly path: string) {}

  exec(statements: string): void {
    execFileSync('sqlite3', ['-cmd', '.timeout 5000', this.path, statements]);
  }

  query<T = Record<string, unknown>>(statement: string): T[] {
    const out = execFileSync('sqlite3', ['-cmd', '.timeout 5000', '-json', this.path, statement]).toString().trim();
    return out ? (JSON.parse(out) as T[]) : [];
  }

  /** Inserts a row and returns its id. */
  insert(table: string, row: Record<string, string | number | boolean | null>): number {
    const columns = Object.keys(row);
    const values = Object.values(row).map(literal);
    const [{ id }] = this.query<{ id: number }>(
      `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${values.join(', ')}) RETURNING id`,
    );
    return id;
  }

  reset(): void {
    this.exec(
      'DELETE FROM contact_messages; DELETE FROM volunteer_signups; DELETE FROM newsletter_signups; ' +
        'DELETE FROM donations; DELETE FROM blog_posts;',
    );
  }
}

function literal(value: string | number | boolean | null): string {
  if (value === null) return 'NULL';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? '1' : '0';
  return `'${value.replaceAll("'", "''")}'`;
}

/** An ISO time `minutes` before now, as the server stores times. */
export function minutesAgo(minutes: number): string {
  return new Date(Date.now() - minutes * 60_000).toISOString();
}

export const test = base.extend<{ db: Db }, { server: Server }>({
  server: [
    async ({}, use) => {
      const server = await startServer();
      await use(server);
      await server.stop();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ server }, use) => use(server.baseURL),
  db: [
    async ({ server }, use) => {
      const db = new Db(server.dbPath);
      db.reset();
      await use(db);
    },
    { auto: true },
  ],
});

export { expect };

/** Signs in through the locked card and waits for the dashboard. */
export async function signIn(page: Page): Promise<void> {
  await page.goto('/admin');
  await page.getByLabel('Password').fill(ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Access Admin Panel' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
}

/** Holds the answers to requests matching `pattern` until `release` is called, so a
 *  pending state can be seen; the real server still answers them. */
export async function holdRequests(page: Page, pattern: string | RegExp): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(pattern, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

export function tab(page: Page, name: string) {
  return page.getByRole('tab', { name: new RegExp(`^${name}`) });
}

export function panel(page: Page) {
  return page.getByRole('tabpanel');
}
