import { describe, expect, it } from 'vitest';
import { type FormRules, requestBody } from './forms';

const newsletter: FormRules = {
  action: '/api/newsletter-signup',
  fields: [
    { name: 'email', label: 'Email', kind: 'email', required: true, maxLength: 254 },
    { name: 'phone', label: 'Phone', kind: 'phone', required: false, maxLength: 25 },
    { name: 'zipCode', label: 'ZIP code', kind: 'zip', required: true, maxLength: 10 },
  ],
  texts: {
    submit: 'Join the Movement',
    pending: 'Joining...',
    successTitle: 'Thank you for joining!',
    successDescription: "You'll receive updates about activities and news.",
    failureTitle: 'Signup Failed',
    failureFallback: 'There was an error processing your signup. Please try again.',
  },
};

function formData(entries: Record<string, string>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(entries)) data.append(key, value);
  return data;
}

describe('requestBody', () => {
  it('sends exactly the form fields, empty optional ones included, and leaves an empty honeypot out', () => {
    const body = requestBody(formData({ website: '', zipCode: '20001', email: 'a@b.org', phone: '' }), newsletter, 'website');
    expect(body).toEqual({ email: 'a@b.org', phone: '', zipCode: '20001' });
    expect(Object.keys(body)).toEqual(['email', 'phone', 'zipCode']);
  });

  it('passes a filled honeypot on so the server can answer the bot', () => {
    const body = requestBody(formData({ email: 'a@b.org', zipCode: '20001', website: 'spam.example' }), newsletter, 'website');
    expect(body.website).toBe('spam.example');
  });

  it('drops keys the form does not have and sends a missing field as empty', () => {
    const body = requestBody(formData({ email: 'a@b.org', extra: 'x' }), newsletter, 'website');
    expect(body).toEqual({ email: 'a@b.org', phone: '', zipCode: '' });
  });

  it('sends a ticked box as true and leaves an unticked one out, so the spec payload stays as it is', () => {
    const withBox: FormRules = {
      ...newsletter,
      fields: [...newsletter.fields, { name: 'smsConsent', label: 'Text updates', kind: 'consent', required: false, maxLength: 3 }],
    };
    const ticked = requestBody(formData({ email: 'a@b.org', phone: '5551234567', zipCode: '20001', smsConsent: 'yes' }), withBox, 'website');
    expect(ticked).toEqual({ email: 'a@b.org', phone: '5551234567', zipCode: '20001', smsConsent: true });
    const unticked = requestBody(formData({ email: 'a@b.org', phone: '5551234567', zipCode: '20001' }), withBox, 'website');
    expect(Object.keys(unticked)).toEqual(['email', 'phone', 'zipCode']);
  });
});
