// The development server behind `just dev`: builds the site and the api once, runs the api
// on an internal port behind a small proxy on BIND:PORT (default 127.0.0.1:8080), and
// rebuilds whatever a changed source file affects, then reloads the open pages.
//
// - content/, site/templates/, site/src/ -> the site (Vite for site/ changes, then the
//   generator); the api keeps running and is sent SIGHUP to re-index the new dist/.
// - generator/src/ -> the site, and the api (it links the generator's form rules).
// - api/src/, api/migrations/ -> `cargo build -p api` and a restart of the api.
//
// The generator writes into build/dev-dist and the result replaces dist/ only when the
// build succeeds, so a broken template or content file leaves the last good site up.
// Live reload: the proxy adds <script src="/__dev/reload.js"> to every HTML page (a file,
// not inline, so the site's CSP allows it); the script listens on /__dev/events.
// Node built-ins only: this runs before anything else is installed.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createDevServer } from './dev/proxy.mjs';
import { ignored, watchTree } from './dev/watch.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
process.chdir(root);
// Like the api, read a .env file if there is one; the environment wins (`just` loads it too).
try {
  process.loadEnvFile(path.join(root, '.env'));
} catch (error) {
  if (error.code !== 'ENOENT') fail(`.env: ${error.message}`);
}

// Settings, read like api/src/config.rs: unset or blank means the default.
const setting = (name, fallback) => process.env[name]?.trim() || fallback;
const bind = setting('BIND', '127.0.0.1');
const port = Number(setting('PORT', '8080'));
if (!net.isIP(bind)) fail('BIND must be an IP address');
if (!Number.isInteger(port) || port < 0 || port > 65535) fail('PORT must be a port number');
const distDir = path.resolve(root, setting('DIST_DIR', 'dist'));
const nextDir = path.join(root, 'build', 'dev-dist');
const oldDir = path.join(root, 'build', 'dev-dist-old');
const apiBin = path.join(path.resolve(root, setting('CARGO_TARGET_DIR', 'target')), 'debug', 'api');

const WATCHED = [
  { dir: 'content', parts: ['site'] },
  { dir: 'site/templates', parts: ['vite', 'site'] }, // Tailwind reads the templates' classes
  { dir: 'site/src', parts: ['vite', 'site'] },
  { dir: 'generator/src', parts: ['site', 'api'] },
  { dir: 'api/src', parts: ['api'] },
  { dir: 'api/migrations', parts: ['api', 'migrations'] },
];
const DEBOUNCE_MS = 200;
/** What still needs doing: set by changes, cleared by a successful step. */
const dirty = { vite: true, site: true, api: true, migrations: false };
const changed = new Set();
let building = null; // the running rebuild, a promise
let debounce = null;
let stopping = false;
const builds = new Set(); // running build commands

// ---------------------------------------------------------------------------- the api

let apiPort = 0;
let apiChild = null;
/** Called when the api says it has re-indexed dist/ after a SIGHUP (see reindexApi). */
let apiReindexed = null;
let apiAgent = new http.Agent({ keepAlive: true });
/** Resolves to true once the api listens, false if it is not running; pending meanwhile. */
let apiReady;
let settleApiReady = null;
function apiPending() {
  if (!settleApiReady) apiReady = new Promise((resolve) => (settleApiReady = resolve));
}
function apiSettled(running) {
  if (settleApiReady) settleApiReady(running);
  else apiReady = Promise.resolve(running);
  settleApiReady = null;
}
apiPending(); // until the first build is done

