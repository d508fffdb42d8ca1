// /admin/security: a person's own account. Their authenticator app (set up with a QR code
// and a code from it, then ten recovery codes shown once; or removed), new recovery codes,
// passkeys (added in this browser with a name, listed, removed), their password, where they
// are signed in (and signing out everywhere), and for Owners the service tokens that let
// automation download exports. An Owner or Treasurer without an app or a passkey lands here
// first: their role requires one.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { ApiError, failureText } from '../../../lib/api';
import { toast } from '../../../lib/toast';
import { isUnauthorized } from '../../app/client';
import { Guard } from '../../app/Guard';
import { type Me, can } from '../../app/me';
import { logout } from '../../app/session';
import { useItemAction } from '../../app/useItemAction';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { formatDay } from '../../components/dates';
import { FormDialog } from '../../components/FormDialog';
import { RelativeTime } from '../../components/RelativeTime';
import { useFocusWhenLost } from '../../components/useFocusWhenLost';
import {
  type Security,
  type TotpEnrolment,
  addPasskeyOptions,
  changePassword,
  confirmTotp,
  newRecoveryCodes,
  removePasskey,
  removeTotp,
  securityQuery,
  signOutEverywhere,
  startTotp,
} from './api';
import { ProvePassword } from './ProvePassword';
import { NewPasswordFields } from './PublicCard';
import { ServiceTokens } from './ServiceTokens';
import { RecoveryCodes, useFocusOnMount } from './ShownOnce';
import { passkeyFailure, passkeysSupported } from './webauthn';

export default function SecurityPage() {
  return <Guard enrolling>{(me) => <SecurityScreen me={me} />}</Guard>;
}

/** A failure's toast, unless the session is over (the sign-in card says so). */
function failedToast(title: string, error: unknown): void {
  if (isUnauthorized(error)) return;
  toast({ variant: 'destructive', title, description: error instanceof ApiError ? error.message : 'Please try again.' });
}

function SecurityScreen({ me }: { me: Me }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useFocusWhenLost(heading);
  const query = useQuery(securityQuery());
  return (
    <div>
      <Link to="/admin/dashboard" className="text-navy underline underline-offset-2">
        Back to Admin
      </Link>
      <h1 ref={heading} tabIndex={-1} className="mt-4 font-serif text-3xl font-bold text-navy focus:outline-none sm:text-4xl">
        Security
      </h1>
      <p className="mt-2 break-words text-slate-700">
        Signed in as {me.email} ({me.roleLabel})
      </p>
      {me.mustEnrol && (
        <div role="note" className="mt-4 rounded-lg border border-gold bg-gold/10 p-4 text-ink">
          <p className="font-semibold">Your role requires an authenticator app or a passkey.</p>
          <p className="mt-1 text-sm">Set one up below to continue: until then, the rest of the admin area stays closed.</p>
        </div>
      )}
      {query.isPending ? (
        <p role="status" className="py-10 text-center text-slate-700">
          Loading your security settings...
        </p>
      ) : query.error ? (
        <div role="alert" className="mt-6 rounded-lg border border-crimson/40 bg-crimson/5 p-4 text-crimson-dark">
          {query.error.message}
          {query.error.cause instanceof ApiError && `: ${query.error.cause.message}`}
        </div>
      ) : (
        <>
          <AuthenticatorApp security={query.data} />
          <RecoverySection security={query.data} />
          <Passkeys security={query.data} />
          <PasswordSection email={me.email} />
          <Sessions security={query.data} />
          <ProvePassword email={me.email} />
          {/* Not an account route: closed, like the rest, until a factor is set up. */}
          {can(me, 'service_tokens.manage') && !me.mustEnrol && <ServiceTokens />}
        </>
      )}
    </div>
  );
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="mt-8 rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <h2 id={id} className="font-serif text-2xl font-bold text-navy">
        {title}
      </h2>
      {children}
    </section>
  );
}

