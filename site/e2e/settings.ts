// Settings the test server and the tests share.

/** The admin password the test server runs with. */
export const ADMIN_PASSWORD = process.env.E2E_ADMIN_PASSWORD ?? 'e2e admin password';

/** The first Owner's address (ADMIN_EMAIL): a new server makes their account from it and
 *  the admin password. */
export const ADMIN_EMAIL = 'owner@e2e.test';
