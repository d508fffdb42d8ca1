import { existsSync } from 'node:fs';

import { defineConfig, devices } from '@playwright/test';

// Debian's chromium-headless-shell when it is installed (`.ci/run` installs it): the same
// engine without the full browser's shell, and the whole suite ran in 6.8 min on it (no traces, as in
// CI) against about 15 with /usr/bin/chromium here (docs/performance.md). No test needs the full
// browser; CHROMIUM_PATH picks another.
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
const browser = process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');

// End-to-end tests in Debian's Chromium against the real api binary serving the real
// dist/ (see e2e/global-setup.ts). Run through `just test`, which builds both first.
export default defineConfig({
  testDir: 'e2e',
  globalSetup: './e2e/global-setup.ts',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  // A stuck page fails on the 7-second expect timeout below; the test timeout only bounds a
  // whole scenario, and on a loaded 2-core machine a long one (several axe scans, a payment
  // and its mail) takes up to twice what it takes alone: 30 s once cut one off at 25.
  timeout: 45_000,
  expect: { timeout: 7_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    ...devices['Desktop Chrome'],
    launchOptions: {
      executablePath: browser,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
    // Recording a trace costs every test about a fifth of its time, and a CI run's traces are
    // gone with its clone (the list reporter prints each failure's call log): only locally.
    trace: process.env.CI ? 'off' : 'retain-on-failure',
  },
});
