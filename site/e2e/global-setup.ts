// Starts the server most tests share (see server.ts), with the fake Stripe as its card
// processor (see stripe.ts). Tests reach the server through BASE_URL, read its database at
// DB_PATH, and the fake at FAKE_STRIPE_URL; its first Owner (signed in once, with an
// authenticator app) through OWNER_* (staff.ts: ownerOf, ownerToken).
import { startServer } from './server';
import { shareOwner } from './staff';
import { STRIPE_ENV, pointWebhookAt, startFakeStripe } from './stripe';

export default async function globalSetup(): Promise<() => Promise<void>> {
  const stripe = await startFakeStripe();
  const server = await startServer({ ...STRIPE_ENV, STRIPE_API_BASE: `${stripe.url}/` });
  await pointWebhookAt(stripe.url, server.baseURL);
  process.env.BASE_URL = server.baseURL;
  process.env.DB_PATH = server.dbPath;
  process.env.SERVED_DIST = server.dist;
  process.env.FAKE_STRIPE_URL = stripe.url;
  shareOwner(server.owner);
  return async () => {
    await server.stop();
    stripe.stop();
  };
}
