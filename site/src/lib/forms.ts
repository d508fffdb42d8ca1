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

/** Submits the form's fields as JSON. Success clears the fields; failure keeps them.
 *  `disabled` stays true until the island has hydrated: a click before then would make the
 *  browser post the form natively, and the API only answers JSON. */
export function useFormSubmit(url: string, texts: SubmitTexts) {
  const [pending, setPending] = useState(false);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const form = event.currentTarget;
    const body = Object.fromEntries(new FormData(form).entries());
    setPending(true);
    try {
      await apiRequest('POST', url, body);
      form.reset();
      toast(texts.success);
    } catch (error) {
      toast({ variant: 'destructive', title: texts.failureTitle, description: failureText(error, texts.failureFallback) });
    } finally {
      setPending(false);
    }
  }

  return { pending, disabled: pending || !hydrated, onSubmit };
}
