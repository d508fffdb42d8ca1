import { FormField, Honeypot } from '../components/FormField';
import { type FormRules, rule, useFormSubmit } from '../lib/forms';

interface Props {
  idPrefix: string;
  consent?: string;
  form: FormRules;
  honeypot: string;
}

export default function NewsletterForm({ idPrefix, consent, form, honeypot }: Props) {
  const { pending, disabled, onSubmit } = useFormSubmit('/api/newsletter-signup', {
    success: { title: 'Thank you for joining!', description: "You'll receive updates about activities and news." },
    failureTitle: 'Signup Failed',
    failureFallback: 'There was an error processing your signup. Please try again.',
  }, form, honeypot);
  const id = (name: string) => `${idPrefix}-newsletter-${name}`;

  return (
    <form method="post" action="/api/newsletter-signup" onSubmit={onSubmit} className="mt-6 space-y-4">
      <FormField rule={rule(form, 'email')} id={id('email')} label="Email" autoComplete="email" />
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField rule={rule(form, 'phone')} id={id('phone')} label="Phone" autoComplete="tel" />
        <FormField rule={rule(form, 'zipCode')} id={id('zip')} label="ZIP code" autoComplete="postal-code" />
      </div>
      <Honeypot id={id(honeypot)} name={honeypot} />
      <button type="submit" className="btn btn-donate w-full text-base" disabled={disabled}>
        {pending ? 'Joining...' : 'Join the Movement'}
      </button>
      {consent && <p className="text-xs leading-relaxed text-slate-600">{consent}</p>}
    </form>
  );
}
