// Staff accounts for the browser tests, through the server's own API (plain fetch, so the
// global setup and the worker fixtures alike can use it): the first Owner's sign-in on a new
// server (no second step, and the browser's `acp_device` cookie), their authenticator app
// (codes from `otpauth`, at the server's clock), and more users of any role, invited and
// accepted as a person would be (the link read from the server's mail queue).
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from './settings';

export type Role = 'owner' | 'administrator' | 'treasurer' | 'organizer' | 'editor' | 'author' | 'contributor';

/** Someone who can sign in: their address and password, the device cookie of the browser
 *  they first signed in with (a browser with it skips the second step), and their
 *  authenticator app when they have one. */
export interface StaffMember {
  id: number;
  email: string;
  name: string;
  role: Role;
  password: string;
  /** The `acp_device` cookie's value. */
  device: string;
  totp?: Authenticator;
  recoveryCodes?: string[];
}

/** The name of the cookie a browser that finished a sign-in keeps. */
export const DEVICE_COOKIE = 'acp_device';

/** The step of 30 seconds `ms` falls in. */
const stepOf = (ms: number) => Math.floor(ms / 30_000);

/** An authenticator app: the server takes a code once (a step at or before the last one used
 *  is refused) and one step either side of its clock, so each code given is for a step after
 *  the last, waiting for the clock when two steps ahead would be needed. */
export class Authenticator {
  constructor(
    readonly secret: string,
    /** The last step used (at enrolment or a sign-in). */
    public lastStep: number,
    /** How far the server's clock runs ahead of this one (a moved test clock). */
    public offsetMs = 0,
  ) {}

