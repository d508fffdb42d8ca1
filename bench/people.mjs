// The People tab and the public forms that feed it (run by `just bench`), in two parts.
//
// 1. The forms' write rate, side by side with the same binary on a database whose People
//    index (the people_list triggers of V21, which queue for people_search since V23) is
//    dropped: what keeping the list current in every submission's own write costs. Each form is posted by 32 clients
//    for a few seconds, every request from a new address (a new supporter, address and
//    index rows in the same write: the most work there is) and, for contact, all from one
//    address; the last run posts new addresses to a database that already lists 100,000
//    people. With BASELINE_API set to an api binary built from another commit, the same
//    runs go against it too:
//
//      git worktree add /tmp/base b78aa4a && (cd /tmp/base && cargo build --release -p api)
//      BASELINE_API=/tmp/base/target/release/api node bench/people.mjs
//
// 2. The People tab at 100,000 people: a staff member's searches by a surname, a first
//    name, both, part of an address, a phone's digits, two letters (too short for the
//    trigram index: every row is read), and the whole list's first and 1,000th pages,
//    each asked 200 times in a row through the real endpoint; p50 and p99 per search.
//
// Absolute figures drift on a shared machine; each table is one run, side by side. A
// benchmark reports, it does not gate: it exits 1 only when a server does not start.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { api, PASSWORD, root } from "./lib/blog-config.mjs";
import { ensure } from "./lib/debian.mjs";
import { ownerToken } from "./lib/staff.mjs";
import { postsScript, wrk } from "./lib/wrk-posts.mjs";
import { startApi, stopApi } from "./lib/blog-processes.mjs";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const PEOPLE = Number(process.env.BENCH_PEOPLE ?? 100_000);
const ASKS = Number(process.env.BENCH_ASKS ?? 200);
const SQLITE = "/usr/bin/sqlite3";

const tmp = mkdtempSync(join(tmpdir(), "acp-people-bench-"));
process.on("exit", () => rmSync(tmp, { recursive: true, force: true }));
ensure(SQLITE, "sqlite3");

function sql(db, statements) {
  const r = spawnSync(SQLITE, ["-cmd", ".timeout 10000", db], {
    input: statements,
    encoding: "utf8",
    maxBuffer: 64 << 20,
  });
  if (r.status !== 0) throw new Error(`sqlite3 ${db}: ${r.stderr}`);
  return r.stdout;
}

/** A wrk script file posting `body` to `path` (see lib/wrk-posts.mjs). */
function script(name, path, body, fixed) {
  const file = join(tmp, `${name}.lua`);
  writeFileSync(file, postsScript(path, body, { fixed }));
  return file;
}

const env = { FORM_RATE_LIMIT: "1000000000" };

function startServerWith(binary, dir) {
  // Errors only: past the hour's cap every signup logs a warning, and wrk runs synchronously,
  // so nothing would read those lines and the api would stall writing them.
  return startApi(dir, join(root, "dist"), "error", env, binary);
}

/** A data folder with the schema made by `binary` (started once and stopped). */
async function migrated(binary, dir) {
  const server = startServerWith(binary, dir);
  await server.base;
  await stopApi(server.child);
}

/** Drops the triggers that keep the People list and its index current. */
function dropIndex(dir) {
  const db = join(dir, "site.db");
  const triggers = sql(
    db,
    "SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'people_list%';",
  )
    .split("\n")
    .filter(Boolean);
  if (triggers.length === 0)
    throw new Error(
      "no people_list triggers to drop: is this build older than V21?",
    );
  sql(db, triggers.map((t) => `DROP TRIGGER ${t};`).join("\n"));
}

// --- 100,000 people: names from 60 first names and 250 surnames (400 people share each
// surname), an address made of both, half of them volunteers with a phone, a quarter who
// wrote, all on the newsletter (three in four confirmed), one a minute from 2024 on.
const FIRST = [
  "Ann",
  "Bo",
  "Cy",
  "Dana",
  "Eli",
  "Fay",
  "Gus",
  "Hana",
  "Ida",
  "Jon",
  "Kai",
  "Lena",
  "Max",
  "Nia",
  "Omar",
  "Pia",
  "Quinn",
  "Rosa",
  "Sam",
  "Tess",
  "Uma",
  "Vic",
  "Wes",
  "Xena",
  "Yuri",
  "Zoë",
  "Maria",
  "José",
  "Mei",
  "Ravi",
  "Aisha",
  "Liam",
  "Noah",
  "Emma",
  "Olivia",
  "Ava",
  "Lucas",
  "Mia",
  "Ethan",
  "Chloe",
  "Diego",
  "Sofia",
  "Hiro",
  "Yuki",
  "Amir",
  "Leila",
  "Tomas",
  "Greta",
  "Ivan",
  "Olga",
  "Kofi",
  "Ama",
  "Sean",
  "Niamh",
  "Paulo",
  "Ines",
  "Arjun",
  "Priya",
  "Chen",
  "Ling",
];
const LAST = Array.from({ length: 250 }, (_, i) => {
  const stems = [
    "Walk",
    "Ston",
    "Rive",
    "Hill",
    "Fiel",
    "Broo",
    "Wood",
    "Lake",
    "Mars",
    "Ford",
  ];
  const ends = [
    "er",
    "e",
    "man",
    "son",
    "ley",
    "ton",
    "well",
    "wick",
    "by",
    "ham",
    "more",
    "dale",
    "ridge",
    "worth",
    "stead",
    "ing",
    "ard",
    "en",
    "ow",
    "is",
    "ock",
    "ett",
    "ins",
    "ley-Ross",
    "ez",
  ];
  return stems[i % 10] + ends[Math.floor(i / 10)];
});

