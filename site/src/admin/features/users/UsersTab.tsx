// Users: the staff accounts (name, e-mail, role, whether active, whether they have a second
// factor, when they last signed in) and the invitations still open. Whoever holds
// users.manage invites, resends and revokes invitations, changes roles and deactivates or
// reactivates accounts, for roles at or below their own (only an Owner touches an Owner);
// an Owner also resets another's second factors. Each destructive step asks first; the
// server's refusal ("The party needs at least one active Owner.") is said as it is.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { toast } from '../../../lib/toast';
import { type Me, type Role, ROLE_LABELS, can, grantableRoles, roleLabel } from '../../app/me';
import { useItemAction } from '../../app/useItemAction';
import { Card, CardList, Detail } from '../../components/Card';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { formatExact } from '../../components/dates';
import { EmailField } from '../../components/EmailField';
import { FormDialog, type ProblemLink } from '../../components/FormDialog';
import { ListStatus } from '../../components/ListStatus';
import { PanelHeader } from '../../components/PanelHeader';
import { RelativeTime } from '../../components/RelativeTime';
import {
  type Invitation,
  type StaffUser,
  changeRole,
  deactivateUser,
  invite,
  reactivateUser,
  resendInvitation,
  resetFactors,
  revokeInvitation,
  usersQuery,
} from './api';

const texts = {
  loading: 'Loading users...',
  error: 'Error loading users',
  empty: 'No users yet',
};

export function UsersTab({ me }: { me: Me }) {
  const query = useQuery(usersQuery());
  const invitations = query.data?.invitations ?? [];
  return (
    <>
      <PanelHeader title="Users">
        <InviteDialog me={me} />
      </PanelHeader>
      <ListStatus texts={texts} isPending={query.isPending} error={query.error} items={query.data?.users}>
        {(users) => (
          <CardList>
            {users.map((u) => (
              <UserCard key={u.id} user={u} me={me} />
            ))}
          </CardList>
        )}
      </ListStatus>
      {query.data && (
        <section aria-labelledby="pending-invitations" className="mt-8">
          <h3 id="pending-invitations" className="font-serif text-xl font-bold text-navy">
            Pending invitations ({invitations.length})
          </h3>
          {invitations.length === 0 ? (
            <p className="mt-3 text-slate-700">No invitations are waiting.</p>
          ) : (
            <CardList>
              {invitations.map((inv) => (
                <InvitationCard key={inv.id} invitation={inv} me={me} />
              ))}
            </CardList>
          )}
        </section>
      )}
    </>
  );
}

const nameOf = (u: { name: string; email: string }) => u.name || u.email;

function RoleSelect({
  id,
  label,
  roles,
  value,
  onChange,
  problem,
}: {
  id: string;
  label: string;
  roles: Role[];
  value: string;
  onChange: (role: Role | '') => void;
  problem?: ProblemLink;
}) {
  return (
    <div className="mt-4">
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <select
        id={id}
        required
        className="field-input"
        value={value}
        onChange={(e) => onChange(e.target.value as Role | '')}
        aria-invalid={problem?.invalid}
        aria-describedby={problem?.describedBy}
      >
        <option value="">Choose a role</option>
        {roles.map((r) => (
          <option key={r} value={r}>
            {ROLE_LABELS[r]}
          </option>
        ))}
      </select>
    </div>
  );
}

function InviteDialog({ me }: { me: Me }) {
  const id = useId();
  const qc = useQueryClient();
  const send = useMutation(invite(qc));
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role | ''>('');
  const clear = () => {
    setEmail('');
    setName('');
    setRole('');
  };
  return (
    <FormDialog
      trigger="Invite"
      triggerLabel="Invite someone"
      triggerClassName="btn btn-primary"
      title="Invite someone"
      description="They get an e-mail with a link to choose their password. The link works once, for 7 days."
      submit="Send invitation"
      pending="Sending..."
      tone="primary"
      ready={email.trim() !== '' && role !== ''}
      failure="The invitation could not be sent. Please try again."
      onSubmit={async () => {
        if (role === '') return;
        await send.mutateAsync({ email: email.trim(), name: name.trim(), role });
        toast({ title: 'Invitation sent', description: `${email.trim()} is invited as ${ROLE_LABELS[role]}.` });
        clear();
      }}
      onClosed={clear}
    >
      {(problem) => (
        <>
          <EmailField id={`${id}-email`} label="E-mail" value={email} onChange={setEmail} problem={problem} />
          <div className="mt-4">
            <label htmlFor={`${id}-name`} className="field-label">
              Name <span className="font-normal text-slate-700">(optional)</span>
            </label>
            <input
              id={`${id}-name`}
              type="text"
              autoComplete="off"
              maxLength={100}
              className="field-input"
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
          </div>
          <RoleSelect id={`${id}-role`} label="Role" roles={grantableRoles(me)} value={role} onChange={setRole} problem={problem} />
        </>
      )}
    </FormDialog>
  );
}

function UserCard({ user: u, me }: { user: StaffUser; me: Me }) {
  const self = u.id === me.id;
  // The server refuses the rest: one's own account, or a role above one's own.
  const manageable = !self && grantableRoles(me).includes(u.role);
  return (
    <Card
      heading={
        <>
          <h3 className="text-lg font-semibold break-words text-ink">
            {nameOf(u)}
            {self && <span className="ml-2 rounded-full bg-navy/10 px-2 py-0.5 text-xs text-navy">You</span>}
          </h3>
          <p className="text-sm break-words text-slate-700">{u.email}</p>
        </>
      }
      actions={manageable && <UserActions user={u} me={me} />}
    >
      <Detail label="Role">{u.roleLabel || roleLabel(u.role)}</Detail>
      <Detail label="Status">{u.active ? 'Active' : 'Deactivated'}</Detail>
      <Detail label="2FA">{u.strongFactor ? 'Yes' : 'No'}</Detail>
      <Detail label="Last sign-in">{u.lastSignInAt ? <RelativeTime iso={u.lastSignInAt} /> : 'Never'}</Detail>
    </Card>
  );
}

