// The blog as a visitor sees it, with posts written through the real admin API: the list
// and its pager, a post with its metadata and structured data, renamed posts, and the
// blog's own not-found page. Serial: the pager depends on how many posts there are.
import { type APIRequestContext } from '@playwright/test';
import { expect, expectAccessible, failedLoad, shownText, test } from './fixtures';
import { ownerToken } from './staff';

test.describe.configure({ mode: 'serial' });

/** A session of the shared server's Owner (signed in from the browser they use: no second step). */
async function signIn(): Promise<string> {
  return ownerToken();
}

async function save(request: APIRequestContext, token: string, method: 'POST' | 'PATCH', path: string, data?: object) {
  const res = await request.fetch(path, { method, headers: { authorization: `Bearer ${token}` }, data });
  expect(res.ok(), await res.text()).toBe(true);
  const body = await res.json();
  expect(body.warning).toBeUndefined();
  return body;
}

/** "January 5, 2025" in the party's time zone, as the pages show dates. */
function shown(iso: string): string {
  return new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', month: 'long', day: 'numeric', year: 'numeric' }).format(new Date(iso));
}

test.describe('the blog', () => {
  test('starts empty', async ({ page }) => {
    await page.goto('/blog');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('ACP Blog');
    await expect(page.getByRole('heading', { name: 'Featured Articles' })).toBeVisible();
    const featured = page.locator('section[aria-labelledby="featured-heading"] a');
    await expect(featured).toHaveText(['How to Join', 'Why Third Party?', 'The Movement']);
    expect(await featured.evaluateAll((as) => as.map((a) => a.getAttribute('href')))).toEqual(['/join', '/why-third-party', '/movement']);
    await expect(page.getByText('No Blog Posts Yet')).toBeVisible();
    await expect(page.getByText('Check back soon for updates, news, and insights from the party.')).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Blog pages' })).toHaveCount(0);
  });

  test('reads from the newest post to the oldest, five a page and each once, with "Page X of Y", and back', async ({ page, request }) => {
    const token = await signIn();
    for (let i = 1; i <= 12; i++) {
      await save(request, token, 'POST', '/api/admin/blogs', {
        title: `Dispatch ${i}`,
        content: `<p>Report number ${i} from the road.</p>`,
        excerpt: i === 12 ? null : `Summary of dispatch ${i}.`,
        status: 'published',
      });
    }
    await save(request, token, 'POST', '/api/admin/blogs', { title: 'Unfinished draft', status: 'draft' });
    const dispatches = (...n: number[]) => n.map((i) => `Dispatch ${i}`);
    const pages = [dispatches(12, 11, 10, 9, 8), dispatches(7, 6), dispatches(5, 4, 3, 2, 1)];

    await page.goto('/blog');
    const cards = page.getByTestId('post-cards').getByRole('article');
    await expect(cards.first()).toContainText('Read more to discover the full story...');
    await expect(cards.nth(1)).toContainText('Summary of dispatch 11.');
    await expect(page.getByText('Unfinished draft')).toHaveCount(0);
    const pager = page.getByRole('navigation', { name: 'Blog pages' });
    const headings = page.getByTestId('post-cards').getByRole('heading');
    const label = pager.locator('[aria-current="page"]');
    const previous = pager.getByRole('link', { name: 'Previous: newer posts' });
    const next = pager.getByRole('link', { name: 'Next: older posts' });
    const day = String.raw`[A-Z][a-z]+ \d{1,2}, \d{4}`;
    // Following Next: every post once, newest first, each page numbered.
    const read: string[] = [];
    for (const [i, titles] of pages.entries()) {
      await expect(headings).toHaveText(titles);
      await expect.poll(() => shownText(label)).toMatch(new RegExp(`^Page ${i + 1} of 3\\b`));
      await expect(previous).toHaveCount(i > 0 ? 1 : 0);
      await expect(next).toHaveCount(i < pages.length - 1 ? 1 : 0);
      if (i > 0) await expect(label.getByText(new RegExp(`^Posts from ${day}( to ${day})?$`))).toBeVisible();
      read.push(...(await headings.allTextContents()));
      if (i === 0 || i === 2) {
        await expectAccessible(page);
        await page.setViewportSize({ width: 390, height: 844 });
        await expectAccessible(page);
        await page.setViewportSize({ width: 1280, height: 720 });
      }
      if (i < pages.length - 1) await next.click();
    }
    expect(read).toEqual(dispatches(12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1));
    // And back with Previous, the same pages in reverse, to /blog.
    for (let i = pages.length - 2; i >= 0; i--) {
      await previous.click();
      await expect(headings).toHaveText(pages[i]);
      await expect.poll(() => shownText(label)).toMatch(new RegExp(`^Page ${i + 1} of 3\\b`));
    }
    await expect(page).toHaveURL(/\/blog$/);
  });

  test('publishing fills the newest page, then starts a new one, and every page counts it', async ({ page, request }) => {
    const token = await signIn();
    const label = page.getByRole('navigation', { name: 'Blog pages' }).locator('[aria-current="page"]');
    const headings = page.getByTestId('post-cards').getByRole('heading');
    // 12 posts so far: the oldest five are the last of three pages.
    await page.goto('/blog/archive/1');
    await expect(headings).toHaveText(['Dispatch 5', 'Dispatch 4', 'Dispatch 3', 'Dispatch 2', 'Dispatch 1']);
    await expect.poll(() => shownText(label)).toMatch(/^Page 3 of 3\b/);
    // Into a page that is not full: it grows, the count stays.
    for (let i = 13; i <= 15; i++) await save(request, token, 'POST', '/api/admin/blogs', { title: `Dispatch ${i}`, status: 'published' });
    await page.goto('/blog/archive/2');
    await expect(headings).toHaveText(['Dispatch 10', 'Dispatch 9', 'Dispatch 8', 'Dispatch 7', 'Dispatch 6']);
    await expect.poll(() => shownText(label)).toMatch(/^Page 2 of 3\b/);
    // Into a full page: a new page between /blog and it, and every page says there are four.
    await save(request, token, 'POST', '/api/admin/blogs', { title: 'Dispatch 16', status: 'published' });
    await page.goto('/blog');
    await page.getByRole('link', { name: 'Next: older posts' }).click();
    await expect(page).toHaveURL(/\/blog\/archive\/3$/);
    await expect(headings).toHaveText(['Dispatch 11']);
    await expect.poll(() => shownText(label)).toMatch(/^Page 2 of 4\b/);
    await page.goto('/blog/archive/1');
    await expect(headings).toHaveText(['Dispatch 5', 'Dispatch 4', 'Dispatch 3', 'Dispatch 2', 'Dispatch 1']);
    await expect.poll(() => shownText(label)).toMatch(/^Page 4 of 4\b/);
  });

  test('a post has its page, metadata and BlogPosting data', async ({ page, request }) => {
    const token = await signIn();
    const post = await save(request, token, 'POST', '/api/admin/blogs', {
      title: 'Why We March',
      content: '<h2>Together</h2><p>We march for <strong>clean food</strong>.</p><ul><li>Schools</li><li>Clinics</li></ul>',
      excerpt: 'A short account of why we take to the streets.',
      keywords: 'march, conscience',
      authorName: 'Marian Hale',
      status: 'published',
    });
    await page.goto('/blog');
    await page.getByRole('link', { name: 'Read More about Why We March' }).click();
    await expect(page).toHaveURL(/\/blog\/why-we-march$/);
    await expect(page).toHaveTitle('Why We March - American Conscience Party');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Why We March');
    await expect(page.getByText(`Posted on ${shown(post.publishDate)} | By Marian Hale`)).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Together' })).toBeVisible();
    const meta = (selector: string) => page.locator(selector).getAttribute('content');
    expect(await meta('meta[name="description"]')).toBe('A short account of why we take to the streets.');
    expect(await meta('meta[name="keywords"]')).toBe('march, conscience');
    expect(await meta('meta[property="og:type"]')).toBe('article');
    expect(await meta('meta[property="article:published_time"]')).toBe(post.publishDate);
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', 'https://americanconscienceparty.org/blog/why-we-march');
    const ld = (await page.locator('script[type="application/ld+json"]').allTextContents()).map((t) => JSON.parse(t));
    expect(ld).toContainEqual(
      expect.objectContaining({
        '@type': 'BlogPosting',
        headline: 'Why We March',
        datePublished: post.publishDate,
        author: { '@type': 'Person', name: 'Marian Hale' },
        mainEntityOfPage: { '@type': 'WebPage', '@id': 'https://americanconscienceparty.org/blog/why-we-march' },
      }),
    );
    await expectAccessible(page);
    await page.setViewportSize({ width: 390, height: 844 });
    await expectAccessible(page);
    await page.getByRole('link', { name: 'Back to Blog' }).click();
    await expect(page).toHaveURL(/\/blog$/);
  });

  test('a renamed post keeps its old address as a redirect', async ({ page, request }) => {
    const token = await signIn();
    const post = await save(request, token, 'POST', '/api/admin/blogs', { title: 'Old Name', status: 'published' });
    await save(request, token, 'PATCH', `/api/admin/blogs/${post.id}`, { slug: 'new-name' });
    const response = await page.goto('/blog/old-name');
    expect(response?.status()).toBe(200);
    await expect(page).toHaveURL(/\/blog\/new-name$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Old Name');
  });

  test('anything else under /blog is the blog not-found page, with status 404', async ({ page, allowConsole }) => {
    allowConsole(failedLoad(404));
    const response = await page.goto('/blog/no-such-post');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Blog Post Not Found');
    await expect(page.getByText("The blog post you're looking for doesn't exist or has been removed.")).toBeVisible();
    await expectAccessible(page);
    await page.getByRole('link', { name: 'Back to Blog' }).click();
    await expect(page).toHaveURL(/\/blog$/);
  });
});
