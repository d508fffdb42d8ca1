// Benchmarks (run with `just bench`): what each page costs a visitor to download; the
// static files against nginx serving the same dist/, side by side; and durable signups
// (group commit) against a plain one-transaction-per-write loop on the same disk.
//
// Load comes from wrk on loopback (2 threads, 64 connections for pages, 32 for signups,
// gzip accepted), bounded in time. nginx and wrk are installed from Debian's packages when
// missing (as root, or with sudo). A benchmark reports, it does not gate: a missed target
// still exits 0; only a broken bench (a server that does not start) exits 1.
//
//   node bench/run.mjs                    everything (about a minute and a half)
//   BENCH_SECONDS=3 node bench/run.mjs    shorter runs, for a quick look
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlibConstants } from 'node:zlib';
import { ensure } from './lib/debian.mjs';
import { postsScript } from './lib/wrk-posts.mjs';

const root = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const dist = join(root, 'dist');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = 2; // each side is measured this many times, alternating; the best counts

const tmp = mkdtempSync(join(tmpdir(), 'acp-bench-'));
const children = [];
function cleanUp() {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(tmp, { recursive: true, force: true });
}
process.on('exit', cleanUp);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));

// ---------------------------------------------------------------------------------------
// Page weight: the HTML plus the CSS, scripts and preloads it references (brotli sizes,
// what a modern browser downloads), images excluded since they load lazily by width.

function pages(dir, prefix = '') {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return ['assets', 'media'].includes(name) && !prefix ? [] : pages(path, `${prefix}/${name}`);
    return name === 'index.html' ? [prefix || '/'] : [];
  });
}

function size(file) {
  const br = `${file}.br`;
  try {
    return statSync(br).size;
  } catch {
    // No copy: the blog's pages, which the server compresses when first asked for, at brotli
    // quality 5 (files under 512 bytes go as they are).
    const bytes = readFileSync(file);
    if (bytes.length < 512 || !/\.(html|css|js|mjs|json|svg|xml|txt)$/.test(file)) return bytes.length;
    return brotliCompressSync(bytes, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } }).length;
  }
}

console.log('Page weight (brotli; HTML + CSS + JS that the page loads up front):');
for (const route of pages(dist).sort()) {
  const file = join(dist, route === '/' ? '' : route, 'index.html');
  const html = readFileSync(file, 'utf8');
  const refs = [...html.matchAll(/(?:href|src)="(\/assets\/[^"]+\.(?:css|js))"/g)].map((m) => m[1]);
  const assets = [...new Set(refs)].reduce((sum, ref) => sum + size(join(dist, ref)), 0);
  const total = size(file) + assets;
  console.log(`  ${route.padEnd(20)} html ${(size(file) / 1024).toFixed(1).padStart(6)} KB   total ${(total / 1024).toFixed(1).padStart(6)} KB`);
}

// ---------------------------------------------------------------------------------------
// Tools and servers.

const WRK = '/usr/bin/wrk';
const NGINX = '/usr/sbin/nginx';
ensure(WRK, 'wrk');
ensure(NGINX, 'nginx');

function freePort() {
  return new Promise((ok) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
  });
}

function waitFor(check, what, ms = 15_000) {
  const started = Date.now();
  return new Promise((ok, fail) => {
    const tick = async () => {
      if (await check().catch(() => false)) return ok();
      if (Date.now() - started > ms) return fail(new Error(`${what} did not start`));
      setTimeout(tick, 50);
    };
    tick();
  });
}

function get(url, headers = {}) {
  return new Promise((ok, fail) => {
    const req = request(url, { headers }, (res) => {
      res.resume();
      res.on('end', () => ok(res));
    });
    req.on('error', fail);
    req.end();
  });
}

