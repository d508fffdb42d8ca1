// The admin app's routes (react-router's data mode). One shell serves them all; the blog
// editor's route loads lazily, so its code (Slate) is fetched only there.
import { Outlet, ScrollRestoration, createBrowserRouter } from 'react-router';
import { ExpiredDialog } from './ExpiredDialog';
import { AdminScreen } from './AdminScreen';

function Layout() {
  return (
    <>
      {/* Every route change starts at the top of the page, as the spec's app does; Back
          returns to where the admin was. */}
      <ScrollRestoration />
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

export const routes = [
  {
    path: '/admin',
    element: <Layout />,
    hydrateFallbackElement: <Loading />,
    children: [
      { index: true, element: <AdminScreen /> },
      { path: 'dashboard', element: <AdminScreen /> },
      { path: 'person/:id', lazy: async () => ({ Component: (await import('../features/people/PersonPage')).default }) },
      { path: 'blog/:id', lazy: async () => ({ Component: (await import('../features/blog/BlogEdit')).default }) },
    ],
  },
];

export const router = createBrowserRouter(routes);