function UserActions({ user: u, me }: { user: StaffUser; me: Me }) {
  const name = nameOf(u);
  const deactivate = useItemAction(deactivateUser, 'Could not deactivate', () =>
    toast({ title: 'Account deactivated', description: `${name} can no longer sign in.` }),
  );
  const reactivate = useItemAction(reactivateUser, 'Could not reactivate', () =>
    toast({ title: 'Account reactivated', description: `${name} can sign in again.` }),
  );
  const reset = useItemAction(resetFactors, 'Could not reset', () =>
    toast({ title: 'Second factors reset', description: `${name} sets them up again at their next sign-in.` }),
  );
  return (
    <div className="flex flex-wrap gap-2">
      <ChangeRole user={u} me={me} />
      {u.active ? (
        <ConfirmDialog
          trigger="Deactivate"
          triggerLabel={`Deactivate ${name}`}
          title={`Deactivate ${name}?`}
          description={`${name} is signed out everywhere at once and can't sign in until reactivated. Their posts keep their byline.`}
          confirm="Deactivate"
          disabled={deactivate.isPending(u.id)}
          onConfirm={() => deactivate.run(u.id)}
        />
      ) : (
        <ConfirmDialog
          trigger="Reactivate"
          triggerLabel={`Reactivate ${name}`}
          title={`Reactivate ${name}?`}
          description={`${name} can sign in again as ${u.roleLabel || roleLabel(u.role)}.`}
          confirm="Reactivate"
          tone="primary"
          disabled={reactivate.isPending(u.id)}
          onConfirm={() => reactivate.run(u.id)}
        />
      )}
      {can(me, 'users.reset_factors') && (
        <ConfirmDialog
          trigger="Reset factors"
          triggerLabel={`Reset the second factors of ${name}`}
          title={`Reset the second factors of ${name}?`}
          description={`Their authenticator app, passkeys and recovery codes stop working and they are signed out everywhere. They sign in next with their password and a code mailed to them, then set up a factor again.`}
          confirm="Reset factors"
          disabled={reset.isPending(u.id)}
          onConfirm={() => reset.run(u.id)}
        />
      )}
    </div>
  );
}

function ChangeRole({ user: u, me }: { user: StaffUser; me: Me }) {
  const id = useId();
  const qc = useQueryClient();
  const change = useMutation(changeRole(qc));
  const [role, setRole] = useState<Role | ''>(u.role);
  const name = nameOf(u);
  return (
    <FormDialog
      trigger="Change role"
      triggerLabel={`Change the role of ${name}`}
      triggerClassName="btn btn-outline px-3"
      title={`Change the role of ${name}`}
      description={`${name} is ${u.roleLabel || roleLabel(u.role)} now. The new role applies at once and ${name} gets an e-mail saying so.`}
      submit="Change role"
      pending="Changing..."
      tone="primary"
      ready={role !== '' && role !== u.role}
      failure="The role could not be changed. Please try again."
      onOpened={() => setRole(u.role)}
      onSubmit={async () => {
        if (role === '') return;
        await change.mutateAsync({ id: u.id, role });
        toast({ title: 'Role changed', description: `${name} is now ${ROLE_LABELS[role]}.` });
      }}
    >
      {(problem) => <RoleSelect id={`${id}-role`} label="New role" roles={grantableRoles(me)} value={role} onChange={setRole} problem={problem} />}
    </FormDialog>
  );
}

function InvitationCard({ invitation: inv, me }: { invitation: Invitation; me: Me }) {
  const resend = useItemAction(resendInvitation, 'Could not resend', () =>
    toast({ title: 'Invitation sent again', description: `A new link is on its way to ${inv.email}.` }),
  );
  const revoke = useItemAction(revokeInvitation, 'Could not revoke', () =>
    toast({ title: 'Invitation revoked', description: `The link sent to ${inv.email} no longer works.` }),
  );
  const manageable = grantableRoles(me).includes(inv.role);
  const label = inv.roleLabel ?? roleLabel(inv.role);
  return (
    <Card
      heading={
        <>
          <h4 className="text-lg font-semibold break-words text-ink">{inv.email}</h4>
          {inv.name && <p className="text-sm text-slate-700">{inv.name}</p>}
        </>
      }
      actions={
        manageable && (
          <div className="flex flex-wrap gap-2">
            <ConfirmDialog
              trigger="Resend"
              triggerLabel={`Resend the invitation to ${inv.email}`}
              title={`Resend the invitation to ${inv.email}?`}
              description="A new link goes out, good for 7 days; the link sent before stops working."
              confirm="Resend"
              tone="primary"
              disabled={resend.isPending(inv.id)}
              onConfirm={() => resend.run(inv.id)}
            />
            <ConfirmDialog
              trigger="Revoke"
              triggerLabel={`Revoke the invitation to ${inv.email}`}
              title={`Revoke the invitation to ${inv.email}?`}
              description="The link sent stops working. You can invite them again later."
              confirm="Revoke"
              disabled={revoke.isPending(inv.id)}
              onConfirm={() => revoke.run(inv.id)}
            />
          </div>
        )
      }
    >
      <Detail label="Role">{label}</Detail>
      {inv.invitedBy && <Detail label="Invited by">{inv.invitedBy}</Detail>}
      <Detail label="Sent">
        <RelativeTime iso={inv.createdAt} />
      </Detail>
      <Detail label="Link works until">{formatExact(inv.expiresAt)}</Detail>
    </Card>
  );
}
