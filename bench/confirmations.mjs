// Newsletter confirmations in a real surge (run by `just bench`), on release builds of the
// api and the tests' SMTP sink, on loopback. Two runs, each on a fresh data folder:
//
// 1. A crowd: BENCH_CROWD (5,000) signups from 500 networks (10 people on each IPv4 /24),
//    posted by 32 clients as fast as they go (well inside a minute). Wanted: every one's
//    confirmation at the sink within 60 s of the last signup, each exactly once.
// 2. One abuser: the same number from one IPv6 /64. Wanted: no more confirmations than the
//    network's hour (50, newsletter.rs) arrive; the rest wait for the next hour.
//
// The client address comes from X-Forwarded-For (TRUST_PROXY=1; loopback is the trusted
// proxy), as it would behind the operator's reverse proxy.
// A benchmark reports, it does not gate: it exits 1 only when a server does not start.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { root } from './lib/blog-config.mjs';
import { startApi, stopApi } from './lib/blog-processes.mjs';
import { Inbox, listeningProcess } from './lib/sink.mjs';

const CROWD = Number(process.env.BENCH_CROWD ?? 5000);
const NETWORKS = 500;
const CLIENTS = 32;
const SINK = join(root, 'target/release/smtp-sink');
const PER_NETWORK = 50;

const tmp = mkdtempSync(join(tmpdir(), 'acp-confirmations-'));
const children = new Set();
process.on('exit', () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(tmp, { recursive: true, force: true });
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const fmt = (n) => Math.round(n).toLocaleString('en-US');

/** Posts `count` signups (`who(i)` gives the address and the client IP) with CLIENTS at once. */
async function signUps(base, count, who) {
  let next = 0;
  let refused = 0;
  const client = async () => {
    while (next < count) {
      const i = next++;
      const [email, ip] = who(i);
      const r = await fetch(`${base}/api/newsletter-signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
        body: JSON.stringify({ email, zipCode: '12345' }),
      });
      if (r.status !== 201) refused += 1;
      await r.arrayBuffer();
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: CLIENTS }, client));
  return { seconds: (performance.now() - started) / 1000, refused };
}

/** Waits until `want` messages arrived or `limitS` passed since `from`; then what came. */
async function arrivals(inbox, want, from, limitS) {
  while (inbox.scan() < want && performance.now() - from < limitS * 1000) await sleep(50);
  // A little longer, to see that nothing more (a duplicate, a message past a bound) comes.
  await sleep(2000);
  inbox.scan();
  return inbox;
}

async function run(label, who, want, limitS) {
  const dir = join(tmp, label.replace(/\W/g, '_'));
  const sinkDir = join(dir, 'sink');
  mkdirSync(sinkDir, { recursive: true });
  const sink = listeningProcess(SINK, { SINK_DIR: sinkDir }, /Listening on (smtp:\/\/\S+)/, children);
  const server = startApi(join(dir, 'data'), join(root, 'dist'), 'error', {
    SMTP_URL: await sink.url,
    FORM_RATE_LIMIT: '1000000000',
    TRUST_PROXY: '1',
  });
  const base = await server.base;
  // Read while the signups go in too, so an arrival's time is when it came (a negative
  // delay: before the last signup was answered).
  const inbox = new Inbox(sinkDir);
  const reading = setInterval(() => inbox.scan(), 50);
  const posted = await signUps(base, CROWD, who);
  clearInterval(reading);
  const ended = performance.now();
  await arrivals(inbox, want, ended, limitS);
  await stopApi(server.child);
  sink.child.kill('SIGKILL');
  const late = inbox.arrivals.map(([, at]) => (at - ended) / 1000).sort((a, b) => a - b);
  const doubled = [...inbox.to.values()].filter((n) => n > 1).length;
  return { label, posted, got: inbox.seen.size, want, lastS: late.at(-1) ?? NaN, p50S: late[Math.floor(late.length / 2)] ?? NaN, doubled };
}

const crowd = await run(
  'crowd',
  (i) => [`reader${i}@example.org`, `10.${Math.floor(i % NETWORKS / 250)}.${i % NETWORKS % 250}.${10 + Math.floor(i / NETWORKS)}`],
  CROWD,
  60,
);
const abuser = await run('abuser', (i) => [`stranger${i}@example.org`, `2001:db8:66:66::${(i + 1).toString(16)}`], PER_NETWORK, 30);

console.log(`\nNewsletter confirmations in a surge (${fmt(CROWD)} signups by ${CLIENTS} clients; SMTP sink on loopback):`);
for (const r of [crowd, abuser]) {
  const who = r === crowd ? `from ${NETWORKS} networks` : 'from one IPv6 /64';
  console.log(
    `  ${`${r.label} (${who})`.padEnd(30)} posted in ${r.posted.seconds.toFixed(1)} s${r.posted.refused ? ` (${r.posted.refused} refused!)` : ''}; ` +
      `${fmt(r.got)} confirmations arrived (wanted ${r === crowd ? 'all' : `at most ${PER_NETWORK}`}), ` +
      `the median ${r.p50S.toFixed(1)} s and the last ${r.lastS.toFixed(1)} s from the last signup's answer${r.doubled ? `, ${r.doubled} twice!` : ''}`,
  );
}
const ok = crowd.got === CROWD && crowd.lastS <= 60 && abuser.got <= PER_NETWORK && !crowd.doubled;
console.log(`  ${ok ? 'as wanted' : 'NOT as wanted'}: the crowd all within 60 s, the abuser's network held to its ${PER_NETWORK} an hour`);
