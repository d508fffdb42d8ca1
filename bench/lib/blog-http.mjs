// HTTP, for the blog benchmark's publish and edit timings.
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

import { now } from './blog-config.mjs';

export function http(base, agent, method, path, { token, body } = {}) {
  return new Promise((ok, fail) => {
    const headers = { 'accept-encoding': 'br, gzip' };
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const req = request(`${base}${path}`, { method, agent, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        let bytes = Buffer.concat(chunks);
        const encoding = res.headers['content-encoding'];
        if (encoding === 'br') bytes = brotliDecompressSync(bytes);
        else if (encoding === 'gzip') bytes = gunzipSync(bytes);
        ok({ status: res.statusCode, text: bytes.toString('utf8'), at: now() });
      });
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

export function percentile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)];
}
