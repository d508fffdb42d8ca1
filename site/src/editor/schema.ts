// Tag <-> node tables and the URL rules, shared by html/, plugins/ and toolbar/. The lists
// themselves come from the server (allowlist.json, written from the Rust constants by
// api/src/editor_rules.rs), so the editor and the sanitiser cannot drift apart.
import allowlist from './allowlist.json';
import type { HeadingLevel, ListType, Mark } from './types';

export const ALLOWLIST = allowlist.html;
export const LIMITS = allowlist.limits;

/** The schemes a link may use (spec §5), and the only ones the link dialog accepts. */
export const LINK_SCHEMES: readonly string[] = ALLOWLIST.linkSchemes;

/** Marks in the order they nest when written out, with their tag. */
export const MARK_TAGS: readonly (readonly [Mark, string])[] = [
  ['bold', 'strong'],
  ['italic', 'em'],
  ['underline', 'u'],
  ['strikethrough', 's'],
  ['code', 'code'],
];

/** Tags read as marks. `b` is bold unless its style says otherwise (Google Docs wraps a
 *  whole paste in `<b style="font-weight:normal">`). */
export const TAG_MARKS: Readonly<Record<string, Mark>> = {
  STRONG: 'bold',
  B: 'bold',
  EM: 'italic',
  I: 'italic',
  CITE: 'italic',
  U: 'underline',
  INS: 'underline',
  S: 'strikethrough',
  DEL: 'strikethrough',
  STRIKE: 'strikethrough',
  CODE: 'code',
  KBD: 'code',
  SAMP: 'code',
  TT: 'code',
};

/** Marks a paste keeps: the spec's "bold, italic", nothing else of another editor's look. */
export const PASTED_MARKS: readonly Mark[] = ['bold', 'italic'];

export const HEADING_TAGS: Readonly<Record<string, HeadingLevel>> = { H1: 1, H2: 2, H3: 3, H4: 4, H5: 5, H6: 6 };

export const LIST_TAGS: Readonly<Record<string, ListType>> = { UL: 'bulleted-list', OL: 'numbered-list' };

/** Elements dropped with everything inside them: the sanitiser's list, and what a
 *  document's head or a form brings along. */
export const DROPPED_WITH_CONTENT: ReadonlySet<string> = new Set([
  ...ALLOWLIST.droppedWithContent.map((tag) => tag.toUpperCase()),
  'HEAD',
  'META',
  'LINK',
  'BASE',
  'BUTTON',
  'INPUT',
  'OPTION',
  'CANVAS',
  'VIDEO',
  'AUDIO',
  'MAP',
  'AREA',
  'DIALOG',
]);

// An origin of our own to resolve relative URLs against exactly as a browser would, to
// tell whether one stays on the site (the server does the same, see sanitize.rs).
const SENTINEL = 'https://sentinel.invalid';

/** The path a site-relative URL (`/join`, `#top`) leads to, or null for anything that
 *  leaves the site or depends on the page it is on (`//host`, `/\host`, `page.html`). */
function sitePath(url: string): URL | null {
  if (!(url.startsWith('/') || url.startsWith('#')) || url.startsWith('//')) return null;
  try {
    const resolved = new URL(url, `${SENTINEL}/`);
    return resolved.origin === SENTINEL ? resolved : null;
  } catch {
    return null;
  }
}

/** The scheme of an absolute URL (lower case, no colon), or null for a relative one. */
function schemeOf(url: string): string | null {
  try {
    return new URL(url).protocol.slice(0, -1).toLowerCase();
  } catch {
    return null;
  }
}

/** Whether the server keeps this `href`: an absolute URL in one of the link schemes, a
 *  site path or a fragment. */
export function isAllowedHref(href: string): boolean {
  if (href !== href.trim() || href === '') return false;
  const scheme = schemeOf(href);
  if (scheme !== null) return LINK_SCHEMES.includes(scheme);
  return sitePath(href) !== null;
}

/** Whether the link dialog takes this address: absolute, in one of the link schemes. */
export function isInsertableUrl(url: string): boolean {
  const scheme = schemeOf(url);
  return scheme !== null && LINK_SCHEMES.includes(scheme) && isAllowedHref(url);
}

/** Whether `src` is one of our uploads (`/uploads/…`). */
export function isUploadSrc(src: string): boolean {
  const path = sitePath(src);
  return path !== null && !src.startsWith('#') && path.pathname.startsWith(ALLOWLIST.uploadsPrefix);
}

/** Whether the server keeps this image `src`: http(s), or one of our uploads. */
export function isAllowedImageSrc(src: string): boolean {
  if (src !== src.trim() || src === '') return false;
  const scheme = schemeOf(src);
  if (scheme === null) return isUploadSrc(src);
  return ALLOWLIST.imageSchemes.includes(scheme) && src.toLowerCase().startsWith(`${scheme}://`);
}

/** The image types the server's uploads accept, for file choosers' `accept`. */
export const IMAGE_TYPES: readonly string[] = LIMITS.image.types;
export const IMAGE_MAX_BYTES: number = LIMITS.image.maxBytes;
