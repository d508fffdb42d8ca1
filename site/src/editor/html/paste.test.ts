// @vitest-environment jsdom
// Pastes from other editors and the XSS corpus: what survives is only what the spec keeps,
// and nothing executable. Every output is also recorded in fixtures/serialized.json, which
// the server's tests feed to its sanitiser (api/src/editor_rules.rs): it must change none.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { ALLOWLIST, isAllowedHref, isAllowedImageSrc } from '../schema';
import { CANONICAL, REL } from './fixtures/canonical';
import googleDocs from './fixtures/google-docs.html?raw';
import webPage from './fixtures/web-page.html?raw';
import word from './fixtures/word.html?raw';
import { throughEditor } from './testUtils';

const SERIALIZED = join(import.meta.dirname, 'fixtures/serialized.json');
const CORPUS = join(import.meta.dirname, '../../../../generator/tests/fixtures/xss-payloads.txt');

const outputs = new Set<string>(Object.values(CANONICAL));
/** The tests that add to `outputs`: the record is checked only after a full run of them. */
const RECORDING_TESTS = 5;
let recordingTestsRun = 0;

function record(html: string): string {
  outputs.add(html);
  return html;
}

const paste = (html: string) => record(throughEditor(html, { paste: true, origin: 'https://party.example' }));
const load = (html: string) => record(throughEditor(html));

describe('pasting', () => {
  it('from Word keeps headings, lists (nested, both kinds), bold, italic and links', () => {
    recordingTestsRun++;
    expect(paste(word)).toBe(
      '<h1>Our Platform for 2028</h1>' +
        `<p>The <strong>American Conscience Party</strong> stands for <em>people over party</em>. Read the <a href="https://example.org/platform" ${REL}>full platform</a>.</p>` +
        '<h2>Three commitments</h2>' +
        '<ul><li><p>Free upgraded education</p><ul><li>From pre-school to <strong>university</strong></li></ul></li><li>Free healthcare</li></ul>' +
        '<ol><li>Register to vote</li><li>Tell a frend</li></ol>' +
        '<p>Styled text loses its look and its underline</p>',
    );
  });

  it('from Google Docs reads its styled spans as bold and italic, and its lists', () => {
    recordingTestsRun++;
    expect(paste(googleDocs)).toBe(
      '<h1>Why We March</h1>' +
        '<p>We march for <strong>conscience</strong><em>, not for a party</em>.</p>' +
        '<ul><li>Town halls</li><li><p>Door to door</p><ul><li>Weekends</li></ul></li></ul>' +
        '<ol><li><strong>First</strong> step</li></ol>' +
        `<p><a href="https://www.example.org/register" ${REL}>Register today</a> or read our guide</p>`,
    );
  });

  it('from a web page drops styles, classes, scripts, forms and images from other hosts', () => {
    recordingTestsRun++;
    expect(paste(webPage)).toBe(
      '<h2>Third parties in history</h2>' +
        `<p>In <a href="https://en.example.org/wiki/1912" ${REL}>1912</a>, a third party won <strong>27%</strong> of the vote.</p>` +
        '<p>“Conscience is the <em>root</em> of all true courage.”</p>' +
        '<p>const votes = 27;</p>' +
        '<img src="/uploads/0123abcd.jpg" alt="Our rally">' +
        '<p>Click local underlined code <strong>styled bold</strong></p>' +
        '<p>Year</p><p>Share</p>',
    );
  });

  it('of our own content keeps all of it', () => {
    recordingTestsRun++;
    for (const html of Object.values(CANONICAL)) expect(load(html)).toBe(html);
  });
});

/** Fails unless `html` holds only allowed tags and attributes with allowed URLs. */
function assertHarmless(html: string, from: string) {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  for (const needle of ['<script', '<style', '<iframe', '<svg', '<math', '<!--', 'style=']) {
    expect(html.toLowerCase(), from).not.toContain(needle);
  }
  const elements = Array.from(doc.documentElement.querySelectorAll('*')).filter((e) => e !== doc.head && e !== doc.body);
  for (const element of elements) {
    const tag = element.tagName.toLowerCase();
    expect(ALLOWLIST.tags, `<${tag}> from ${from}`).toContain(tag);
    const allowed: string[] = tag === 'a' ? ['href', 'title', 'target', 'rel'] : tag === 'img' ? ['src', 'alt', 'title'] : [];
    for (const { name, value } of Array.from(element.attributes)) {
      expect(allowed, `${name} on <${tag}> from ${from}`).toContain(name);
      // Control characters are what browsers skip inside a scheme ("java\0script:").
      // eslint-disable-next-line no-control-regex
      const squashed = value.replace(/[\s\u0000-\u001f]/g, '').toLowerCase();
      for (const scheme of ['javascript:', 'vbscript:', 'data:']) expect(squashed, from).not.toContain(scheme);
      if (name === 'href') expect(isAllowedHref(value), `${value} from ${from}`).toBe(true);
      if (name === 'src') expect(isAllowedImageSrc(value), `${value} from ${from}`).toBe(true);
      if (name === 'target') expect(value).toBe('_blank');
      if (name === 'rel') expect(value).toBe(ALLOWLIST.linkRel);
    }
  }
}

describe('the XSS corpus', () => {
  const payloads = readFileSync(CORPUS, 'utf8')
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'));

  it('is there to test with', () => {
    expect(payloads.length).toBeGreaterThan(150);
  });

  it('leaves nothing executable, loaded or pasted', () => {
    recordingTestsRun++;
    for (const payload of payloads) {
      assertHarmless(load(payload), payload);
      assertHarmless(paste(payload), payload);
    }
  });

  it('runs nothing while it is parsed', () => {
    const calls: string[] = [];
    const spy = (name: string) => () => calls.push(name);
    const saved = { alert: window.alert, confirm: window.confirm, prompt: window.prompt };
    Object.assign(window, { alert: spy('alert'), confirm: spy('confirm'), prompt: spy('prompt') });
    try {
      for (const payload of payloads) throughEditor(payload, { paste: true });
    } finally {
      Object.assign(window, saved);
    }
    expect(calls).toEqual([]);
  });

  it('the checker fails on what it should', () => {
    for (const bad of ['<script>x</script>', '<img src="x" onerror="alert(1)">', '<a href="javascript:x">x</a>', '<p style="x">x</p>', '<div>x</div>']) {
      expect(() => assertHarmless(bad, 'test'), bad).toThrow();
    }
  });
});

afterAll(() => {
  // The record the server's sanitiser test reads; rewrite it with BLESS=1.
  if (recordingTestsRun < RECORDING_TESTS) return;
  const expected = `${JSON.stringify([...outputs].sort(), null, 1)}\n`;
  let actual = '';
  try {
    actual = readFileSync(SERIALIZED, 'utf8');
  } catch {
    // missing: written below when blessed, else reported
  }
  if (actual === expected) return;
  if (process.env.BLESS) writeFileSync(SERIALIZED, expected);
  else throw new Error('src/editor/html/fixtures/serialized.json is out of date: run `BLESS=1 npx vitest run src/editor`');
});
