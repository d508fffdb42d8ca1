import { FormField, Honeypot } from '../components/FormField';
import { type FormRules, rule, useFormSubmit } from '../lib/forms';

interface Props {
  idPrefix: string;
  form: FormRules;
  honeypot: string;
}

export default function VolunteerForm({ idPrefix, form, honeypot }: Props) {
  const { pending, disabled, onSubmit } = useFormSubmit('/api/volunteer', {
    success: { title: 'Thank you for volunteering!', description: "We'll be in touch with volunteer opportunities in your area." },
    failureTitle: 'Signup Failed',
    failureFallback: 'There was an error processing your volunteer signup. Please try again.',
  }, form, honeypot);
  const id = (name: string) => `${idPrefix}-${name}`;

  return (
    <form method="post" action="/api/volunteer" onSubmit={onSubmit} className="space-y-5">
      <div className="grid gap-5 sm:grid-cols-2">
        <FormField rule={rule(form, 'name')} id={id('name')} label="Name" autoComplete="name" />
        <FormField rule={rule(form, 'email')} id={id('email')} label="Email" autoComplete="email" />
        <FormField rule={rule(form, 'phone')} id={id('phone')} label="Phone" autoComplete="tel" />
        <FormField rule={rule(form, 'zipCode')} id={id('zip')} label="ZIP code" autoComplete="postal-code" />
      </div>
      <FormField
        rule={rule(form, 'interests')}
        id={id('interests')}
        label="Areas of interest"
        rows={3}
        hint="For example: canvassing, phone banking, events, petitions."
      />
      <Honeypot id={id(honeypot)} name={honeypot} />
      <button type="submit" className="btn btn-donate w-full text-base sm:w-auto" disabled={disabled}>
        {pending ? 'Signing Up...' : 'Sign Up to Volunteer'}
      </button>
    </form>
  );
}
