// The words the send screens use: the typed confirmation, the counts and each status.
import type { SendStatus, Summary } from './api';

/** Whether what staff typed is exactly the recipient count (digits only, spaces and
 *  thousands separators around them forgiven). Nobody confirms a send to no one. */
export function countMatches(typed: string, count: number): boolean {
  const digits = typed.trim().replaceAll(/[\s,]/g, '');
  if (!/^\d+$/.test(digits) || count <= 0) return false;
  return Number(digits) === count;
}

/** "1 person", "1,234 people". */
export function people(n: number): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? 'person' : 'people'}`;
}

/** One line of a send's counts, for the live region: "2 sent, 1 failed, 0 excluded, 3 queued of 6 recipients". */
export function countsLine(s: Pick<Summary, 'recipients' | 'queued' | 'sent' | 'failed' | 'excluded'>): string {
  const of = s.recipients === 1 ? 'recipient' : 'recipients';
  return `${s.sent} sent, ${s.failed} failed, ${s.excluded} excluded, ${s.queued} queued of ${s.recipients} ${of}`;
}

const LABELS: Record<SendStatus, string> = {
  scheduled: 'Scheduled',
  sending: 'Sending',
  sent: 'Sent',
  missed: 'Missed',
  cancelled: 'Cancelled',
};

/** The status's word: "Sent" only once a send is done. */
export function statusLabel(status: SendStatus): string {
  return LABELS[status] ?? status;
}

/** How far a send has got, 0 to 100: the share that is no longer queued. */
export function percentDone(s: Pick<Summary, 'recipients' | 'queued'>): number {
  if (s.recipients <= 0) return 100;
  return Math.round(((s.recipients - s.queued) / s.recipients) * 100);
}

/** Whether a refusal is the server's "already mailed" one, to which staff may answer by
 *  sending only to those the post has not reached. */
export function offersAgain(message: string | null | undefined): boolean {
  return !!message && /send again to people who haven.t received it/i.test(message);
}
