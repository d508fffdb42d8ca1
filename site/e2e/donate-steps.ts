// The donor's steps on /donate, shared by the donate page's tests and the refund test (which
// pays a gift through the page before staff refund it).
import { expect, type Page } from '@playwright/test';
import { query, sql } from './fixtures';

export const form = (page: Page) => page.locator('main form').first();

export interface Donor {
  email: string;
  first?: string;
  last?: string;
  occupation?: string;
  employer?: string;
  purpose?: string;
}

export async function fillDonor(page: Page, donor: Donor) {
  const f = form(page);
  await f.getByLabel(/^First name/).fill(donor.first ?? 'Grace');
  await f.getByLabel(/^Last name/).fill(donor.last ?? 'Hopper');
  await f.getByLabel(/^Email/).fill(donor.email);
  await f.getByLabel(/^Street address/).fill('12 Compiler Lane');
  await f.getByLabel(/^City/).fill('Arlington');
  await f.getByLabel(/^State/).selectOption('VA');
  await f.getByLabel(/^ZIP code/).fill('22201');
  if (donor.occupation) await f.getByLabel(/^Occupation/).fill(donor.occupation);
  if (donor.employer) await f.getByLabel(/^Employer/).fill(donor.employer);
  if (donor.purpose) await f.getByLabel(/^Contribution purpose/).selectOption({ label: donor.purpose });
}

export async function confirmAll(page: Page) {
  await form(page).getByLabel('I am a U.S. citizen or lawfully admitted permanent resident').check();
  await form(page).getByLabel('I confirm that each of the following statements is true.').check();
}

export const proceed = (page: Page) => page.getByRole('button', { name: 'Proceed to Payment' });

export async function pay(page: Page, card = '4242 4242 4242 4242') {
  await page.getByLabel('Card number').fill(card);
  await page.getByRole('button', { name: /^Donate \$/ }).click();
}

/** A whole gift of a preset amount ("$50") from this browser, up to the thank-you. */
export async function giveOnce(page: Page, amount: string, email: string) {
  await page.goto('/donate');
  await page.getByText(amount, { exact: true }).click();
  await fillDonor(page, { email });
  await confirmAll(page);
  await proceed(page).click();
  await pay(page);
  await expect(page.getByRole('main').getByRole('status').filter({ hasText: 'Thank you for your donation!' })).toBeVisible();
}

/** The token of the history link in the newest receipt to `email` (read from the server's
 *  mail queue, quoted-printable decoded), waiting for the receipt to be queued. */
export async function historyLink(email: string): Promise<string> {
  let token: string | undefined;
  await expect
    .poll(() => {
      const [row] = query<{ m: string }>(
        `SELECT CAST(message AS TEXT) AS m FROM mail_queue WHERE kind = 'receipt' AND about = ${sql(email.toLowerCase())} ORDER BY id DESC LIMIT 1`,
      );
      const decoded = (row?.m ?? '').replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
      token = /\/donate#history=([A-Za-z0-9_.-]+)/.exec(decoded)?.[1];
      return token;
    })
    .toBeTruthy();
  return token!;
}

/** Opens the history link of `email`'s newest receipt in `page`, as the donor does from
 *  their mailbox: this browser then shows their year. */
export async function openHistoryLink(page: Page, email: string): Promise<void> {
  // From the mailbox: a new page, not a jump within one already open.
  await page.goto('about:blank');
  await page.goto(`/donate#history=${await historyLink(email)}`);
  await expect(form(page).getByLabel(/^Email/)).toHaveValue(email.toLowerCase());
}
