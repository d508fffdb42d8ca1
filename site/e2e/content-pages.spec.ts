import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, expectImageShown, query, sql, test, toastRegion, uniqueEmail } from './fixtures';

/** Text a visitor reads in a PDF, with whitespace and typographic quotes normalised. */
function pdfText(bytes: Buffer): string {
  const file = join(tmpdir(), `acp-${process.pid}-${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, bytes);
  return normalise(execFileSync('pdftotext', [file, '-']).toString());
}

function normalise(text: string): string {
  return text.replace(/[‘’]/g, "'").replace(/[“”]/g, '"').replace(/\s+/g, ' ').trim();
}

test.describe('leadership', () => {
  test('the toggle reveals the team card, the leaders, the candidates and Join Us', async ({ page }) => {
    await page.goto('/leadership');
    await expect(page.getByRole('heading', { name: 'Our Leadership', level: 2 }).first()).toBeVisible();
    await expect(page.getByRole('heading', { name: 'A Spiritual Foundation' })).toBeVisible();
    const toggle = page.locator('summary');
    await expect(toggle).toHaveText('View Full Leadership', { useInnerText: true });
    await expect(page.getByTestId('leader-grid')).toBeHidden();

    await toggle.click();
    await expect(toggle).toHaveText('Hide Leadership', { useInnerText: true });
    await expect(page.getByRole('heading', { name: 'The American People' })).toBeVisible();
    const leaders = page.getByTestId('leader-grid').getByRole('listitem');
    await expect(leaders).toHaveCount(8);
    await expect(page.getByTestId('leader-grid')).not.toContainText('The American People');
    await expect(page.getByRole('heading', { name: 'ACP Political Candidates' })).toBeVisible();
    await expect(page.getByTestId('candidate-grid').getByRole('listitem')).toHaveCount(2);
    const joinUs = page.getByRole('region', { name: 'Join Us' });
    await expect(joinUs.getByRole('link', { name: 'Support the Movement' })).toHaveAttribute('href', '/donate');
    await expect(joinUs.getByRole('link', { name: 'Get in Touch' })).toHaveAttribute('href', '/contact');

    // Portraits are responsive, sized and lazy.
    const portrait = leaders.first().locator('img');
    await expect(portrait).toHaveAttribute('loading', 'lazy');
    await expect(portrait).toHaveAttribute('srcset', /\/media\/portraits\/.+ 320w, .+ 480w/);
    await expect(portrait).toHaveAttribute('width', /\d+/);
    await expect(portrait).toHaveAttribute('height', /\d+/);
    await expectImageShown(portrait);

    await toggle.click();
    await expect(toggle).toHaveText('View Full Leadership', { useInnerText: true });
    await expect(page.getByTestId('leader-grid')).toBeHidden();
  });

  test('the toggle works from the keyboard and without JavaScript', async ({ browser, baseURL }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${baseURL}/leadership`);
    await page.locator('summary').focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('leader-grid').getByRole('listitem')).toHaveCount(8);
    await expect(page.getByTestId('leader-grid')).toBeVisible();
    await page.keyboard.press('Space');
    await expect(page.getByTestId('leader-grid')).toBeHidden();
    await context.close();
  });
});

