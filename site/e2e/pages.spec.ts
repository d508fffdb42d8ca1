import { expectAccessible, expect, test } from './fixtures';

const SITE = 'https://americanconscienceparty.org';

/** Every public page: its JSON-LD types and the nav link that marks it current. */
const PAGES: { path: string; types: string[]; nav: string | null; inMore: boolean; h1: string | RegExp }[] = [
  { path: '/', types: ['PoliticalParty'], nav: 'Home', inMore: false, h1: 'We are the American Conscience Party.' },
  { path: '/leadership', types: ['AboutPage'], nav: 'Leadership', inMore: false, h1: 'Who We Are' },
  { path: '/issues', types: ['WebPage'], nav: 'Where We Stand', inMore: false, h1: 'Where We Stand' },
  { path: '/take-action', types: ['WebPage'], nav: 'Take Action', inMore: false, h1: 'Take Action' },
  { path: '/contact', types: ['ContactPage'], nav: 'Contact', inMore: true, h1: 'Contact Us' },
  { path: '/donate', types: ['WebPage'], nav: null, inMore: false, h1: 'Fuel a Movement of Conscience' },
  { path: '/join', types: ['Article'], nav: 'How to Join', inMore: true, h1: 'How to Join the American Conscience Party' },
  {
    path: '/why-third-party',
    types: ['Article', 'FAQPage'],
    nav: 'Why Third Party?',
    inMore: true,
    h1: 'Why Vote Third Party? Because You Deserve Real Representation',
  },
  { path: '/movement', types: ['Article'], nav: 'The Movement', inMore: true, h1: 'The Rise of the New Third Party Movement' },
  { path: '/privacy-policy', types: ['WebPage'], nav: null, inMore: false, h1: 'Privacy Policy' },
];

test.describe('every public page', () => {
  const titles = new Map<string, string>();

  for (const p of PAGES) {
    test(`${p.path} has its metadata, structured data, current nav link and no axe violations at desktop and phone widths`, async ({ page }) => {
      await page.setViewportSize({ width: 1440, height: 900 });
      const response = await page.goto(p.path);
      expect(response?.status()).toBe(200);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(p.h1);

      const title = await page.title();
      expect(title.length).toBeGreaterThan(10);
      expect(title.length).toBeLessThanOrEqual(70);
      expect(title).toMatch(/American Conscience Party|ACP/);
      titles.set(p.path, title);

      const meta = (selector: string) => page.locator(selector).getAttribute('content');
      const description = (await meta('meta[name="description"]'))!;
      expect(description.length).toBeGreaterThan(50);
      expect(description.length).toBeLessThanOrEqual(170);
      expect((await meta('meta[name="keywords"]'))!.split(',').length).toBeGreaterThanOrEqual(3);
      const canonical = p.path === '/' ? `${SITE}/` : `${SITE}${p.path}`;
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', canonical);
      expect(await meta('meta[property="og:url"]')).toBe(canonical);
      expect(await meta('meta[property="og:title"]')).toBe(title);
      expect(await meta('meta[property="og:description"]')).toBe(description);
      expect(await meta('meta[name="twitter:title"]')).toBe(title);
      expect(await meta('meta[property="og:image"]')).toMatch(/^https:\/\/americanconscienceparty\.org\/media\/og-image/);

      const ld = (await page.locator('script[type="application/ld+json"]').allTextContents()).map((t) => JSON.parse(t));
      expect(ld.map((block) => block['@type'])).toEqual(p.types);
      for (const block of ld) expect(block['@context']).toBe('https://schema.org');

      const main = page.getByRole('navigation', { name: 'Main' });
      // One link is current: a top-level link, or one inside the More dropdown.
      const current = main.locator('a[aria-current="page"]');
      if (p.nav) {
        await expect(current).toHaveText(p.nav);
      } else {
        await expect(current).toHaveCount(0);
      }
      if (p.inMore) {
        await expect(main.getByRole('button', { name: 'More' })).toHaveClass(/nav-link-active/);
        await expect(page.locator('#more-menu [aria-current="page"]')).toHaveText(p.nav!);
      }

      await expectAccessible(page);
      await page.setViewportSize({ width: 390, height: 844 });
      await expectAccessible(page);
    });
  }

  test('titles are unique and the leadership page targets 2028 third-party searches', async ({ page }) => {
    const seen = new Set<string>();
    for (const p of PAGES) {
      await page.goto(p.path);
      const title = await page.title();
      expect(seen.has(title), `duplicate title ${title}`).toBe(false);
      seen.add(title);
    }
    await page.goto('/leadership');
    expect(await page.title()).toMatch(/third party presidential candidates 2028/i);
    expect(await page.locator('meta[name="keywords"]').getAttribute('content')).toMatch(/third party presidential candidates 2028/i);
  });
});

test.describe('sitemap and robots', () => {
  test('sitemap.xml indexes sitemaps that list every public page, and robots.txt points to it', async ({ request }) => {
    const locsIn = async (path: string) => [...(await (await request.get(path)).text()).matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    // The index names the pages' sitemap, the events' and, once there are posts, the posts' sitemaps.
    const sitemaps = await locsIn('/sitemap.xml');
    expect(sitemaps.slice(0, 2)).toEqual([`${SITE}/sitemap-pages.xml`, `${SITE}/events/sitemap.xml`]);
    for (const other of sitemaps.slice(2)) expect(other).toMatch(new RegExp(`^${SITE}/blog/sitemap-\\d+\\.xml$`));
    const locs = (await Promise.all(sitemaps.map((loc) => locsIn(new URL(loc).pathname)))).flat();
    // Every page, the blog, the events' list, and whatever posts and events other tests have published meanwhile.
    const pages = locs.filter((loc) => !loc.startsWith(`${SITE}/blog/`) && !loc.startsWith(`${SITE}/events/`));
    const expected = [...PAGES.map((p) => (p.path === '/' ? `${SITE}/` : `${SITE}${p.path}`)), `${SITE}/blog`, `${SITE}/events`];
    expect(pages.sort()).toEqual(expected.sort());
    const robots = await (await request.get('/robots.txt')).text();
    expect(robots).toContain(`Sitemap: ${SITE}/sitemap.xml`);
    expect(robots).toContain('Disallow: /admin');
    expect(robots).toContain('Disallow: /api/');
  });
});
