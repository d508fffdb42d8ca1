// A local SMTP server for browser tests (the `smtp-sink` crate's binary): the server under
// test sends its mail there through SMTP_URL, and tests read each message from the folder
// it writes them to.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');

export interface Mail {
  headers: Record<string, string>;
  /** The plain-text part, decoded. */
  text: string;
}

export interface SmtpSink {
  url: string;
  /** Waits (up to 15 s) for a message to `to` whose subject is `subject`. */
  waitFor: (to: string, subject: string) => Promise<Mail>;
  /** Waits (up to 15 s) until `count` messages to `to` have a subject starting with
   *  `prefix`, and returns them, oldest first. */
  waitForCount: (to: string, prefix: string, count: number) => Promise<Mail[]>;
  stop: () => void;
}

/** A worker-scoped Playwright fixture: one sink per worker, stopped after its tests
 *  (`test.extend({ sink: smtpSinkFixture, … })`). */
export const smtpSinkFixture: [(args: object, use: (sink: SmtpSink) => Promise<void>) => Promise<void>, { scope: 'worker' }] = [
  // Playwright reads the first parameter's pattern for the fixtures it needs: none.
  async ({}, use) => {
    const sink = await startSmtpSink();
    await use(sink);
    sink.stop();
  },
  { scope: 'worker' },
];

export async function startSmtpSink(): Promise<SmtpSink> {
  const binary = join(process.env.CARGO_TARGET_DIR ?? join(root, 'target'), 'debug', 'smtp-sink');
  const dir = mkdtempSync(join(tmpdir(), 'acp-smtp-'));
  const child: ChildProcess = spawn(binary, [], { env: { ...process.env, SINK_DIR: dir, PORT: '0' }, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error('smtp-sink did not start within 10 s')), 10_000);
    child.once('error', fail);
    child.once('exit', (code) => fail(new Error(`smtp-sink exited early (${code}); run \`cargo build -p smtp-sink\``)));
    let seen = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = seen.match(/Listening on (smtp:\/\/\S+)/);
      if (match) {
        clearTimeout(timer);
        ok(match[1]);
      }
    });
  });
  const read = (): Mail[] =>
    readdirSync(dir)
      .filter((f) => f.endsWith('.eml'))
      .sort((a, b) => parseInt(a, 10) - parseInt(b, 10))
      .map((f) => parse(readFileSync(join(dir, f), 'utf8')));
  return {
    url,
    waitFor: async (to, subject) => {
      for (let i = 0; i < 150; i++) {
        const found = read().find((m) => m.headers.to?.includes(to) && m.headers.subject === subject);
        if (found) return found;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`no "${subject}" mail to ${to} arrived`);
    },
    waitForCount: async (to, prefix, count) => {
      let found: Mail[] = [];
      for (let i = 0; i < 150; i++) {
        found = read().filter((m) => m.headers.to?.includes(to) && m.headers.subject?.startsWith(prefix));
        if (found.length >= count) return found;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`${found.length} of ${count} "${prefix}…" mails to ${to} arrived`);
    },
    stop: () => {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Headers (unfolded, names in lower case) and the text/plain part of a message. */
function parse(raw: string): Mail {
  const [head] = raw.split('\r\n\r\n');
  const headers: Record<string, string> = {};
  for (const line of head.replaceAll(/\r\n[ \t]/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  const boundary = /boundary="([^"]+)"/.exec(raw)?.[1];
  const part = (boundary ? raw.split(`--${boundary}`) : [raw]).find((p) => p.includes('Content-Type: text/plain')) ?? '';
  const split = part.indexOf('\r\n\r\n');
  const partHead = part.slice(0, split);
  let body = part.slice(split + 4).replace(/\r\n$/, '');
  if (/quoted-printable/i.test(partHead)) {
    const bytes = body.replaceAll('=\r\n', '').replaceAll(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    body = Buffer.from(bytes, 'latin1').toString('utf8');
  } else if (/base64/i.test(partHead)) {
    body = Buffer.from(body.replaceAll('\r\n', ''), 'base64').toString('utf8');
  }
  return { headers, text: body.replaceAll('\r\n', '\n') };
}