function AuthenticatorApp({ security }: { security: Security }) {
  const qc = useQueryClient();
  const start = useMutation(startTotp());
  const remove = useMutation(removeTotp(qc));
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);

  let body;
  if (codes) {
    body = <RecoveryCodes codes={codes} onSaved={() => setCodes(null)} />;
  } else if (enrolment) {
    body = (
      <Enrol
        enrolment={enrolment}
        onCancel={() => setEnrolment(null)}
        onConfirmed={(recoveryCodes) => {
          setEnrolment(null);
          setCodes(recoveryCodes);
          toast({ title: 'Authenticator app added' });
        }}
      />
    );
  } else if (security.totp) {
    body = (
      <div className="mt-3 flex flex-wrap items-center justify-between gap-3">
        <p className="text-slate-700">Your authenticator app is set up: sign-ins in a new browser ask for its code.</p>
        <ConfirmDialog
          trigger="Remove app"
          triggerLabel="Remove the authenticator app"
          title="Remove the authenticator app?"
          description="Its codes stop working at once. Remove it from your phone too."
          confirm="Remove"
          disabled={remove.isPending}
          onConfirm={async () => {
            try {
              await remove.mutateAsync();
              toast({ title: 'Authenticator app removed' });
            } catch (error) {
              failedToast('Could not remove the app', error);
            }
          }}
        />
      </div>
    );
  } else {
    body = (
      <div className="mt-3 flex flex-wrap items-center justify-between gap-3">
        <p className="text-slate-700">Use an app such as Google Authenticator, 1Password or Authy for a 6-digit code at sign-in.</p>
        <button
          type="button"
          className="btn btn-primary"
          disabled={start.isPending}
          onClick={async () => {
            try {
              setEnrolment(await start.mutateAsync());
            } catch (error) {
              failedToast('Could not start', error);
            }
          }}
        >
          {start.isPending ? 'Starting...' : 'Set up an authenticator app'}
        </button>
      </div>
    );
  }
  return (
    <Section id="security-app" title="Authenticator app">
      {body}
    </Section>
  );
}