/** Starts target/debug/api on the internal port; resolves to whether it listens. */
function startApi() {
  apiPending();
  const child = spawn(apiBin, [], {
    cwd: root,
    // The api trusts the last X-Forwarded-For entry, which this proxy adds, so it sees
    // (and rate-limits) the browser's address rather than the proxy's.
    env: { ...process.env, BIND: '127.0.0.1', PORT: String(apiPort), TRUST_PROXY: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  apiChild = child;
  let listening = false;
  return new Promise((resolve) => {
    const ended = (why) => {
      if (apiChild === child) {
        apiChild = null;
        apiSettled(false);
        if (!stopping) {
          console.error(`The api ${listening ? 'stopped' : 'did not start'} (${why}); ` + 'save a file to start it again.');
        }
      }
      resolve(false);
    };
    readline.createInterface({ input: child.stdout }).on('line', (line) => {
      const match = !listening && /^Listening on http:\/\/\S+:(\d+)/.exec(line);
      if (apiReindexed && line.includes('static files re-indexed')) apiReindexed();
      if (match) {
        listening = true;
        apiPort = Number(match[1]);
        apiSettled(true);
        resolve(true);
      } else {
        console.log(line);
      }
    });
    child.on('error', (error) => ended(`${apiBin}: ${error.message}`));
    child.on('close', (code, signal) => ended(signal ?? `exit code ${code}`));
  });
}

/**
 * Stops the api gracefully (it handles Ctrl-C: requests under way finish), or kills it
 * after 5 s. New requests wait for the next api.
 */
async function stopApi() {
  const child = apiChild;
  if (!child) return;
  apiChild = null;
  apiPending();
  const oldAgent = apiAgent;
  apiAgent = new http.Agent({ keepAlive: true });
  await stopProcess(
    child,
    () => child.kill('SIGINT'),
    () => child.kill('SIGKILL'),
  );
  oldAgent.destroy();
}

function stopProcess(child, stop, kill) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      try {
        kill();
      } catch {
        // Gone already.
      }
    }, 5000);
    child.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
    try {
      stop();
    } catch {
      // Gone already.
    }
  });
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer().unref();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

// ---------------------------------------------------------------------------- builds

/**
 * Runs a build command in its own process group (so stopping kills its children too),
 * with stderr shown as it comes and stdout shown only if the command fails.
 */
function run(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
      detached: true,
    });
    builds.add(child);
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) => console.error(`${command}: ${error.message}`));
    child.on('close', (code) => {
      builds.delete(child);
      if (code !== 0 && !stopping) process.stdout.write(Buffer.concat(output));
      resolve(code === 0);
    });
  });
}

function killGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group has exited.
  }
}

/**
 * The api serves dist/ from an in-memory index: after a new site is swapped in, SIGHUP
 * makes it look again. Resolves once it has (or after 5 s), so reloaded pages are new.
 */
function reindexApi() {
  const child = apiChild;
  if (!child) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      apiReindexed = null;
      resolve();
    };
    const timer = setTimeout(done, 5000);
    apiReindexed = done;
    child.kill('SIGHUP');
  });
}

/** Swaps the freshly generated site into DIST_DIR; returns whether that worked. */
function publishSite() {
  try {
    fs.rmSync(oldDir, { recursive: true, force: true });
    try {
      if (fs.existsSync(distDir)) fs.renameSync(distDir, oldDir);
      fs.renameSync(nextDir, distDir);
    } catch (error) {
      if (error.code !== 'EXDEV') throw error;
      // DIST_DIR is on another file system: copy instead.
      fs.rmSync(distDir, { recursive: true, force: true });
      fs.cpSync(nextDir, distDir, { recursive: true });
    }
    fs.rmSync(oldDir, { recursive: true, force: true });
    return true;
  } catch (error) {
    console.error(`Could not replace ${distDir}: ${error.message}`);
    return false;
  }
}

/**
 * Does what `dirty` asks. Each flag is cleared when its step starts and set again if the
 * step fails, so a change made during a step is not lost. Returns what was rebuilt and
 * what failed.
 */
async function rebuild() {
  const done = [];
  const failed = [];
  const step = async (flag, work) => {
    dirty[flag] = false;
    const ok = !stopping && (await work());
    if (!ok) dirty[flag] = true;
    return ok;
  };
  if (dirty.vite || dirty.site) {
    const vite = () => run('npm', ['--prefix', 'site', 'run', 'build', '--silent']);
    const generator = ['run', '--quiet', '-p', 'generator', '--', 'build', '--out', nextDir];
    const generate = async () => (await run('cargo', generator)) && publishSite() && (await reindexApi(), true);
    const ok = (!dirty.vite || (await step('vite', vite))) && (await step('site', generate));
    if (ok) done.push('rebuilt the site');
    else failed.push('the site');
  }
  if (!stopping && (dirty.api || !apiChild)) {
    const ok = await step('api', async () => {
      // refinery embeds api/migrations without telling cargo, so cargo would miss a new file.
      if (dirty.migrations) {
        dirty.migrations = false;
        await run('cargo', ['clean', '--quiet', '-p', 'api']);
      }
      const before = mtime(apiBin);
      if (!(await run('cargo', ['build', '--quiet', '-p', 'api']))) return false;
      // A generator change that the api does not link leaves the binary as it was.
      if (apiChild && mtime(apiBin) === before) return true;
      await stopApi();
      if (!(await startApi())) return false;
      done.push('rebuilt and restarted the api');
      return true;
    });
    if (!ok) failed.push('the api');
  }
  if (!apiChild) apiSettled(false);
  return { done, failed };
}

