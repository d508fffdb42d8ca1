// Every bench starts the api the same way: a child process that prints
// "Listening on http://…" once its socket is bound. This waits for that line.

/** The base URL the child printed, or a rejection naming why it never came. */
export function listeningAt(child, { timeoutMs = 30_000, name = 'the api', errors } = {}) {
  return new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`${name} did not start within ${timeoutMs / 1000} s`)), timeoutMs);
    const stop = (why) => {
      clearTimeout(timer);
      fail(why);
    };
    child.once('error', (e) => stop(new Error(`cannot start ${name}: ${e.message}`)));
    child.once('exit', (code) =>
      stop(new Error(`${name} exited (${code}) before listening${errors ? `:\n${errors.join('')}` : ''}`)),
    );
    let seen = '';
    child.stdout.on('data', (d) => {
      seen += d.toString();
      const m = seen.match(/Listening on (http:\/\/\S+)/);
      if (m) {
        clearTimeout(timer);
        ok(m[1]);
      }
    });
  });
}