/** Starts our server (release build) on a free port; returns its base URL and process. */
async function startApi(dataDir, env = {}) {
  const port = await freePort();
  const child = spawn(join(root, 'target/release/api'), [], {
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      DIST_DIR: dist,
      CONTENT_DIR: join(root, 'content'),
      FORM_RATE_LIMIT: '1000000000',
      // Request lines off, as nginx's access_log is below: the comparison is serving.
      RUST_LOG: 'warn',
      ...env,
    },
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
  const base = `http://127.0.0.1:${port}`;
  await waitFor(async () => (await get(`${base}/`)).statusCode === 200, 'the api');
  return { base, child };
}

/** nginx as one would set it up for this site: the same files, precompressed copies
 * (gzip_static), the same headers, no access log. */
async function startNginx() {
  const port = await freePort();
  const headers = await get(`${apiBase}/`);
  const security = ['content-security-policy', 'x-content-type-options', 'x-frame-options', 'referrer-policy', 'permissions-policy', 'cross-origin-opener-policy']
    .map((name) => `    add_header ${name} "${headers.headers[name]}" always;`)
    .join('\n');
  const conf = join(tmp, 'nginx.conf');
  writeFileSync(
    conf,
    `worker_processes auto;
daemon off;
pid ${tmp}/nginx.pid;
error_log ${tmp}/nginx-error.log warn;
events { worker_connections 4096; }
http {
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  gzip_static on;
  client_body_temp_path ${tmp}/nginx-body;
  proxy_temp_path ${tmp}/nginx-proxy;
  fastcgi_temp_path ${tmp}/nginx-fastcgi;
  uwsgi_temp_path ${tmp}/nginx-uwsgi;
  scgi_temp_path ${tmp}/nginx-scgi;
  server {
    listen 127.0.0.1:${port};
    root ${dist};
${security}
    location / { try_files $uri $uri/index.html =404; add_header Cache-Control "no-cache"; }
    location /assets/ { add_header Cache-Control "public, max-age=31536000, immutable"; }
    error_page 404 /404.html;
  }
}
`,
  );
  const child = spawn(NGINX, ['-c', conf, '-e', `${tmp}/nginx-error.log`], { stdio: ['ignore', 'ignore', 'inherit'] });
  children.push(child);
  const base = `http://127.0.0.1:${port}`;
  await waitFor(async () => (await get(`${base}/`)).statusCode === 200, 'nginx');
  return { base, child };
}

/** CPU time (user + system, in clock ticks of 10 ms) used so far by processes `pids`. */
function cpuTicks(pids) {
  return pids.reduce((sum, pid) => {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return sum + Number(fields[11]) + Number(fields[12]);
  }, 0);
}

/** nginx's worker processes (the children of its master process). */
function workersOf(master) {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[1]) === master;
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** Runs wrk; returns requests/s, p99 (ms), the count of error answers and, when `pids`
 * are given, the CPU time those processes spent per request (µs): a measure of the
 * server's own cost that other work on the machine disturbs far less than requests/s. */
function wrk(url, { connections = 64, script, pids = [] } = {}) {
  const before = cpuTicks(pids);
  const args = ['-t2', `-c${connections}`, `-d${SECONDS}s`, '--latency', '-H', 'Accept-Encoding: gzip'];
  if (script) args.push('-s', script);
  const r = spawnSync(WRK, [...args, url], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`wrk failed: ${r.stderr}`);
  const ticks = cpuTicks(pids) - before;
  const out = r.stdout;
  const requests = Number(out.match(/(\d+) requests in/)[1]);
  const cpuUs = (ticks * 10_000) / requests;
  const rps = Number(out.match(/Requests\/sec:\s+([\d.]+)/)[1]);
  const p99 = out.match(/^\s+99%\s+([\d.]+)(us|ms|s)\s*$/m);
  const p99ms = p99 ? Number(p99[1]) * { us: 0.001, ms: 1, s: 1000 }[p99[2]] : NaN;
  const bad = Number(out.match(/Non-2xx or 3xx responses:\s+(\d+)/)?.[1] ?? 0);
  const socketErrors = out.match(/Socket errors:.*/)?.[0];
  return { rps, p99ms, bad, socketErrors, cpuUs };
}

function rssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(status.match(/VmRSS:\s+(\d+) kB/)[1]) / 1024;
}

const fmt = (n) => Math.round(n).toLocaleString('en-US');

// ---------------------------------------------------------------------------------------
// Static files: ours against nginx.

const api = await startApi(join(tmp, 'data'));
const apiBase = api.base;
await new Promise((ok) => setTimeout(ok, 500));
const idleRss = rssMb(api.child.pid);
const nginx = await startNginx();

