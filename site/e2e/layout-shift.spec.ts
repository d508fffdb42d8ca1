// Nothing on any public page moves once painted: from the first paint, through hydration
// and every lazy image coming in as the page is read to the end, the layout-shift entries
// (those not caused by the visitor's own input) add up to zero, at phone and desktop width.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, failedLoad, test } from './fixtures';

const dist = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..', 'dist');

/** Every page the generator wrote (`…/index.html`), plus an unknown path for the 404 page. */
function pages(dir = dist, prefix = ''): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name.startsWith('.') ? [] : pages(path, `${prefix}/${name}`);
    return name === 'index.html' ? [prefix || '/'] : [];
  });
}

const PATHS = [...pages().sort(), '/no-such-page'];

// A lazy image without a size far down a page shifts only what is off screen when it comes
// in, which the walk below cannot see; the reader who scrolls there meets it. So every
// image the generator wrote carries its size.
test('every image on every page has its width and height', () => {
  const unsized = PATHS.slice(0, -1).flatMap((path) => {
    const html = readFileSync(join(dist, path, 'index.html'), 'utf8');
    return [...html.matchAll(/<img\b[^>]*>/g)]
      .map((m) => m[0])
      .filter((img) => !/\swidth="\d+"/.test(img) || !/\sheight="\d+"/.test(img))
      .map((img) => `${path}: ${img}`);
  });
  expect(unsized).toEqual([]);
});

declare global {
  interface Window {
    __shifts: { value: number; nodes: string[] }[];
  }
}

for (const width of [390, 1440]) {
  test.describe(`at ${width} px`, () => {
    for (const path of PATHS) {
      test(`${path} does not shift`, async ({ page, allowConsole }) => {
        allowConsole(failedLoad(404));
        await page.setViewportSize({ width, height: width < 500 ? 844 : 900 });
        await page.addInitScript(() => {
          window.__shifts = [];
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean; sources: { node?: Node }[] })[]) {
              if (entry.hadRecentInput) continue;
              const nodes = entry.sources.map((s) => (s.node instanceof Element ? s.node.outerHTML.slice(0, 120) : String(s.node)));
              window.__shifts.push({ value: entry.value, nodes });
            }
          }).observe({ type: 'layout-shift', buffered: true });
        });
        await page.goto(path);
        // Read to the end at once, as a reader who scrolls does, so lazy images and anything
        // below the fold come in too; the observer sees every shift until the network is
        // quiet at the end, hydration's included. Instant, as a wheel or a finger moves the
        // page: the site's `scroll-behavior: smooth` animates only scripted scrolls (and
        // in-page links), and here each such scroll held the next step for about 0.45 s.
        const height = await page.evaluate(() => document.documentElement.scrollHeight);
        for (let y = 0; y < height; y += 600) {
          await page.evaluate((top) => window.scrollTo({ top, behavior: 'instant' }), y);
          await page.waitForTimeout(50);
        }
        await page.waitForLoadState('networkidle');
        const shifts = await page.evaluate(() => window.__shifts);
        const total = shifts.reduce((sum, s) => sum + s.value, 0);
        expect(total, JSON.stringify(shifts, null, 1)).toBe(0);
      });
    }
  });
}
