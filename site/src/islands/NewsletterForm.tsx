import { FormField, Honeypot } from '../components/FormField';
import { type FormRules, rule, useFormSubmit } from '../lib/forms';

interface Props {
  idPrefix: string;
  consent?: string;
  form: FormRules;
  honeypot: string;
}

export default function NewsletterForm({ idPrefix, consent, form, honeypot }: Props) {
  const { pending, onSubmit } = useFormSubmit(form, honeypot);
  const id = (name: string) => `${idPrefix}-newsletter-${name}`;

  return (
    <form method="post" action={form.action} onSubmit={onSubmit} className="mt-6 space-y-4">
      <FormField rule={rule(form, 'email')} id={id('email')} />
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField rule={rule(form, 'phone')} id={id('phone')} />
        <FormField rule={rule(form, 'zipCode')} id={id('zip')} />
      </div>
      <Honeypot id={id(honeypot)} name={honeypot} />
      <button type="submit" className="btn btn-donate w-full text-base" disabled={pending}>
        {pending ? form.texts.pending : form.texts.submit}
      </button>
      {consent && <p className="text-xs leading-relaxed text-slate-600">{consent}</p>}
    </form>
  );
}
