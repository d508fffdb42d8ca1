// wrk's Lua for load made of POSTs, each from a new address (the thread's number and a
// counter make it unique) or all from one, and wrk run on it (32 connections) with its
// figures read back: shared by the people and surge benches.
import { spawnSync } from 'node:child_process';

import { ensure } from './debian.mjs';

const WRK = '/usr/bin/wrk';

/** wrk on `url` with script `file` for `seconds` (installed from Debian when missing):
 *  requests a second, p99 in ms, and how many answers were not 2xx or 3xx. */
export function wrk(url, file, seconds) {
  ensure(WRK, 'wrk');
  const r = spawnSync(WRK, ['-t2', '-c32', `-d${seconds}s`, '--latency', '-s', file, url], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`wrk failed: ${r.stderr}`);
  const rps = Number(r.stdout.match(/Requests\/sec:\s+([\d.]+)/)[1]);
  const p99 = r.stdout.match(/^\s+99%\s+([\d.]+)(us|ms|s)\s*$/m);
  const bad = Number(r.stdout.match(/Non-2xx or 3xx responses:\s+(\d+)/)?.[1] ?? 0);
  return { rps, p99ms: p99 ? Number(p99[1]) * { us: 0.001, ms: 1, s: 1000 }[p99[2]] : NaN, bad };
}

/** Lua posting JSON to `path`; `bodyLua` is a Lua expression that may use `email`. */
export function postsScript(path, bodyLua, { fixed } = {}) {
  const address = fixed ? `"${fixed}"` : '"w" .. id .. "-" .. n .. "@example.org"';
  return `local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("id", threads)
end
local n = 0
function request()
  n = n + 1
  local email = ${address}
  return wrk.format("POST", "${path}", {["Content-Type"] = "application/json"}, ${bodyLua})
end
`;
}