/** Scanning the QR code (or typing the key), then a code from the app to confirm. */
function Enrol({ enrolment, onCancel, onConfirmed }: { enrolment: TotpEnrolment; onCancel: () => void; onConfirmed: (codes: string[]) => void }) {
  const id = useId();
  const qc = useQueryClient();
  const confirm = useMutation(confirmTotp(qc));
  const heading = useFocusOnMount<HTMLHeadingElement>();
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (confirm.isPending) return;
    const typed = code.replace(/\s/g, '');
    if (!/^\d{6}$/.test(typed)) {
      setProblem('Enter the 6-digit code from the app.');
      return;
    }
    setProblem(null);
    try {
      onConfirmed((await confirm.mutateAsync(typed)).recoveryCodes);
    } catch (error) {
      if (!isUnauthorized(error)) setProblem(failureText(error, 'Could not reach the server. Please try again.'));
    }
  };

  return (
    <div className="mt-4">
      <h3 ref={heading} tabIndex={-1} className="text-lg font-semibold text-ink focus:outline-none">
        Scan this code with the app
      </h3>
      <img
        src={`data:image/svg+xml;utf8,${encodeURIComponent(enrolment.qrSvg)}`}
        alt="QR code to add this account to your authenticator app"
        width={200}
        height={200}
        className="mt-3 h-50 w-50 border border-slate-200 bg-white"
      />
      <p className="mt-3 text-sm text-slate-700">
        Can't scan it? Type this key into the app instead:{' '}
        <code id={`${id}-secret`} className="font-mono break-all text-ink">
          {enrolment.secret}
        </code>
      </p>
      <form onSubmit={submit} className="mt-4 max-w-xs" noValidate>
        <label htmlFor={`${id}-code`} className="field-label">
          Code
        </label>
        <input
          id={`${id}-code`}
          type="text"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]{6}"
          maxLength={7}
          required
          className="field-input"
          value={code}
          onChange={(e) => setCode(e.target.value)}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-problem` : undefined}
        />
        <p id={`${id}-problem`} role="alert" className="mt-2 text-sm font-semibold text-crimson-dark empty:hidden">
          {problem}
        </p>
        <div className="mt-4 flex flex-wrap gap-3">
          <button type="submit" className="btn btn-primary" disabled={confirm.isPending}>
            {confirm.isPending ? 'Checking...' : 'Confirm'}
          </button>
          <button type="button" className="btn btn-outline" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </form>
    </div>
  );
}

function RecoverySection({ security }: { security: Security }) {
  const qc = useQueryClient();
  const renew = useMutation(newRecoveryCodes(qc));
  const [codes, setCodes] = useState<string[] | null>(null);
  const left = security.recoveryCodesLeft;
  return (
    <Section id="security-recovery" title="Recovery codes">
      {codes ? (
        <RecoveryCodes codes={codes} onSaved={() => setCodes(null)} />
      ) : (
        <div className="mt-3 flex flex-wrap items-center justify-between gap-3">
          <p className="text-slate-700">{left === 1 ? '1 recovery code left.' : `${left} recovery codes left.`}</p>
          <ConfirmDialog
            trigger="Make new recovery codes"
            triggerLabel="Make new recovery codes"
            title="Make new recovery codes?"
            description="You get ten new codes, shown once; the codes you have now stop working."
            confirm="Make new codes"
            tone="primary"
            disabled={renew.isPending}
            onConfirm={async () => {
              try {
                setCodes((await renew.mutateAsync()).recoveryCodes);
              } catch (error) {
                failedToast('Could not make new codes', error);
              }
            }}
          />
        </div>
      )}
    </Section>
  );
}

function Passkeys({ security }: { security: Security }) {
  const id = useId();
  const qc = useQueryClient();
  const add = useMutation(addPasskeyOptions(qc));
  const remove = useItemAction(removePasskey, 'Could not remove the passkey', () => toast({ title: 'Passkey removed' }));
  const [name, setName] = useState('');
  const supported = passkeysSupported();
  return (
    <Section id="security-passkeys" title="Passkeys">
      <p className="mt-1 text-slate-700">A passkey signs you in with this device's fingerprint, face or screen lock, in place of a code.</p>
      {security.passkeys.length === 0 ? (
        <p className="mt-3 text-slate-700">No passkeys yet.</p>
      ) : (
        <ul aria-label="Your passkeys" className="mt-3 space-y-3">
          {security.passkeys.map((p) => (
            <li key={p.id} className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-slate-200 p-3">
              <div>
                <p className="font-semibold break-words text-ink">{p.name}</p>
                <p className="text-sm text-slate-700">
                  Added {formatDay(p.createdAt)} ·{' '}
                  {p.lastUsedAt ? (
                    <>
                      last used <RelativeTime iso={p.lastUsedAt} />
                    </>
                  ) : (
                    'not used yet'
                  )}
                </p>
              </div>
              <ConfirmDialog
                trigger="Remove"
                triggerLabel={`Remove the passkey ${p.name}`}
                title={`Remove the passkey “${p.name}”?`}
                description="It stops working at once. Remove it from the device too."
                confirm="Remove"
                disabled={remove.isPending(p.id)}
                onConfirm={() => remove.run(p.id)}
              />
            </li>
          ))}
        </ul>
      )}
      {supported ? (
        <div className="mt-4">
          <FormDialog
            trigger="Add a passkey"
            triggerClassName="btn btn-outline"
            title="Add a passkey"
            description="Name it after the device it lives on, so you know which to remove one day. Your browser asks you to confirm next."
            submit="Add passkey"
            pending="Waiting for your passkey..."
            tone="primary"
            ready={name.trim() !== ''}
            failure="The passkey could not be added. Please try again."
            onSubmit={async () => {
              try {
                await add.mutateAsync(name.trim());
              } catch (error) {
                if (error instanceof ApiError || !(error instanceof DOMException)) throw error;
                throw new ApiError(0, passkeyFailure(error));
              }
              toast({ title: 'Passkey added', description: `“${name.trim()}” can sign you in now.` });
              setName('');
            }}
            onClosed={() => setName('')}
          >
            {(problem) => (
              <>
                <label htmlFor={`${id}-name`} className="field-label">
                  Name
                </label>
                <input
                  id={`${id}-name`}
                  type="text"
                  maxLength={60}
                  required
                  autoComplete="off"
                  placeholder="Work laptop"
                  className="field-input"
                  value={name}
                  onChange={(e) => setName(e.target.value)}
                  aria-invalid={problem.invalid}
                  aria-describedby={problem.describedBy}
                />
              </>
            )}
          </FormDialog>
        </div>
      ) : (
        <p className="mt-4 text-sm text-slate-700">This browser can't make passkeys.</p>
      )}
    </Section>
  );
}

function PasswordSection({ email }: { email: string }) {
  const id = useId();
  const qc = useQueryClient();
  const change = useMutation(changePassword(qc));
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (change.isPending) return;
    if (!current || !password) {
      setProblem('Enter your current password and a new one.');
      return;
    }
    if (password !== again) {
      setProblem("The new passwords don't match.");
      return;
    }
    setProblem(null);
    try {
      await change.mutateAsync({ current, password });
      setCurrent('');
      setPassword('');
      setAgain('');
      toast({ title: 'Password changed', description: 'Your other sessions were signed out.' });
    } catch (error) {
      if (!isUnauthorized(error)) setProblem(failureText(error, 'Could not reach the server. Please try again.'));
    }
  };

  const described = { 'aria-invalid': problem ? true : undefined, 'aria-describedby': problem ? `${id}-problem` : undefined };
  return (
    <Section id="security-password" title="Password">
      <form onSubmit={submit} className="mt-3 max-w-md space-y-4" noValidate>
        {/* For password managers: whose password this is. */}
        <input type="text" name="username" autoComplete="username" hidden readOnly value={email} />
        <div>
          <label htmlFor={`${id}-current`} className="field-label">
            Current password
          </label>
          <input
            id={`${id}-current`}
            type="password"
            required
            autoComplete="current-password"
            className="field-input"
            value={current}
            onChange={(e) => setCurrent(e.target.value)}
            {...described}
          />
        </div>
        <NewPasswordFields
          id={id}
          password={password}
          again={again}
          onPassword={setPassword}
          onAgain={setAgain}
          problemId={`${id}-problem`}
          invalid={!!problem}
        />
        <p id={`${id}-problem`} role="alert" className="text-sm font-semibold text-crimson-dark empty:hidden">
          {problem}
        </p>
        <button type="submit" className="btn btn-primary" disabled={change.isPending}>
          {change.isPending ? 'Changing...' : 'Change password'}
        </button>
      </form>
    </Section>
  );
}

function Sessions({ security }: { security: Security }) {
  const everywhere = useMutation(signOutEverywhere());
  return (
    <Section id="security-sessions" title="Where you're signed in">
      <ul aria-label="Your sessions" className="mt-3 space-y-3">
        {security.sessions.map((s) => (
          <li key={s.id} className="rounded-lg border border-slate-200 p-3">
            <p className="font-semibold text-ink">
              {s.browser || 'Unknown browser'}
              {s.current && <span className="ml-2 rounded-full bg-navy/10 px-2 py-0.5 text-xs text-navy">This browser</span>}
            </p>
            <p className="text-sm text-slate-700">
              {s.ip ? `Address ${s.ip}` : 'Address unknown'} · last seen <RelativeTime iso={s.lastSeenAt} />
            </p>
          </li>
        ))}
      </ul>
      <div className="mt-4">
        <ConfirmDialog
          trigger="Sign out everywhere"
          triggerLabel="Sign out everywhere"
          title="Sign out everywhere?"
          description="Every browser signed in as you is signed out at once, this one included."
          confirm="Sign out everywhere"
          disabled={everywhere.isPending}
          onConfirm={async () => {
            try {
              await everywhere.mutateAsync();
              logout('ended');
              toast({ title: 'Signed out everywhere' });
            } catch (error) {
              failedToast('Could not sign out everywhere', error);
            }
          }}
        />
      </div>
    </Section>
  );
}
