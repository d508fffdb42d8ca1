import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { apiFetch, failureText } from '../../lib/api';
import { useFocusWhenLost } from '../components/useFocusWhenLost';
import { signIn } from './session';

interface LoginAnswer {
  success: boolean;
  token: string;
}

async function login(password: string): Promise<LoginAnswer> {
  const response = await apiFetch('POST', '/api/admin/login', { body: { password } });
  return (await response.json()) as LoginAnswer;
}

/** The sign-in card. A wrong password says "Invalid password" (the server's words); too many
 *  failures get the server's 429 message, which says when to try again. */
export function Locked() {
  const navigate = useNavigate();
  const heading = useRef<HTMLHeadingElement>(null);
  const id = useId();
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  useFocusWhenLost(heading);

  const mutation = useMutation({
    mutationFn: login,
    onSuccess: ({ token }) => {
      signIn(token);
      void navigate('/admin/dashboard');
    },
    onError: (error) => setProblem(failureText(error, 'Could not reach the server. Please try again.')),
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (mutation.isPending) return;
    // `required` stops an empty field; a password of spaces is just as blank.
    if (password.trim() === '') {
      setProblem('Enter the admin password.');
      return;
    }
    setProblem(null);
    mutation.mutate(password);
  }

  const problemId = `${id}-problem`;
  return (
    <div className="mx-auto max-w-md rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
      <h1 ref={heading} tabIndex={-1} className="font-serif text-2xl font-bold text-navy focus:outline-none">
        Admin Access
      </h1>
      <form onSubmit={onSubmit} className="mt-6 space-y-4">
        <div>
          <label htmlFor={`${id}-password`} className="field-label">
            Password
          </label>
          <input
            id={`${id}-password`}
            name="password"
            type="password"
            required
            autoComplete="current-password"
            placeholder="Enter admin password"
            className="field-input"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? problemId : undefined}
          />
        </div>
        <div id={problemId} role="alert" className="text-sm font-semibold text-crimson-dark empty:hidden">
          {problem}
        </div>
        <button type="submit" className="btn btn-primary w-full" disabled={mutation.isPending}>
          {mutation.isPending ? 'Authenticating...' : 'Access Admin Panel'}
        </button>
      </form>
    </div>
  );
}
