// The admin app's routes (react-router's data mode). One shell serves them all; the blog
// editor's route loads lazily, so its code (Slate) is fetched only there, and so do a
// person's page, the security screen, the pages a mailed link opens, mailing a post and its
// sends, the suppression list, and an event's form and attendee list (the form carries the
// editor too). A route a role does
// not open says so, and asks the server for nothing.
import { type ComponentType, useLayoutEffect } from 'react';
import { Outlet, ScrollRestoration, createBrowserRouter, useLocation, useNavigationType } from 'react-router';
import { SecondStep } from '../features/account/SecondStep';
import { ExpiredDialog } from './ExpiredDialog';
import { AdminScreen } from './AdminScreen';
import { Guard } from './Guard';
import type { Capability } from './me';

/** A new page (a link followed, a form's next step) starts at its top. ScrollRestoration
 *  does this too, but it reads the router's last `preventScrollReset`, and once in a CI run
 *  the editor opened from far down the Blogs list kept the list's scroll (the tab switch
 *  before it had asked to keep the scroll). Keyed on the navigation itself: a PUSH is a new
 *  page; a REPLACE (a tab, a filter) keeps its place; a POP is ScrollRestoration's. */
function TopOfNewPage() {
  const { key } = useLocation();
  const type = useNavigationType();
  useLayoutEffect(() => {
    if (type === 'PUSH') window.scrollTo(0, 0);
  }, [key, type]);
  return null;
}

function Layout() {
  return (
    <>
      {/* Every route change starts at the top of the page, as the spec's app does; Back
          returns to where the admin was. */}
      <ScrollRestoration />
      <TopOfNewPage />
      <Outlet />
      <ExpiredDialog />
    </>
  );
}

function Loading() {
  return (
    <p role="status" className="py-10 text-center text-slate-700">
      Loading...
    </p>
  );
}

/** A lazily loaded screen that only a role with `cap` opens. */
function guarded(cap: Capability, Screen: ComponentType) {
  return function Guarded() {
    return <Guard cap={cap}>{() => <Screen />}</Guard>;
  };
}

export const routes = [
  {
    path: '/admin',
    element: <Layout />,
    hydrateFallbackElement: <Loading />,
    children: [
      { index: true, element: <AdminScreen secondStep={SecondStep} /> },
      { path: 'dashboard', element: <AdminScreen secondStep={SecondStep} /> },
      { path: 'person/:id', lazy: async () => ({ Component: guarded('people.read', (await import('../features/people/PersonPage')).default) }) },
      { path: 'blog/:id/mail', lazy: async () => ({ Component: guarded('mail.broadcast', (await import('../features/broadcast/MailPostPage')).default) }) },
      { path: 'broadcasts/:id', lazy: async () => ({ Component: guarded('mail.broadcast', (await import('../features/broadcast/SendPage')).default) }) },
      {
        path: 'suppressions',
        lazy: async () => ({ Component: guarded('mail.suppressions', (await import('../features/suppressions/SuppressionsPage')).default) }),
      },
      { path: 'blog/:id', lazy: async () => ({ Component: guarded('posts.write_own', (await import('../features/blog/BlogEdit')).default) }) },
      { path: 'events/:id', lazy: async () => ({ Component: guarded('events.manage', (await import('../features/events/EventEdit')).default) }) },
      {
        path: 'events/:id/attendees',
        lazy: async () => ({ Component: guarded('events.attendees', (await import('../features/events/AttendeesPage')).default) }),
      },
      { path: 'security', lazy: async () => ({ Component: (await import('../features/account/SecurityPage')).default }) },
      { path: 'invite', lazy: async () => ({ Component: (await import('../features/account/InvitePage')).default }) },
      { path: 'reset', lazy: async () => ({ Component: (await import('../features/account/ResetPage')).default }) },
    ],
  },
];

export const router = createBrowserRouter(routes);
