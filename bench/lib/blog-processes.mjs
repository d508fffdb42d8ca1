// The blog benchmark's processes: timed runs side by side, and the api started and stopped.
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';

import { api, log, now, PASSWORD, root, RUNS } from './blog-config.mjs';
import { listeningAt } from './listening.mjs';

export function run(cmd, args, opts = {}) {
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
export function sideBySide(label, warm, contenders) {
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

/** Starts the api (`binary`, the release build unless another is named) on a free port. */
export function startApi(dataDir, distDir, logLevel, extraEnv = {}, binary = api) {
  // The api logs to stdout; at a level asked for (BENCH_LOG), show it, since the rebuild's
  // timings are debug lines.
  const quiet = logLevel === 'warn' || logLevel === 'error';
  const child = spawn(binary, [], {
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
      // Last, so a baseline built from an older commit can read that commit's content.
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', quiet ? 'pipe' : 'inherit'],
  });
  const errors = [];
  if (!quiet) child.stdout.on('data', (d) => process.stderr.write(d));
  child.stderr?.on('data', (d) => {
    const text = d.toString();
    process.stderr.write(text);
    errors.push(text);
  });
  const base = listeningAt(child, { errors });
  return { child, base, errors };
}

export async function stopApi(child) {
  if (child.exitCode !== null) return;
  const exited = new Promise((ok) => child.on('exit', ok));
  child.kill('SIGINT');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}
