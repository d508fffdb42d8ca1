// The rich-text editor in a real browser, on its own: mounted on a
// bench (e2e/editor-harness/, served by Vite's dev server for this file only) that uploads
// through the real api. The page's own tests (admin-editor.spec.ts) cover the toolbar again
// in place, from the keyboard, and scan the editor with axe.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { createServer, type ViteDevServer } from 'vite';

import { expect, expectAccessible, expectImageShown, failedLoad, test } from './fixtures';
import { ownerToken } from './staff';
import type { Page } from '@playwright/test';

test.describe.configure({ mode: 'serial' });

const SITE = join(import.meta.dirname, '..');
let vite: ViteDevServer;
let bench: string;

test.beforeAll(async () => {
  const api = process.env.BASE_URL!;
  const token = await ownerToken(api);
  vite = await createServer({
    configFile: false,
    root: join(SITE, 'e2e/editor-harness'),
    plugins: [react(), tailwindcss()],
    logLevel: 'error',
    server: {
      host: '127.0.0.1',
      port: 0,
      fs: { allow: [SITE] },
      proxy: { '/api': api, '/uploads': api },
    },
  });
  await vite.listen();
  bench = `${vite.resolvedUrls!.local[0]}?token=${encodeURIComponent(token)}`;
});

test.afterAll(async () => {
  await vite?.close();
});

const MOD = process.platform === 'darwin' ? 'Meta' : 'Control';
const REL = 'rel="noopener noreferrer"';

async function open(page: Page, html = '') {
  await page.goto(html ? `${bench}&html=${encodeURIComponent(html)}` : bench);
  const box = page.getByRole('textbox', { name: 'Content' });
  await expect(box).toBeVisible();
  return box;
}

const saved = (page: Page) => page.getByTestId('html');

test('writes with the toolbar and the shortcuts, keeping the selection', async ({ page }) => {
  const box = await open(page);
  await box.click();
  await page.keyboard.type('Hello world');
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Heading 2' }).click();
  await page.keyboard.type('A heading');
  await page.keyboard.press('Enter');
  await page.keyboard.press(`${MOD}+i`);
  await page.keyboard.type('slanted');
  await expect(saved(page)).toHaveText('<p>Hello world</p><h2>A heading</h2><p><em>slanted</em></p>');
  // Formatting a selection leaves it selected, and the text focused.
  await page.keyboard.press(`${MOD}+Home`);
  await page.keyboard.press('End');
  await page.keyboard.press('Shift+Control+ArrowLeft');
  const bold = page.getByRole('button', { name: 'Bold' });
  await bold.click();
  await expect(saved(page)).toHaveText('<p>Hello <strong>world</strong></p><h2>A heading</h2><p><em>slanted</em></p>');
  await expect(bold).toHaveAttribute('aria-pressed', 'true');
  await expect(box).toBeFocused();
  await page.getByRole('button', { name: 'Italic' }).click();
  await expect(saved(page)).toContainText('<p>Hello <strong><em>world</em></strong></p>');
  await page.keyboard.press(`${MOD}+i`);
  await expect(saved(page)).toContainText('<p>Hello <strong>world</strong></p>');
  await page.keyboard.press(`${MOD}+End`);
  await expect(page.getByTestId('count')).toHaveText('27');

  await page.getByRole('button', { name: 'Bullet list' }).click();
  await expect(saved(page)).toContainText('<ul><li><em>slanted</em></li></ul>');
  await page.getByRole('button', { name: 'Quote' }).click();
  await expect(saved(page)).toContainText('<blockquote><ul><li><em>slanted</em></li></ul></blockquote>');

  // Undo and redo, by button and by key.
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(saved(page)).toContainText('<h2>A heading</h2><ul><li><em>slanted</em></li></ul>');
  await page.keyboard.press(`${MOD}+Shift+z`);
  await expect(saved(page)).toContainText('<blockquote><ul>');
  await page.keyboard.press(`${MOD}+z`);
  await expect(saved(page)).not.toContainText('<blockquote>');
  await expect(page.getByRole('button', { name: 'Redo' })).not.toHaveAttribute('aria-disabled');
});

