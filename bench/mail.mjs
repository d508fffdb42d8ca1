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
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { api, root } from './lib/blog-config.mjs';
import { startApi, stopApi } from './lib/blog-processes.mjs';

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
