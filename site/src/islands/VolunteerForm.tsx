import { FormField, Honeypot } from '../components/FormField';
import { type FormRules, rule, useFormSubmit } from '../lib/forms';

interface Props {
  idPrefix: string;
  form: FormRules;
  honeypot: string;
}

export default function VolunteerForm({ idPrefix, form, honeypot }: Props) {
  const { pending, onSubmit } = useFormSubmit(form, honeypot);
  const id = (name: string) => `${idPrefix}-${name}`;

  return (
    <form method="post" action={form.action} onSubmit={onSubmit} className="space-y-5">
      <div className="grid gap-5 sm:grid-cols-2">
        <FormField rule={rule(form, 'name')} id={id('name')} />
        <FormField rule={rule(form, 'email')} id={id('email')} />
        <FormField rule={rule(form, 'phone')} id={id('phone')} />
        <FormField rule={rule(form, 'zipCode')} id={id('zip')} />
      </div>
      <FormField rule={rule(form, 'interests')} id={id('interests')} />
      <Honeypot id={id(honeypot)} name={honeypot} />
      <button type="submit" className="btn btn-donate w-full text-base sm:w-auto" disabled={pending}>
        {pending ? form.texts.pending : form.texts.submit}
      </button>
    </form>
  );
}
