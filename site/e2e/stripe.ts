// The card processor in browser tests: the fake-stripe server (a Rust stand-in for the few
// Stripe endpoints we call) and the fake Stripe.js (fake-stripe.js), which the page loads
// from https://js.stripe.com as it would the real one. Requests to js.stripe.com and
// api.stripe.com are routed to them, so the page, its CSP and the server are the real ones.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = resolve(here, '..', '..');

/** The keys and the webhook secret the test server runs with. */
export const STRIPE_ENV = {
  STRIPE_SECRET_KEY: 'sk_test_e2e',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_e2e',
  STRIPE_WEBHOOK_SECRET: 'whsec_e2e',
};

export interface FakeStripe {
  url: string;
  stop: () => void;
}

export async function startFakeStripe(): Promise<FakeStripe> {
  const binary = join(process.env.CARGO_TARGET_DIR ?? join(root, 'target'), 'debug', 'fake-stripe');
  const child: ChildProcess = spawn(binary, [], { env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error('fake-stripe did not start within 10 s')), 10_000);
    child.once('error', fail);
    child.once('exit', (code) => fail(new Error(`fake-stripe exited early (${code}); run \`cargo build -p fake-stripe\``)));
    let seen = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = seen.match(/Listening on (http:\/\/\S+)/);
      if (match) {
        clearTimeout(timer);
        ok(match[1]);
      }
    });
  });
  return { url, stop: () => child.kill('SIGKILL') };
}

/** Tells the fake where to send events: the test server's webhook. */
export async function pointWebhookAt(fakeUrl: string, baseURL: string): Promise<void> {
  const res = await fetch(`${fakeUrl}/__fake/config`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ webhookUrl: `${baseURL}/api/stripe/webhook`, webhookSecret: STRIPE_ENV.STRIPE_WEBHOOK_SECRET }),
  });
  if (!res.ok) throw new Error(`fake-stripe config failed: ${res.status}`);
}

const fakeStripeJs = readFileSync(join(here, 'fake-stripe.js'), 'utf8');

/** Serves the fake Stripe.js for js.stripe.com and forwards api.stripe.com to the fake. */
export async function routeStripe(page: Page, fakeUrl = process.env.FAKE_STRIPE_URL): Promise<void> {
  if (!fakeUrl) throw new Error('FAKE_STRIPE_URL is not set (global setup starts the fake)');
  await page.route('https://js.stripe.com/**', (route) => route.fulfill({ status: 200, contentType: 'application/javascript', body: fakeStripeJs }));
  await page.route('https://api.stripe.com/**', async (route) => {
    const url = new URL(route.request().url());
    const response = await route.fetch({ url: `${fakeUrl}${url.pathname}${url.search}` });
    await route.fulfill({ response });
  });
}
