// Memory under a mixed load (run by `just bench`): the real api (release build) on a blog of
// 200 posts takes, all at once, 1,000 form posts, 200 uploads of 3 MB photos, 100 publishes
// of posts showing those photos and 20,000 requests for pages, images and assets, with a few
// sign-ins. It reports resident memory idle, at its peak (the kernel's high-water mark,
// VmHWM, so no spike between samples is missed) and settled (10 s after the load), against
// the targets: peak ≤ 160 MB and settled ≤ 64 MB with the default STATIC_CACHE_MB (32).
//
//   node bench/memory.mjs                 the whole mix
//   BENCH_MEMORY_SCALE=0.2 node bench/memory.mjs   a fifth of it, for a quick look
//
// It reports, it does not gate: a missed target still exits 0; a broken run exits 1.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { listeningAt } from './lib/listening.mjs';
import { ownerToken } from './lib/staff.mjs';

const root = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const SCALE = Number(process.env.BENCH_MEMORY_SCALE ?? 1);
const MIX = {
  forms: Math.round(1000 * SCALE),
  uploads: Math.round(200 * SCALE),
  publishes: Math.round(100 * SCALE),
  statics: Math.round(20_000 * SCALE),
  signIns: 5,
};
// BENCH_MEMORY_ONLY=uploads,statics runs just those parts of the mix (to find who holds what).
const only = process.env.BENCH_MEMORY_ONLY?.split(',');
if (only) for (const part of Object.keys(MIX)) if (!only.includes(part)) MIX[part] = 0;
const POSTS = 200;
const PHOTOS = 20; // distinct photos, uploaded in turn
const PASSWORD = 'a password for the memory bench';
const SETTLE_MS = 10_000;

const tmp = mkdtempSync(join(tmpdir(), 'acp-memory-'));
let server;
process.on('exit', () => {
  if (server && server.exitCode === null) server.kill('SIGKILL');
  rmSync(tmp, { recursive: true, force: true });
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));

