import { FormField, Honeypot } from '../components/FormField';
import { type FormRules, rule, useFormSubmit } from '../lib/forms';

/** The separate box to agree to texts (content/home.yaml `signup.texts`). */
interface Texts {
  label: string;
  /** The full disclosure, as HTML the generator made from the party's own Markdown. */
  disclosure: string;
}

interface Props {
  idPrefix: string;
  texts?: Texts;
  form: FormRules;
  honeypot: string;
}

export default function NewsletterForm({ idPrefix, texts, form, honeypot }: Props) {
  const { pending, onSubmit } = useFormSubmit(form, honeypot);
  const id = (name: string) => `${idPrefix}-newsletter-${name}`;

  return (
    <form method="post" action={form.action} onSubmit={onSubmit} className="mt-6 space-y-4">
      <FormField rule={rule(form, 'email')} id={id('email')} />
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField rule={rule(form, 'phone')} id={id('phone')} />
        <FormField rule={rule(form, 'zipCode')} id={id('zip')} />
      </div>
      {texts && <TextsBox name={rule(form, 'smsConsent').name} id={id('texts')} texts={texts} />}
      <Honeypot id={id(honeypot)} name={honeypot} />
      <button type="submit" className="btn btn-donate w-full text-base" disabled={pending}>
        {pending ? form.texts.pending : form.texts.submit}
      </button>
    </form>
  );
}

/** Unticked until the visitor ticks it: consent to texts is its own act, never implied by
 *  giving a number. An HTML post sends `yes`; the island sends `true`. */
function TextsBox({ name, id, texts }: { name: string; id: string; texts: Texts }) {
  return (
    <div className="flex items-start gap-3">
      <input id={id} name={name} type="checkbox" value="yes" className="consent-box" aria-describedby={`${id}-disclosure`} />
      <div>
        <label htmlFor={id} className="text-sm font-semibold text-ink">
          {texts.label} <span className="font-normal text-slate-600">(optional)</span>
        </label>
        <div id={`${id}-disclosure`} className="consent-text" dangerouslySetInnerHTML={{ __html: texts.disclosure }} />
      </div>
    </div>
  );
}
