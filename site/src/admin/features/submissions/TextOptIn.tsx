// "Record consent to texts again": a number that said stop stays stopped whatever a signup
// form says (anyone can type anyone's number, and each later text would break the law).
// When its owner asks staff to get texts again, staff record it here, saying how and when;
// the server audits it (POST /api/admin/sms-opt-ins).
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { toast } from '../../../lib/toast';
import { adminRequest } from '../../app/client';
import { FormDialog } from '../../components/FormDialog';

const NOTE_MAX = 500;

export function TextOptIn({ phone }: { phone: string }) {
  const id = useId();
  const qc = useQueryClient();
  const [note, setNote] = useState('');
  const record = async () => {
    await adminRequest('POST', '/api/admin/sms-opt-ins', { phone, note: note.trim() });
    setNote('');
    toast({ title: 'Consent to texts recorded', description: `${phone} may get texts again and is back in exports.` });
    await qc.invalidateQueries({ queryKey: ['admin'] });
  };

  return (
    <FormDialog
      trigger="Record consent to texts"
      triggerLabel={`Record consent to texts for ${phone}`}
      triggerClassName="btn btn-outline px-3"
      title="Record consent to texts again"
      description={`Only when the owner of ${phone} asked you themselves. A signup form cannot undo a stop; this can, and it is recorded in the audit log.`}
      submit="Record consent"
      pending="Recording..."
      tone="primary"
      ready={note.trim() !== ''}
      failure="Failed to record the consent. Please try again."
      onSubmit={record}
      onClosed={() => setNote('')}
    >
      {(problem) => (
        <div>
          <label htmlFor={`${id}-note`} className="field-label">
            How and when did they ask?
          </label>
          <textarea
            id={`${id}-note`}
            rows={3}
            required
            maxLength={NOTE_MAX}
            value={note}
            onChange={(e) => setNote(e.target.value)}
            aria-invalid={problem.invalid}
            aria-describedby={problem.describedBy}
            className="field-input"
          />
        </div>
      )}
    </FormDialog>
  );
}
