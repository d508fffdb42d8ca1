// Mailing a published post to the newsletter list (capability mail.broadcast): the e-mail's
// preview and its recipient count, a test copy to the staff member, the send itself (now or
// at a time), and each send's counts, recipients, retry, send-now and cancel.
import { type QueryClient, mutationOptions, queryOptions } from '@tanstack/react-query';
import { adminRequest, loadOrFail } from '../../app/client';

export type SendStatus = 'scheduled' | 'sending' | 'sent' | 'missed' | 'cancelled';

/** A send as the server counts it: queued + sent + failed + excluded = recipients. */
export interface Summary {
  id: number;
  postId: number | null;
  subject: string;
  status: SendStatus;
  again: boolean;
  scheduledFor: string | null;
  recipients: number;
  queued: number;
  sent: number;
  failed: number;
  excluded: number;
  /** Failed and not suppressed: what a retry would send. */
  retryable: number;
  createdAt: string;
  createdBy: string | null;
  startedAt: string | null;
  finishedAt: string | null;
}

export interface Preview {
  subject: string;
  /** A whole HTML document. */
  html: string;
  text: string;
  url: string;
  recipients: number;
  alreadySent: boolean;
}

export type RecipientStatus = 'queued' | 'sent' | 'failed' | 'excluded';

export interface Recipient {
  email: string;
  status: RecipientStatus;
  attempts: number;
  answer: string | null;
  doneAt: string | null;
}

/** How many got one answer: what a role that may not read the list sees instead. */
export interface Reason {
  answer: string | null;
  count: number;
}

/** Who a send reached, failed or excluded; for a role without `submissions.read`, only how
 *  many got each answer (`addressesHidden`). */
export interface Recipients {
  recipients: Recipient[];
  reasons?: Reason[];
  addressesHidden: boolean;
}

/** The little of a post this feature needs. */
export interface PostTitle {
  id: number;
  title: string;
  status: 'draft' | 'published' | 'scheduled';
  /** A plain newsletter is mailed without ever being published. */
  kind: 'post' | 'newsletter';
}

export interface MessageInput {
  postId: number;
  subject?: string;
  again?: boolean;
}

export interface StartInput extends MessageInput {
  confirm: number;
  sendAt?: string;
}

export const postQuery = (id: number) =>
  queryOptions({
    queryKey: ['admin', 'blog', id] as const,
    queryFn: () => adminRequest<PostTitle>('GET', `/api/admin/blogs/${id}`),
    gcTime: 0,
  });

/** The e-mail as it would go now, and to how many. Never kept long: the list changes. */
export const previewQuery = (input: MessageInput) =>
  queryOptions({
    queryKey: ['admin', 'broadcast-preview', input.postId, input.subject ?? '', !!input.again] as const,
    queryFn: () => adminRequest<Preview>('POST', '/api/admin/broadcasts/preview', input),
    gcTime: 0,
    staleTime: 0,
    retry: false,
  });

/** A post's sends, newest first: asked for each time the page opens. */
export const sendsQuery = (postId: number) =>
  queryOptions({
    queryKey: ['admin', 'broadcasts', { postId }] as const,
    staleTime: 0,
    queryFn: () =>
      loadOrFail(
        async () => (await adminRequest<{ broadcasts: Summary[] }>('GET', `/api/admin/broadcasts?postId=${postId}`)).broadcasts,
        'Failed to fetch sends',
      ),
  });

/** How often a send under way is asked for again. */
export const POLL_MS = 2000;

/** How often a send waiting for its time is asked for (it may start, or be missed). */
export const WAITING_POLL_MS = 30_000;

/** One send, as it is now each time its panel opens; asked for again every 2 s while it
 *  is going out, now and then while it waits, and not at all once it is over. */
export const sendQuery = (id: number) =>
  queryOptions({
    queryKey: ['admin', 'broadcast', id] as const,
    queryFn: () => adminRequest<Summary>('GET', `/api/admin/broadcasts/${id}`),
    staleTime: 0,
    refetchInterval: (query) => {
      const status = query.state.data?.status;
      return status === 'sending' ? POLL_MS : status === 'scheduled' ? WAITING_POLL_MS : false;
    },
  });

export const recipientsQuery = (id: number, status: RecipientStatus) =>
  queryOptions({
    queryKey: ['admin', 'broadcast', id, 'recipients', status] as const,
    queryFn: () => adminRequest<Recipients>('GET', `/api/admin/broadcasts/${id}/recipients?status=${status}`),
    gcTime: 0,
  });

export function sendTest(input: MessageInput): Promise<{ success: boolean; to: string }> {
  return adminRequest('POST', '/api/admin/broadcasts/test', input);
}

/** A send's new state: kept as the send's query data, and the post's list asked again. */
function settled(qc: QueryClient, summary: Summary) {
  qc.setQueryData(sendQuery(summary.id).queryKey, summary);
  return qc.invalidateQueries({ queryKey: ['admin', 'broadcasts'] });
}

export const startSend = (qc: QueryClient) =>
  mutationOptions({
    mutationFn: (input: StartInput) => adminRequest<Summary>('POST', '/api/admin/broadcasts', input),
    onSuccess: (summary) => settled(qc, summary),
  });

export const retrySend = (qc: QueryClient) =>
  mutationOptions({
    mutationFn: (id: number) => adminRequest<Summary>('POST', `/api/admin/broadcasts/${id}/retry`),
    onSuccess: (summary) => settled(qc, summary),
  });

export const sendNow = (qc: QueryClient) =>
  mutationOptions({
    mutationFn: ({ id, confirm }: { id: number; confirm: number }) => adminRequest<Summary>('POST', `/api/admin/broadcasts/${id}/send`, { confirm }),
    onSuccess: (summary) => settled(qc, summary),
  });

export const cancelSend = (qc: QueryClient) =>
  mutationOptions({
    mutationFn: (id: number) => adminRequest<Summary>('POST', `/api/admin/broadcasts/${id}/cancel`),
    onSuccess: (summary) => settled(qc, summary),
  });
