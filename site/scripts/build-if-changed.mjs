// Runs the Vite builds (npm run build) only when what they read has changed since the last
// time: every file of site/ git knows about or would (but the end-to-end tests), and the Rust
// file whose HTML Tailwind scans for classes. A second `just serve` or `just build` with
// nothing changed then costs a hash of a few hundred files instead of three bundler runs.
// Outside a git checkout it always builds.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
const stamp = join(root, 'build', '.site-inputs');
const outputs = ['build/client/.vite/manifest.json', 'build/client/.vite/admin-manifest.json', 'build/ssr/ssr.js'];

function inputsHash() {
  let listed;
  try {
    listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', 'site', 'generator/src/form_pages.rs'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  } catch {
    return null;
  }
  const hash = createHash('sha256');
  hash.update(process.version);
  for (const file of listed
    .split('\0')
    .filter((f) => f && !f.startsWith('site/e2e/'))
    .sort()) {
    const path = join(root, file);
    if (!existsSync(path)) continue; // deleted but not yet staged
    hash.update(file).update('\0').update(readFileSync(path)).update('\0');
  }
  return hash.digest('hex');
}

const wanted = inputsHash();
const built = outputs.every((f) => existsSync(join(root, f)));
if (wanted && built && existsSync(stamp) && readFileSync(stamp, 'utf8') === wanted) {
  console.log('Site bundles up to date.');
  process.exit(0);
}
const r = spawnSync('npm', ['--prefix', join(root, 'site'), 'run', 'build', '--silent'], { stdio: 'inherit' });
if (r.status !== 0) process.exit(r.status ?? 1);
if (wanted) writeFileSync(stamp, wanted);