test('the toolbar is one tab stop, walked with the arrow keys, with tooltips', async ({ page }) => {
  const box = await open(page, '<p>Text</p>');
  await box.click();
  await page.keyboard.press('Shift+Tab');
  await expect(page.getByRole('button', { name: 'Bold' })).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('button', { name: 'Italic' })).toBeFocused();
  await expect(page.getByRole('tooltip')).toHaveText('Italic (Ctrl+I)');
  await page.keyboard.press('End');
  await expect(page.getByRole('button', { name: 'Redo' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(box).toBeFocused();
});

test('links take the allowed schemes only, in an accessible dialog', async ({ page }) => {
  const box = await open(page, '<p>Join the party</p>');
  await box.click();
  await page.keyboard.press('End');
  await page.keyboard.press('Shift+Control+ArrowLeft');
  await page.getByRole('button', { name: 'Insert link' }).click();
  const dialog = page.getByRole('dialog', { name: 'Insert link' });
  await expect(dialog).toBeVisible();
  const url = dialog.getByLabel('URL');
  await expect(url).toBeFocused();
  await url.fill('javascript:alert(1)');
  await dialog.getByRole('button', { name: 'Insert link' }).click();
  await expect(dialog.getByRole('alert')).toContainText('starting with http, https, ftp, ftps, mailto, tel, callto, sms, cid or xmpp');
  await expect(url).toHaveAttribute('aria-invalid', 'true');
  await expectAccessible(page);
  await url.fill('https://example.org/join');
  await url.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(box).toBeFocused();
  await expect(saved(page)).toHaveText(`<p>Join the <a href="https://example.org/join" ${REL}>party</a></p>`);
  await expect(page.getByRole('button', { name: 'Edit link' })).toHaveAttribute('aria-pressed', 'true');
});

// A 2×2 PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGM4IacBRAwQCgAgFgQ5YebC6gAAAABJRU5ErkJggg==', 'base64');

test('images upload through the server; a failure is announced', async ({ page, allowConsole }) => {
  allowConsole(failedLoad(400));
  const box = await open(page, '<p>Before the picture</p>');
  await box.click();
  await page.keyboard.press('End');
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Insert image' }).click();
  await (await chooser).setFiles({ name: 'rally.png', mimeType: 'image/png', buffer: PNG });
  const dialog = page.getByRole('dialog', { name: 'Image description' });
  await dialog.getByLabel('Alt text').fill('Supporters at the rally');
  await dialog.getByRole('button', { name: 'Save description' }).click();
  await expect(saved(page)).toHaveText(/^<p>Before the picture<\/p><img src="\/uploads\/[0-9a-f]+\.png" alt="Supporters at the rally"><p><\/p>$/);
  const image = page.getByRole('img', { name: 'Supporters at the rally' });
  await expect(image).toBeVisible();
  await expectImageShown(image, 2);

  // Not an image at all: the server refuses it, the editor says so.
  const again = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Insert image' }).click();
  await (await again).setFiles({ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('not a picture') });
  await expect(page.getByRole('alert').filter({ hasText: 'Failed to upload image' })).toBeVisible();
});

test('a paste from Word keeps its headings, lists, bold, italic and links', async ({ page }) => {
  const box = await open(page);
  await box.click();
  const word = readFileSync(join(SITE, 'src/editor/html/fixtures/word.html'), 'utf8');
  await box.evaluate((element, html) => {
    const data = new DataTransfer();
    data.setData('text/html', html);
    data.setData('text/plain', 'Our Platform for 2028');
    // What Chromium sends an editable on paste (Slate reads pastes from beforeinput).
    element.dispatchEvent(new InputEvent('beforeinput', { inputType: 'insertFromPaste', dataTransfer: data, bubbles: true, cancelable: true }));
  }, word);
  await expect(saved(page)).toContainText('<h1>Our Platform for 2028</h1><p>The <strong>American Conscience Party</strong>');
  await expect(saved(page)).toContainText('<ol><li>Register to vote</li><li>Tell a frend</li></ol>');
  await expect(saved(page)).not.toContainText('style');
});
