// Lighthouse audit (run with `just audit`): every public page of dist/, served by the real
// server on loopback, audited two at a time (AUDIT_WORKERS worker processes, each with a
// headless Chromium of its own: Lighthouse keeps global state, so one process runs one audit
// at a time) with Lighthouse's
// default (mobile) settings: a Moto G Power-sized screen, simulated slow 4G and a 4x slower CPU.
// Prints one markdown table and exits 1 when a page breaks a budget:
//   - accessibility, best practices or SEO below 100, or any audit that counts towards
//     one of those scores failing (Lighthouse rounds a category's score to two decimals, so
//     one light-weight failure can still show as 100);
//   - any layout shift (CLS above 0);
//   - HTML + CSS + JS transferred above 30 KB, or 90 KB on a page with a form;
//   - everything transferred for the home page above 150 KB.
// The performance score is printed, never gated: under simulated throttling it moves with
// the machine's load, and the budgets above already gate what we control.
//
//   node bench/audit.mjs                       every page
//   node bench/audit.mjs --only /contact       one page (repeatable)
//   node bench/audit.mjs --report out/         also write each page's Lighthouse HTML report
//
// CHROMIUM_PATH overrides the browser (default Debian's /usr/bin/chromium), as for the e2e tests.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import { listeningAt } from './lib/listening.mjs';

const root = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
// The site to audit: DIST_DIR (as the justfile exports it; relative to the project root), or dist/.
const dist = resolve(root, process.env.DIST_DIR || 'dist');
const KB = 1024;
const BUDGET = {
  // HTML + CSS + JS transferred (bytes), per page.
  codeBytes: 30 * KB,
  codeBytesWithForm: 90 * KB,
  // Everything transferred (bytes) for the home page.
  homeTotalBytes: 150 * KB,
  // Categories that must score 100 with no failing audit.
  categories: ['accessibility', 'best-practices', 'seo'],
};
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

// --- arguments -------------------------------------------------------------------------------
const only = [];
let reportDir;
// A worker (started by this script) audits the pages it is given against `--worker BASE`, the
// server the parent started, and prints its results as JSON.
let workerBase;
for (let i = 2; i < process.argv.length; i++) {
  const arg = process.argv[i];
  const [flag, inline] = arg.split(/=(.*)/s);
  const value = inline ?? (['--only', '--report', '--worker'].includes(flag) ? process.argv[++i] : undefined);
  if (flag === '--only' && value) only.push(value);
  else if (flag === '--report' && value) reportDir = resolve(value);
  else if (flag === '--worker' && value) workerBase = value;
  else {
    console.error(`bad argument ${arg}\nusage: node bench/audit.mjs [--only /path]... [--report DIR]`);
    process.exit(2);
  }
}

// --- the pages -------------------------------------------------------------------------------
// Every index.html in dist/, except the staff area (`.admin/` holds the admin shell, which the
// server answers only at /admin; hidden folders are never served as they are) and the file trees. The 404 page (404.html)
// is not audited: Lighthouse's SEO category fails any page answered with a status other than
// 200 by design ("Page has unsuccessful HTTP status code"), which is exactly right for a 404.
const EXCLUDED = ['admin', 'assets', 'media', 'downloads', 'forms'];
// Pages that ask not to be indexed are left out too: they are personal, reached from a link
// mailed to someone (a monthly donor's card page), and Lighthouse's SEO score fails them by
// design; the end-to-end tests check them for accessibility and layout shifts.
function pages(dir, prefix = '') {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name.startsWith('.')) return [];
    if (statSync(path).isDirectory()) return !prefix && EXCLUDED.includes(name) ? [] : pages(path, `${prefix}/${name}`);
    if (name !== 'index.html' || readFileSync(path, 'utf8').includes('<meta name="robots" content="noindex">')) return [];
    return [prefix || '/'];
  });
}
const htmlFile = (route) => join(dist, route === '/' ? '' : route, 'index.html');

if (!existsSync(join(dist, 'index.html'))) {
  console.error(`no site in ${dist}: run \`just build\` first (or \`just audit\`)`);
  process.exit(2);
}
const all = pages(dist).sort();
const normalize = (route) => (route === '/' ? '/' : `/${route.replace(/^\/+|\/+$/g, '')}`);
const routes = only.length ? [...new Set(only.map(normalize))] : all;
const unknown = routes.filter((route) => !all.includes(route));
if (unknown.length) {
  console.error(`not a public page of dist/: ${unknown.join(', ')}\npages: ${all.join(' ')}`);
  process.exit(2);
}

