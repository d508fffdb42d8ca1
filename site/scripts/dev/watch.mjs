// Watching source trees for `just dev` (dev.mjs): every change under a folder, as it
// happens, leaving out editors' temporary files. Node built-ins only.
import fs from 'node:fs';
import path from 'node:path';

/** Editor droppings: backups, swap and lock files, vim's write test, JetBrains' temps. */
export function ignored(file) {
  const name = path.basename(file);
  return (
    name.endsWith('~') || /\.sw[a-p]$/.test(name) || name.startsWith('.#') || name === '4913' || name.endsWith('___jb_tmp___') || name.endsWith('___jb_old___')
  );
}

/**
 * Calls onChange(path) for every change under dir. macOS and Windows watch a tree
 * natively. Node 20's `recursive` on Linux watches each file itself and loses a file
 * once an editor (or `sed -i`) saves it by renaming a new file over it, so on Linux each
 * directory gets its own watcher, which sees its entries by name, and new directories
 * are picked up as they appear.
 */
export function watchTree(dir, onChange) {
  if (process.platform === 'darwin' || process.platform === 'win32') {
    const watcher = fs.watch(dir, { recursive: true }, (_event, name) => onChange(name ? path.join(dir, name.toString()) : dir));
    watcher.on('error', (error) => console.error(`Watching ${dir}: ${error.message}`));
    return { close: () => watcher.close() };
  }
  const watchers = new Map();
  const unwatch = (gone) => {
    for (const [d, watcher] of watchers) {
      if (d === gone || d.startsWith(gone + path.sep)) {
        watcher.close();
        watchers.delete(d);
      }
    }
  };
  const add = (d) => {
    if (watchers.has(d)) return;
    let watcher;
    try {
      watcher = fs.watch(d, (event, name) => {
        const file = name ? path.join(d, name.toString()) : d;
        // Something appeared or went: watch a new directory, forget a removed one.
        if (event === 'rename') {
          if (isDirectory(file)) add(file);
          else unwatch(file);
        }
        onChange(file);
      });
      watcher.on('error', () => unwatch(d));
      watchers.set(d, watcher);
      for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
        if (entry.isDirectory()) add(path.join(d, entry.name));
      }
    } catch (error) {
      if (error.code !== 'ENOENT') console.error(`Watching ${d}: ${error.message}`);
    }
  };
  add(dir);
  return { close: () => unwatch(dir) };
}

function isDirectory(file) {
  try {
    return fs.statSync(file).isDirectory();
  } catch {
    return false;
  }
}
