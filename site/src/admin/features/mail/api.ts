// What the site sent (GET /api/admin/mail): the newest messages and how many could not be
// delivered in the last 7 days.
import { queryOptions } from '@tanstack/react-query';
import { adminRequest, loadOrFail } from '../../app/client';

export interface MailMessage {
  id: number;
  to: string;
  subject: string;
  kind:
    | 'receipt'
    | 'refund_notice'
    | 'staff_alert'
    | 'staff_security'
    | 'newsletter_confirm'
    | 'newsletter_welcome'
    | 'plan_notice'
    | 'info_request'
    | 'broadcast_test'
    | 'event_rsvp'
    | 'event_update'
    | 'event_reminder';
  status: 'queued' | 'sent' | 'failed';
  attempts: number;
  lastError: string | null;
  createdAt: string;
  sentAt: string | null;
}

export interface MailQueue {
  messages: MailMessage[];
  failedLastWeek: number;
}

export const mailQuery = () =>
  queryOptions({
    queryKey: ['admin', 'mail'] as const,
    queryFn: () => loadOrFail(() => adminRequest<MailQueue>('GET', '/api/admin/mail'), 'Failed to fetch mail'),
  });
