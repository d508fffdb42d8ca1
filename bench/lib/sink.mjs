// The mail benches' shared parts: a helper process (the SMTP sink, the fake Stripe API)
// started on a free port, and the sink's folder of received messages read as they arrive.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Starts `binary` with PORT=0 and `env`; `url` resolves with what `pattern` captures from
 *  its stdout (`Listening on <url>`). The child is added to `children` (for a kill at exit). */
export function listeningProcess(binary, env, pattern, children) {
  const child = spawn(binary, [], { env: { ...process.env, PORT: '0', ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  children.add(child);
  const url = new Promise((ok, fail) => {
    let seen = '';
    child.once('exit', (code) => fail(new Error(`${binary} exited (${code}); build it with cargo build --release`)));
    child.stdout.on('data', (d) => {
      seen += d;
      const m = seen.match(pattern);
      if (m) ok(m[1]);
    });
  });
  return { child, url };
}

/** The sink's messages, read as they arrive: how many each address got, and when each
 *  file was first seen (ms, performance.now()). */
export class Inbox {
  constructor(dir) {
    this.dir = dir;
    this.seen = new Set();
    this.to = new Map(); // address -> messages
    this.arrivals = []; // [address, ms]
  }

  /** Reads the files not read yet; returns how many there are now. */
  scan() {
    const now = performance.now();
    for (const name of readdirSync(this.dir)) {
      if (!name.endsWith('.eml') || this.seen.has(name)) continue;
      this.seen.add(name);
      const head = readFileSync(join(this.dir, name), 'utf8').slice(0, 4096);
      const to = /^To:.*?<?([^\s<>]+@[^\s<>]+)>?\s*$/im.exec(head)?.[1]?.toLowerCase();
      if (to) {
        this.to.set(to, (this.to.get(to) ?? 0) + 1);
        this.arrivals.push([to, now]);
      }
    }
    return this.seen.size;
  }

  has(address) {
    return (this.to.get(address) ?? 0) > 0;
  }

  copies(address) {
    return this.to.get(address) ?? 0;
  }
}
