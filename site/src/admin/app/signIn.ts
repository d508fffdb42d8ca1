// The shapes of a sign-in's answers (docs/staff.md, "Signing in"), shared by
// the sign-in card (here, in app/), its second step and the invitation page (features/account).
import type { ComponentType, ReactNode } from 'react';
import { type Me, setMe } from './me';
import { signIn } from './session';

export type SecondFactor = 'passkey' | 'totp' | 'recovery' | 'email';

/** A sign-in whose password was right and which needs a second step. */
export interface Challenge {
  success: false;
  challenge: string;
  methods: SecondFactor[];
  message: string;
}

/** A completed sign-in (login, its second step, or an accepted invitation). */
export interface Completed {
  success: true;
  token: string;
  user: Me;
}

export type LoginAnswer = Challenge | Completed;

const EMAIL_KEY = 'adminEmail';

/** The e-mail this tab last signed in with: the sign-in card starts with it filled in, so
 *  after a session runs out only the password is asked again. */
export function lastEmail(): string {
  try {
    return window.sessionStorage.getItem(EMAIL_KEY) ?? '';
  } catch {
    return '';
  }
}

/** Keeps the session and who it is. */
export function completeSignIn(answer: Pick<Completed, 'token' | 'user'>): void {
  signIn(answer.token);
  setMe(answer.user);
  try {
    window.sessionStorage.setItem(EMAIL_KEY, answer.user.email);
  } catch {
    // Storage blocked: the card starts empty.
  }
}

/** What the sign-in card hands its second step. */
export interface SecondStepProps {
  challenge: Challenge;
  /** The card's alert line, where every failure is said: the step puts it in its form. */
  alert: ReactNode;
  /** Its id, for the fields' aria-describedby. */
  problemId: string;
  problem: string | null;
  setProblem: (text: string | null) => void;
  /** The second step is done: sign in. */
  onDone: (answer: Completed) => void;
  /** The challenge is gone (410) or abandoned: back to the first step, saying why. */
  onRestart: (why: string | null) => void;
}

export type SecondStepComponent = ComponentType<SecondStepProps>;
