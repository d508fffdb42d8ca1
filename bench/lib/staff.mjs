// The benchmarks' staff session: the first Owner a new server makes from ADMIN_EMAIL (or its
// default) and the admin password. Their first sign-in asks no second step; their role then
// requires an authenticator app before anything but their own account opens, so one is set
// up here (codes from `otpauth`) and the same session goes on with it.
import { Secret, TOTP } from 'otpauth';

export const OWNER_EMAIL = process.env.ADMIN_EMAIL || 'admin@localhost';

async function call(base, path, { token, body }) {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`POST ${path}: ${res.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : null;
}

/** Signs the new server's Owner in and enrols their authenticator app; returns the token. */
export async function ownerToken(base, password) {
  const signedIn = await call(base, '/api/admin/login', { body: { email: OWNER_EMAIL, password } });
  if (!signedIn.success) throw new Error(`the Owner's first sign-in asked for a second step (${signedIn.methods}): is this a new database?`);
  const { token } = signedIn;
  if (signedIn.user.mustEnrol) {
    const { secret } = await call(base, '/api/admin/security/totp', { token });
    const code = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate();
    await call(base, '/api/admin/security/totp/confirm', { token, body: { code } });
  }
  return token;
}

// `node bench/lib/staff.mjs BASE PASSWORD` prints the token (for the shell scripts).
if (import.meta.url === `file://${process.argv[1]}`) {
  const [base, password] = process.argv.slice(2);
  console.log(await ownerToken(base, password));
}
