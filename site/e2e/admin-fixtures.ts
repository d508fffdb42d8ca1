// The admin app's tests: each Playwright worker gets a server of its own (server.ts), and
// every test starts from empty lists in it, so what a test seeds is exactly what the
// dashboard shows, whatever the public-form tests are posting to the shared server. Its
// first Owner is the only account at each test's start, and every test's browser has their
// device cookie, so signing in as them needs no second step, as in a browser they use.
import { type Page } from '@playwright/test';
import { expectAccessible } from './fixtures';
import { execFileSync } from 'node:child_process';
import { type Server, startServer } from './server';
import { expect, test as base } from './fixtures';
import { type Role, type StaffMember, createUser, deviceCookie, ownerOf, registerOwner } from './staff';

/** The server's database, through the sqlite3 CLI (which sees the WAL). */
export class Db {
  constructor(readonly path: string) {}

  exec(statements: string): void {
    execFileSync('sqlite3', ['-cmd', '.timeout 5000', this.path, statements]);
  }

  query<T = Record<string, unknown>>(statement: string): T[] {
    const out = execFileSync('sqlite3', ['-cmd', '.timeout 5000', '-json', this.path, statement]).toString().trim();
    return out ? (JSON.parse(out) as T[]) : [];
  }

  /** Inserts a row and returns its id. */
  insert(table: string, row: Record<string, string | number | boolean | null>): number {
    const columns = Object.keys(row);
    const values = Object.values(row).map(literal);
    const [{ id }] = this.query<{ id: number }>(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${values.join(', ')}) RETURNING id`);
    return id;
  }

  /** Empties the lists; with `owner`, every staff account but theirs goes too, with all
   *  invitations, reset links, passkeys, service tokens and pending sign-ins. */
  reset(owner?: number): void {
    // The lists first: a refund names the staff member who made it. The mail queue goes with
    // them: its once-only keys name rows by id (`event-rsvp-ask:{event}:{address}:{day}:{n}`),
    // and the ids of emptied tables are given out again, so an earlier test's mail would
    // otherwise count against this one's (three RSVP links a day, then none).
    this.exec(
      'DELETE FROM mail_queue; DELETE FROM event_rsvp_requests; DELETE FROM event_rsvps; DELETE FROM events; DELETE FROM contact_messages; DELETE FROM volunteer_signups; DELETE FROM newsletter_signups; ' +
        'DELETE FROM donation_refunds; DELETE FROM donations; DELETE FROM donation_plans; DELETE FROM blog_revisions; DELETE FROM blog_posts; DELETE FROM sms_consents; ' +
        'DELETE FROM supporter_merges; DELETE FROM supporter_emails; DELETE FROM supporters; DELETE FROM contributor_matches; DELETE FROM contributors; DELETE FROM suppressed_emails;',
    );
    if (owner !== undefined) {
      this.exec(
        `DELETE FROM staff_sessions WHERE user_id != ${owner}; DELETE FROM staff_devices WHERE user_id != ${owner}; ` +
          `DELETE FROM recovery_codes WHERE user_id != ${owner}; DELETE FROM sign_in_challenges; DELETE FROM second_step_failures; DELETE FROM passkeys; ` +
          `DELETE FROM invitations; DELETE FROM password_resets; DELETE FROM service_tokens; DELETE FROM users WHERE id != ${owner};`,
      );
    }
  }
}

function literal(value: string | number | boolean | null): string {
  if (value === null) return 'NULL';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? '1' : '0';
  return `'${value.replaceAll("'", "''")}'`;
}

/** An ISO time `minutes` before now, as the server stores times. */
export function minutesAgo(minutes: number): string {
  return new Date(Date.now() - minutes * 60_000).toISOString();
}

interface StaffFixtures {
  db: Db;
  /** The server's first Owner. */
  owner: StaffMember;
  /** Makes a user of `role` (invited by the Owner, accepted; see staff.ts createUser). */
  makeUser: (role: Role, options?: Parameters<typeof createUser>[4]) => Promise<StaffMember>;
}

export const test = base.extend<StaffFixtures, { server: Server }>({
  server: [
    async ({}, use) => {
      const server = await startServer();
      await use(server);
      await server.stop();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ server }, use) => use(server.baseURL),
  context: async ({ context, server }, use) => {
    await context.addCookies([deviceCookie(server.baseURL, server.owner)]);
    await use(context);
  },
  owner: async ({ server }, use) => use(server.owner),
  makeUser: async ({ server }, use) => use((role, options) => createUser(server.baseURL, server.dbPath, server.owner, role, options)),
  db: [
    async ({ server }, use) => {
      const db = new Db(server.dbPath);
      db.reset(server.owner.id);
      await use(db);
    },
    { auto: true },
  ],
});

export { expect };

/** Signs in through the locked card as `member` (the server's first Owner unless given),
 *  from a browser that has their device cookie, and waits for the dashboard. Should the
 *  server still ask for a second step (a moved test clock has outlasted the cookie), the
 *  authenticator app answers it. */
export async function signIn(page: Page, member?: StaffMember): Promise<void> {
  await page.goto('/admin');
  const origin = new URL(page.url()).origin;
  const who = member ?? ownerOf(origin);
  await page.context().addCookies([deviceCookie(origin, who)]);
  await page.getByLabel('E-mail').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Access Admin Panel' }).click();
  const dashboard = page.getByRole('heading', { level: 1, name: 'Admin Dashboard' });
  const code = page.getByLabel('Code', { exact: true });
  await expect(dashboard.or(code)).toBeVisible();
  if (who.totp && (await code.isVisible())) {
    await code.fill(await who.totp.next());
    await page.getByRole('button', { name: 'Verify' }).click();
  }
  await expect(dashboard).toBeVisible();
}

/** Holds the answers to requests matching `pattern` until `release` is called, so a
 *  pending state can be seen; the real server still answers them. */
export async function holdRequests(page: Page, pattern: string | RegExp): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(pattern, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

export function tab(page: Page, name: string) {
  return page.getByRole('tab', { name: new RegExp(`^${name}`) });
}

export function panel(page: Page) {
  return page.getByRole('tabpanel');
}

/** A few rows of every kind, as the dashboard's full-state tests see them. */
export function seedEverything(db: Db) {
  const ids = {
    contactOld: db.insert('contact_messages', {
      name: 'Ruth Alvarez',
      email: 'ruth@example.org',
      subject: 'Hosting a town hall',
      message: 'Our church hall is free on Tuesdays.\nWould you send a speaker?',
      created_at: minutesAgo(3 * 60 + 5),
    }),
    contactNew: db.insert('contact_messages', {
      name: 'Sam Okafor',
      email: 'sam@example.org',
      subject: 'Yard signs',
      message: 'Where can I get yard signs?',
      created_at: minutesAgo(2),
    }),
    volunteerFull: db.insert('volunteer_signups', {
      name: 'Lena Park',
      email: 'lena@example.org',
      phone: '555-010-2000',
      zip_code: '97201',
      interests: 'Canvassing, phone banking',
      created_at: minutesAgo(60 * 26),
    }),
    volunteerBare: db.insert('volunteer_signups', {
      name: 'Omar Haddad',
      email: 'omar@example.org',
      phone: null,
      zip_code: '10001',
      interests: null,
      created_at: minutesAgo(10),
    }),
    newsletterFull: db.insert('newsletter_signups', {
      email: 'news@example.org',
      phone: '555-010-3000',
      phone_e164: '+15550103000',
      zip_code: '60601',
      created_at: minutesAgo(5),
    }),
    newsletterBare: db.insert('newsletter_signups', { email: 'quiet@example.org', phone: null, zip_code: '30301', created_at: minutesAgo(50) }),
    donationBig: db.insert('donations', {
      ...donor('Beatriz Cole', 'bea@example.org'),
      amount_cents: 125050,
      donor_occupation: 'Nurse',
      donor_employer: 'County Hospital',
      contribution_purpose: 'general_party_use',
      citizenship_confirmed: true,
      status: 'completed',
      created_at: minutesAgo(60 * 24 * 3),
    }),
    donationSmall: db.insert('donations', {
      ...donor('aaron Diaz', 'aaron@example.org'),
      amount_cents: 2500,
      citizenship_confirmed: true,
      status: 'pending',
      // Inside the 10-minute hold: the server's sweep, once a minute, expires older ones.
      created_at: minutesAgo(2),
    }),
    donationFailed: db.insert('donations', {
      ...donor('Zoe Young', 'zoe@example.org'),
      amount_cents: 10000,
      citizenship_confirmed: false,
      status: 'failed',
      created_at: minutesAgo(60 * 5),
    }),
    // Beatriz gives monthly: her gift is the plan's first.
    plan: db.insert('donation_plans', {
      donor_email: 'bea@example.org',
      amount_cents: 125050,
      status: 'active',
      anchor_at: minutesAgo(60 * 24 * 3),
      next_charge: 1,
      next_attempt_at: new Date(Date.now() + 27 * 86_400_000).toISOString(),
      stripe_customer: 'cus_seed',
      payment_method: 'pm_seed',
      created_at: minutesAgo(60 * 24 * 3),
      updated_at: minutesAgo(60 * 24 * 3),
    }),
    draft: db.insert('blog_posts', {
      title: 'Draft on ballot access',
      slug: 'draft-on-ballot-access',
      content: '<p>Work in progress.</p>',
      author_name: 'ACP Team',
      status: 'draft',
      updated_at: minutesAgo(1),
    }),
    published: db.insert('blog_posts', {
      title: 'Why we run',
      slug: 'why-we-run',
      content: '<p>Because you deserve a choice.</p>',
      author_name: 'ACP Team',
      status: 'published',
      publish_date: '2025-01-05T15:30:00.000Z',
      updated_at: minutesAgo(60),
    }),
  };
  db.exec(`UPDATE donations SET plan_id = ${ids.plan}, plan_charge = 0 WHERE id = ${ids.donationBig}`);
  linkPeople(db);
  return ids;
}

/** Rows a test inserted itself get their people, as the server's start-up back-fill would
 *  give them (the seeds' addresses are ASCII, so SQLite's lower() folds them as Rust does). */
export function linkPeople(db: Db): void {
  const tables: [string, string][] = [
    ['newsletter_signups', 'email'],
    ['contact_messages', 'email'],
    ['volunteer_signups', 'email'],
    ['donations', 'donor_email'],
    ['donation_plans', 'donor_email'],
  ];
  const addresses = tables.map(([t, c]) => `SELECT lower(trim(${c})) AS e FROM ${t} WHERE email_id IS NULL AND ${c} != ''`).join(' UNION ');
  db.exec(
    `CREATE TEMP TABLE new_addresses AS SELECT e FROM (${addresses}) WHERE e NOT IN (SELECT email FROM supporter_emails);` +
      `INSERT INTO supporters (id, created_at) SELECT NULL, strftime('%Y-%m-%dT%H:%M:%fZ', 'now') FROM new_addresses;` +
      `INSERT INTO supporter_emails (email, supporter_id, created_at) SELECT e, (SELECT max(id) FROM supporters) - (SELECT count(*) FROM new_addresses) + row_number() OVER (ORDER BY e), strftime('%Y-%m-%dT%H:%M:%fZ', 'now') FROM new_addresses;` +
      tables
        .map(([t, c]) => `UPDATE ${t} SET email_id = (SELECT id FROM supporter_emails WHERE email = lower(trim(${t}.${c}))) WHERE email_id IS NULL;`)
        .join(''),
  );
}

function donor(name: string, email: string) {
  return {
    donor_name: name,
    donor_email: email,
    donor_address: '12 Elm Street',
    donor_city: 'Springfield',
    donor_state: 'IL',
    donor_zip_code: '62701',
  };
}

/** axe at a phone's width and a desktop's, ending at the desktop's. */
export async function expectAccessibleAtBothWidths(page: Page): Promise<void> {
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await expectAccessible(page);
  }
}

/** A server of its own whose site is at http://localhost (SITE_URL), which passkeys need: a
 *  WebAuthn relying party is a domain name, never an IP address. Its `baseURL` says
 *  localhost, and its Owner is known there too. */
export async function startPasskeyServer(env: Record<string, string> = {}): Promise<Server> {
  const server = await startServer({ SITE_URL: 'http://localhost', ...env });
  const baseURL = server.baseURL.replace('127.0.0.1', 'localhost');
  registerOwner(baseURL, server.owner);
  return { ...server, baseURL, owner: server.owner, stop: server.stop };
}

/** Chromium's virtual authenticator in `page`: a platform authenticator that holds passkeys
 *  and verifies its user at once, as a laptop's fingerprint reader would. */
export async function virtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    credentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials,
  };
}
