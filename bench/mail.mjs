// The mail sender's speed (run by `just bench`): BENCH_MAIL messages (10,000 by default)
// waiting in the queue when the api starts are delivered to a local SMTP server (the tests'
// smtp-sink, a release build, one thread per connection, each message written to a file),
// timed from the api listening to the sink holding the last one. The queue is filled the
// way a surge leaves it: one real staff alert (a contact message), copied in SQLite while
// the api is stopped. With BASELINE_API set to an earlier api binary, the same run goes
// against it too, side by side (absolute figures drift on a shared machine):
//
//   git worktree add /tmp/base <commit> && (cd /tmp/base && cargo build --release -p api)
//   BASELINE_API=/tmp/base/target/release/api BASELINE_CONTENT=/tmp/base/content node bench/mail.mjs
//
// (BASELINE_CONTENT: an older api may not read today's content/mail.yaml.)
//
// A benchmark reports, it does not gate: it exits 1 only when a server does not start.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { api, PASSWORD, root } from './lib/blog-config.mjs';
import { http } from './lib/blog-http.mjs';
import { startApi, stopApi } from './lib/blog-processes.mjs';
import { ownerToken } from './lib/staff.mjs';

const N = Number(process.env.BENCH_MAIL ?? 10_000);
const SINK = join(root, 'target/release/smtp-sink');
const tmp = mkdtempSync(join(tmpdir(), 'acp-mail-bench-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));

/** The sink on a free port; resolves with its URL. */
function startSink(dir) {
  mkdirSync(dir, { recursive: true });
  const child = spawn(SINK, [], { env: { ...process.env, SINK_DIR: dir, PORT: '0' }, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = new Promise((ok, fail) => {
    let seen = '';
    child.once('exit', (code) => fail(new Error(`smtp-sink exited (${code}); build it with cargo build --release -p smtp-sink`)));
    child.stdout.on('data', (d) => {
      seen += d;
      const m = seen.match(/Listening on (smtp:\/\/\S+)/);
      if (m) ok(m[1]);
    });
  });
  return { child, url };
}

const received = (dir) => readdirSync(dir).filter((f) => f.endsWith('.eml')).length;

async function until(check, what, ms) {
  const end = performance.now() + ms;
  while (!check()) {
    if (performance.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function sqlite(db, sql) {
  const r = spawnSync('sqlite3', [db, sql], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`sqlite3: ${r.stderr}`);
  return r.stdout.trim();
}

async function once(name, binary, content) {
  const dir = join(tmp, name.replace(/\W/g, '_'));
  const [data, sinkDir] = [join(dir, 'data'), join(dir, 'sink')];
  const sink = startSink(sinkDir);
  const env = { SMTP_URL: await sink.url, STAFF_EMAIL: 'staff@example.org', FORM_RATE_LIMIT: '1000000', ...(content ? { CONTENT_DIR: content } : {}) };
  // One real message, then N copies of it queued while the api is down.
  let server = startApi(data, join(root, 'dist'), 'error', env, binary);
  const base = await server.base;
  const res = await fetch(`${base}/api/contact`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Ann Lee', email: 'ann@example.org', subject: 'Hello', message: 'A message to copy.' }),
  });
  if (!res.ok) throw new Error(`contact: ${res.status} ${await res.text()}`);
  await until(() => received(sinkDir) === 1, 'the first message', 15_000);
  await stopApi(server.child);
  sqlite(
    join(data, 'site.db'),
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${N})
     INSERT INTO mail_queue (event_key, kind, about, envelope_from, to_address, subject, message, next_attempt_at, created_at)
     SELECT event_key || '-bench-' || i, kind, about, envelope_from, to_address, subject, message, next_attempt_at, created_at
     FROM mail_queue, n WHERE mail_queue.id = 1`,
  );
  server = startApi(data, join(root, 'dist'), 'error', env, binary);
  await server.base;
  const started = performance.now();
  await until(() => received(sinkDir) >= N + 1, `${N} messages`, 600_000);
  const seconds = (performance.now() - started) / 1000;
  await stopApi(server.child);
  sink.child.kill('SIGKILL');
  const left = Number(sqlite(join(data, 'site.db'), "SELECT COUNT(*) FROM mail_queue WHERE status != 'sent'"));
  return { seconds, rate: N / seconds, left };
}

const contenders = [['this build', api]];
if (process.env.BASELINE_API) contenders.push(['baseline', process.env.BASELINE_API, process.env.BASELINE_CONTENT]);
const results = [];
for (const [name, binary, content] of contenders) results.push([name, await once(name, binary, content)]);

const fmt = (n) => Math.round(n).toLocaleString('en-US');
console.log(`\nThe mail sender: ${fmt(N)} queued messages to a local SMTP server (loopback):`);
for (const [name, r] of results) {
  console.log(`  ${name.padEnd(14)} ${fmt(r.rate).padStart(7)} messages/s (${r.seconds.toFixed(1)} s)${r.left ? `, ${r.left} not marked sent!` : ''}`);
}
if (results.length > 1) console.log(`  ratio ${(results[0][1].rate / results[1][1].rate).toFixed(1)}×`);
else console.log('  (set BASELINE_API to an earlier api binary for a side-by-side row)');

// A post mailed to BENCH_LIST confirmed subscribers (10,000 by default): how long the send's
// request takes (the list is frozen in it), the rate at the sink, the server's peak memory
// before and after (the list is never held whole in memory), and the home page's latency
// from the same server while the send runs against the same page with nothing running.
const LIST = Number(process.env.BENCH_LIST ?? 10_000);
const peakMb = (pid) => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];

/** GETs `/` one after another until `done()`; returns the sorted latencies in ms. */
async function homeLatency(base, done) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const times = [];
  while (!done()) {
    const t = performance.now();
    const r = await http(base, agent, 'GET', '/');
    if (r.status !== 200) throw new Error(`GET /: ${r.status}`);
    times.push(performance.now() - t);
  }
  agent.destroy();
  return times.sort((a, b) => a - b);
}

async function listSend() {
  const dir = join(tmp, 'list');
  const [data, sinkDir] = [join(dir, 'data'), join(dir, 'sink')];
  const sink = startSink(sinkDir);
  const env = { SMTP_URL: await sink.url, FORM_RATE_LIMIT: '1000000' };
  let server = startApi(data, join(root, 'dist'), 'error', env);
  await server.base;
  await stopApi(server.child);
  sqlite(
    join(data, 'site.db'),
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${LIST})
     INSERT INTO newsletter_signups (email, zip_code, status) SELECT 'reader' || i || '@example.org', '12345', 'confirmed' FROM n`,
  );
  server = startApi(data, join(root, 'dist'), 'error', env);
  const base = await server.base;
  const token = await ownerToken(base, PASSWORD);
  const agent = new Agent({ keepAlive: true });
  const post = await http(base, agent, 'POST', '/api/admin/blogs', {
    token,
    body: { title: 'The list bench', content: `<h2>News</h2>${'<p>A paragraph of the newsletter, with <a href="/issues">a link</a>.</p>'.repeat(20)}`, status: 'published' },
  });
  if (post.status !== 201) throw new Error(`post: ${post.status} ${post.text}`);
  const postId = JSON.parse(post.text).id;
  const idle = await (async () => {
    const end = performance.now() + 3000;
    return homeLatency(base, () => performance.now() > end);
  })();
  const memBefore = peakMb(server.child.pid);
  const started = performance.now();
  const sent = await http(base, agent, 'POST', '/api/admin/broadcasts', { token, body: { postId, confirm: LIST } });
  const freezeMs = performance.now() - started;
  if (sent.status !== 201) throw new Error(`send: ${sent.status} ${sent.text}`);
  let finished = false;
  const during = homeLatency(base, () => finished);
  await until(() => received(sinkDir) >= LIST, `${LIST} list messages`, 600_000);
  const seconds = (performance.now() - started) / 1000;
  finished = true;
  const busy = await during;
  const memAfter = peakMb(server.child.pid);
  agent.destroy();
  await stopApi(server.child);
  sink.child.kill('SIGKILL');
  return { freezeMs, seconds, rate: LIST / seconds, memBefore, memAfter, idle, busy };
}

const l = await listSend();
const ms = (n) => `${n.toFixed(1)} ms`;
console.log(`\nA post mailed to ${fmt(LIST)} subscribers (this build, local SMTP server):`);
console.log(`  the send's request (the list frozen in it): ${ms(l.freezeMs)}`);
console.log(`  delivered at ${fmt(l.rate)} messages/s (${l.seconds.toFixed(1)} s)`);
console.log(`  the server's peak memory: ${l.memBefore.toFixed(0)} MB before, ${l.memAfter.toFixed(0)} MB after`);
console.log(`  GET / from the same server, one client: idle p50 ${ms(pct(l.idle, 50))} p99 ${ms(pct(l.idle, 99))} (${l.idle.length} requests); during the send p50 ${ms(pct(l.busy, 50))} p99 ${ms(pct(l.busy, 99))} (${l.busy.length})`);