test.describe('policies', () => {
  test('shows the three core policies, the download block, the vision and eight issues', async ({ page }) => {
    await page.goto('/issues');
    const lead = page.locator('h1 + p');
    await expect(lead).toContainText('free, upgraded education');
    await expect(lead).toContainText('free healthcare');
    await expect(lead).toContainText('non-chemical food');
    await expect(page.getByRole('heading', { name: 'Vision for America' })).toBeVisible();
    const issues = page.getByTestId('issue-grid').getByRole('listitem');
    await expect(issues).toHaveCount(8);
    await expect(issues.last()).toContainText('Medium priority');
    // Only the last is medium; the other seven are high.
    await expect(issues.filter({ hasText: 'High priority' })).toHaveCount(7);
    await expect(issues.last().getByRole('heading')).toHaveText('Responsible Government Spending');
    await expect(issues.last().getByRole('link', { name: 'Download PDF: Responsible Government Spending' })).toHaveAttribute(
      'href',
      '/downloads/ACP_Policy_government-spending.pdf',
    );
  });

  test('the platform PDF downloads with its name and holds every issue', async ({ page }) => {
    await page.goto('/issues');
    const downloading = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download the Platform (PDF)' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('ACP_Complete_Policy_Platform.pdf');
    const response = await page.request.get('/downloads/ACP_Complete_Policy_Platform.pdf');
    expect(response.headers()['content-type']).toBe('application/pdf');
    const text = pdfText(await response.body());
    const cards = await page.getByTestId('issue-grid').getByRole('listitem').all();
    for (const card of cards) {
      expect(text).toContain(normalise(await card.getByRole('heading').innerText()));
      expect(text).toContain(normalise(await card.locator('p').innerText()));
    }
    expect(text).toContain('Vision for America');
  });

  test("each issue's PDF holds its own title and description", async ({ page }) => {
    await page.goto('/issues');
    for (const card of await page.getByTestId('issue-grid').getByRole('listitem').all()) {
      const href = (await card.getByRole('link', { name: /^Download PDF/ }).getAttribute('href'))!;
      const text = pdfText(await (await page.request.get(href)).body());
      expect(text).toContain(normalise(await card.getByRole('heading').innerText()));
      expect(text).toContain(normalise(await card.locator('p').innerText()));
    }
  });
});

test.describe('articles', () => {
  test('/join explains registration, links on, and scrolls smoothly to a working signup', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/join');
    await expect(page.getByRole('link', { name: /vote\.gov/i }).first()).toHaveAttribute('href', 'https://vote.gov');
    await expect(page.getByText(/30 days before an election/)).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Not in Your State Yet?' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Volunteer with the American Conscience Party' })).toHaveAttribute('href', '/take-action');
    await expect(page.getByRole('link', { name: 'Donate to the Cause' })).toHaveAttribute('href', '/donate');

    const button = page.getByRole('link', { name: 'Join Our Movement Today' });
    await button.scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).scrollBehavior)).toBe('smooth');
    // Record every position the page passes through: a smooth scroll passes through many,
    // a jump through none.
    await page.evaluate(() => {
      const w = window as unknown as { positions: number[] };
      w.positions = [];
      window.addEventListener('scroll', () => w.positions.push(window.scrollY));
    });
    const start = await page.evaluate(() => window.scrollY);
    await button.click();
    const section = page.locator('#newsletter-signup');
    await expect(section).toBeInViewport();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(start);
    await page.waitForTimeout(1000);
    const positions = await page.evaluate(() => (window as unknown as { positions: number[] }).positions);
    const end = positions[positions.length - 1];
    const between = new Set(positions.filter((y) => y > start && y < end));
    expect(between.size).toBeGreaterThanOrEqual(2);

    const email = uniqueEmail('join-page');
    await section.getByLabel('Email').fill(email);
    await section.getByLabel('ZIP code').fill('60601');
    await section.getByRole('button', { name: 'Join the Movement' }).click();
    await expect(toastRegion(page).getByRole('listitem')).toContainText('Thank you for joining!');
    expect(query(`SELECT zip_code FROM newsletter_signups WHERE email = ${sql(email)}`)).toEqual([{ zip_code: '60601' }]);
  });

  test('/why-third-party cites the figures, answers four questions and links to /join', async ({ page }) => {
    await page.goto('/why-third-party');
    const body = page.locator('article');
    for (const figure of ['51%', '58%', '62%', '60%']) await expect(body).toContainText(figure);
    const faq = JSON.parse((await page.locator('script[type="application/ld+json"]').allTextContents())[1]);
    expect(faq['@type']).toBe('FAQPage');
    expect(faq.mainEntity).toHaveLength(4);
    for (const q of faq.mainEntity) {
      expect(q['@type']).toBe('Question');
      await expect(page.getByText(q.name, { exact: true })).toBeVisible();
      expect(q.acceptedAnswer.text.length).toBeGreaterThan(20);
    }
    await expect(page.getByRole('link', { name: 'Join the American Conscience Party Today' })).toHaveAttribute('href', '/join');
  });

  test('/movement cites the figures and links to /join and /take-action', async ({ page }) => {
    await page.goto('/movement');
    const body = page.locator('article');
    await expect(body).toContainText('500%');
    await expect(body).toContainText('2021');
    await expect(body).toContainText('$8 trillion');
    await expect(page.getByRole('link', { name: 'Change Your Registration' })).toHaveAttribute('href', '/join');
    await expect(page.getByRole('link', { name: 'Volunteer with the American Conscience Party' })).toHaveAttribute('href', '/take-action');
  });

  test('/privacy-policy shows its date, numbered sections, contact and payment providers', async ({ page }) => {
    await page.goto('/privacy-policy');
    await expect(page.getByText('Last updated: November 06, 2023')).toBeVisible();
    const sections = await page.locator('article h2').allTextContents();
    expect(sections.length).toBeGreaterThanOrEqual(8);
    sections.forEach((heading, i) => expect(heading).toMatch(new RegExp(`^${i + 1}\\. `)));
    await expect(page.locator('article a[href="mailto:info@americanconscienceparty.org"]').first()).toBeVisible();
    await expect(page.locator('article a[href="https://stripe.com/privacy"]')).toHaveCount(1);
    await expect(page.locator('article a[href^="https://www.paypal.com/"]')).toHaveCount(1);
  });
});

