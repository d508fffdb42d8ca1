import { useStore } from 'zustand';
import { Dashboard } from './Dashboard';
import { Guard } from './Guard';
import { Locked } from './Locked';
import { sessionStore } from './session';
import type { SecondStepComponent } from './signIn';

/** /admin and /admin/dashboard: the same screen, locked until signed in. The sign-in's
 *  second step is the account feature's; the router hands it in. */
export function AdminScreen({ secondStep }: { secondStep: SecondStepComponent }) {
  const token = useStore(sessionStore, (s) => s.token);
  if (!token) return <Locked secondStep={secondStep} />;
  return <Guard>{(me) => <Dashboard me={me} />}</Guard>;
}