function seed(db, count) {
  const first = JSON.stringify(FIRST).replaceAll("'", "''");
  const last = JSON.stringify(LAST).replaceAll("'", "''");
  sql(
    db,
    `BEGIN;
     CREATE TEMP TABLE p AS
     WITH RECURSIVE i(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM i WHERE n < ${count})
     SELECT n, json_extract('${first}', '$[' || (n % 60) || ']') AS first,
            json_extract('${last}', '$[' || ((n / 60) % 250) || ']') AS last,
            strftime('%Y-%m-%dT%H:%M:%fZ', '2024-01-01', '+' || n || ' minutes') AS at
     FROM i;
     INSERT INTO supporters (id, created_at) SELECT n, at FROM p;
     INSERT INTO supporter_emails (id, email, supporter_id, created_at)
     SELECT n, lower(replace(first, 'ë', 'e') || '.' || replace(last, '-', '') || n || '@example.org'), n, at FROM p;
     INSERT INTO newsletter_signups (email, zip_code, status, created_at, updated_at, email_id)
     SELECT e.email, '12345', iif(n % 4 = 0, 'pending', 'confirmed'), at, at, n
     FROM p JOIN supporter_emails e ON e.id = n;
     INSERT INTO volunteer_signups (name, email, phone, phone_e164, zip_code, created_at, email_id)
     SELECT first || ' ' || last, e.email, '(555) ' || printf('%03d-%04d', n / 10000, n % 10000),
            '+1555' || printf('%03d%04d', n / 10000, n % 10000), '12345',
            strftime('%Y-%m-%dT%H:%M:%fZ', at, '+1 hour'), n
     FROM p JOIN supporter_emails e ON e.id = n WHERE n % 2 = 0;
     INSERT INTO contact_messages (name, email, subject, message, created_at, email_id)
     SELECT first || ' ' || last, e.email, 'Hello', 'A note for the party.', strftime('%Y-%m-%dT%H:%M:%fZ', at, '+2 hours'), n
     FROM p JOIN supporter_emails e ON e.id = n WHERE n % 4 = 1;
     COMMIT;`,
  );
}

// --- Part one: write rates.
const RUNS = [
  [
    "newsletter, new addresses",
    "/api/newsletter-signup",
    `'{"email":"' .. email .. '","zipCode":"12345"}'`,
  ],
  [
    "contact, new addresses",
    "/api/contact",
    `'{"name":"Ann Lee","email":"' .. email .. '","subject":"Hi","message":"Hello there"}'`,
  ],
  [
    "volunteer, new addresses",
    "/api/volunteer",
    `'{"name":"Ann Lee","email":"' .. email .. '","zipCode":"12345","phone":"555-201-3344"}'`,
  ],
  [
    "contact, one address",
    "/api/contact",
    `'{"name":"Ann Lee","email":"' .. email .. '","subject":"Hi","message":"Hello there"}'`,
    "same@example.org",
  ],
].map(([label, path, body, fixed], i) => ({
  label,
  path,
  file: script(`run${i}`, path, body, fixed),
}));
const CROWDED = {
  label: `newsletter, ${PEOPLE.toLocaleString("en-US")} listed`,
  path: "/api/newsletter-signup",
  file: script(
    "crowded",
    "/api/newsletter-signup",
    `'{"email":"' .. email .. '","zipCode":"12345"}'`,
  ),
  crowded: true,
};

const contenders = [
  { name: "with the index", binary: api, drop: false },
  { name: "index dropped", binary: api, drop: true },
];
if (process.env.BASELINE_API)
  contenders.push({
    name: "baseline",
    binary: process.env.BASELINE_API,
    drop: false,
  });

// The seeded database, once per schema: this build's, and the baseline's when there is one.
const seeded = new Map();
async function seededDb(binary) {
  if (!seeded.has(binary)) {
    const dir = join(tmp, `seed-${seeded.size}`);
    await migrated(binary, dir);
    const started = performance.now();
    seed(join(dir, "site.db"), PEOPLE);
    console.error(
      `  · ${PEOPLE.toLocaleString("en-US")} people seeded in ${((performance.now() - started) / 1000).toFixed(1)} s (${binary === api ? "this build" : "baseline"})`,
    );
    seeded.set(binary, dir);
  }
  return seeded.get(binary);
}

/** A fresh data folder for `contender`: empty, or a copy of the seeded 100,000. */
async function folder(contender, run, round) {
  const dir = join(
    tmp,
    `${contender.name}-${run.file.slice(-10)}-${round}`.replace(/\W/g, "_"),
  );
  if (run.crowded) {
    cpSync(await seededDb(contender.binary), dir, { recursive: true });
  } else {
    await migrated(contender.binary, dir);
  }
  if (contender.drop) dropIndex(dir);
  return dir;
}