test.describe('take action and contact pages', () => {
  test('take action lists four opportunities and calls to donate and contact', async ({ page }) => {
    await page.goto('/take-action');
    const cards = page.getByTestId('opportunities').getByRole('listitem');
    await expect(cards).toHaveCount(4);
    await expect(cards.filter({ has: page.locator('svg path') }).first()).toBeVisible();
    await expect(page.getByRole('region', { name: 'Every Step Counts' }).getByRole('link', { name: 'Make a Donation' })).toHaveAttribute('href', '/donate');
    await expect(page.getByRole('region', { name: 'Every Step Counts' }).getByRole('link', { name: 'Ask Us a Question' })).toHaveAttribute('href', '/contact');
  });

  test('contact shows the mission, volunteer and donate links and both social profiles', async ({ page }) => {
    await page.goto('/contact');
    await expect(page.getByRole('heading', { name: 'Our Mission' })).toBeVisible();
    const involved = page.getByRole('region', { name: 'Get Involved' });
    await expect(involved.getByRole('link', { name: 'Volunteer With Us' })).toHaveAttribute('href', '/take-action');
    await expect(involved.getByRole('link', { name: 'Donate Today' })).toHaveAttribute('href', '/donate');
    const follow = page.getByRole('region', { name: 'Follow Us' });
    await expect(follow.getByRole('link', { name: /on Facebook/ })).toHaveAttribute('href', /^https:\/\/www\.facebook\.com\//);
    await expect(follow.getByRole('link', { name: /on X/ })).toHaveAttribute('href', /^https:\/\/x\.com\//);
  });
});

test.describe('unknown paths', () => {
  test("paths under /blog/ that are not posts are 404 too, with the blog's own page", async ({ request }) => {
    for (const [path, title] of [
      ['/blog/not-a-post', 'Blog Post Not Found'],
      ['/leadership/extra', 'Page Not Found'],
      ['/issues.php', 'Page Not Found'],
    ]) {
      const response = await request.get(path);
      expect(response.status(), path).toBe(404);
      expect(await response.text()).toContain(title);
    }
  });
});
