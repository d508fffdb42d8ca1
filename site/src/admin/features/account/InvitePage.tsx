// /admin/invite#<token>: the link an invitation mails. Opening it only shows what it is for
// (the address and the role; nothing changes); the person then gives their name and chooses
// a password, and is signed in. A link used, resent, revoked or past its 7 days says so
// (410: "Ask the owner for a new invitation").
import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { useStore } from 'zustand';
import { ApiError, apiRequest, failureText } from '../../../lib/api';
import { queryClient } from '../../app/queryClient';
import { sessionStore } from '../../app/session';
import { type Completed, completeSignIn } from '../../app/signIn';
import { NewPasswordFields, PublicCard, StepHeading, newPasswordProblem } from './PublicCard';

interface InvitationView {
  email: string;
  name: string;
  role: string;
  roleLabel: string;
}

const UNREACHABLE = 'Could not reach the server. Please try again.';

export default function InvitePage() {
  const token = decodeURIComponent(useLocation().hash.replace(/^#/, ''));
  if (!token) {
    return (
      <PublicCard>
        <StepHeading>This invitation link is incomplete</StepHeading>
        <p className="mt-4 text-slate-700">Open the link from the e-mail again, all of it, or ask the owner for a new invitation.</p>
      </PublicCard>
    );
  }
  return <Invitation key={token} token={token} />;
}

function Invitation({ token }: { token: string }) {
  const query = useQuery({
    queryKey: ['admin', 'invitation', token] as const,
    queryFn: () => apiRequest<InvitationView>('POST', '/api/admin/invitation', { token }),
  });
  const [gone, setGone] = useState<string | null>(null);
  if (query.isPending) {
    return (
      <p role="status" className="py-10 text-center text-slate-700">
        Checking your invitation...
      </p>
    );
  }
  const failure = gone ?? (query.error ? failureText(query.error, UNREACHABLE) : null);
  if (failure !== null || !query.data) {
    const expired = gone !== null || (query.error instanceof ApiError && query.error.status === 410);
    return (
      <PublicCard>
        <StepHeading>{expired ? "This invitation can't be used" : 'Your invitation could not be checked'}</StepHeading>
        <p role="alert" className="mt-4 font-semibold text-crimson-dark">
          {failure}
        </p>
        <p className="mt-4 text-sm">
          <Link to="/admin" className="text-navy underline underline-offset-2">
            Go to the sign-in page
          </Link>
        </p>
      </PublicCard>
    );
  }
  return <Accept token={token} invitation={query.data} onGone={setGone} />;
}

function Accept({ token, invitation, onGone }: { token: string; invitation: InvitationView; onGone: (message: string) => void }) {
  const id = useId();
  const navigate = useNavigate();
  const signedIn = useStore(sessionStore, (s) => s.token);
  const [name, setName] = useState(invitation.name);
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const accept = useMutation({
    mutationFn: () => apiRequest<Completed>('POST', '/api/admin/invitation/accept', { token, name: name.trim(), password }),
    onSuccess: (answer) => {
      // Whoever was signed in in this browser is signed out (their token revoked, their lists
      // forgotten): it is the new account's now.
      if (signedIn) {
        void apiRequest('POST', '/api/admin/logout', undefined, { headers: { Authorization: `Bearer ${signedIn}` } }).catch(() => {});
        queryClient.removeQueries({ queryKey: ['admin'], predicate: (q) => q.queryKey[1] !== 'invitation' });
      }
      completeSignIn(answer);
      void navigate(answer.user.mustEnrol ? '/admin/security' : '/admin/dashboard');
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 410) onGone(error.message);
      else setProblem(failureText(error, UNREACHABLE));
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (accept.isPending) return;
    const wrong = name.trim() === '' ? 'Enter your name.' : newPasswordProblem(password, again);
    setProblem(wrong);
    if (!wrong) accept.mutate();
  };

  const problemId = `${id}-problem`;
  return (
    <PublicCard>
      <StepHeading>Accept your invitation</StepHeading>
      <p className="mt-4 break-words text-slate-700">
        You're invited to the admin area as <strong className="text-ink">{invitation.roleLabel}</strong>, signing in with{' '}
        <strong className="text-ink">{invitation.email}</strong>.
      </p>
      <form onSubmit={submit} className="mt-6 space-y-4" noValidate>
        <input type="text" name="username" autoComplete="username" hidden readOnly value={invitation.email} />
        <div>
          <label htmlFor={`${id}-name`} className="field-label">
            Your name
          </label>
          <input
            id={`${id}-name`}
            type="text"
            required
            maxLength={100}
            autoComplete="name"
            className="field-input"
            value={name}
            onChange={(e) => setName(e.target.value)}
            aria-invalid={problem && name.trim() === '' ? true : undefined}
            aria-describedby={problem && name.trim() === '' ? problemId : undefined}
          />
        </div>
        <NewPasswordFields
          id={id}
          password={password}
          again={again}
          onPassword={setPassword}
          onAgain={setAgain}
          problemId={problemId}
          invalid={!!problem && name.trim() !== ''}
        />
        <p id={problemId} role="alert" className="text-sm font-semibold text-crimson-dark empty:hidden">
          {problem}
        </p>
        <button type="submit" className="btn btn-primary w-full" disabled={accept.isPending}>
          {accept.isPending ? 'Creating your account...' : 'Create my account'}
        </button>
      </form>
    </PublicCard>
  );
}
