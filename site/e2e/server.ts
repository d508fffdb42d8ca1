// Starts the real api binary on a free port with a fresh temporary DATA_DIR, serving its
// own copy of the built dist/ (the server rewrites blog pages as tests publish posts).
// global-setup.ts starts the one most tests share; tests that need a server to themselves
// (the admin app's: exact lists, a sign-in lockout) start their own with this too. Unless
// asked not to, the Owner it makes from ADMIN_EMAIL signs in once right away (a new
// server's first sign-in needs no second step and gives the device cookie) and sets up an
// authenticator app, which their role needs before anything else opens: `owner` on the
// Server has what tests need to sign in as them (staff.ts).
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { ADMIN_EMAIL, ADMIN_PASSWORD } from './settings';
import { type StaffMember, bootstrapOwner, registerOwner } from './staff';

const root = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');

export interface Server {
  baseURL: string;
  /** The server's SQLite file. */
  dbPath: string;
  /** The dist/ it serves. */
  dist: string;
  /** The folder it runs in (the project's, or for `withoutBundles` its own). */
  project: string;
  /** The first Owner: signed in once, with an authenticator app and this browser's device
   *  cookie (absent when started with `{ owner: false }`). */
  owner: StaffMember;
  stop: () => Promise<void>;
}

/** `env` adds to (or, with an empty string, removes from) the server's environment;
 *  `owner: false` leaves the first Owner as a new server has them (never signed in);
 *  `withoutBundles` starts it where the site's client bundles were never built (its
 *  rebuilds then fail: what staff are told then). */
export async function startServer(
  env: Record<string, string> = {},
  { owner = true, withoutBundles = false }: { owner?: boolean; withoutBundles?: boolean } = {},
): Promise<Server> {
  const binary = join(process.env.CARGO_TARGET_DIR ?? join(root, 'target'), 'debug', 'api');
  const dist = join(root, 'dist');
  for (const [path, hint] of [
    [binary, 'cargo build -p api'],
    [join(dist, 'index.html'), 'just build'],
  ]) {
    if (!existsSync(path)) throw new Error(`${path} is missing: run \`${hint}\` first (or \`just test\`).`);
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'acp-e2e-'));
  const served = join(dataDir, 'dist');
  cpSync(dist, served, { recursive: true });
  // The project folder: blog rebuilds read content/, site/templates/ and build/client/; one
  // whose build/client/ is empty, when asked.
  let cwd = root;
  if (withoutBundles) {
    cwd = join(dataDir, 'project');
    mkdirSync(join(cwd, 'site'), { recursive: true });
    mkdirSync(join(cwd, 'build', 'client'), { recursive: true });
    symlinkSync(join(root, 'site', 'templates'), join(cwd, 'site', 'templates'));
  }
  const server: ChildProcess = spawn(binary, [], {
    cwd,
    env: {
      ...process.env,
      PORT: '0',
      BIND: '127.0.0.1',
      DATA_DIR: dataDir,
      DIST_DIR: served,
      CONTENT_DIR: join(root, 'content'),
      // A known first Owner, so tests can sign in (the admin app's tests).
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      // Many tests post forms from 127.0.0.1; the limit itself is covered by the api's tests.
      FORM_RATE_LIMIT: '10000',
      // Donation tests set up many payments from 127.0.0.1 too.
      DONATION_RATE_LIMIT: '10000',
      SUMMARY_RATE_LIMIT: '10000',
      RUST_LOG: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });

  const baseURL = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error('the api did not start within 15 s')), 15_000);
    server.once('exit', (code) => reject(new Error(`the api exited early with code ${code}`)));
    let output = '';
    server.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = output.match(/Listening on (http:\/\/\S+)/);
      if (match) {
        clearTimeout(timer);
        resolveUrl(match[1]);
      }
    });
  });

  const stop = async () => {
    if (server.exitCode === null) {
      server.kill('SIGINT');
      await new Promise((r) => server.once('exit', r));
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  let first: StaffMember | undefined;
  try {
    if (owner) {
      first = await bootstrapOwner(baseURL);
      registerOwner(baseURL, first);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    baseURL,
    dbPath: join(dataDir, 'site.db'),
    dist: served,
    project: cwd,
    get owner(): StaffMember {
      if (!first) throw new Error('this server was started with { owner: false }');
      return first;
    },
    stop,
  };
}
