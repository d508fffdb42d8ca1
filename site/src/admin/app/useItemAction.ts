// Runs a delete or publish on one item and knows which items are waiting for theirs, so
// only that item's button is disabled. A failure shows the action's own toast; a 401 shows
// nothing more (the session is over and the sign-in card says so).
import { type QueryClient, type UseMutationOptions, useMutation, useMutationState, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../lib/api';
import { toast } from '../../lib/toast';
import { isUnauthorized } from './client';

export function useItemAction<TData>(options: (qc: QueryClient) => UseMutationOptions<TData, Error, number>, failure: string, onDone?: (data: TData) => void) {
  const qc = useQueryClient();
  const base = options(qc);
  const mutation = useMutation({
    ...base,
    onSuccess: async (data, id, result, context) => {
      await base.onSuccess?.(data, id, result, context);
      onDone?.(data);
    },
    onError: (error) => {
      if (isUnauthorized(error)) return;
      toast({ variant: 'destructive', title: failure, description: error instanceof ApiError ? error.message : undefined });
    },
  });
  const pending = useMutationState({
    filters: { mutationKey: base.mutationKey, status: 'pending' },
    select: (m) => m.state.variables as number,
  });
  return { run: (id: number) => mutation.mutate(id), isPending: (id: number) => pending.includes(id) };
}