// --- server, browser and clean-up ------------------------------------------------------------
const tempDir = mkdtempSync(join(tmpdir(), 'acp-audit-'));
const dataDir = join(tempDir, 'data');
mkdirSync(dataDir);
let server;
let chrome;
const workers = new Set();

async function cleanUp() {
  for (const w of workers) w.kill('SIGINT');
  if (chrome) {
    const c = chrome;
    chrome = undefined;
    await Promise.resolve(c.kill()).catch(() => {});
  }
  if (server && server.exitCode === null && server.signalCode === null) {
    const s = server;
    const exited = new Promise((ok) => s.once('exit', ok));
    s.kill('SIGINT');
    const timer = setTimeout(() => s.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }
  rmSync(tempDir, { recursive: true, force: true });
}
for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]]) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping`);
    cleanUp().finally(() => process.exit(code));
  });
}

// The debug build `just test` has already made: Lighthouse simulates the network, so the
// server's own speed does not move the figures, and CI is spared a release build.
const apiBinary = join(process.env.CARGO_TARGET_DIR ?? join(root, 'target'), 'debug', 'api');

function startServer() {
  server = spawn(apiBinary, [], {
    env: { ...process.env, PORT: '0', DATA_DIR: dataDir, DIST_DIR: dist, CONTENT_DIR: join(root, 'content'), RUST_LOG: 'error' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return listeningAt(server, { timeoutMs: 10_000, name: apiBinary });
}

// --- reading a Lighthouse result -------------------------------------------------------------
const CODE_TYPES = ['Document', 'Stylesheet', 'Script'];
const num = (lhr, id) => lhr.audits[id]?.numericValue;
const score = (lhr, category) => {
  const s = lhr.categories[category]?.score;
  return s === null || s === undefined ? null : Math.round(s * 100);
};

function codeBytes(lhr) {
  const items = lhr.audits['network-requests']?.details?.items ?? [];
  return items.filter((r) => CODE_TYPES.includes(r.resourceType)).reduce((sum, r) => sum + (r.transferSize ?? 0), 0);
}

// Where an item of an audit's details points: an element's selector, or a URL.
function where(item) {
  const node = item.node;
  if (node?.selector) return `${node.selector}${node.snippet ? `  ${node.snippet.slice(0, 100)}` : ''}`;
  if (typeof item.url === 'string') return item.url;
  if (typeof item.source?.url === 'string') return item.source.url;
  if (typeof item.description === 'string') return item.description;
  return undefined;
}

// The audits that pull a category below 100: weighted, scored, and not passing.
function failingAudits(lhr, category) {
  const refs = lhr.categories[category]?.auditRefs ?? [];
  const lines = [];
  for (const ref of refs) {
    const audit = lhr.audits[ref.id];
    if (!audit || ref.weight === 0) continue;
    if (audit.scoreDisplayMode === 'error' || (audit.score !== null && audit.score < 1)) {
      const detail = audit.errorMessage ?? audit.explanation ?? audit.displayValue;
      lines.push(`      ${ref.id}: ${audit.title}${detail ? ` (${detail})` : ''}`);
      for (const item of (audit.details?.items ?? []).slice(0, 5)) {
        const w = where(item);
        if (w) lines.push(`        - ${w}`);
      }
    }
  }
  return lines;
}

function layoutShifts(lhr) {
  return (lhr.audits['layout-shifts']?.details?.items ?? []).slice(0, 5).map((item) => {
    const w = where(item) ?? 'an unidentified element';
    return `      shift ${item.score?.toFixed(4) ?? '?'} by ${w}`;
  });
}

function largest(lhr, types) {
  const items = lhr.audits['network-requests']?.details?.items ?? [];
  return items
    .filter((r) => !types || types.includes(r.resourceType))
    .sort((a, b) => (b.transferSize ?? 0) - (a.transferSize ?? 0))
    .slice(0, 6)
    .map((r) => `      ${kb(r.transferSize ?? 0).padStart(6)} KB  ${r.resourceType ?? '?'}  ${r.url.replace(/^https?:\/\/[^/]+/, '')}`);
}

const kb = (bytes) => (bytes / KB).toFixed(1);

// --- run -------------------------------------------------------------------------------------
async function launchChrome() {
  chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    chromeFlags: CHROME_FLAGS,
    userDataDir: mkdtempSync(join(tempDir, 'chromium-')),
    handleSIGINT: false,
    logLevel: 'silent',
  });
}

// Lighthouse on one page. One browser serves a worker's pages: before each page Lighthouse
// opens a new tab and clears the origin's storage and the browser's HTTP cache, so nothing
// carries over. When Lighthouse itself fails to measure (now and then the trace it records
// has no navigation start: NO_NAVSTART), the page is measured again in a fresh browser; a
// failure that repeats fails the audit. Budget failures are never retried. Two workers share
// the CPU, which moves the timings (printed, not gated) but none of the budgets.
const ATTEMPTS = 3;
const retries = [];
async function audit(url, route) {
  for (let attempt = 1; ; attempt++) {
    if (server && (server.exitCode !== null || server.signalCode !== null)) {
      throw new Error(`the server stopped (${server.exitCode ?? server.signalCode}); ${route} could not be audited`);
    }
    let result;
    let problem;
    try {
      result = await lighthouse(url, {
        port: chrome.port,
        logLevel: 'error',
        output: reportDir ? 'html' : 'json',
        onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
      });
      if (!result?.lhr) problem = 'no result';
      else if (result.lhr.runtimeError) problem = result.lhr.runtimeError.code;
    } catch (e) {
      problem = e.code ?? e.message;
    }
    if (!problem) return result;
    if (attempt === ATTEMPTS) {
      if (result?.lhr) return result; // reported with its runtime error as a failure
      throw new Error(`Lighthouse failed on ${route} ${ATTEMPTS} times: ${problem}`);
    }
    retries.push(`${route}: ${problem}`);
    process.stderr.write(`Lighthouse failed (${problem}); again in a fresh Chromium … `);
    const old = chrome;
    chrome = undefined;
    await Promise.resolve(old.kill()).catch(() => {});
    await launchChrome();
  }
}

const started = Date.now();
const rows = [];
const failures = [];
const notes = []; // Lighthouse's own warnings about a run, printed but not gated
let version = '';

if (workerBase) {
  // A worker: audit the pages given, in order, and print what was found.
  const results = [];
  try {
    await launchChrome();
    if (reportDir) mkdirSync(reportDir, { recursive: true });
    for (const route of routes) {
      const t0 = Date.now();
      const result = await audit(`${workerBase}${route}`, route);
      process.stderr.write(`${route}: ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
      results.push(check(route, result));
    }
  } finally {
    await cleanUp();
  }
  process.stdout.write(JSON.stringify({ results, notes, retries, version }));
  process.exit(0);
}

