import { expect, test } from './fixtures';

test.describe('header', () => {
  test('the current route is highlighted and marked', async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page');
    await expect(nav.getByRole('link', { name: 'Leadership' })).not.toHaveAttribute('aria-current', 'page');
    await expect(page.getByRole('banner').getByRole('link', { name: 'Donate' })).toHaveAttribute('href', '/donate');
  });

  test('the More dropdown opens, lists its pages and closes with Escape', async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto('/');
    const more = page.getByRole('button', { name: 'More' });
    await expect(more).toHaveAttribute('aria-expanded', 'false');
    await more.click();
    await expect(more).toHaveAttribute('aria-expanded', 'true');
    const panel = page.locator('#more-menu');
    await expect(panel.getByRole('link')).toHaveText(['How to Join', 'Why Third Party?', 'The Movement', 'Blog', 'Contact']);
    await page.keyboard.press('Escape');
    await expect(panel).toBeHidden();
    await expect(more).toBeFocused();
    // Keyboard: Enter opens it, tabbing through reaches its links.
    await page.keyboard.press('Enter');
    await expect(panel).toBeVisible();
    await page.keyboard.press('Tab');
    await expect(panel.getByRole('link', { name: 'How to Join' })).toBeFocused();
    // A click elsewhere closes it.
    await page.getByRole('heading', { level: 1 }).click();
    await expect(panel).toBeHidden();
  });

  test('the mobile menu toggles, closes on Escape and when a link is followed', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/');
    const toggle = page.getByRole('button', { name: 'Menu' });
    const menu = page.getByRole('navigation', { name: 'Mobile' });
    await expect(menu).toBeHidden();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');

    await toggle.focus();
    await page.keyboard.press('Enter');
    await expect(menu).toBeVisible();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(menu.getByRole('link')).toHaveText([
      'Home',
      'Leadership',
      'Where We Stand',
      'Take Action',
      'How to Join',
      'Why Third Party?',
      'The Movement',
      'Blog',
      'Contact',
    ]);
    await expect(menu.getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page');

    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(toggle).toBeFocused();

    await toggle.click();
    await expect(menu).toBeVisible();
    // Stop the navigation so we can see that the menu itself closes on the click.
    await page.evaluate(() => document.addEventListener('click', (e) => e.preventDefault()));
    await menu.getByRole('link', { name: 'Leadership' }).click();
    await expect(menu).toBeHidden();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });
});
