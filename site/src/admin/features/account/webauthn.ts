// Passkeys in the browser: the server sends WebAuthn options as JSON, with every binary
// field (the challenge, the user's id, credential ids) in base64url; the browser wants
// ArrayBuffers, and answers with a credential whose binary fields go back as base64url
// (docs/staff.md, "Staff accounts"). Pure conversions here; the two ceremonies at the end.

/** base64url (padding optional) to bytes. Throws on anything that is not base64url. */
export function base64urlToBuffer(text: string): ArrayBuffer {
  if (!/^[A-Za-z0-9_-]*={0,2}$/.test(text)) throw new TypeError('Not base64url.');
  const base64 = text.replace(/=+$/, '').replaceAll('-', '+').replaceAll('_', '/');
  const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes.buffer;
}

/** Bytes to base64url without padding. */
export function bufferToBase64url(data: ArrayBuffer | ArrayBufferView): string {
  const bytes = data instanceof ArrayBuffer ? new Uint8Array(data) : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

interface CredentialDescriptorJSON {
  id: string;
  type: string;
  transports?: string[];
}

export interface CreationOptionsJSON {
  challenge: string;
  user: { id: string; name: string; displayName: string };
  excludeCredentials?: CredentialDescriptorJSON[];
  [other: string]: unknown;
}

export interface RequestOptionsJSON {
  challenge: string;
  allowCredentials?: CredentialDescriptorJSON[];
  [other: string]: unknown;
}

function descriptor(d: CredentialDescriptorJSON): PublicKeyCredentialDescriptor {
  return { ...d, type: 'public-key', id: base64urlToBuffer(d.id) } as PublicKeyCredentialDescriptor;
}

/** The server's creation options, as navigator.credentials.create takes them. */
export function creationOptionsFromJSON(json: CreationOptionsJSON): PublicKeyCredentialCreationOptions {
  return {
    ...json,
    challenge: base64urlToBuffer(json.challenge),
    user: { ...json.user, id: base64urlToBuffer(json.user.id) },
    excludeCredentials: json.excludeCredentials?.map(descriptor),
  } as PublicKeyCredentialCreationOptions;
}

/** The server's request options, as navigator.credentials.get takes them. */
export function requestOptionsFromJSON(json: RequestOptionsJSON): PublicKeyCredentialRequestOptions {
  return {
    ...json,
    challenge: base64urlToBuffer(json.challenge),
    allowCredentials: json.allowCredentials?.map(descriptor),
  } as PublicKeyCredentialRequestOptions;
}

/** What a new passkey's answer is sent as (POST /api/admin/security/passkeys). */
export interface RegistrationJSON {
  id: string;
  rawId: string;
  type: string;
  response: { attestationObject: string; clientDataJSON: string };
}

/** What a passkey sign-in's answer is sent as (POST /api/admin/login/passkey). */
export interface AssertionJSON {
  id: string;
  rawId: string;
  type: string;
  response: { authenticatorData: string; clientDataJSON: string; signature: string; userHandle: string | null };
}

/** The parts of a credential these conversions read (a PublicKeyCredential has them). */
interface CredentialLike<R> {
  id: string;
  rawId: ArrayBuffer;
  type: string;
  response: R;
}

export function registrationToJSON(
  credential: CredentialLike<Pick<AuthenticatorAttestationResponse, 'attestationObject' | 'clientDataJSON'>>,
): RegistrationJSON {
  return {
    id: credential.id,
    rawId: bufferToBase64url(credential.rawId),
    type: credential.type,
    response: {
      attestationObject: bufferToBase64url(credential.response.attestationObject),
      clientDataJSON: bufferToBase64url(credential.response.clientDataJSON),
    },
  };
}

export function assertionToJSON(
  credential: CredentialLike<Pick<AuthenticatorAssertionResponse, 'authenticatorData' | 'clientDataJSON' | 'signature' | 'userHandle'>>,
): AssertionJSON {
  const { response } = credential;
  return {
    id: credential.id,
    rawId: bufferToBase64url(credential.rawId),
    type: credential.type,
    response: {
      authenticatorData: bufferToBase64url(response.authenticatorData),
      clientDataJSON: bufferToBase64url(response.clientDataJSON),
      signature: bufferToBase64url(response.signature),
      userHandle: response.userHandle ? bufferToBase64url(response.userHandle) : null,
    },
  };
}

/** Whether this browser can make and use passkeys at all. */
export function passkeysSupported(): boolean {
  return typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function' && !!navigator.credentials;
}

/** Why a ceremony in the browser failed, in words for the person. */
export function passkeyFailure(error: unknown): string {
  if (error instanceof DOMException) {
    if (error.name === 'NotAllowedError') return 'The passkey request was cancelled or timed out. Please try again.';
    if (error.name === 'InvalidStateError') return 'This passkey is registered already.';
    if (error.name === 'SecurityError') return "This browser won't use passkeys on this address.";
  }
  return 'The passkey could not be used. Please try again.';
}

/** Makes a passkey with the server's creation options (`{publicKey}`). */
export async function createPasskey(options: { publicKey: CreationOptionsJSON }): Promise<RegistrationJSON> {
  const credential = (await navigator.credentials.create({
    publicKey: creationOptionsFromJSON(options.publicKey),
  })) as CredentialLike<AuthenticatorAttestationResponse> | null;
  if (!credential) throw new DOMException('No passkey was made.', 'NotAllowedError');
  return registrationToJSON(credential);
}

/** Signs with a passkey, with the server's request options (`{publicKey}`). */
export async function getPasskey(options: { publicKey: RequestOptionsJSON }): Promise<AssertionJSON> {
  const credential = (await navigator.credentials.get({
    publicKey: requestOptionsFromJSON(options.publicKey),
  })) as CredentialLike<AuthenticatorAssertionResponse> | null;
  if (!credential) throw new DOMException('No passkey was chosen.', 'NotAllowedError');
  return assertionToJSON(credential);
}
