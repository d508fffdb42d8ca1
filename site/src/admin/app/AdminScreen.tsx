import { useStore } from 'zustand';
import { sessionStore } from './session';
import { Dashboard } from './Dashboard';
import { Locked } from './Locked';

/** /admin and /admin/dashboard: the same screen, locked until signed in. */
export function AdminScreen() {
  const token = useStore(sessionStore, (s) => s.token);
  return token ? <Dashboard /> : <Locked />;
}
