// Server state for the admin app, with the spec's data-loading defaults: nothing refetches
// on its own (no interval, not on window focus), data is never stale until a change of
// ours invalidates it, and nothing is retried.
import { QueryClient } from '@tanstack/react-query';

export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: Infinity, retry: false, refetchOnWindowFocus: false, refetchInterval: false },
      mutations: { retry: false },
    },
  });
}

export const queryClient = makeQueryClient();