const results = new Map();
// Alternating, each on a fresh data folder, so every contender meets the same disk and load.
// Two rounds; the best of each counts (a busy machine only ever slows a run down).
const ROUNDS = 2;
for (let round = 0; round < ROUNDS; round++) {
  for (const run of [...RUNS, CROWDED]) {
    for (const contender of contenders) {
      const dir = await folder(contender, run, round);
      const server = startServerWith(contender.binary, dir);
      const base = await server.base;
      const got = wrk(`${base}${run.path}`, run.file, SECONDS);
      const key = `${run.label}|${contender.name}`;
      if (!results.has(key) || got.rps > results.get(key).rps)
        results.set(key, got);
      await stopApi(server.child);
    }
  }
}

const fmt = (n) => Math.round(n).toLocaleString("en-US");
console.log(
  `\nPublic forms, each submission linked to its person and listed (32 clients, ${SECONDS} s each, best of ${ROUNDS}; writes/s and p99):`,
);
console.log(
  `  ${"form".padEnd(30)}${contenders.map((c) => c.name.padStart(26)).join("")}   with/dropped`,
);
for (const run of [...RUNS, CROWDED]) {
  const cells = contenders.map((c) => results.get(`${run.label}|${c.name}`));
  const text = cells
    .map((c) =>
      `${fmt(c.rps)}/s ${c.p99ms.toFixed(1)} ms${c.bad ? ` (${c.bad} errors!)` : ""}`.padStart(
        26,
      ),
    )
    .join("");
  console.log(
    `  ${run.label.padEnd(30)}${text}   ${(cells[0].rps / cells[1].rps).toFixed(2)}×`,
  );
}

// --- Part two: searching 100,000 people.
const SEARCHES = [
  ["a surname", "walker"],
  ["a first name", "maria"],
  ["a first name and a surname", "maria walker"],
  ["part of an address", "walker12"],
  ["a phone number", "(555) 004-2006"],
  ["two letters (no index)", "zq"],
  ["everyone, first page", ""],
  ["everyone, page 1,000", "", 999],
];

const dir = join(tmp, "search");
cpSync(await seededDb(api), dir, { recursive: true });
const server = startServerWith(api, dir);
const base = await server.base;
const token = await ownerToken(base, PASSWORD);

async function ask(q, page = 0) {
  const started = performance.now();
  const res = await fetch(
    `${base}/api/admin/people?q=${encodeURIComponent(q)}&page=${page}`,
    {
      headers: { authorization: `Bearer ${token}` },
    },
  );
  const body = await res.json();
  const ms = performance.now() - started;
  if (!res.ok)
    throw new Error(
      `GET /api/admin/people?q=${q}: ${res.status} ${JSON.stringify(body)}`,
    );
  return { ms, total: body.total, people: body.people };
}

const pct = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
console.log(
  `\nThe People tab at ${PEOPLE.toLocaleString("en-US")} people (${ASKS} asks each, one after another, after 10 to warm up):`,
);
console.log(
  `  ${"search".padEnd(30)}${"found".padStart(9)}${"p50".padStart(10)}${"p99".padStart(10)}`,
);
const all = [];
for (const [label, q, page = 0] of SEARCHES) {
  for (let i = 0; i < 10; i++) await ask(q, page);
  const times = [];
  let found;
  for (let i = 0; i < ASKS; i++) {
    const got = await ask(q, page);
    times.push(got.ms);
    found = got;
  }
  times.sort((a, b) => a - b);
  all.push(...times);
  console.log(
    `  ${label.padEnd(30)}${fmt(found.total).padStart(9)}${`${pct(times, 50).toFixed(1)} ms`.padStart(10)}${`${pct(times, 99).toFixed(1)} ms`.padStart(10)}`,
  );
}
all.sort((a, b) => a - b);
console.log(
  `  ${"every search".padEnd(30)}${"".padStart(9)}${`${pct(all, 50).toFixed(1)} ms`.padStart(10)}${`${pct(all, 99).toFixed(1)} ms`.padStart(10)}`,
);

// An erasure merges the whole index in its write (so the erased person's trigrams leave the
// file): what that costs at this size, for five people one after another.
const erasures = [];
for (const person of (await ask("walker")).people.slice(0, 5)) {
  const started = performance.now();
  const res = await fetch(`${base}/api/admin/people/${person.id}/erase`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
  });
  erasures.push(performance.now() - started);
  if (!res.ok)
    throw new Error(`erase ${person.id}: ${res.status} ${await res.text()}`);
}
erasures.sort((a, b) => a - b);
console.log(
  `  ${"an erasure (index merged)".padEnd(30)}${"".padStart(9)}${`${pct(erasures, 50).toFixed(1)} ms`.padStart(10)}${`${erasures.at(-1).toFixed(1)} ms`.padStart(10)}  (median, slowest of ${erasures.length})`,
);
await stopApi(server.child);
