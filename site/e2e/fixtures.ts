// Shared test setup: the real server's base URL, a guard that fails any test whose page
// logged an error or warning (hydration mismatches included), axe scans and DB queries.
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Locator, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';

interface Fixtures {
  /** Declares a console message the test provokes on purpose (Chromium logs every 4xx
   *  response, e.g. "Failed to load resource: … status of 400"). */
  allowConsole: (pattern: RegExp) => void;
  allowedConsole: RegExp[];
  consoleGuard: void;
}

export const test = base.extend<Fixtures>({
  baseURL: async ({}, use) => use(process.env.BASE_URL),
  // Every navigation waits for the page's islands to hydrate, as a visitor waits for a
  // page to be ready; what happens before that (plain HTML posts) has its own tests.
  page: async ({ page }, use) => {
    const goto = page.goto.bind(page);
    page.goto = async (url, options) => {
      const response = await goto(url, options);
      await islandsHydrated(page);
      return response;
    };
    await use(page);
  },
  allowedConsole: async ({}, use) => use([]),
  allowConsole: async ({ allowedConsole }, use) => use((pattern) => allowedConsole.push(pattern)),
  consoleGuard: [
    async ({ page, allowedConsole }, use) => {
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`);
      });
      page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
      await use();
      const unexpected = problems.filter((p) => !allowedConsole.some((re) => re.test(p)));
      expect(unexpected, 'the page logged errors or warnings').toEqual([]);
    },
    { auto: true },
  ],
});

/** Resolves once every island on the page has hydrated (islands.ts marks them). */
export async function islandsHydrated(page: Page): Promise<void> {
  await page.waitForFunction(() => [...document.querySelectorAll('[data-island]')].every((e) => e.hasAttribute('data-hydrated')));
}

/** Chromium's console line for a response with `status`. */
export function failedLoad(status: number): RegExp {
  return new RegExp(`Failed to load resource: the server responded with a status of ${status}`);
}

export { expect };
export { ADMIN_PASSWORD } from './settings';

/** Runs axe (WCAG 2.2 A and AA) on the page and expects no violations.
 *  In axe's legacy mode: one `axe.run` in the page (same-origin frames included). The default
 *  runs axe in each frame and then again in a new blank page to merge what they found, which
 *  doubled the time of every scan (on /donate 2.0 s against 0.9 s, the same 44 rules passed)
 *  for the sake of cross-origin frames, which the site does not have. Should one appear, the
 *  scan fails rather than leave it unchecked. */
export async function expectAccessible(page: Page): Promise<void> {
  const origin = new URL(page.url()).origin;
  const foreign = page
    .frames()
    .map((f) => f.url())
    .filter((url) => url !== 'about:blank' && new URL(url).origin !== origin);
  expect(foreign, 'cross-origin frames, which axe would not scan in legacy mode').toEqual([]);
  const results = await new AxeBuilder({ page })
    .setLegacyMode(true)
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .analyze();
  const summary = results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
  expect(summary).toEqual([]);
}

/** An image as a reader meets it: its address answers with an image, and the browser has
 *  it decoded and shown, `width` pixels wide when given. Waits for it: an `<img>` sized by
 *  its class is visible before its bytes arrive, and a broken one never gets a width. */
export async function expectImageShown(img: Locator, width?: number): Promise<void> {
  const naturalWidth = expect.poll(() => img.evaluate((e: HTMLImageElement) => (e.complete ? e.naturalWidth : -1)));
  await (width === undefined ? naturalWidth.toBeGreaterThan(0) : naturalWidth.toBe(width));
  const src = await img.evaluate((e: HTMLImageElement) => e.currentSrc);
  const response = await img.page().request.get(src);
  expect(response.status(), src).toBe(200);
  expect(response.headers()['content-type'], src).toMatch(/^image\//);
}

/** Rows from the server's SQLite database (read through the sqlite3 CLI, which sees WAL). */
export function query<T = Record<string, unknown>>(sql: string): T[] {
  const dbPath = process.env.DB_PATH;
  if (!dbPath) throw new Error('DB_PATH is not set; run through playwright test');
  const out = execFileSync('sqlite3', ['-json', '-readonly', dbPath, sql]).toString().trim();
  return out ? (JSON.parse(out) as T[]) : [];
}

/** Runs a statement against the server's database (to arrange what a test needs). */
export function execute(statement: string): void {
  const dbPath = process.env.DB_PATH;
  if (!dbPath) throw new Error('DB_PATH is not set; run through playwright test');
  execFileSync('sqlite3', ['-cmd', '.timeout 5000', dbPath, statement]);
}

/** A value as an SQL string literal, for test-made values in `query`. */
export function sql(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

/** A unique e-mail address per call, so parallel tests never collide. */
export function uniqueEmail(tag: string): string {
  return `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.org`;
}

/** The visible toast (Radix renders one <li> per toast in the notifications region). */
export function toastRegion(page: Page) {
  return page.getByRole('region', { name: /Notifications/ });
}

/** The text an element shows as the browser's accessibility tree has it: what a screen reader
 *  reads and a reader sees, CSS-generated text (`::before`, counters) included, which
 *  `innerText`, `textContent` and Playwright's aria snapshots leave out. Its pieces are
 *  joined by single spaces. */
export async function shownText(locator: Locator): Promise<string> {
  const page = locator.page();
  const cdp = await page.context().newCDPSession(page);
  try {
    const marker = `shown-${Math.random().toString(36).slice(2)}`;
    await locator.evaluate((e, m) => e.setAttribute('data-shown-text', m), marker);
    const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector: `[data-shown-text="${marker}"]` });
    const { node } = await cdp.send('DOM.describeNode', { nodeId });
    await locator.evaluate((e) => e.removeAttribute('data-shown-text'));
    const { nodes } = await cdp.send('Accessibility.getFullAXTree');
    const byId = new Map(nodes.map((n) => [n.nodeId, n]));
    const start = nodes.find((n) => n.backendDOMNodeId === node.backendNodeId);
    if (!start) return '';
    const texts: string[] = [];
    const walk = (n: (typeof nodes)[number]) => {
      if (n.role?.value === 'StaticText') texts.push(String(n.name?.value ?? ''));
      else for (const id of n.childIds ?? []) walk(byId.get(id)!);
    };
    walk(start);
    // Pieces joined with a space (a block's text and the next one's are apart on screen);
    // the spaces a piece already has collapse into it.
    return texts.join(' ').replace(/\s+/g, ' ').trim();
  } finally {
    await cdp.detach();
  }
}
