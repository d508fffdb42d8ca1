// "Erase a person": the privacy policy's promise of deletion on request, in one place. Staff
// type the e-mail the request came from; the server deletes that person's messages and
// signups, the consent records of their numbers, the mail about them and their saved card at
// Stripe, and removes their details from gifts that were never paid. Completed gifts stay
// whole (federal record-keeping), and the dialog says so before and after.
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { toast } from '../../../lib/toast';
import { adminRequest } from '../../app/client';
import { type Erased, describeErasure } from '../../components/erased';
import { EmailField } from '../../components/EmailField';
import { FormDialog } from '../../components/FormDialog';

export function ErasePerson() {
  const id = useId();
  const qc = useQueryClient();
  const [email, setEmail] = useState('');
  const erase = async () => {
    const erased = await adminRequest<Erased>('POST', '/api/admin/erase', { email: email.trim() });
    setEmail('');
    toast({ title: 'Person erased', description: describeErasure(erased) });
    await qc.invalidateQueries({ queryKey: ['admin'] });
  };

  return (
    <FormDialog
      trigger="Erase a person"
      title="Erase a person"
      description="When someone asks to be forgotten: their contact messages and their volunteer and newsletter signups are deleted, and gifts they never paid lose their details. Completed gifts stay, because federal law requires the committee to keep them. This cannot be undone."
      submit="Erase"
      pending="Erasing..."
      ready={email.trim() !== ''}
      failure="Failed to erase. Please try again."
      onSubmit={erase}
      onClosed={() => setEmail('')}
    >
      {(problem) => <EmailField id={`${id}-email`} label="Their e-mail address" value={email} onChange={setEmail} problem={problem} />}
    </FormDialog>
  );
}