function mtime(file) {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

/** The changed files, leaving out editors' short-lived temporary files where possible. */
function describe(files) {
  const all = [...files].sort();
  const existing = all.filter((file) => fs.existsSync(path.join(root, file)));
  const list = existing.length ? existing : all;
  const shown = list.slice(0, 3).join(', ');
  return list.length > 3 ? `${shown} and ${list.length - 3} more` : shown;
}

const seconds = (start) => `${((performance.now() - start) / 1000).toFixed(1)} s`;
const clock = () => new Date().toTimeString().slice(0, 8);

async function rebuildChanged() {
  debounce = null;
  if (building || stopping || changed.size === 0) return;
  const files = new Set(changed);
  changed.clear();
  const start = performance.now();
  building = rebuild();
  const { done, failed } = await building;
  building = null;
  if (stopping) return;
  const outcome = [...done];
  if (failed.length) outcome.push(`building ${failed.join(' and ')} failed, see above`);
  let line = `${clock()} ${describe(files)} changed: `;
  line += `${outcome.join('; ') || 'nothing to rebuild'} (${seconds(start)})`;
  if (failed.length) {
    line += apiChild ? '; the last good version stays up' : '; the api is not running';
    line += ', save again to retry';
  } else if (done.length) {
    line += ', reloading';
  }
  console.log(`${line}.`);
  if (done.length) broadcast('reload', describe(files));
  // Changes made during the build: one more round.
  if (changed.size) debounce = setTimeout(rebuildChanged, DEBOUNCE_MS);
}

// ---------------------------------------------------------------------------- watching

function watch() {
  const watchers = [];
  for (const { dir, parts } of WATCHED) {
    const full = path.join(root, dir);
    if (!fs.existsSync(full)) continue;
    const onChange = (file) => {
      const rel = path.relative(root, file);
      if (ignored(rel) || stopping) return;
      for (const part of parts) dirty[part] = true;
      changed.add(rel);
      if (building) return; // rebuildChanged runs again when the build ends
      clearTimeout(debounce);
      debounce = setTimeout(rebuildChanged, DEBOUNCE_MS);
    };
    watchers.push(watchTree(full, onChange));
  }
  return watchers;
}

// ---------------------------------------------------------------------------- start and stop

function fail(message) {
  console.error(message);
  process.exit(1);
}

// Where the proxy finds the api, as it is now.
const api = {
  get ready() {
    return apiReady;
  },
  get port() {
    return apiPort;
  },
  get agent() {
    return apiAgent;
  },
};
const { server, broadcast, close } = createDevServer(api);
let watchers = [];

async function stop() {
  if (stopping) return;
  stopping = true;
  clearTimeout(debounce);
  for (const watcher of watchers) watcher.close();
  close();
  await Promise.all([
    ...[...builds].map((child) =>
      stopProcess(
        child,
        () => killGroup(child, 'SIGTERM'),
        () => killGroup(child, 'SIGKILL'),
      ),
    ),
    stopApi(),
  ]);
  process.exit(0);
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, stop);

// Listen first: a port in use should not wait for a long first build to be noticed.
// Requests made during the first build wait for the api.
await new Promise((resolve) => {
  server.once('error', (error) =>
    fail(
      error.code === 'EADDRINUSE'
        ? `${bind}:${port} is in use; set PORT (or BIND) to serve somewhere else.`
        : `Could not listen on ${bind}:${port}: ${error.message}`,
    ),
  );
  server.listen(port, bind, resolve);
});
server.on('error', (error) => console.error(`Dev proxy: ${error.message}`));
apiPort = await freePort();
watchers = watch();
changed.clear();

const start = performance.now();
building = rebuild();
const first = await building;
building = null;
if (!stopping) {
  if (first.failed.length) {
    console.log(`Building ${first.failed.join(' and ')} failed, see above; save a fix to retry.`);
  } else {
    console.log(`Built the site and the api in ${seconds(start)}.`);
  }
  const address = server.address();
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  console.log(`Serving http://${host}:${address.port} (live reload on)`);
  if (changed.size) debounce = setTimeout(rebuildChanged, DEBOUNCE_MS);
}