function run(cmd, args) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${r.stderr}`);
  return r.stdout;
}

function freePort() {
  return new Promise((ok) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
  });
}

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

/** One request; resolves to `{status, body}` (body as text unless `raw`). */
function http(base, method, path, { headers = {}, body, raw = false } = {}) {
  return new Promise((ok, fail) => {
    const req = request(`${base}${path}`, { method, headers, agent }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const bytes = Buffer.concat(chunks);
        ok({ status: res.statusCode, body: raw ? bytes : bytes.toString('utf8') });
      });
    });
    req.on('error', fail);
    if (body) req.write(body);
    req.end();
  });
}

/** Runs `count` tasks `task(i)`, `parallel` at a time. */
async function pool(count, parallel, task) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(parallel, count) }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

function memory(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field) => Number(status.match(new RegExp(`${field}:\\s+(\\d+) kB`))[1]);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

async function startApi(dataDir, dist) {
  const port = await freePort();
  const child = spawn(join(root, 'target/release/api'), [], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      DIST_DIR: dist,
      CONTENT_DIR: join(root, 'content'),
      ADMIN_PASSWORD: PASSWORD,
      FORM_RATE_LIMIT: '1000000000',
      RUST_LOG: 'warn',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const base = await listeningAt(child);
  return { child, base };
}

/** A post of about 1,300 words as the api stores it. */
function postHtml(i) {
  const para = `<p>Post ${i}: the movement grows where people talk with their neighbours about schools, clinics and the price of food, and ask why both old parties answer the same donors. ${'We meet, we listen and we register voters. '.repeat(6)}</p>`;
  return `<h2>Part one</h2>${para.repeat(8)}<h2>Part two</h2><ul><li>One</li><li>Two</li></ul>${para.repeat(8)}`;
}

async function main() {
  const dist = join(tmp, 'dist');
  cpSync(join(root, 'dist'), dist, { recursive: true });
  const data = join(tmp, 'data');

  // The database: made by the api's migrations, then 200 published posts.
  let api = await startApi(data, dist);
  api.child.kill('SIGINT');
  await new Promise((ok) => api.child.once('exit', ok));
  const rows = Array.from({ length: POSTS }, (_, i) => {
    const at = new Date(Date.UTC(2025, 0, 1) + i * 3_600_000).toISOString();
    return `('Seeded post ${i}', 'seeded-${i}', 'An excerpt for post ${i}.', '${postHtml(i)}', 'ACP Team', 'published', '${at}', '${at}', '${at}')`;
  });
  const sql = join(tmp, 'seed.sql');
  writeFileSync(
    sql,
    `BEGIN;\nINSERT INTO blog_posts (title, slug, excerpt, content, author_name, status, publish_date, created_at, updated_at) VALUES\n${rows.join(',\n')};\nCOMMIT;\n`,
  );
  run('sh', ['-c', `sqlite3 "${join(data, 'site.db')}" < "${sql}"`]);

  const photos = [];
  for (let i = 1; i <= PHOTOS; i++) {
    const file = join(tmp, `photo-${i}.jpg`);
    run(join(root, 'target/release/examples/photo'), [file, String(i)]);
    photos.push(readFileSync(file));
  }
  const photoMb = photos.reduce((s, p) => s + p.length, 0) / photos.length / 1048576;

  api = await startApi(data, dist);
  server = api.child;
  const { base } = api;
  // The start-up pass has written the seeded blog once /blog lists its newest post.
  for (let t = 0; t < 600; t++) {
    const res = await http(base, 'GET', '/blog');
    if (res.body.includes(`Seeded post ${POSTS - 1}`)) break;
    await new Promise((ok) => setTimeout(ok, 100));
  }
  await new Promise((ok) => setTimeout(ok, 2000));
  const idle = memory(server.pid);

  const token = await ownerToken(base, PASSWORD);
  const auth = { authorization: `Bearer ${token}` };

  const home = readFileSync(join(dist, 'index.html'), 'utf8');
  const assets = [...new Set([...home.matchAll(/(?:href|src)="(\/(?:assets|media)\/[^"]+)"/g)].map((m) => m[1]))];
  const pages = ['/', '/leadership', '/issues', '/contact', '/take-action', '/donate', '/join', '/blog', '/blog/archive/1', '/blog/feed.xml', '/sitemap.xml'];
  const uploaded = [];
  const failures = [];
  const check = (what, res, ok = [200, 201]) => {
    if (!ok.includes(res.status)) failures.push(`${what}: ${res.status} ${String(res.body).slice(0, 200)}`);
    return res;
  };

  const started = Date.now();
  await Promise.all([
    pool(MIX.forms, 8, async (i) => {
      const [path, body] = [
        ['/api/newsletter-signup', { email: `m${i}@example.org`, phone: '', zipCode: '12345' }],
        ['/api/contact', { name: `Visitor ${i}`, email: `c${i}@example.org`, subject: 'A question', message: 'How do I help? '.repeat(40) }],
        ['/api/volunteer', { name: `Helper ${i}`, email: `v${i}@example.org`, phone: '', zipCode: '12345', interests: 'Canvassing' }],
      ][i % 3];
      check(path, await http(base, 'POST', path, { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }));
    }),
    pool(MIX.uploads, 2, async (i) => {
      const boundary = '----memory-bench';
      const body = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="photo.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`),
        photos[i % PHOTOS],
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const res = check('upload', await http(base, 'POST', '/api/admin/blogs/upload-image', { headers: { ...auth, 'content-type': `multipart/form-data; boundary=${boundary}` }, body }));
      if (res.status === 200) uploaded.push(JSON.parse(res.body).url);
    }),
    pool(MIX.publishes, 1, async (i) => {
      while (uploaded.length === 0 && MIX.uploads > 0) await new Promise((ok) => setTimeout(ok, 20));
      const image = uploaded[uploaded.length - 1] ?? '/uploads/none.jpg';
      const post = {
        title: `Bench post ${i}`,
        excerpt: 'Published under load.',
        content: `<p>Words.</p><img src="${image}" alt="A photo">${postHtml(i)}`,
        featuredImage: uploaded.length ? uploaded[i % uploaded.length] : null,
        featuredImageAlt: 'A photo',
        status: 'published',
      };
      check('publish', await http(base, 'POST', '/api/admin/blogs', { headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(post) }));
    }),
    pool(MIX.statics, 16, async (i) => {
      const choice = i % 4;
      const path = choice === 0 ? assets[i % assets.length] : choice === 1 ? `/blog/seeded-${i % POSTS}` : pages[i % pages.length];
      check(path, await http(base, 'GET', path, { headers: { 'accept-encoding': i % 2 ? 'br' : 'gzip' }, raw: true }));
    }),
    pool(MIX.signIns, 1, login),
  ]);
  const loadSeconds = (Date.now() - started) / 1000;
  const peak = memory(server.pid).peak;
  const afterLoad = memory(server.pid).rss;
  await new Promise((ok) => setTimeout(ok, SETTLE_MS));
  const settled = memory(server.pid).rss;

  const mb = (n) => `${n.toFixed(1)} MB`;
  console.log(`\nMemory under a mixed load (release api, ${POSTS} posts, STATIC_CACHE_MB=32):`);
  console.log(
    `  ${MIX.forms} form posts, ${MIX.uploads} uploads of ${photoMb.toFixed(1)} MB photos (${PHOTOS} distinct), ${MIX.publishes} publishes with images, ${MIX.statics} static requests, ${MIX.signIns + 1} sign-ins, at once: ${loadSeconds.toFixed(1)} s`,
  );
  console.log(`  ${'idle'.padEnd(30)} ${mb(idle.rss).padStart(10)}`);
  console.log(`  ${'peak (VmHWM)'.padEnd(30)} ${mb(peak).padStart(10)}   target ≤ 160 MB: ${peak <= 160 ? 'met' : 'MISSED'}`);
  console.log(`  ${'just after the load'.padEnd(30)} ${mb(afterLoad).padStart(10)}`);
  console.log(`  ${`settled (${SETTLE_MS / 1000} s later)`.padEnd(30)} ${mb(settled).padStart(10)}   target ≤ 64 MB: ${settled <= 64 ? 'met' : 'MISSED'}`);
  if (failures.length) {
    console.log(`  ${failures.length} requests failed, e.g. ${failures.slice(0, 3).join('; ')}`);
    process.exitCode = 1;
  }
  server.kill('SIGINT');
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
