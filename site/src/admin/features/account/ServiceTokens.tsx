// Service tokens (Owners only, capability service_tokens.manage): keys for automation that
// downloads the exports, never a person's login. A new token is shown once; it works until
// the date chosen when it is made (at most a year) and only while the Owner who made it is
// one; revoking one stops it at once.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { toast } from '../../../lib/toast';
import { useItemAction } from '../../app/useItemAction';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { formatDay } from '../../components/dates';
import { FormDialog } from '../../components/FormDialog';
import { RelativeTime } from '../../components/RelativeTime';
import { createToken, revokeToken, tokensQuery } from './api';
import { ShownOnce } from './ShownOnce';

const SCOPES = [{ value: 'exports', label: 'Exports (download the CSV files)' }] as const;
/** How long a new token may work, in days: the server takes 1 to 365. */
const LIFETIMES = [
  { days: 30, label: '30 days' },
  { days: 90, label: '90 days' },
  { days: 180, label: '6 months' },
  { days: 365, label: '1 year' },
] as const;

/** Why a token no longer works, as the list says it. */
const ENDED: Record<string, string> = {
  revoked: 'revoked',
  expired: 'expired',
  'maker left': 'stopped: the Owner who made it no longer is one',
};

export function ServiceTokens() {
  const id = useId();
  const qc = useQueryClient();
  const query = useQuery(tokensQuery());
  const create = useMutation(createToken(qc));
  const revoke = useItemAction(revokeToken, 'Could not revoke the token', () => toast({ title: 'Token revoked' }));
  const [name, setName] = useState('');
  const [days, setDays] = useState(90);
  const [made, setMade] = useState<{ name: string; token: string } | null>(null);
  // A token just made takes the focus (its heading), not the button that opened the form.
  const justMade = useRef(false);
  const tokens = query.data ?? [];
  return (
    <section aria-labelledby="security-tokens" className="mt-8 rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <h2 id="security-tokens" className="font-serif text-2xl font-bold text-navy">
        Service tokens
      </h2>
      <p className="mt-1 text-slate-700">For automation that downloads the exports (a nightly backup, say). A token is not a person: it can't sign in.</p>
      {made && (
        <ShownOnce
          title="Your new token"
          intro={`Copy the token for “${made.name}” now: it is shown only once.`}
          text={made.token}
          what="token"
          fileName="service-token.txt"
          done="Done"
          onDone={() => setMade(null)}
        >
          <p className="mt-3 rounded bg-white p-2 font-mono text-sm break-all text-ink">{made.token}</p>
        </ShownOnce>
      )}
      {query.isPending ? (
        <p role="status" className="mt-3 text-slate-700">
          Loading the service tokens...
        </p>
      ) : query.error ? (
        <p role="alert" className="mt-3 font-semibold text-crimson-dark">
          {query.error.message}
        </p>
      ) : tokens.length === 0 ? (
        <p className="mt-3 text-slate-700">No service tokens yet.</p>
      ) : (
        <ul aria-label="Service tokens" className="mt-3 space-y-3">
          {tokens.map((t) => (
            <li key={t.id} className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-slate-200 p-3">
              <div>
                <p className="font-semibold break-words text-ink">
                  {t.name} <span className="font-normal text-slate-700">({t.scope})</span>
                </p>
                <p className="text-sm text-slate-700">
                  Made {formatDay(t.createdAt)} ·{' '}
                  {t.lastUsedAt ? (
                    <>
                      last used <RelativeTime iso={t.lastUsedAt} />
                    </>
                  ) : (
                    'not used yet'
                  )}
                </p>
                <p className="text-sm text-slate-700">
                  {t.createdBy && <>By {t.createdBy} · </>}
                  {t.ended ? (
                    <span className="font-semibold text-crimson-dark">
                      {t.ended === 'revoked' && t.revokedAt ? `Revoked ${formatDay(t.revokedAt)}` : `No longer works: ${ENDED[t.ended] ?? t.ended}`}
                    </span>
                  ) : (
                    t.expiresAt && <>Works until {formatDay(t.expiresAt)}</>
                  )}
                </p>
              </div>
              {!t.revokedAt && (
                <ConfirmDialog
                  trigger="Revoke"
                  triggerLabel={`Revoke the token ${t.name}`}
                  title={`Revoke “${t.name}”?`}
                  description="Whatever uses it is refused from now on. This cannot be undone."
                  confirm="Revoke"
                  disabled={revoke.isPending(t.id)}
                  onConfirm={() => revoke.run(t.id)}
                />
              )}
            </li>
          ))}
        </ul>
      )}
      <div className="mt-4">
        <FormDialog
          trigger="Create a token"
          title="Create a service token"
          description="It can download the exports, nothing else. You see it once, right after this."
          submit="Create token"
          pending="Creating..."
          tone="primary"
          ready={name.trim() !== ''}
          failure="The token could not be made. Please try again."
          onSubmit={async () => {
            const { token } = await create.mutateAsync({ name: name.trim(), scope: 'exports', expiresInDays: days });
            justMade.current = true;
            setMade({ name: name.trim(), token });
            setName('');
          }}
          onClosed={() => {
            setName('');
            setDays(90);
          }}
          returnFocus={() => {
            const back = !justMade.current;
            justMade.current = false;
            return back;
          }}
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
                placeholder="Nightly backup"
                className="field-input"
                value={name}
                onChange={(e) => setName(e.target.value)}
                aria-invalid={problem.invalid}
                aria-describedby={problem.describedBy}
              />
              <label htmlFor={`${id}-scope`} className="field-label mt-4">
                Scope
              </label>
              <select id={`${id}-scope`} className="field-input" value="exports" onChange={() => {}}>
                {SCOPES.map((s) => (
                  <option key={s.value} value={s.value}>
                    {s.label}
                  </option>
                ))}
              </select>
              <label htmlFor={`${id}-days`} className="field-label mt-4">
                Works for
              </label>
              <select id={`${id}-days`} className="field-input" value={days} onChange={(e) => setDays(Number(e.target.value))}>
                {LIFETIMES.map((l) => (
                  <option key={l.days} value={l.days}>
                    {l.label}
                  </option>
                ))}
              </select>
            </>
          )}
        </FormDialog>
      </div>
    </section>
  );
}
