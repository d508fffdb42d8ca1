// Benchmarks (run with `just bench`): what each page costs a visitor to download, and how
// many requests a second the server answers for a page, an asset and a form post.
// Bounded in count and time, loopback only.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request, Agent } from 'node:http';

const root = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const dist = join(root, 'dist');

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
    return statSync(file).size;
  }
}

// Page weight: the HTML plus the CSS, scripts and preloads it references (brotli sizes,
// what a modern browser downloads), images excluded since they load lazily by width.
console.log('Page weight (brotli; HTML + CSS + JS that the page loads up front):');
for (const route of pages(dist).sort()) {
  const file = join(dist, route === '/' ? '' : route, 'index.html');
  const html = readFileSync(file, 'utf8');
  const refs = [...html.matchAll(/(?:href|src)="(\/assets\/[^"]+\.(?:css|js))"/g)].map((m) => m[1]);
  const assets = [...new Set(refs)].reduce((sum, ref) => sum + size(join(dist, ref)), 0);
  const total = size(file) + assets;
  console.log(`  ${route.padEnd(20)} html ${(size(file) / 1024).toFixed(1).padStart(6)} KB   total ${(total / 1024).toFixed(1).padStart(6)} KB`);
}

const dataDir = mkdtempSync(join(tmpdir(), 'acp-bench-'));
const server = spawn(join(root, 'target/release/api'), [], {
  env: { ...process.env, PORT: '0', DATA_DIR: dataDir, DIST_DIR: dist, CONTENT_DIR: join(root, 'content'), FORM_RATE_LIMIT: '1000000', RUST_LOG: 'error' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const base = await new Promise((ok, fail) => {
  const timer = setTimeout(() => fail(new Error('server did not start')), 10_000);
  server.stdout.on('data', (d) => {
    const m = d.toString().match(/Listening on (http:\/\/\S+)/);
    if (m) {
      clearTimeout(timer);
      ok(m[1]);
    }
  });
});

const agent = new Agent({ keepAlive: true, maxSockets: 16 });
function hit(path, method = 'GET', body) {
  return new Promise((ok, fail) => {
    const started = process.hrtime.bigint();
    const req = request(`${base}${path}`, { method, agent, headers: { 'accept-encoding': 'br', ...(body ? { 'content-type': 'application/json' } : {}) } }, (res) => {
      res.resume();
      res.on('end', () => ok(Number(process.hrtime.bigint() - started) / 1e6));
    });
    req.on('error', fail);
    req.end(body);
  });
}

async function load(label, make, total = 3000, concurrency = 16, maxMs = 20_000) {
  const latencies = [];
  let next = 0;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total && Date.now() - started < maxMs) {
        const i = next++;
        latencies.push(await make(i));
      }
    }),
  );
  const seconds = (Date.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const p = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))].toFixed(2);
  console.log(`  ${label.padEnd(28)} ${(latencies.length / seconds).toFixed(0).padStart(6)} req/s   p50 ${p(0.5)} ms   p99 ${p(0.99)} ms`);
}

console.log(`\nServer throughput (${base}, 16 connections, 3000 requests each):`);
const asset = readFileSync(join(dist, 'index.html'), 'utf8').match(/src="(\/assets\/main-[^"]+\.js)"/)[1];
await load('GET / (html, brotli)', () => hit('/'));
await load(`GET ${asset.slice(0, 20)}…`, () => hit(asset));
await load('GET /missing (404 page)', () => hit('/missing'));
await load('POST /api/newsletter-signup', (i) =>
  hit('/api/newsletter-signup', 'POST', JSON.stringify({ email: `bench${i}@example.org`, zipCode: '12345' })),
);

agent.destroy();
server.kill('SIGINT');
rmSync(dataDir, { recursive: true, force: true });
