// The admin app's script budget (run by `just audit`, after the Lighthouse audit of the public
// pages): a signed-in admin opens /admin/dashboard, then /admin/blog/new, each in a fresh
// browser context (empty cache) against the real server, and the compressed bytes of script
// transferred are summed (as Chromium counts them: body and headers, brotli).
// Exits 1 when a page goes over its budget, or when the dashboard loads the editor's code
// (the app is split by route: Slate comes only with /admin/blog/*):
//   - /admin/dashboard: at most 200 KB of script;
//   - /admin/blog/new:  at most 300 KB of script.
//
//   node bench/admin-weight.mjs
//
// CHROMIUM_PATH overrides the browser (default Debian's /usr/bin/chromium); the api binary is
// the debug build in CARGO_TARGET_DIR (default target/), as for the audit.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import puppeteer from 'puppeteer-core';
import { listeningAt } from './lib/listening.mjs';
import { ownerToken } from './lib/staff.mjs';

const root = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const dist = resolve(root, process.env.DIST_DIR || 'dist');
const apiBinary = join(process.env.CARGO_TARGET_DIR ?? join(root, 'target'), 'debug', 'api');
const KB = 1024;
const PAGES = [
  { path: '/admin/dashboard', heading: 'Admin Dashboard', budget: 200 * KB, editor: false },
  { path: '/admin/blog/new', heading: 'Create New Blog Post', budget: 300 * KB, editor: true },
];
// Only the editor's code holds this: slate-react marks its editable element with it.
const EDITOR_MARK = 'data-slate-editor';

if (!existsSync(join(dist, '.admin', 'index.html'))) {
  console.error(`no admin shell in ${dist}: run \`just build\` first (or \`just audit\`)`);
  process.exit(2);
}

const tempDir = mkdtempSync(join(tmpdir(), 'acp-admin-weight-'));
const dataDir = join(tempDir, 'data');
mkdirSync(dataDir);
// A password made for this run (the server refuses weak ones).
const password = randomBytes(24).toString('base64url');
let server;
let chrome;
let browser;

async function cleanUp() {
  await browser?.disconnect().catch(() => {});
  if (chrome) await Promise.resolve(chrome.kill()).catch(() => {});
  if (server && server.exitCode === null && server.signalCode === null) {
    const exited = new Promise((ok) => server.once('exit', ok));
    server.kill('SIGINT');
    const timer = setTimeout(() => server.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }
  rmSync(tempDir, { recursive: true, force: true });
}
for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]]) {
  process.once(signal, () => cleanUp().finally(() => process.exit(code)));
}

function startServer() {
  // This run's password, not one a .env file may set as a hash.
  const { ADMIN_PASSWORD_HASH: _ignored, ...env } = process.env;
  server = spawn(apiBinary, [], {
    env: {
      ...env,
      PORT: '0',
      BIND: '127.0.0.1',
      DATA_DIR: dataDir,
      DIST_DIR: dist,
      CONTENT_DIR: join(root, 'content'),
      ADMIN_PASSWORD: password,
      RUST_LOG: 'error',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return listeningAt(server, { timeoutMs: 10_000, name: apiBinary });
}

/** Opens `path` signed in, in a fresh context; returns every script with its transferred bytes. */
async function scriptsOf(base, token, { path, heading }) {
  const context = await browser.createBrowserContext();
  try {
    const page = await context.newPage();
    // Signed in as the app keeps a session: the token and its deadline in sessionStorage.
    await page.evaluateOnNewDocument(
      (t, until) => {
        try {
          sessionStorage.setItem('adminToken', t);
          sessionStorage.setItem('adminTokenExpiresAt', String(until));
        } catch {
          // about:blank has no storage
        }
      },
      token,
      Date.now() + 60 * 60_000,
    );
    const cdp = await page.createCDPSession();
    await cdp.send('Network.enable');
    const scripts = new Map();
    cdp.on('Network.responseReceived', ({ requestId, type, response }) => {
      if (type === 'Script') scripts.set(requestId, { url: response.url, encoding: response.headers['content-encoding'] ?? 'none', bytes: 0 });
    });
    cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => {
      const script = scripts.get(requestId);
      if (script) script.bytes = encodedDataLength;
    });
    await page.goto(`${base}${path}`, { waitUntil: 'networkidle0' });
    await page.waitForFunction((text) => document.querySelector('h1')?.textContent === text, { timeout: 15_000 }, heading);
    await page.waitForNetworkIdle({ idleTime: 500 });
    return [...scripts.values()].map((s) => ({ ...s, path: new URL(s.url).pathname }));
  } finally {
    await context.close();
  }
}

const kb = (bytes) => (bytes / KB).toFixed(1);
const failures = [];
const rows = [];
try {
  const base = await startServer();
  chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    userDataDir: mkdtempSync(join(tempDir, 'chromium-')),
    handleSIGINT: false,
    logLevel: 'silent',
  });
  browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
  const token = await ownerToken(base, password);

  for (const page of PAGES) {
    const scripts = await scriptsOf(base, token, page);
    const total = scripts.reduce((sum, s) => sum + s.bytes, 0);
    const editorCode = scripts.filter((s) => {
      const file = join(dist, s.path);
      return existsSync(file) && readFileSync(file, 'utf8').includes(EDITOR_MARK);
    });
    rows.push({ page, scripts, total });
    if (total > page.budget) failures.push(`${page.path}: ${kb(total)} KB of script (budget ${kb(page.budget)} KB)`);
    if (!page.editor && editorCode.length) failures.push(`${page.path} loads the editor's code: ${editorCode.map((s) => s.path).join(', ')}`);
    if (page.editor && !editorCode.length) failures.push(`${page.path} loaded no editor code: is it the editor?`);
    // Files under the generator's COMPRESS_MIN_BYTES (512) go as they are, by design: judged by
    // the file's own size, since the bytes transferred include the headers.
    const uncompressed = scripts.filter((s) => s.encoding === 'none' && existsSync(join(dist, s.path)) && statSync(join(dist, s.path)).size >= 512);
    if (uncompressed.length) failures.push(`${page.path}: scripts sent uncompressed: ${uncompressed.map((s) => s.path).join(', ')}`);
  }
} finally {
  await cleanUp();
}

console.log('\nThe admin app\'s script, signed in, empty cache (KB = 1024 bytes as transferred):\n');
for (const { page, scripts, total } of rows) {
  console.log(`${page.path}: ${kb(total)} KB in ${scripts.length} file${scripts.length === 1 ? '' : 's'} (budget ${kb(page.budget)} KB)`);
  for (const s of scripts.sort((a, b) => b.bytes - a.bytes)) console.log(`  ${kb(s.bytes).padStart(6)} KB  ${s.encoding.padEnd(4)}  ${s.path}`);
}
if (failures.length) {
  console.log(`\nFAILED:\n${failures.map((f) => `  ${f}`).join('\n')}`);
  process.exitCode = 1;
} else {
  console.log('\nAdmin script budgets met.');
}
