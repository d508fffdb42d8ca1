import { describe, expect, it } from 'vitest';
import {
  assertionToJSON,
  base64urlToBuffer,
  bufferToBase64url,
  creationOptionsFromJSON,
  passkeyFailure,
  registrationToJSON,
  requestOptionsFromJSON,
} from './webauthn';

const bytes = (...b: number[]) => new Uint8Array(b).buffer;
const list = (buffer: ArrayBuffer | BufferSource | undefined) => [...new Uint8Array(buffer as ArrayBuffer)];

describe('base64url', () => {
  it('round-trips every byte value, without padding and with - and _', () => {
    const all = new Uint8Array(256).map((_, i) => i);
    const text = bufferToBase64url(all.buffer);
    expect(text).not.toMatch(/[+/=]/);
    expect(list(base64urlToBuffer(text))).toEqual([...all]);
    expect(bufferToBase64url(bytes(0xfb, 0xff))).toBe('-_8');
    expect(list(base64urlToBuffer('-_8'))).toEqual([0xfb, 0xff]);
  });

  it('reads padded input and empty input, and refuses what is not base64url', () => {
    expect(list(base64urlToBuffer('AQ=='))).toEqual([1]);
    expect(list(base64urlToBuffer('AQ'))).toEqual([1]);
    expect(list(base64urlToBuffer(''))).toEqual([]);
    expect(() => base64urlToBuffer('a+b/')).toThrow(TypeError);
    expect(() => base64urlToBuffer('ab cd')).toThrow(TypeError);
  });

  it('takes a view of part of a buffer as just that part', () => {
    const view = new Uint8Array([9, 1, 2, 3, 9]).subarray(1, 4);
    expect(bufferToBase64url(view)).toBe(bufferToBase64url(bytes(1, 2, 3)));
  });
});

describe('options from the server', () => {
  it('creation: the challenge, the user id and excluded ids become bytes; the rest stays', () => {
    const options = creationOptionsFromJSON({
      challenge: 'AQID',
      rp: { id: 'localhost', name: 'ACP' },
      user: { id: 'BAU', name: 'ana@example.org', displayName: 'Ana' },
      pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
      excludeCredentials: [{ type: 'public-key', id: 'Bgc' }],
      timeout: 60000,
    });
    expect(list(options.challenge)).toEqual([1, 2, 3]);
    expect(list(options.user.id)).toEqual([4, 5]);
    expect(options.user.name).toBe('ana@example.org');
    expect(list(options.excludeCredentials?.[0].id)).toEqual([6, 7]);
    expect(options.rp).toEqual({ id: 'localhost', name: 'ACP' });
    expect(options.timeout).toBe(60000);
  });

  it('request: the challenge and allowed ids become bytes', () => {
    const options = requestOptionsFromJSON({ challenge: 'CQ', allowCredentials: [{ type: 'public-key', id: 'Cgs', transports: ['usb'] }], rpId: 'localhost' });
    expect(list(options.challenge)).toEqual([9]);
    expect(list(options.allowCredentials?.[0].id)).toEqual([10, 11]);
    expect(options.allowCredentials?.[0].transports).toEqual(['usb']);
    expect(options.rpId).toBe('localhost');
    expect(requestOptionsFromJSON({ challenge: '' }).allowCredentials).toBeUndefined();
  });
});

describe('credentials to the server', () => {
  it('a new passkey: id, rawId and the response in base64url', () => {
    expect(
      registrationToJSON({ id: 'AQI', rawId: bytes(1, 2), type: 'public-key', response: { attestationObject: bytes(3), clientDataJSON: bytes(4, 5) } }),
    ).toEqual({ id: 'AQI', rawId: 'AQI', type: 'public-key', response: { attestationObject: 'Aw', clientDataJSON: 'BAU' } });
  });

  it('a sign-in: the signature and the user handle too, which may be missing', () => {
    const response = { authenticatorData: bytes(1), clientDataJSON: bytes(2), signature: bytes(3), userHandle: bytes(4) };
    expect(assertionToJSON({ id: 'x', rawId: bytes(0), type: 'public-key', response })).toEqual({
      id: 'x',
      rawId: 'AA',
      type: 'public-key',
      response: { authenticatorData: 'AQ', clientDataJSON: 'Ag', signature: 'Aw', userHandle: 'BA' },
    });
    expect(assertionToJSON({ id: 'x', rawId: bytes(0), type: 'public-key', response: { ...response, userHandle: null } }).response.userHandle).toBeNull();
  });

  it("says why the browser's ceremony failed", () => {
    expect(passkeyFailure(new DOMException('x', 'NotAllowedError'))).toMatch(/cancelled or timed out/);
    expect(passkeyFailure(new Error('x'))).toBe('The passkey could not be used. Please try again.');
  });
});
