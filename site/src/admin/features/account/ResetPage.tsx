// /admin/reset: "Forgot your password?". Without a token, a form for the account's e-mail:
// the server always answers the same (whether the address has an account stays its secret)
// and mails a link if it has. With the link's token (/admin/reset#<token>), a new password,
// then "Your password is changed. Sign in."
import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { ApiError, apiRequest, failureText } from '../../../lib/api';
import { NewPasswordFields, PublicCard, StepHeading, newPasswordProblem } from './PublicCard';

const UNREACHABLE = 'Could not reach the server. Please try again.';

export default function ResetPage() {
  const token = decodeURIComponent(useLocation().hash.replace(/^#/, ''));
  return token ? <NewPassword key={token} token={token} /> : <AskForLink />;
}

function SignInLink({ children = 'Back to sign in' }: { children?: string }) {
  return (
    <Link to="/admin" className="text-navy underline underline-offset-2">
      {children}
    </Link>
  );
}

function AskForLink() {
  const id = useId();
  const [email, setEmail] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const ask = useMutation({
    mutationFn: (address: string) => apiRequest<{ success: boolean; message: string }>('POST', '/api/admin/password-reset', { email: address }),
    onError: (error) => setProblem(failureText(error, UNREACHABLE)),
  });

  if (ask.data) {
    return (
      <PublicCard>
        <StepHeading>Check your e-mail</StepHeading>
        <p role="status" className="mt-4 text-slate-700">
          {ask.data.message}
        </p>
        <p className="mt-4 text-sm">
          <SignInLink />
        </p>
      </PublicCard>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (ask.isPending) return;
    if (email.trim() === '') {
      setProblem('Enter your e-mail address.');
      return;
    }
    setProblem(null);
    ask.mutate(email.trim());
  };

  return (
    <PublicCard>
      <StepHeading>Reset your password</StepHeading>
      <p className="mt-4 text-slate-700">Give the e-mail address you sign in with: we'll send a link to choose a new password.</p>
      <form onSubmit={submit} className="mt-6 space-y-4" noValidate>
        <div>
          <label htmlFor={`${id}-email`} className="field-label">
            E-mail
          </label>
          <input
            id={`${id}-email`}
            type="email"
            required
            autoComplete="username"
            className="field-input"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? `${id}-problem` : undefined}
          />
        </div>
        <p id={`${id}-problem`} role="alert" className="text-sm font-semibold text-crimson-dark empty:hidden">
          {problem}
        </p>
        <button type="submit" className="btn btn-primary w-full" disabled={ask.isPending}>
          {ask.isPending ? 'Sending...' : 'Send me a link'}
        </button>
      </form>
      <p className="mt-4 text-center text-sm">
        <SignInLink />
      </p>
    </PublicCard>
  );
}

function NewPassword({ token }: { token: string }) {
  const id = useId();
  const check = useQuery({
    queryKey: ['admin', 'password-reset', token] as const,
    queryFn: () => apiRequest<{ success: boolean }>('POST', '/api/admin/password-reset/check', { token }),
  });
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [gone, setGone] = useState<string | null>(null);
  const complete = useMutation({
    mutationFn: () => apiRequest('POST', '/api/admin/password-reset/complete', { token, password }),
    onError: (error) => {
      if (error instanceof ApiError && error.status === 410) setGone(error.message);
      else setProblem(failureText(error, UNREACHABLE));
    },
  });

  if (check.isPending) {
    return (
      <p role="status" className="py-10 text-center text-slate-700">
        Checking your link...
      </p>
    );
  }
  const failure = gone ?? (check.error ? failureText(check.error, UNREACHABLE) : null);
  if (failure !== null) {
    return (
      <PublicCard>
        <StepHeading>This link can't be used</StepHeading>
        <p role="alert" className="mt-4 font-semibold text-crimson-dark">
          {failure}
        </p>
        <p className="mt-4 text-sm">
          <Link to="/admin/reset" className="text-navy underline underline-offset-2">
            Ask for a new link
          </Link>
        </p>
      </PublicCard>
    );
  }
  if (complete.isSuccess) {
    return (
      <PublicCard>
        <StepHeading>Password changed</StepHeading>
        <p role="status" className="mt-4 text-slate-700">
          Your password is changed. <SignInLink>Sign in.</SignInLink>
        </p>
      </PublicCard>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (complete.isPending) return;
    const wrong = newPasswordProblem(password, again);
    setProblem(wrong);
    if (!wrong) complete.mutate();
  };

  const problemId = `${id}-problem`;
  return (
    <PublicCard>
      <StepHeading>Choose a new password</StepHeading>
      <form onSubmit={submit} className="mt-6 space-y-4" noValidate>
        <NewPasswordFields id={id} password={password} again={again} onPassword={setPassword} onAgain={setAgain} problemId={problemId} invalid={!!problem} />
        <p id={problemId} role="alert" className="text-sm font-semibold text-crimson-dark empty:hidden">
          {problem}
        </p>
        <button type="submit" className="btn btn-primary w-full" disabled={complete.isPending}>
          {complete.isPending ? 'Saving...' : 'Save my new password'}
        </button>
      </form>
    </PublicCard>
  );
}
