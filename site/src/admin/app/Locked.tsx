import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useId, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { apiFetch, failureText } from '../../lib/api';
import { useFocusWhenLost } from '../components/useFocusWhenLost';
import { type Challenge, type Completed, type LoginAnswer, type SecondStepComponent, completeSignIn, lastEmail } from './signIn';

async function login(credentials: { email: string; password: string }): Promise<LoginAnswer> {
  const response = await apiFetch('POST', '/api/admin/login', { body: credentials });
  return (await response.json()) as LoginAnswer;
}

/** The sign-in card: e-mail and password, then, when the server asks for one, a second step
 *  in the same card (the router hands it in: it is the account feature's). A wrong password
 *  says "Invalid e-mail or password" (the server's words); too many failures get the
 *  server's 429 message, which says when to try again. */
export function Locked({ secondStep: SecondStep }: { secondStep: SecondStepComponent }) {
  const navigate = useNavigate();
  const heading = useRef<HTMLHeadingElement>(null);
  const id = useId();
  const [email, setEmail] = useState(lastEmail);
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [challenge, setChallenge] = useState<Challenge | null>(null);
  useFocusWhenLost(heading);

  const done = (answer: Completed) => {
    completeSignIn(answer);
    void navigate(answer.user.mustEnrol ? '/admin/security' : '/admin/dashboard');
  };

  const mutation = useMutation({
    mutationFn: login,
    onSuccess: (answer) => {
      if (answer.success) {
        done(answer);
        return;
      }
      setPassword('');
      setChallenge(answer);
    },
    onError: (error) => setProblem(failureText(error, 'Could not reach the server. Please try again.')),
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (mutation.isPending) return;
    // `required` stops an empty field; a value of spaces is just as blank.
    if (email.trim() === '') {
      setProblem('Enter your e-mail address.');
      return;
    }
    if (password.trim() === '') {
      setProblem('Enter the admin password.');
      return;
    }
    setProblem(null);
    mutation.mutate({ email: email.trim(), password });
  }

  const problemId = `${id}-problem`;
  const alert = (
    <div id={problemId} role="alert" className="text-sm font-semibold text-crimson-dark empty:hidden">
      {problem}
    </div>
  );
  const described = { 'aria-invalid': problem ? true : undefined, 'aria-describedby': problem ? problemId : undefined };
  return (
    <div className="mx-auto max-w-md rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
      <h1 ref={heading} tabIndex={-1} className="font-serif text-2xl font-bold text-navy focus:outline-none">
        Admin Access
      </h1>
      {challenge ? (
        <SecondStep
          challenge={challenge}
          alert={alert}
          problemId={problemId}
          problem={problem}
          setProblem={setProblem}
          onDone={done}
          onRestart={(why) => {
            setChallenge(null);
            setProblem(why);
            heading.current?.focus();
          }}
        />
      ) : (
        <form onSubmit={onSubmit} className="mt-6 space-y-4">
          <div>
            <label htmlFor={`${id}-email`} className="field-label">
              E-mail
            </label>
            <input
              id={`${id}-email`}
              name="email"
              type="email"
              required
              autoComplete="username"
              className="field-input"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              {...(problem && email.trim() === '' ? described : {})}
            />
          </div>
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
              {...(problem && email.trim() !== '' ? described : {})}
            />
          </div>
          {alert}
          <button type="submit" className="btn btn-primary w-full" disabled={mutation.isPending}>
            {mutation.isPending ? 'Authenticating...' : 'Access Admin Panel'}
          </button>
          <p className="text-center text-sm">
            <Link to="/admin/reset" className="text-navy underline underline-offset-2">
              Forgot your password?
            </Link>
          </p>
        </form>
      )}
    </div>
  );
}
