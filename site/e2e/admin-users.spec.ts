// Staff accounts from the admin's side: the Users tab (the accounts and the invitations
// waiting; inviting, resending, revoking; changing a role, deactivating, reactivating,
// resetting second factors), the invitation link a new person opens, and the dashboard as
// each role sees it: only their tabs, only their lists asked for, and a page of someone
// else's role refused in words.
import type { Page } from '@playwright/test';
import { failedLoad, toastRegion } from './fixtures';
import { expect, expectAccessibleAtBothWidths, panel, signIn, tab, test } from './admin-fixtures';
import { type StaffMember, apiSignIn, lastMailId, mailedLink, ownerToken, strongPassword } from './staff';

const toast = (page: Page) => toastRegion(page).getByRole('listitem');
const userCard = (page: Page, name: string) =>
  panel(page)
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { level: 3, name: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) }) });
const invitationCard = (page: Page, email: string) =>
  panel(page)
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { level: 4, name: email }) });

async function openUsers(page: Page, member?: StaffMember): Promise<void> {
  await signIn(page, member);
  await tab(page, 'Users').click();
  await expect(panel(page).getByRole('heading', { level: 2, name: 'Users' })).toBeVisible();
}

/** Invites `email` as `role` through the API, as the server's Owner. */
async function inviteByApi(page: Page, baseURL: string, email: string, role: string, name = ''): Promise<void> {
  const token = await ownerToken(baseURL);
  const res = await page.request.post('/api/admin/invitations', { headers: { Authorization: `Bearer ${token}` }, data: { email, name, role } });
  expect(res.status(), await res.text()).toBe(201);
}

/** What opening an invitation link tells the server (nothing changes). */
async function invitationStatus(page: Page, token: string): Promise<number> {
  return (await page.request.post('/api/admin/invitation', { data: { token } })).status();
}

test('the Users tab: each account with its role, status, 2FA and last sign-in, and the invitations waiting', async ({ page, makeUser, owner }) => {
  const editor = await makeUser('editor', { name: 'Edna Editor' });
  await makeUser('administrator', { name: 'Ada Admin', enrol: true });
  await openUsers(page);
  await expect(tab(page, 'Users')).toHaveText('Users3');
  const me = userCard(page, owner.email);
  await expect(me.getByRole('heading', { level: 3 })).toContainText('You');
  await expect(me).toContainText(owner.email);
  await expect(me).toContainText('Role: Owner');
  await expect(me).toContainText('Status: Active');
  await expect(me).toContainText('2FA: Yes');
  await expect(me).toContainText(/Last sign-in: \d+ seconds? ago/);
  await expect(me.getByRole('button')).toHaveCount(0); // nobody changes their own account here
  const edna = userCard(page, 'Edna Editor');
  await expect(edna).toContainText(editor.email);
  await expect(edna).toContainText('Role: Editor');
  await expect(edna).toContainText('2FA: No');
  await expect(edna.getByRole('button')).toHaveText(['Change role', 'Deactivate', 'Reset factors']);
  await expect(userCard(page, 'Ada Admin')).toContainText('2FA: Yes');
  await expect(panel(page).getByRole('heading', { level: 3, name: 'Pending invitations (0)' })).toBeVisible();
  await expect(panel(page)).toContainText('No invitations are waiting.');
  await expectAccessibleAtBothWidths(page);
});