  codeAt(step: number): string {
    return new TOTP({ secret: Secret.fromBase32(this.secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: step * 30_000 });
  }

  /** A code the server takes now. */
  async next(): Promise<string> {
    let now = Date.now() + this.offsetMs;
    const step = Math.max(stepOf(now), this.lastStep + 1);
    if (step > stepOf(now) + 1) {
      await new Promise((r) => setTimeout(r, (step - 1) * 30_000 - now + 200));
      now = Date.now() + this.offsetMs;
    }
    this.lastStep = step;
    return this.codeAt(step);
  }
}

/** The device cookie a response set, if it set one. */
export function deviceFrom(response: Response): string | undefined {
  for (const cookie of response.headers.getSetCookie()) {
    const match = new RegExp(`^${DEVICE_COOKIE}=([^;]+)`).exec(cookie);
    if (match) return match[1];
  }
  return undefined;
}

async function call<T>(base: string, method: string, path: string, { token, device, body }: { token?: string; device?: string; body?: unknown } = {}) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(device ? { cookie: `${DEVICE_COOKIE}=${device}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return { response, json: (text ? JSON.parse(text) : null) as T };
}

interface SignedIn {
  success: true;
  token: string;
  user: { id: number; email: string; name: string; role: Role; mustEnrol: boolean };
}

/** Signs in through the API from the browser `device` names; a second step it asks for is
 *  answered with the authenticator app (and the device cookie it then sets is kept: a moved
 *  test clock can outlast the old one). Returns the session's token. */
export async function apiSignIn(base: string, member: Pick<StaffMember, 'email' | 'password' | 'device' | 'totp'>): Promise<string> {
  const { json } = await call<SignedIn | { success: false; challenge: string; methods: string[] }>(base, 'POST', '/api/admin/login', {
    device: member.device,
    body: { email: member.email, password: member.password },
  });
  if (json.success) return json.token;
  if (!member.totp || !json.methods.includes('totp')) throw new Error(`${member.email} needs a second step: ${json.methods.join(', ')}`);
  const verified = await call<SignedIn>(base, 'POST', '/api/admin/login/verify', {
    device: member.device,
    body: { challenge: json.challenge, method: 'totp', code: await member.totp.next() },
  });
  member.device = deviceFrom(verified.response) ?? member.device;
  return verified.json.token;
}

/** Sets up an authenticator app for the account `token` is a session of. */
export async function enrolTotp(base: string, token: string): Promise<{ totp: Authenticator; recoveryCodes: string[] }> {
  const { json } = await call<{ secret: string }>(base, 'POST', '/api/admin/security/totp', { token });
  const totp = new Authenticator(json.secret, -1);
  const confirmed = await call<{ recoveryCodes: string[] }>(base, 'POST', '/api/admin/security/totp/confirm', { token, body: { code: await totp.next() } });
  return { totp, recoveryCodes: confirmed.json.recoveryCodes };
}

/** The first sign-in of the Owner a new server made from ADMIN_EMAIL: no second step, and the
 *  device cookie; then their authenticator app, which their role requires before anything
 *  but their own account opens. */
export async function bootstrapOwner(base: string): Promise<StaffMember> {
  const { response, json } = await call<SignedIn>(base, 'POST', '/api/admin/login', { body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } });
  const device = deviceFrom(response);
  if (!json.success || !device) throw new Error(`the Owner's first sign-in did not complete: ${JSON.stringify(json)}`);
  const { totp, recoveryCodes } = await enrolTotp(base, json.token);
  await call(base, 'POST', '/api/admin/logout', { token: json.token });
  return { id: json.user.id, email: ADMIN_EMAIL, name: json.user.name, role: 'owner', password: ADMIN_PASSWORD, device, totp, recoveryCodes };
}

/** A password the server's strength check takes. */
export function strongPassword(): string {
  return `Lantern-${randomBytes(9).toString('base64url')}-orchard`;
}

/** Decodes a raw message's quoted-printable soft breaks and escapes (enough for links). */
export function unQuote(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** The token of the newest `/admin/{kind}#token` link mailed to `email` (the server's mail
 *  queue, read from its database), waiting up to 10 s for it. */
export async function mailedLink(dbPath: string, email: string, kind: 'invite' | 'reset', after = 0): Promise<{ id: number; token: string }> {
  const pattern = new RegExp(`/admin/${kind}#([A-Za-z0-9_.~-]+)`);
  for (let i = 0; i < 100; i += 1) {
    const out = execFileSync('sqlite3', [
      '-cmd',
      '.timeout 5000',
      '-json',
      dbPath,
      `SELECT id, CAST(message AS TEXT) AS m FROM mail_queue WHERE to_address = '${email.replaceAll("'", "''")}' AND id > ${after} ORDER BY id DESC`,
    ])
      .toString()
      .trim();
    const rows = out ? (JSON.parse(out) as { id: number; m: string }[]) : [];
    for (const row of rows) {
      const token = pattern.exec(unQuote(row.m))?.[1];
      if (token) return { id: row.id, token };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no /admin/${kind} link was mailed to ${email}`);
}

/** The 6-digit sign-in code last mailed to `email` (in the message's text, never its
 *  subject), waiting up to 10 s for one newer than message `after`. Returns the code and its
 *  message's id. */
export async function mailedCode(dbPath: string, email: string, after = 0): Promise<{ id: number; code: string }> {
  for (let i = 0; i < 100; i += 1) {
    const out = execFileSync('sqlite3', [
      '-cmd',
      '.timeout 5000',
      '-json',
      dbPath,
      `SELECT id, CAST(message AS TEXT) AS m FROM mail_queue WHERE to_address = '${email.replaceAll("'", "''")}' AND id > ${after} AND subject LIKE '%sign-in code%' ORDER BY id DESC LIMIT 1`,
    ])
      .toString()
      .trim();
    const [row] = out ? (JSON.parse(out) as { id: number; m: string }[]) : [];
    const code = row && /is:\s+(\d{6})\b/.exec(unQuote(row.m))?.[1];
    if (row && code) return { id: row.id, code };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no sign-in code was mailed to ${email}`);
}

/** The newest message's id in the mail queue (0 for none), to wait for mail after it. */
export function lastMailId(dbPath: string): number {
  const out = execFileSync('sqlite3', ['-cmd', '.timeout 5000', dbPath, 'SELECT COALESCE(MAX(id), 0) FROM mail_queue']).toString().trim();
  return Number(out);
}

let made = 0;

/** A user of `role`, invited by `inviter` (an Owner can invite any role) and accepted as a
 *  person would: the invitation's link from the mail queue, their name and a password. The
 *  accepting "browser" keeps its device cookie, so their later sign-ins skip the second step
 *  from a browser that has it. An Owner or Treasurer has no factor until `enrol`. */
export async function createUser(
  base: string,
  dbPath: string,
  inviter: StaffMember,
  role: Role,
  { name, email, enrol = false }: { name?: string; email?: string; enrol?: boolean } = {},
): Promise<StaffMember> {
  made += 1;
  const address = email ?? `${role}-${process.pid}-${made}-${randomBytes(3).toString('hex')}@e2e.test`;
  const fullName = name ?? `${role[0].toUpperCase()}${role.slice(1)} ${made}`;
  const token = await apiSignIn(base, inviter);
  await call(base, 'POST', '/api/admin/invitations', { token, body: { email: address, name: fullName, role } });
  await call(base, 'POST', '/api/admin/logout', { token });
  const link = await mailedLink(dbPath, address, 'invite');
  const password = strongPassword();
  const { response, json } = await call<SignedIn>(base, 'POST', '/api/admin/invitation/accept', { body: { token: link.token, name: fullName, password } });
  const device = deviceFrom(response);
  if (!device) throw new Error('accepting an invitation set no device cookie');
  const member: StaffMember = { id: json.user.id, email: address, name: fullName, role, password, device };
  if (enrol) Object.assign(member, await enrolTotp(base, json.token));
  await call(base, 'POST', '/api/admin/logout', { token: json.token });
  return member;
}

/** The first Owner of each server this process started (server.ts registers them). */
const owners = new Map<string, StaffMember>();

export function registerOwner(baseURL: string, owner: StaffMember): void {
  owners.set(new URL(baseURL).origin, owner);
}

/** The shared server's Owner, as the global setup passed them on (OWNER_* variables). */
function sharedOwner(): StaffMember | undefined {
  const { OWNER_ID, OWNER_DEVICE, OWNER_TOTP_SECRET, OWNER_TOTP_STEP } = process.env;
  if (!OWNER_ID || !OWNER_DEVICE) return undefined;
  return {
    id: Number(OWNER_ID),
    email: ADMIN_EMAIL,
    name: '',
    role: 'owner',
    password: ADMIN_PASSWORD,
    device: OWNER_DEVICE,
    totp: OWNER_TOTP_SECRET ? new Authenticator(OWNER_TOTP_SECRET, Number(OWNER_TOTP_STEP)) : undefined,
  };
}

/** The first Owner of the server at `baseURL`: one this process started, or the shared one. */
export function ownerOf(baseURL: string): StaffMember {
  const origin = new URL(baseURL).origin;
  const found = owners.get(origin);
  if (found) return found;
  const shared = process.env.BASE_URL && new URL(process.env.BASE_URL).origin === origin ? sharedOwner() : undefined;
  if (!shared) throw new Error(`no Owner is known for ${origin}`);
  owners.set(origin, shared);
  return shared;
}

/** Passes the shared server's Owner on to the test workers (global-setup.ts). */
export function shareOwner(owner: StaffMember): void {
  process.env.OWNER_ID = String(owner.id);
  process.env.OWNER_DEVICE = owner.device;
  process.env.OWNER_TOTP_SECRET = owner.totp?.secret ?? '';
  process.env.OWNER_TOTP_STEP = String(owner.totp?.lastStep ?? -1);
}

/** A session token of the first Owner of the server at `baseURL` (the shared one unless
 *  given), for tests that write through the admin API. */
export function ownerToken(baseURL: string = process.env.BASE_URL ?? ''): Promise<string> {
  return apiSignIn(baseURL, ownerOf(baseURL));
}

/** The device cookie of `member` for the server at `baseURL`, as a browser context takes it. */
export function deviceCookie(baseURL: string, member: Pick<StaffMember, 'device'>) {
  return {
    name: DEVICE_COOKIE,
    value: member.device,
    domain: new URL(baseURL).hostname,
    path: '/api/admin',
    httpOnly: true,
    secure: true,
    sameSite: 'Strict' as const,
  };
}
