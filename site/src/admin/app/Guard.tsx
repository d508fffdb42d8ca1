// What every signed-in screen waits for: who is signed in (a reload asks the server), then
// whether their role opens the screen. An Owner or Treasurer still without an authenticator
// app or a passkey is sent to /admin/security first: their role requires one, and the
// server opens nothing else to them until then.
import { type ReactNode, useRef } from 'react';
import { Link, Navigate } from 'react-router';
import { useStore } from 'zustand';
import { ApiError } from '../../lib/api';
import { useFocusWhenLost } from '../components/useFocusWhenLost';
import { type Capability, type Me, can, useMe } from './me';
import { sessionStore } from './session';

interface Props {
  /** What the screen needs; none for the screens every role has (their own security). */
  cap?: Capability;
  /** The security screen itself is where enrolment happens. */
  enrolling?: boolean;
  children: (me: Me) => ReactNode;
}

export function Guard({ cap, enrolling, children }: Props) {
  const token = useStore(sessionStore, (s) => s.token);
  const { me, error } = useMe();
  if (!token) return <Navigate to="/admin" replace />;
  if (!me) {
    if (error) {
      return (
        <div role="alert" className="rounded-lg border border-crimson/40 bg-crimson/5 p-4 text-crimson-dark">
          Your account could not be loaded{error instanceof ApiError ? `: ${error.message}` : '. Please reload the page.'}
        </div>
      );
    }
    return (
      <p role="status" className="py-10 text-center text-slate-700">
        Loading...
      </p>
    );
  }
  if (me.mustEnrol && !enrolling) return <Navigate to="/admin/security" replace />;
  if (cap && !can(me, cap)) return <Forbidden />;
  return <>{children(me)}</>;
}

/** A screen (or a dashboard tab) the role does not open: said plainly, with a way back. */
export function Forbidden() {
  const heading = useRef<HTMLHeadingElement>(null);
  useFocusWhenLost(heading);
  return (
    <div>
      <h1 ref={heading} tabIndex={-1} className="font-serif text-3xl font-bold text-navy focus:outline-none sm:text-4xl">
        Your role can't open this page
      </h1>
      <p className="mt-4 text-slate-700">Ask an Owner or an Administrator if you need it.</p>
      <Link to="/admin/dashboard" className="btn btn-primary mt-6">
        Back to Admin
      </Link>
    </div>
  );
}