// The parent: one server, the pages dealt to the workers in turn, results in the pages' order.
try {
  const base = await startServer();
  const count = Math.max(1, Math.min(Number(process.env.AUDIT_WORKERS ?? 2), routes.length));
  const script = fileURLToPath(import.meta.url);
  const dealt = Array.from({ length: count }, (_, w) => routes.filter((_, i) => i % count === w));
  const outputs = await Promise.all(
    dealt.map(
      (share) =>
        new Promise((ok, fail) => {
          const args = [script, '--worker', base, ...share.flatMap((r) => ['--only', r]), ...(reportDir ? ['--report', reportDir] : [])];
          const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
          workers.add(child);
          let out = '';
          child.stdout.on('data', (chunk) => (out += chunk));
          child.once('exit', (code) => {
            workers.delete(child);
            if (code === 0) ok(JSON.parse(out));
            else fail(new Error(`an audit worker (${share.join(' ')}) exited with ${code}`));
          });
        }),
    ),
  );
  const byRoute = new Map();
  for (const output of outputs) {
    for (const result of output.results) byRoute.set(result.route, result);
    notes.push(...output.notes);
    retries.push(...output.retries);
    version = output.version;
  }
  for (const route of routes) {
    const { row, broken } = byRoute.get(route);
    rows.push(row);
    if (broken.length) failures.push({ route, broken });
  }
} finally {
  await cleanUp();
}

