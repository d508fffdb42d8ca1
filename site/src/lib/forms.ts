// Types of the form rules and texts the generator passes as island props
// (generator/src/forms.rs is their single source), and the submit behaviour every public
// form shares.
import { type FormEvent, useState } from 'react';
import { apiRequest, failureText } from './api';
import { toast } from './toast';

export interface FieldRule {
  name: string;
  label: string;
  kind: 'text' | 'longText' | 'email' | 'phone' | 'zip' | 'consent';
  required: boolean;
  maxLength: number;
  pattern?: string;
  autocomplete?: string;
  hint?: string;
  rows?: number;
}

/** The `type` of the input for each kind of field. A consent box is drawn by its form
 *  (NewsletterForm's TextsBox) with its disclosure beside it. */
export const inputTypes = { text: 'text', longText: 'text', email: 'email', phone: 'tel', zip: 'text', consent: 'checkbox' } as const;

/** The spec's texts for a form's states (generator/src/forms.rs `Texts`). */
export interface FormTexts {
  submit: string;
  pending: string;
  successTitle: string;
  successDescription: string;
  failureTitle: string;
  failureFallback: string;
}

export interface FormRules {
  action: string;
  fields: FieldRule[];
  texts: FormTexts;
}

export function rule(form: FormRules, name: string): FieldRule {
  const found = form.fields.find((f) => f.name === name);
  if (!found) throw new Error(`The form has no field "${name}"`);
  return found;
}

/** The JSON body for a form: exactly its rule fields, in order, so the API sees the payload
 *  the spec names. A ticked box is `true` and an unticked one is left out, so a visitor who
 *  agrees to nothing sends the spec's payload alone. The honeypot goes along only when
 *  something filled it in. */
export function requestBody(data: FormData, form: FormRules, honeypot: string): Record<string, string | boolean> {
  const body: Record<string, string | boolean> = {};
  for (const field of form.fields) {
    const value = data.get(field.name);
    if (field.kind === 'consent') {
      if (value !== null) body[field.name] = true;
    } else {
      body[field.name] = typeof value === 'string' ? value : '';
    }
  }
  const trap = data.get(honeypot);
  if (typeof trap === 'string' && trap !== '') body[honeypot] = trap;
  return body;
}

/** Submits the form's fields as JSON to its endpoint. Success clears the fields; failure
 *  keeps them. A submit before hydration is an ordinary HTML post, which the server also
 *  takes (it answers with a page instead of JSON), so the button is never held back. */
export function useFormSubmit(form: FormRules, honeypot: string) {
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const element = event.currentTarget;
    const body = requestBody(new FormData(element), form, honeypot);
    const { texts } = form;
    setPending(true);
    try {
      await apiRequest('POST', form.action, body);
      element.reset();
      toast({ title: texts.successTitle, description: texts.successDescription });
    } catch (error) {
      toast({ variant: 'destructive', title: texts.failureTitle, description: failureText(error, texts.failureFallback) });
    } finally {
      setPending(false);
    }
  }

  return { pending, onSubmit };
}
