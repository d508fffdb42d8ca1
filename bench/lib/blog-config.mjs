// The blog benchmark's settings and small helpers, shared by bench/blog.mjs and its modules.
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
export const api = join(root, 'target/release/api');
export const generator = join(root, 'target/release/generator');
export const SIZES = (process.env.BENCH_SIZES ?? '1000,4000').split(',').map(Number);
// Posts on the site while publishes and edits are timed: a publish must cost the same at each.
export const LIVE_SIZES = (process.env.BENCH_LIVE_SIZES ?? '40,400,4000').split(',').map(Number);
export const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 100); // publishes, and edits, at each size
export const RUNS = 3; // timed builds, after one warm-up
export const IMAGE = '/uploads/0123456789abcdef0123.jpg';
export const PASSWORD = 'a bench password for the blog';

export const log = (...args) => console.error('  ·', ...args);
export const now = () => performance.now();