const home = readFileSync(join(dist, 'index.html'), 'utf8');
const css = home.match(/href="(\/assets\/[^"]+\.css)"/)[1];
const targets = [
  ['/', '/'],
  ['/leadership', '/leadership'],
  [`fingerprinted CSS`, css],
];
// Both must answer the same way before their speed means anything.
for (const [, path] of targets) {
  for (const base of [apiBase, nginx.base]) {
    const res = await get(`${base}${path}`, { 'accept-encoding': 'gzip' });
    if (res.statusCode !== 200 || res.headers['content-encoding'] !== 'gzip') {
      throw new Error(`${base}${path}: ${res.statusCode}, content-encoding ${res.headers['content-encoding']}`);
    }
  }
}

console.log(`\nStatic files against nginx ${spawnSync(NGINX, ['-v'], { encoding: 'utf8' }).stderr.trim().split('/')[1]} (wrk: 2 threads, 64 connections, ${SECONDS} s, gzip; best of ${ROUNDS}):`);
console.log('  CPU µs/req: the server\'s CPU time per request (nginx: its worker processes).');
console.log(
  `  ${'request'.padEnd(20)} ${'ours req/s'.padStart(11)} ${'nginx req/s'.padStart(12)} ${'ratio'.padStart(6)}   ${'ours CPU µs/req'.padStart(15)} ${'nginx CPU µs/req'.padStart(16)}   ours p99`,
);
const workers = workersOf(nginx.child.pid);
for (const [label, path] of targets) {
  let ours = { rps: 0 };
  let theirs = { rps: 0 };
  for (let round = 0; round < ROUNDS; round++) {
    const a = wrk(`${apiBase}${path}`, { pids: [api.child.pid] });
    const b = wrk(`${nginx.base}${path}`, { pids: workers });
    if (a.rps > ours.rps) ours = a;
    if (b.rps > theirs.rps) theirs = b;
  }
  const ratio = ours.rps / theirs.rps;
  console.log(
    `  ${label.padEnd(20)} ${fmt(ours.rps).padStart(11)} ${fmt(theirs.rps).padStart(12)} ${ratio.toFixed(2).padStart(6)}   ${ours.cpuUs.toFixed(1).padStart(15)} ${theirs.cpuUs.toFixed(1).padStart(16)}   ${ours.p99ms.toFixed(2)} ms${ours.bad ? `  (${ours.bad} errors!)` : ''}`,
  );
}
console.log(`  memory (RSS): ${idleRss.toFixed(1)} MB idle, ${rssMb(api.child.pid).toFixed(1)} MB after the load (STATIC_CACHE_MB=32)`);
nginx.child.kill('SIGQUIT');
api.child.kill('SIGINT');

// ---------------------------------------------------------------------------------------
// Durable writes: group commit through the real server against a plain loop.

const lua = join(tmp, 'signup.lua');
// Every request a new signup.
writeFileSync(lua, postsScript('/api/newsletter-signup', `'{"email":"' .. email .. '","zipCode":"12345"}'`));
const writer = await startApi(join(tmp, 'writes'));
const group = wrk(`${writer.base}/api/newsletter-signup`, { connections: 32, script: lua });
writer.child.kill('SIGINT');
const plainRun = spawnSync(join(root, 'target/release/examples/plain_writes'), [tmp, String(Math.min(SECONDS, 5))], { encoding: 'utf8' });
if (plainRun.status !== 0) throw new Error(`plain_writes failed: ${plainRun.stderr}`);
const plain = JSON.parse(plainRun.stdout);

console.log(`\nDurable signups (WAL, synchronous=FULL, ${tmpdir()}; ${SECONDS} s):`);
console.log(`  ${'writer'.padEnd(54)} ${'writes/s'.padStart(9)} ${'p99'.padStart(10)}`);
console.log(`  ${'POST /api/newsletter-signup, group commit, 32 clients'.padEnd(54)} ${fmt(group.rps).padStart(9)} ${`${group.p99ms.toFixed(2)} ms`.padStart(10)}${group.bad ? `  (${group.bad} errors!)` : ''}`);
console.log(`  ${'plain loop, one transaction per write'.padEnd(54)} ${fmt(plain.perSecond).padStart(9)} ${`${plain.p99Ms.toFixed(2)} ms`.padStart(10)}`);
console.log(`  group commit / plain loop: ${(group.rps / plain.perSecond).toFixed(2)}×  (targets: ≥ 10,000 writes/s, p99 ≤ 20 ms)`);
console.log('\nThe machine may be busy with other work: compare the ratios, not the absolute numbers.');
