// The admin app's entry, loaded only by the admin shell (generator: pages/admin.html).
import './admin.css';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { mountToaster } from '../toaster';
import { queryClient } from './app/queryClient';
import { router } from './app/router';
import { armTimer } from './app/session';
import { forgetDraftsOnLogout } from './features/blog/drafts';

const root = document.getElementById('admin-root');
if (root) {
  forgetDraftsOnLogout();
  armTimer();
  mountToaster();
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </StrictMode>,
  );
} else {
  console.error('The admin shell has no #admin-root.');
}
