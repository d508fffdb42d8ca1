import { expectAccessible, expect, failedLoad, test } from './fixtures';

const SITE = 'https://americanconscienceparty.org';

test.describe('home page', () => {
  test('has its title, metadata and PoliticalParty structured data', async ({ page }) => {
    const response = await page.goto('/');
    expect(response?.status()).toBe(200);
    await expect(page).toHaveTitle('American Conscience Party | A Third Party for Independent Voters');
    const meta = (selector: string) => page.locator(selector).getAttribute('content');
    expect(await meta('meta[name="description"]')).toMatch(/grassroots, faith-friendly third party/);
    expect(await meta('meta[name="keywords"]')).toContain('third party');
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', `${SITE}/`);
    expect(await meta('meta[property="og:title"]')).toBe(await page.title());
    expect(await meta('meta[property="og:url"]')).toBe(`${SITE}/`);
    expect(await meta('meta[property="og:image"]')).toMatch(new RegExp(`^${SITE}/media/og-image-1200\\.[0-9a-f]+\\.jpg$`));
    expect(await meta('meta[name="twitter:card"]')).toBe('summary_large_image');

    const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
    expect(blocks).toHaveLength(1);
    const party = JSON.parse(blocks[0]);
    expect(party).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'PoliticalParty',
      name: 'American Conscience Party',
      alternateName: 'ACP',
      foundingDate: '2024',
      contactPoint: { '@type': 'ContactPoint', url: `${SITE}/contact` },
    });

    // The social image really exists at the advertised path.
    const ogPath = new URL((await meta('meta[property="og:image"]'))!).pathname;
    expect((await page.request.get(ogPath)).status()).toBe(200);
  });

  test('shows the hero, the signup form and the four promo cards', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('We are the American Conscience Party.');
    await expect(page.getByRole('heading', { name: 'Sign up to get the latest' })).toBeVisible();
    for (const label of ['Email', 'Phone', 'ZIP code']) await expect(page.getByLabel(label)).toBeVisible();
    await expect(page.getByText(/recurring automated text messages and calls/)).toBeVisible();
    await expect(page.getByText(/Message and data rates may apply/)).toBeVisible();
    await expect(page.getByText(/Text STOP to end, HELP for help\./)).toBeVisible();
    const links = await page.locator('[data-testid="cards-row"] a').evaluateAll((as) => as.map((a) => [a.textContent, a.getAttribute('href')]));
    expect(links).toEqual([
      ['Leadership', '/leadership'],
      ['The Issues', '/issues'],
      ['Contact', '/contact'],
      ['Take Action', '/take-action'],
    ]);
  });

  test('shows everything without JavaScript', async ({ browser, baseURL }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(`${baseURL}/`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('We are the American Conscience Party.');
    for (const label of ['Email', 'Phone', 'ZIP code']) await expect(page.getByLabel(label)).toBeVisible();
    // The form cannot post without scripts, so it says so and offers e-mail instead.
    await expect(page.getByRole('button', { name: 'Join the Movement' })).toBeDisabled();
    // Playwright's text engine skips <noscript>, so find the note by its place.
    const note = page.locator('#signup noscript p');
    await expect(note).toBeVisible();
    await expect(note).toContainText('This form needs JavaScript.');
    await expect(note.locator('a')).toHaveAttribute('href', 'mailto:info@americanconscienceparty.org');
    const slides = page.locator('[data-testid="cards-carousel"] [aria-roledescription="slide"]');
    await expect(slides).toHaveCount(4);
    for (const slide of await slides.all()) await expect(slide).toBeVisible();
    // All four can be reached by scrolling the row.
    await slides.nth(3).scrollIntoViewIfNeeded();
    await expect(slides.nth(3).getByRole('link', { name: 'Take Action' })).toBeInViewport();
    // The menu cannot toggle without scripts, so its links are simply shown.
    await expect(page.getByRole('navigation', { name: 'Mobile' }).getByRole('link', { name: 'Leadership' })).toBeVisible();
    await context.close();
  });

  test('at narrow widths the cards are a carousel that wraps and jumps by dot', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/');
    const carousel = page.getByTestId('cards-carousel');
    const current = () => carousel.locator('[aria-roledescription="slide"]:visible');
    await expect(current()).toHaveCount(1);
    await expect(current()).toHaveAttribute('aria-label', '1 of 4');
    await expect(current().getByRole('heading')).toHaveText('Leadership');

    await carousel.getByRole('button', { name: 'Previous card' }).click();
    await expect(current().getByRole('heading')).toHaveText('Take Action');
    await expect(current()).toHaveAttribute('aria-label', '4 of 4');
    await carousel.getByRole('button', { name: 'Next card' }).click();
    await expect(current().getByRole('heading')).toHaveText('Leadership');
    await carousel.getByRole('button', { name: 'Next card' }).click();
    await expect(current().getByRole('heading')).toHaveText('The Issues');

    const dots = carousel.getByRole('button', { name: /^Show card/ });
    await expect(dots).toHaveCount(4);
    await dots.nth(2).click();
    await expect(current().getByRole('heading')).toHaveText('Contact');
    await expect(dots.nth(2)).toHaveAttribute('aria-current', 'true');
    await expect(dots.nth(0)).not.toHaveAttribute('aria-current', 'true');
    await expect(page.getByTestId('cards-row')).toBeHidden();
  });

  test('at xl the four cards sit in one row', async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto('/');
    const cards = page.getByTestId('cards-row').locator('article');
    await expect(cards).toHaveCount(4);
    const boxes = await Promise.all((await cards.all()).map((c) => c.boundingBox()));
    const tops = new Set(boxes.map((b) => Math.round(b!.y)));
    expect(tops.size).toBe(1);
    expect(boxes[3]!.x).toBeGreaterThan(boxes[0]!.x);
    await expect(page.getByTestId('cards-carousel')).toBeHidden();
  });

  test('passes an axe scan at phone and desktop widths', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/');
    await expect(page.getByRole('button', { name: 'Next card' })).toBeVisible();
    await expectAccessible(page);
    await page.setViewportSize({ width: 1440, height: 900 });
    await expectAccessible(page);
  });
});

test.describe('404', () => {
  test('unknown paths answer 404 with the not-found page', async ({ page, allowConsole }) => {
    allowConsole(failedLoad(404));
    const response = await page.goto('/no-such-page');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
    await expect(page.getByText("Sorry, the page you're looking for doesn't exist or may have been moved.")).toBeVisible();
    await expectAccessible(page);
  });
});
