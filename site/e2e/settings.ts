// Settings the test server and the tests share.

/** The admin password the test server runs with. */
export const ADMIN_PASSWORD = process.env.E2E_ADMIN_PASSWORD ?? 'e2e admin password';
