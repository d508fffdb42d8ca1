// Walks every internal link, image and script in the built site (its pages, sitemap, feed
// and robots.txt, with the absolute URLs of canonical and social-card tags) and checks that
// each resolves through the real server, so no page ever links somewhere broken.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from './fixtures';

const dist = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..', 'dist');

/** The site's canonical origin, which absolute URLs (canonical, og:image, sitemap) carry. */
const origin = readFileSync(resolve(dist, '..', 'content', 'site.yaml'), 'utf8')
  .match(/^url:\s*(\S+)/m)![1]
  .replace(/\/$/, '');

function files(dir: string, ext: RegExp): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path, ext);
    return ext.test(name) ? [path] : [];
  });
}

function pathOf(file: string): string {
  const rel = relative(dist, file).replace(/\\/g, '/');
  if (rel === 'index.html') return '/';
  return rel === '404.html' ? '/404' : `/${rel.replace(/\/index\.html$/, '')}`;
}

function decode(attr: string): string {
  return attr
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'");
}

test('every internal link, image, script and anchor in dist/ resolves', async ({ request }) => {
  const targets = new Map<string, string>();
  const anchors: [string, string, string][] = [];
  for (const file of files(dist, /\.(html|xml|txt)$/)) {
    const page = pathOf(file);
    const html = readFileSync(file, 'utf8');
    const ids = new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]));
    const local = (url: string) => (url.startsWith(`${origin}/`) || url === origin ? url.slice(origin.length) || '/' : url);
    const refs = [
      ...[...html.matchAll(/\s(?:href|src)="([^"]+)"/g)].map((m) => decode(m[1])),
      // Meta tags' `content` holds text too (descriptions, colours): only URLs are followed.
      ...[...html.matchAll(/\scontent="([^"]+)"/g)].map((m) => decode(m[1])).filter((v) => v.startsWith(origin)),
      // Sitemap locations, JSON-LD and robots.txt's sitemap line.
      ...[...html.matchAll(/<loc>([^<]+)<\/loc>|"(?:url|image|logo)":\s*"([^"]+)"|^Sitemap:\s*(\S+)/gm)].map((m) => m[1] ?? m[2] ?? m[3]),
    ].map(local);
    const srcsets = [...html.matchAll(/\s(?:srcset|srcSet)="([^"]+)"/g)].flatMap((m) => m[1].split(',').map((s) => s.trim().split(' ')[0]));
    // Island props carry image sets too.
    const props = [...html.matchAll(/"(?:src|srcset)":"([^"]+)"/g)].flatMap((m) => m[1].split(',').map((s) => s.trim().split(' ')[0]));
    for (const ref of [...refs, ...srcsets, ...props]) {
      if (ref.startsWith('#')) {
        if (ref.length > 1) anchors.push([page, ref.slice(1), ids.has(ref.slice(1)) ? 'ok' : 'missing']);
        continue;
      }
      if (!ref.startsWith('/') || ref.startsWith('//')) continue;
      const [path] = ref.split('#');
      if (!targets.has(path)) targets.set(path, page);
    }
  }
  expect(targets.size).toBeGreaterThan(30);

  const broken: string[] = [];
  for (const [path, from] of targets) {
    const response = await request.get(path, { maxRedirects: 0 });
    if (response.status() !== 200) broken.push(`${path} (linked from ${from}): ${response.status()}`);
  }
  expect(broken).toEqual([]);
  expect(anchors.filter(([, , state]) => state === 'missing')).toEqual([]);
});
