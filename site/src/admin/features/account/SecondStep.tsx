// The sign-in card's second step: the server's message, then one way per method it offers:
// a 6-digit code (mailed, or from the authenticator app), a recovery code instead, or a
// passkey. A wrong code is said in the card's alert line; an expired sign-in (410) starts
// over at the first step, saying why.
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { ApiError, apiRequest, failureText } from '../../../lib/api';
import type { Completed, SecondStepProps } from '../../app/signIn';
import { type RequestOptionsJSON, getPasskey, passkeyFailure, passkeysSupported } from './webauthn';

const UNREACHABLE = 'Could not reach the server. Please try again.';

type CodeMethod = 'email' | 'totp' | 'recovery';

export function SecondStep({ challenge, alert, problemId, problem, setProblem, onDone, onRestart }: SecondStepProps) {
  const id = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const methods = challenge.methods;
  const sixDigits: CodeMethod | null = methods.includes('totp') ? 'totp' : methods.includes('email') ? 'email' : null;
  const canRecover = methods.includes('recovery');
  const canPasskey = methods.includes('passkey');
  const [recovery, setRecovery] = useState(false);
  const [code, setCode] = useState('');
  const method: CodeMethod | null = recovery ? 'recovery' : sixDigits;

  useEffect(() => heading.current?.focus(), []);

  const failed = (error: unknown) => {
    if (error instanceof ApiError && error.status === 410) onRestart(error.message);
    else setProblem(failureText(error, UNREACHABLE));
  };

  const verify = useMutation({
    mutationFn: (body: { method: CodeMethod; code: string }) =>
      apiRequest<Completed>('POST', '/api/admin/login/verify', { challenge: challenge.challenge, ...body }),
    onSuccess: onDone,
    onError: failed,
  });

  const passkey = useMutation({
    mutationFn: async () => {
      const options = await apiRequest<{ publicKey: RequestOptionsJSON }>('POST', '/api/admin/login/passkey/options', { challenge: challenge.challenge });
      let credential;
      try {
        credential = await getPasskey(options);
      } catch (error) {
        throw new Error(passkeyFailure(error), { cause: error });
      }
      return apiRequest<Completed>('POST', '/api/admin/login/passkey', { challenge: challenge.challenge, credential });
    },
    onSuccess: onDone,
    onError: (error) => (error instanceof ApiError ? failed(error) : setProblem(error.message || UNREACHABLE)),
  });

  const busy = verify.isPending || passkey.isPending;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy || !method) return;
    const typed = method === 'recovery' ? code.trim() : code.replace(/\s/g, '');
    if (method !== 'recovery' && !/^\d{6}$/.test(typed)) {
      setProblem('Enter the 6-digit code.');
      return;
    }
    if (typed === '') {
      setProblem('Enter one of your recovery codes.');
      return;
    }
    setProblem(null);
    verify.mutate({ method, code: typed });
  }

  const codeId = `${id}-code`;
  return (
    <div className="mt-6 space-y-4">
      <h2 ref={heading} tabIndex={-1} className="text-lg font-semibold text-ink focus:outline-none">
        Confirm it's you
      </h2>
      <p className="text-slate-700">{challenge.message}</p>
      {canRecover && (
        <div className="flex items-center gap-3">
          <button
            type="button"
            role="switch"
            aria-checked={recovery}
            onClick={() => {
              setRecovery(!recovery);
              setCode('');
              setProblem(null);
            }}
            className="relative inline-flex h-7 w-12 shrink-0 items-center rounded-full border-2 border-navy bg-white aria-checked:bg-navy"
            aria-labelledby={`${id}-switch`}
          >
            <span
              aria-hidden="true"
              className={`inline-block h-5 w-5 rounded-full transition-transform ${recovery ? 'translate-x-5 bg-white' : 'translate-x-0.5 bg-navy'}`}
            />
          </button>
          <span id={`${id}-switch`} className="text-sm font-semibold text-ink">
            Use a recovery code
          </span>
        </div>
      )}
      {method ? (
        <form onSubmit={onSubmit} className="space-y-4" noValidate>
          <div>
            <label htmlFor={codeId} className="field-label">
              {method === 'recovery' ? 'Recovery code' : 'Code'}
            </label>
            {method === 'recovery' ? (
              <input
                key="recovery"
                id={codeId}
                name="recovery-code"
                type="text"
                required
                autoComplete="off"
                spellCheck={false}
                maxLength={64}
                className="field-input"
                value={code}
                onChange={(e) => setCode(e.target.value)}
                aria-invalid={problem ? true : undefined}
                aria-describedby={problem ? problemId : undefined}
              />
            ) : (
              <input
                key="code"
                id={codeId}
                name="code"
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
                aria-describedby={problem ? problemId : undefined}
              />
            )}
          </div>
          {alert}
          <button type="submit" className="btn btn-primary w-full" disabled={busy}>
            {verify.isPending ? 'Checking...' : 'Verify'}
          </button>
        </form>
      ) : (
        alert
      )}
      {canPasskey && (
        <>
          {!passkeysSupported() && <p className="text-sm text-slate-700">This browser can't use passkeys.</p>}
          <button
            type="button"
            className={method ? 'btn btn-outline w-full' : 'btn btn-primary w-full'}
            disabled={busy || !passkeysSupported()}
            onClick={() => {
              setProblem(null);
              passkey.mutate();
            }}
          >
            {passkey.isPending ? 'Waiting for your passkey...' : 'Use a passkey'}
          </button>
        </>
      )}
      <p className="text-center text-sm">
        <button type="button" className="text-navy underline underline-offset-2" onClick={() => onRestart(null)}>
          Start over
        </button>
      </p>
    </div>
  );
}
