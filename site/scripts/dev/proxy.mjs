// The `just dev` server's front (dev.mjs): a proxy to the api that puts a live-reload
// script into every HTML page, serves that script, and tells the open pages to reload.
// Pages come to the browser uncompressed and never as 304, so a reload always shows the
// newest build. Node built-ins only.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import zlib from 'node:zlib';

const RELOAD_PATH = '/__dev/reload.js';
const EVENTS_PATH = '/__dev/events';
const RELOAD_TAG = Buffer.from(`<script src="${RELOAD_PATH}"></script>`);
// A new id per run: a page that reconnects to a restarted `just dev` reloads itself.
const RUN_ID = randomUUID();
const RELOAD_JS = `// Live reload for \`just dev\` (site/scripts/dev.mjs), not part of the site.
(() => {
  const events = new EventSource('${EVENTS_PATH}');
  let run;
  const reload = () => {
    events.close();
    location.reload();
  };
  events.addEventListener('hello', (event) => {
    if (run && run !== event.data) reload();
    run = event.data;
  });
  events.addEventListener('reload', reload);
})();
`;

const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'upgrade', 'expect'];

function withoutHopByHop(headers) {
  const out = { ...headers };
  const named = String(headers.connection ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase());
  for (const name of [...HOP_BY_HOP, ...named]) if (name) delete out[name];
  return out;
}

/** A page that reloads itself once the api is back. */
function unavailable(res, message) {
  const text = message.replace(/[&<>]/g, (c) => `&#${c.charCodeAt(0)};`);
  const html = `<!doctype html><meta charset="utf-8"><title>just dev</title><p>${text}</p>`;
  const body = injectReload(Buffer.from(html));
  res.writeHead(502, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-length': body.length,
  });
  res.end(body);
}

/** Puts the reload script before the last </body> (or at the end). */
function injectReload(html) {
  const at = html.toString('latin1').toLowerCase().lastIndexOf('</body>');
  if (at < 0) return Buffer.concat([html, RELOAD_TAG]);
  return Buffer.concat([html.subarray(0, at), RELOAD_TAG, html.subarray(at)]);
}

const DECODERS = {
  identity: (b) => b,
  gzip: zlib.gunzipSync,
  'x-gzip': zlib.gunzipSync,
  deflate: zlib.inflateSync,
  br: zlib.brotliDecompressSync,
};

/**
 * The dev server. `api` tells where the api is now: `ready` (a promise of whether it
 * listens), `port` and `agent`. Returns the server (not yet listening), `broadcast` to
 * send an event to every open page, and `close`.
 */
export function createDevServer(api) {
  const sseClients = new Set();
  const heartbeat = setInterval(() => {
    for (const client of sseClients) client.write(': ping\n\n');
  }, 25_000);

  function handle(req, res) {
    const pathname = (req.url ?? '/').split('?')[0];
    if (pathname === RELOAD_PATH) {
      res.writeHead(200, {
        'content-type': 'text/javascript; charset=utf-8',
        'cache-control': 'no-store',
        'content-length': Buffer.byteLength(RELOAD_JS),
      });
      res.end(req.method === 'HEAD' ? undefined : RELOAD_JS);
    } else if (pathname === EVENTS_PATH) {
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
      });
      res.write(`retry: 1000\nevent: hello\ndata: ${RUN_ID}\n\n`);
      sseClients.add(res);
      res.on('close', () => sseClients.delete(res));
    } else {
      proxy(req, res).catch((error) => {
        console.error(`Proxying ${req.method} ${req.url}: ${error.message}`);
        if (!res.headersSent) unavailable(res, 'The dev proxy failed; see the terminal.');
        else res.destroy();
      });
    }
  }

  function broadcast(event, data) {
    for (const client of sseClients) client.write(`event: ${event}\ndata: ${data}\n\n`);
  }

  async function proxy(req, res) {
    if (!(await api.ready)) {
      unavailable(res, 'The api is not running (see the terminal). Save a file to retry.');
      return;
    }
    const headers = withoutHopByHop(req.headers);
    const client = req.socket.remoteAddress;
    if (client) {
      headers['x-forwarded-for'] = [headers['x-forwarded-for'], client.replace(/^::ffff:/, '')].filter(Boolean).join(', ');
    }
    // Pages come back uncompressed and never as 304, so the reload script can go in and a
    // reload always shows the newest build.
    const page = (req.method === 'GET' || req.method === 'HEAD') && /text\/html/i.test(String(req.headers.accept ?? ''));
    if (page) {
      headers['accept-encoding'] = 'identity';
      delete headers['if-none-match'];
      delete headers['if-modified-since'];
    }
    const upstream = http.request({
      host: '127.0.0.1',
      port: api.port,
      method: req.method,
      path: req.url,
      headers,
      agent: api.agent,
    });
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    upstream.on('error', (error) => {
      if (res.headersSent) res.destroy();
      else unavailable(res, `The api did not answer (${error.message}). Save a file to retry.`);
    });
    upstream.on('response', (up) => {
      up.on('error', () => res.destroy());
      const out = withoutHopByHop(up.headers);
      const html = /^text\/html/i.test(String(up.headers['content-type'] ?? ''));
      if (html) {
        delete out.etag;
        delete out['last-modified'];
      }
      const coding = String(up.headers['content-encoding'] ?? 'identity').toLowerCase();
      const decode = DECODERS[coding];
      const bodyless = up.statusCode === 204 || up.statusCode === 304;
      if (!html || req.method !== 'GET' || bodyless || !decode) {
        // HEAD: announce the length the GET will have.
        if (html && req.method === 'HEAD' && coding === 'identity' && out['content-length']) {
          out['content-length'] = String(Number(out['content-length']) + RELOAD_TAG.length);
        }
        res.writeHead(up.statusCode, up.statusMessage, out);
        up.pipe(res);
        return;
      }
      const chunks = [];
      up.on('data', (chunk) => chunks.push(chunk));
      up.on('end', () => {
        let body;
        try {
          body = injectReload(decode(Buffer.concat(chunks)));
        } catch (error) {
          unavailable(res, `Could not read the page from the api (${error.message}).`);
          return;
        }
        delete out['content-encoding'];
        delete out['transfer-encoding'];
        out['content-length'] = String(body.length);
        res.writeHead(up.statusCode, up.statusMessage, out);
        res.end(body);
      });
    });
    req.pipe(upstream);
  }

  const server = http.createServer(handle);
  const close = () => {
    clearInterval(heartbeat);
    for (const client of sseClients) client.end();
    server.close();
    server.closeAllConnections();
  };
  return { server, broadcast, close };
}
