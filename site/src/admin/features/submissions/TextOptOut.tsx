// "Record text opt-out": when someone says stop to texts (a STOP reply the texting service
// reports, a call, a letter), staff record it here. From then on the number shows as opted
// out and the server leaves it out of every export (POST /api/admin/sms-opt-outs).
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { toast } from '../../../lib/toast';
import { adminRequest } from '../../app/client';
import { FormDialog } from '../../components/FormDialog';

/** How they said stop: the server's methods, in words. */
const METHODS = [
  ['text', 'Replied STOP to a text'],
  ['phone', 'By phone'],
  ['mail', 'By letter or e-mail'],
  ['other', 'Another way'],
] as const;

const NOTE_MAX = 500;

export function TextOptOut({ phone }: { phone: string }) {
  const id = useId();
  const qc = useQueryClient();
  const [method, setMethod] = useState('');
  const [note, setNote] = useState('');
  const clear = () => {
    setMethod('');
    setNote('');
  };
  const record = async () => {
    await adminRequest('POST', '/api/admin/sms-opt-outs', { phone, method, note: note.trim() || null });
    clear();
    toast({ title: 'Text opt-out recorded', description: `${phone} will get no more texts and is left out of exports.` });
    await qc.invalidateQueries({ queryKey: ['admin'] });
  };

  return (
    <FormDialog
      trigger="Record text opt-out"
      triggerLabel={`Record text opt-out for ${phone}`}
      triggerClassName="btn btn-outline px-3"
      title="Record a text opt-out"
      description={`${phone} will be marked as opted out of texts and left out of every export from now on. The record cannot be changed, and no signup form can undo it: only you, when its owner asks.`}
      submit="Record opt-out"
      pending="Recording..."
      tone="primary"
      ready={method !== ''}
      failure="Failed to record the opt-out. Please try again."
      onSubmit={record}
      onClosed={clear}
    >
      {(problem) => (
        <div className="space-y-4">
          <div>
            <label htmlFor={`${id}-method`} className="field-label">
              How did they ask to stop?
            </label>
            <select
              id={`${id}-method`}
              required
              value={method}
              onChange={(e) => setMethod(e.target.value)}
              aria-invalid={problem.invalid}
              aria-describedby={problem.describedBy}
              className="field-input"
            >
              <option value="" disabled>
                Choose one
              </option>
              {METHODS.map(([value, words]) => (
                <option key={value} value={value}>
                  {words}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor={`${id}-note`} className="field-label">
              Note <span className="font-normal text-slate-600">(optional)</span>
            </label>
            <textarea id={`${id}-note`} rows={3} maxLength={NOTE_MAX} value={note} onChange={(e) => setNote(e.target.value)} className="field-input" />
          </div>
        </div>
      )}
    </FormDialog>
  );
}
