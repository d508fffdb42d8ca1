import { FormField, Honeypot } from '../components/FormField';
import { type FormRules, rule, useFormSubmit } from '../lib/forms';

interface Props {
  idPrefix: string;
  form: FormRules;
  honeypot: string;
}

export default function ContactForm({ idPrefix, form, honeypot }: Props) {
  const { pending, disabled, onSubmit } = useFormSubmit('/api/contact', {
    success: { title: 'Message sent!', description: "Thank you for reaching out. We'll get back to you soon." },
    failureTitle: 'Failed to send message',
    failureFallback: 'There was an error sending your message. Please try again.',
  }, form, honeypot);
  const id = (name: string) => `${idPrefix}-${name}`;

  return (
    <form method="post" action="/api/contact" onSubmit={onSubmit} className="mt-6 space-y-5">
      <div className="grid gap-5 sm:grid-cols-2">
        <FormField rule={rule(form, 'name')} id={id('name')} label="Name" autoComplete="name" />
        <FormField rule={rule(form, 'email')} id={id('email')} label="Email" autoComplete="email" />
      </div>
      <FormField rule={rule(form, 'subject')} id={id('subject')} label="Subject" />
      <FormField rule={rule(form, 'message')} id={id('message')} label="Message" rows={6} />
      <Honeypot id={id(honeypot)} name={honeypot} />
      <button type="submit" className="btn btn-primary w-full text-base sm:w-auto" disabled={disabled}>
        {pending ? 'Sending...' : 'Send Message'}
      </button>
    </form>
  );
}
