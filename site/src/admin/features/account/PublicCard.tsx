// The card the pages reached from a mailed link use (an invitation, a password reset), like
// the sign-in card; each step's heading takes the focus as it appears.
import { type ReactNode, useEffect, useRef } from 'react';

export function PublicCard({ children }: { children: ReactNode }) {
  return <div className="mx-auto max-w-md rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">{children}</div>;
}

/** A step's heading: focused as it appears, and again whenever it names a new step (React
 *  keeps the element when one step's card replaces another's). */
export function StepHeading({ children }: { children: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    const timer = setTimeout(() => ref.current?.focus(), 0);
    return () => clearTimeout(timer);
  }, [children]);
  return (
    <h1 ref={ref} tabIndex={-1} className="font-serif text-2xl font-bold text-navy focus:outline-none">
      {children}
    </h1>
  );
}

/** A new password and the same again, with the rule said under the first. */
export function NewPasswordFields({
  id,
  password,
  again,
  onPassword,
  onAgain,
  problemId,
  invalid,
}: {
  id: string;
  password: string;
  again: string;
  onPassword: (value: string) => void;
  onAgain: (value: string) => void;
  problemId: string;
  invalid: boolean;
}) {
  return (
    <>
      <div>
        <label htmlFor={`${id}-password`} className="field-label">
          New password
        </label>
        <input
          id={`${id}-password`}
          type="password"
          required
          minLength={12}
          autoComplete="new-password"
          className="field-input"
          value={password}
          onChange={(e) => onPassword(e.target.value)}
          aria-invalid={invalid ? true : undefined}
          aria-describedby={`${id}-hint${invalid ? ` ${problemId}` : ''}`}
        />
        <p id={`${id}-hint`} className="mt-1 text-sm text-slate-700">
          At least 12 characters; a few unrelated words work well.
        </p>
      </div>
      <div>
        <label htmlFor={`${id}-again`} className="field-label">
          Confirm new password
        </label>
        <input
          id={`${id}-again`}
          type="password"
          required
          autoComplete="new-password"
          className="field-input"
          value={again}
          onChange={(e) => onAgain(e.target.value)}
          aria-invalid={invalid ? true : undefined}
          aria-describedby={invalid ? problemId : undefined}
        />
      </div>
    </>
  );
}

/** The client's own check of a new password before the server's: filled in, and typed the
 *  same twice. The server says the rest (length, how easy it is to guess). */
export function newPasswordProblem(password: string, again: string): string | null {
  if (password === '') return 'Choose a password.';
  if (password !== again) return "The passwords don't match.";
  return null;
}