test('inviting: an e-mail, a name and a role the inviter may give; the invitation then waits in the list', async ({ page, server, db, allowConsole }) => {
  allowConsole(failedLoad(409));
  await openUsers(page);
  await panel(page).getByRole('button', { name: 'Invite someone' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite someone' });
  const role = dialog.getByLabel('Role');
  await expect(role.getByRole('option')).toHaveText(['Choose a role', 'Owner', 'Administrator', 'Treasurer', 'Organizer', 'Editor', 'Author', 'Contributor']);
  const send = dialog.getByRole('button', { name: 'Send invitation' });
  await expect(send).toBeDisabled();
  await dialog.getByLabel('E-mail').fill('tess@e2e.test');
  await dialog.getByLabel('Name (optional)').fill('Tess Treasurer');
  await role.selectOption('treasurer');
  await expectAccessibleAtBothWidths(page);
  const before = lastMailId(server.dbPath);
  await send.click();
  await expect(dialog).toBeHidden();
  await expect(toast(page)).toContainText('tess@e2e.test is invited as Treasurer.');
  const card = invitationCard(page, 'tess@e2e.test');
  await expect(card).toContainText('Tess Treasurer');
  await expect(card).toContainText('Role: Treasurer');
  await expect(card).toContainText('Invited by');
  await expect(panel(page).getByRole('heading', { level: 3, name: 'Pending invitations (1)' })).toBeVisible();
  expect(db.query('SELECT email, name, role FROM invitations WHERE used_at IS NULL AND voided_at IS NULL')).toEqual([
    { email: 'tess@e2e.test', name: 'Tess Treasurer', role: 'treasurer' },
  ]);
  await mailedLink(server.dbPath, 'tess@e2e.test', 'invite', before);

  // An address that has an account already: the server's refusal, in the dialog.
  await panel(page).getByRole('button', { name: 'Invite someone' }).click();
  await dialog.getByLabel('E-mail').fill(server.owner.email);
  await dialog.getByLabel('Role').selectOption('editor');
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Someone with that e-mail already has an account.');
  await expect(dialog.getByLabel('E-mail')).toHaveValue(server.owner.email);
});

test("an Administrator gives roles up to their own, and leaves Owners and others' factors alone", async ({ page, makeUser, owner }) => {
  const admin = await makeUser('administrator', { name: 'Ada Admin' });
  await makeUser('editor', { name: 'Edna Editor' });
  await openUsers(page, admin);
  await expect(userCard(page, owner.email).getByRole('button')).toHaveCount(0);
  await expect(userCard(page, 'Edna Editor').getByRole('button')).toHaveText(['Change role', 'Deactivate']);
  await panel(page).getByRole('button', { name: 'Invite someone' }).click();
  await expect(page.getByRole('dialog').getByLabel('Role').getByRole('option')).toHaveText([
    'Choose a role',
    'Administrator',
    'Treasurer',
    'Organizer',
    'Editor',
    'Author',
    'Contributor',
  ]);
});

test('resending an invitation voids its old link; revoking voids the new one; each is asked first', async ({ page, server, allowConsole }) => {
  allowConsole(failedLoad(410));
  const email = 'olga@e2e.test';
  let before = lastMailId(server.dbPath);
  await inviteByApi(page, server.baseURL, email, 'organizer', 'Olga Organizer');
  const first = await mailedLink(server.dbPath, email, 'invite', before);
  await openUsers(page);
  const card = invitationCard(page, email);
  await card.getByRole('button', { name: `Resend the invitation to ${email}` }).click();
  const resend = page.getByRole('alertdialog', { name: `Resend the invitation to ${email}?` });
  await expect(resend).toContainText('the link sent before stops working');
  await expect(resend.getByRole('button', { name: 'Cancel' })).toBeFocused();
  before = first.id;
  await resend.getByRole('button', { name: 'Resend' }).click();
  await expect(toast(page)).toContainText(`A new link is on its way to ${email}.`);
  const second = await mailedLink(server.dbPath, email, 'invite', before);
  expect(second.token).not.toBe(first.token);
  expect(await invitationStatus(page, first.token)).toBe(410);
  expect(await invitationStatus(page, second.token)).toBe(200);

  await card.getByRole('button', { name: `Revoke the invitation to ${email}` }).click();
  await page
    .getByRole('alertdialog', { name: `Revoke the invitation to ${email}?` })
    .getByRole('button', { name: 'Revoke' })
    .click();
  await expect(toast(page)).toContainText('Invitation revoked');
  await expect(card).toHaveCount(0);
  await expect(panel(page)).toContainText('No invitations are waiting.');
  expect(await invitationStatus(page, second.token)).toBe(410);
});

test('the invitation link shows the address and the role and changes nothing; a name and a password sign the new person in', async ({
  page,
  server,
  db,
  allowConsole,
}) => {
  allowConsole(failedLoad(400));
  allowConsole(failedLoad(410));
  const email = 'cora@e2e.test';
  const before = lastMailId(server.dbPath);
  await inviteByApi(page, server.baseURL, email, 'contributor', 'Cora');
  const { token } = await mailedLink(server.dbPath, email, 'invite', before);

  await page.goto('/admin/invite');
  await expect(page.getByRole('heading', { level: 1, name: 'This invitation link is incomplete' })).toBeVisible();
  await page.goto(`/admin/invite#${token}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Accept your invitation' })).toBeFocused();
  await expect(page.getByText("You're invited to the admin area as Contributor, signing in with cora@e2e.test.")).toBeVisible();
  await expect(page.getByLabel('Your name')).toHaveValue('Cora');
  expect(db.query(`SELECT used_at FROM invitations WHERE email = '${email}'`)).toEqual([{ used_at: null }]);
  await expectAccessibleAtBothWidths(page);

  const password = strongPassword();
  await page.getByLabel('Your name').fill('Cora Contributor');
  await page.getByLabel('New password', { exact: true }).fill(password);
  await page.getByLabel('Confirm new password').fill('something else entirely');
  await page.getByRole('button', { name: 'Create my account' }).click();
  await expect(page.getByRole('alert')).toHaveText("The passwords don't match.");
  await page.getByLabel('New password', { exact: true }).fill('cora');
  await page.getByLabel('Confirm new password').fill('cora');
  await page.getByRole('button', { name: 'Create my account' }).click();
  await expect(page.getByRole('alert')).toContainText('Choose a password of at least 12 characters');
  await page.getByLabel('New password', { exact: true }).fill(password);
  await page.getByLabel('Confirm new password').fill(password);
  await page.getByRole('button', { name: 'Create my account' }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await expect(page.getByText('Signed in as Cora Contributor (Contributor)')).toBeVisible();
  await expect(page.getByRole('tab')).toHaveText([/^Blogs/]);

  // Once only.
  await page.goto('about:blank');
  await page.goto(`/admin/invite#${token}`);
  await expect(page.getByRole('heading', { level: 1, name: "This invitation can't be used" })).toBeFocused();
  await expect(page.getByRole('alert')).toHaveText('Ask the owner for a new invitation');
});

test("changing a role, deactivating and reactivating, resetting another's factors; each asked first", async ({ page, makeUser, server, db, allowConsole }) => {
  allowConsole(failedLoad(401));
  allowConsole(failedLoad(404));
  const editor = await makeUser('editor', { name: 'Edna Editor' });
  const admin = await makeUser('administrator', { name: 'Ada Admin', enrol: true });
  const ednaSession = await apiSignIn(server.baseURL, editor);
  await openUsers(page);
  const edna = userCard(page, 'Edna Editor');

  await edna.getByRole('button', { name: 'Change the role of Edna Editor' }).click();
  const change = page.getByRole('dialog', { name: 'Change the role of Edna Editor' });
  await expect(change.getByLabel('New role')).toHaveValue('editor');
  await expect(change.getByRole('button', { name: 'Change role' })).toBeDisabled();
  await change.getByLabel('New role').selectOption('organizer');
  await expectAccessibleAtBothWidths(page);
  await change.getByRole('button', { name: 'Change role' }).click();
  await expect(change).toBeHidden();
  await expect(toast(page)).toContainText('Edna Editor is now Organizer.');
  await expect(edna).toContainText('Role: Organizer');

  await edna.getByRole('button', { name: 'Deactivate Edna Editor' }).click();
  const deactivate = page.getByRole('alertdialog', { name: 'Deactivate Edna Editor?' });
  await expect(deactivate).toContainText('signed out everywhere at once');
  await deactivate.getByRole('button', { name: 'Deactivate' }).click();
  await expect(edna).toContainText('Status: Deactivated');
  const res = await page.request.get('/api/admin/me', { headers: { Authorization: `Bearer ${ednaSession}` } });
  expect(res.status()).toBe(401);
  await edna.getByRole('button', { name: 'Reactivate Edna Editor' }).click();
  await page.getByRole('alertdialog', { name: 'Reactivate Edna Editor?' }).getByRole('button', { name: 'Reactivate' }).click();
  await expect(edna).toContainText('Status: Active');

  const ada = userCard(page, 'Ada Admin');
  await expect(ada).toContainText('2FA: Yes');
  await ada.getByRole('button', { name: 'Reset the second factors of Ada Admin' }).click();
  await page.getByRole('alertdialog', { name: 'Reset the second factors of Ada Admin?' }).getByRole('button', { name: 'Reset factors' }).click();
  await expect(toast(page)).toContainText('Ada Admin sets them up again at their next sign-in.');
  await expect(ada).toContainText('2FA: No');
  expect(db.query(`SELECT totp_secret IS NULL AS gone FROM users WHERE id = ${admin.id}`)).toEqual([{ gone: 1 }]);

  // The server's refusal is said as it is: here, the account went in the meantime.
  await ada.getByRole('button', { name: 'Change the role of Ada Admin' }).click();
  db.exec(
    `DELETE FROM staff_sessions WHERE user_id = ${admin.id}; DELETE FROM recovery_codes WHERE user_id = ${admin.id}; DELETE FROM staff_devices WHERE user_id = ${admin.id}; DELETE FROM users WHERE id = ${admin.id}`,
  );
  const dialog = page.getByRole('dialog', { name: 'Change the role of Ada Admin' });
  await dialog.getByLabel('New role').selectOption('author');
  await dialog.getByRole('button', { name: 'Change role' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(`There is no user ${admin.id}.`);
});

test.describe('the dashboard by role', () => {
  const LISTS = /\/api\/admin\/(contacts|volunteers|newsletters|donations|plans|people|blogs|events|users|mail|contributors|donations\/attention)(\?|$)/;

  function listsAskedFor(page: Page): string[] {
    const asked: string[] = [];
    page.on('request', (r) => {
      const match = LISTS.exec(new URL(r.url()).pathname);
      if (match && !asked.includes(match[1])) asked.push(match[1]);
    });
    return asked;
  }

  test('an Organizer: their five tabs, only those lists asked for, no erasing', async ({ page, makeUser }) => {
    const organizer = await makeUser('organizer');
    const asked = listsAskedFor(page);
    await signIn(page, organizer);
    await expect(page.getByRole('tab')).toHaveText([/^Contacts/, /^Volunteers/, /^Newsletter/, /^People/, /^Events/]);
    await expect(tab(page, 'People')).toHaveText('People0');
    await page.waitForLoadState('networkidle');
    expect(asked.sort()).toEqual(['contacts', 'events', 'newsletters', 'people', 'volunteers']);
    await expect(page.getByRole('button', { name: 'Erase a person' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Security' })).toBeVisible();
    await expect(page.getByText(`Signed in as ${organizer.name} (Organizer)`)).toBeVisible();
  });

  test('a Treasurer: donations, Recurring and People', async ({ page, makeUser }) => {
    const treasurer = await makeUser('treasurer', { enrol: true });
    const asked = listsAskedFor(page);
    await signIn(page, treasurer);
    await expect(page.getByRole('tab')).toHaveText([/^Donations/, /^Recurring/, /^People/]);
    await page.waitForLoadState('networkidle');
    expect(asked).not.toContain('contacts');
    expect(asked).not.toContain('blogs');
    expect(asked).not.toContain('users');
    expect(asked).not.toContain('mail');
  });

  test('a tab or a page the role does not open, typed in: said so, and nothing asked of the server', async ({ page, makeUser }) => {
    const organizer = await makeUser('organizer');
    await signIn(page, organizer);
    const asked = listsAskedFor(page);
    const refused = page.getByRole('heading', { level: 1, name: "Your role can't open this page" });
    for (const address of ['/admin/dashboard?tab=donations', '/admin/dashboard?tab=monthly', '/admin/dashboard?tab=users', '/admin/dashboard?tab=blogs']) {
      await page.goto(address);
      await expect(refused).toBeVisible();
    }
    await expectAccessibleAtBothWidths(page);
    await page.goto('/admin/blog/new');
    await expect(refused).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(asked).toEqual([]);
    await page.getByRole('link', { name: 'Back to Admin' }).click();
    await expect(page.getByRole('tab', { name: /^Contacts/ })).toHaveAttribute('aria-selected', 'true');

    const editor = await makeUser('editor');
    await page.getByRole('button', { name: 'Logout' }).click();
    await signIn(page, editor);
    await page.goto('/admin/dashboard?tab=people');
    await expect(refused).toBeVisible();
  });
});