/** One page's row of the table, and what it broke. */
function check(route, result) {
  const lhr = result.lhr;
  version = lhr.lighthouseVersion;
  if (reportDir) writeFileSync(join(reportDir, `${route === '/' ? 'home' : route.slice(1).replaceAll('/', '_')}.html`), result.report);

  const hasForm = readFileSync(htmlFile(route), 'utf8').includes('<form');
  const code = codeBytes(lhr);
  const total = num(lhr, 'total-byte-weight');
  const cls = num(lhr, 'cumulative-layout-shift');
  const row = {
    route: hasForm ? `${route} (form)` : route,
    perf: score(lhr, 'performance'),
    a11y: score(lhr, 'accessibility'),
    bp: score(lhr, 'best-practices'),
    seo: score(lhr, 'seo'),
    lcp: num(lhr, 'largest-contentful-paint'),
    cls,
    tbt: num(lhr, 'total-blocking-time'),
    code,
    total,
  };

  const broken = [];
  if (lhr.runtimeError) broken.push(`    Lighthouse could not audit the page: ${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
  for (const warning of lhr.runWarnings ?? []) notes.push(`${route}: ${warning}`);
  const names = { accessibility: 'accessibility', 'best-practices': 'best practices', seo: 'SEO' };
  for (const category of BUDGET.categories) {
    const s = score(lhr, category);
    const failing = failingAudits(lhr, category);
    if (s === 100 && !failing.length) continue;
    broken.push(`    ${names[category]} ${s ?? 'not scored'} (budget 100); failing audits:`, ...failing);
  }
  if (!Number.isFinite(cls) || cls > 0) {
    broken.push(`    CLS ${Number.isFinite(cls) ? cls.toFixed(4) : 'not measured'} (budget 0); the shifts:`, ...layoutShifts(lhr));
  }
  const codeBudget = hasForm ? BUDGET.codeBytesWithForm : BUDGET.codeBytes;
  if (code > codeBudget) {
    broken.push(
      `    HTML+CSS+JS ${kb(code)} KB (budget ${kb(codeBudget)} KB${hasForm ? ', page with a form' : ''}); the largest:`,
      ...largest(lhr, CODE_TYPES),
    );
  }
  if (route === '/' && (!Number.isFinite(total) || total > BUDGET.homeTotalBytes)) {
    broken.push(`    total transferred ${Number.isFinite(total) ? kb(total) : '?'} KB (budget ${kb(BUDGET.homeTotalBytes)} KB); the largest:`, ...largest(lhr));
  }
  return { row, broken, route };
}

// --- report ----------------------------------------------------------------------------------
const fmt = (v, digits = 0) => (Number.isFinite(v) ? v.toFixed(digits) : '–');
const header = ['Page', 'Perf', 'A11y', 'Best pr.', 'SEO', 'LCP (s)', 'CLS', 'TBT (ms)', 'HTML+CSS+JS (KB)', 'Total (KB)'];
const table = rows.map((r) => [
  r.route,
  fmt(r.perf),
  fmt(r.a11y),
  fmt(r.bp),
  fmt(r.seo),
  fmt(r.lcp / 1000, 1),
  r.cls > 0 && r.cls < 0.0005 ? '<0.001' : fmt(r.cls, 3),
  fmt(r.tbt),
  fmt(r.code / KB, 1),
  fmt(r.total / KB, 1),
]);
const widths = header.map((h, c) => Math.max(h.length, ...table.map((row) => row[c].length)));
const line = (cells) => `| ${cells.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join(' | ')} |`;
console.log(`\nLighthouse ${version} (mobile, simulated throttling), ${rows.length} page${rows.length === 1 ? '' : 's'}, ${((Date.now() - started) / 1000).toFixed(0)} s:\n`);
console.log(line(header));
console.log(`|${widths.map((w, c) => (c === 0 ? `:${'-'.repeat(w + 1)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`);
for (const row of table) console.log(line(row));
console.log(
  `\nBudgets: accessibility, best practices and SEO 100; CLS 0; HTML+CSS+JS ≤ ${kb(BUDGET.codeBytes)} KB ` +
    `(≤ ${kb(BUDGET.codeBytesWithForm)} KB with a form); home page total ≤ ${kb(BUDGET.homeTotalBytes)} KB. KB = 1024 bytes, as transferred.`,
);

if (notes.length) console.log(`\nLighthouse warnings:\n${notes.map((n) => `  ${n}`).join('\n')}`);
if (retries.length) {
  console.log(`\nLighthouse failed to measure and was re-run in a fresh Chromium: ${retries.join('; ')}.`);
}
if (failures.length) {
  console.log(`\nFAILED: ${failures.length} of ${rows.length} page${rows.length === 1 ? '' : 's'} broke a budget:`);
  for (const { route, broken } of failures) console.log(`  ${route}\n${broken.join('\n')}`);
  process.exitCode = 1;
} else {
  console.log('\nAll budgets met.');
}
