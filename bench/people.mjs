// The public forms' throughput since every submission links to its person (run by `just
// bench`): each form posted by 32 clients for a few seconds, every request from a new
// address (a new supporter and address row in the same write: the most work linking adds)
// and, for contact, all from one address (the link is a lookup). With BASELINE_API set to
// an api binary built from before people were linked, the same runs go against it too,
// alternating, side by side in one table (absolute figures drift on a shared machine; the
// ratio is what to read):
//
//   git worktree add /tmp/base b78aa4a && (cd /tmp/base && cargo build --release -p api)
//   BASELINE_API=/tmp/base/target/release/api node bench/people.mjs
//
// A benchmark reports, it does not gate: it exits 1 only when a server does not start.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { api, root } from './lib/blog-config.mjs';
import { postsScript, wrk } from './lib/wrk-posts.mjs';
import { startApi, stopApi } from './lib/blog-processes.mjs';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);

const tmp = mkdtempSync(join(tmpdir(), 'acp-people-bench-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));

/** A wrk script file posting `body` to `path` (see lib/wrk-posts.mjs). */
function script(name, path, body, fixed) {
  const file = join(tmp, `${name}.lua`);
  writeFileSync(file, postsScript(path, body, { fixed }));
  return file;
}

const RUNS = [
  ['newsletter, new addresses', '/api/newsletter-signup', `'{"email":"' .. email .. '","zipCode":"12345"}'`],
  ['contact, new addresses', '/api/contact', `'{"name":"Ann Lee","email":"' .. email .. '","subject":"Hi","message":"Hello there"}'`],
  ['volunteer, new addresses', '/api/volunteer', `'{"name":"Ann Lee","email":"' .. email .. '","zipCode":"12345"}'`],
  ['contact, one address', '/api/contact', `'{"name":"Ann Lee","email":"' .. email .. '","subject":"Hi","message":"Hello there"}'`, 'same@example.org'],
].map(([label, path, body, fixed], i) => ({ label, path, file: script(`run${i}`, path, body, fixed) }));

const contenders = [['linked (this build)', api]];
if (process.env.BASELINE_API) contenders.push(['baseline', process.env.BASELINE_API]);
const env = { FORM_RATE_LIMIT: '1000000000' };
const results = new Map();
// Alternating, each on a fresh data folder, so both meet the same disk and the same load.
// Two rounds; the best of each counts (a busy machine only ever slows a run down).
const ROUNDS = 2;
for (let round = 0; round < ROUNDS; round++) {
  for (const run of RUNS) {
    for (const [name, binary] of contenders) {
      const dir = join(tmp, `${name}-${run.file.slice(-8)}-${round}`.replace(/\W/g, '_'));
      const server = startServerWith(binary, dir);
      const base = await server.base;
      const got = wrk(`${base}${run.path}`, run.file, SECONDS);
      const key = `${run.label}|${name}`;
      if (!results.has(key) || got.rps > results.get(key).rps) results.set(key, got);
      await stopApi(server.child);
    }
  }
}

function startServerWith(binary, dir) {
  // Errors only: past the hour's cap every signup logs a warning, and wrk runs synchronously,
  // so nothing would read those lines and the api would stall writing them.
  return startApi(dir, join(root, 'dist'), 'error', env, binary);
}

const fmt = (n) => Math.round(n).toLocaleString('en-US');
console.log(`\nPublic forms with people linked (32 clients, ${SECONDS} s each, best of ${ROUNDS}; writes/s and p99):`);
console.log(`  ${'form'.padEnd(28)}${contenders.map(([n]) => n.padStart(26)).join('')}${contenders.length > 1 ? '   ratio' : ''}`);
for (const run of RUNS) {
  const cells = contenders.map(([n]) => results.get(`${run.label}|${n}`));
  const text = cells.map((c) => `${fmt(c.rps)}/s ${c.p99ms.toFixed(1)} ms${c.bad ? ` (${c.bad} errors!)` : ''}`.padStart(26)).join('');
  const ratio = cells.length > 1 ? `   ${(cells[0].rps / cells[1].rps).toFixed(2)}×` : '';
  console.log(`  ${run.label.padEnd(28)}${text}${ratio}`);
}
if (contenders.length === 1) console.log('  (set BASELINE_API to an earlier api binary for a side-by-side column)');
