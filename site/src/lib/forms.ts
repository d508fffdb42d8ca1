// Types of the field rules the generator passes as island props (generator/src/forms.rs
// is their single source), and the submit behaviour every public form shares.
import { type FormEvent, useEffect, useState } from 'react';
import { apiRequest, failureText } from './api';
import { toast, type ToastInput } from './toast';

export interface FieldRule {
  name: string;
  label: string;
  kind: 'text' | 'longText' | 'email' | 'phone' | 'zip';
  required: boolean;
  maxLength: number;
  pattern?: string;
}

export interface FormRules {
  fields: FieldRule[];
}

export function rule(form: FormRules, name: string): FieldRule {
  const found = form.fields.find((f) => f.name === name);
  if (!found) throw new Error(`The form has no field "${name}"`);
  return found;
}

export interface SubmitTexts {
  success: ToastInput;
  failureTitle: string;
  /** Shown when the server gave no message (e.g. the network is down). */
  failureFallback: string;
}

/** The JSON body for a form: exactly its rule fields, in order, so the API sees the payload
 *  the spec names. The honeypot goes along only when something filled it in. */
export function requestBody(data: FormData, form: FormRules, honeypot: string): Record<string, string> {
  const body: Record<string, string> = {};
  for (const field of form.fields) {
    const value = data.get(field.name);
    body[field.name] = typeof value === 'string' ? value : '';
  }
  const trap = data.get(honeypot);
  if (typeof trap === 'string' && trap !== '') body[honeypot] = trap;
  return body;
}

/** Submits the form's fields as JSON. Success clears the fields; failure keeps them.
 *  `disabled` stays true until the island has hydrated: a click before then would make the
 *  browser post the form natively, and the API only answers JSON. */
export function useFormSubmit(url: string, texts: SubmitTexts, form: FormRules, honeypot: string) {
  const [pending, setPending] = useState(false);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const element = event.currentTarget;
    const body = requestBody(new FormData(element), form, honeypot);
    setPending(true);
    try {
      await apiRequest('POST', url, body);
      element.reset();
      toast(texts.success);
    } catch (error) {
      toast({ variant: 'destructive', title: texts.failureTitle, description: failureText(error, texts.failureFallback) });
    } finally {
      setPending(false);
    }
  }

  return { pending, disabled: pending || !hydrated, onSubmit };
}
