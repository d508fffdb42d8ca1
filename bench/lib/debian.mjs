// The benches' reference tools (wrk, nginx) come from Debian's packages when missing.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

/** Installs a Debian package when `binary` is missing: as root, or through sudo. */
export function ensure(binary, pkg) {
  if (existsSync(binary)) return;
  console.log(`\n${binary} is missing; installing ${pkg} from Debian's packages…`);
  const asRoot = process.getuid?.() === 0;
  const run = (args) => {
    const [cmd, ...rest] = asRoot ? args : ['sudo', '-n', ...args];
    const r = spawnSync(cmd, rest, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    return r.status === 0;
  };
  if (!(run(['apt-get', 'update', '-qq']) && run(['apt-get', 'install', '-y', '-qq', pkg]) && existsSync(binary))) {
    console.error(`Could not install ${pkg}; install it (apt-get install ${pkg}) and run again.`);
    process.exit(1);
  }
}
