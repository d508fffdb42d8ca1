// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';

import { deserialize } from './deserialize';
import { CANONICAL, REL } from './fixtures/canonical';
import { throughEditor } from './testUtils';

describe('HTML -> Slate -> HTML', () => {
  for (const [name, html] of Object.entries(CANONICAL)) {
    it(`keeps ${name}`, () => {
      expect(throughEditor(html)).toBe(html);
    });
  }

  it('keeps every link scheme the server allows', () => {
    for (const scheme of [
      'http://example.com/',
      'https://example.com/',
      'ftp://files.example.com/a.pdf',
      'ftps://files.example.com/a.pdf',
      'mailto:info@example.org',
      'tel:+1-555-555-0100',
      'callto:office',
      'sms:+15555550100',
      'cid:logo@example.org',
      'xmpp:office@example.org',
    ]) {
      const html = `<p><a href="${scheme}" ${REL}>x</a></p>`;
      expect(throughEditor(html)).toBe(html);
    }
  });

  it('writes an empty document as nothing, and reads nothing as one empty paragraph', () => {
    expect(throughEditor('')).toBe('');
    expect(throughEditor('<p></p>')).toBe('');
    expect(throughEditor('<p>   </p>\n\n')).toBe('');
    expect(deserialize('')).toEqual([{ type: 'paragraph', children: [{ text: '' }] }]);
  });

  it('reads HTML written elsewhere into the same forms', () => {
    const cases: [string, string][] = [
      ['<h1>Title</h1>\n<p>Text with  spaces\nand a newline.</p>\n', '<h1>Title</h1><p>Text with spaces and a newline.</p>'],
      ['<p> padded </p>', '<p>padded</p>'],
      ['<p>a <b>b</b> <i>c</i></p>', '<p>a <strong>b</strong> <em>c</em></p>'],
      ['<div>loose <span>text</span></div><div><p>in a div</p></div>', '<p>loose text</p><p>in a div</p>'],
      ['plain text', '<p>plain text</p>'],
      ['<ul>\n  <li>One</li>\n  <li>Two</li>\n</ul>', '<ul><li>One</li><li>Two</li></ul>'],
      ['<ul><li>item<ul><li>nested</li></ul></li></ul>', '<ul><li><p>item</p><ul><li>nested</li></ul></li></ul>'],
      ['<ul><li>a</li><ul><li>b</li></ul></ul>', '<ul><li><p>a</p><ul><li>b</li></ul></li></ul>'],
      ['<li>stray item</li>', '<p>stray item</p>'],
      ['<blockquote>bare quote</blockquote>', '<blockquote><p>bare quote</p></blockquote>'],
      ['<pre>\ncode</pre>', '<pre><code>code</code></pre>'],
      ['<p>text <img src="/uploads/a.png" alt="A"> more</p>', '<p>text</p><img src="/uploads/a.png" alt="A"><p>more</p>'],
      [`<a href="/issues"><img src="https://cdn.example.com/c.png" alt="Chart"></a>`, '<img src="https://cdn.example.com/c.png" alt="Chart">'],
      ['<a href="/a"><a href="/b">x</a></a>', `<p><a href="/b" ${REL}>x</a></p>`],
      ['<p><a href="https://e.org/" target="_self" rel="opener">x</a></p>', `<p><a href="https://e.org/" ${REL}>x</a></p>`],
      ['<table><tr><td>cell</td><td>two</td></tr></table>', '<p>cell</p><p>two</p>'],
      ['<p>a\u0000b\r\nc</p>', '<p>ab c</p>'],
    ];
    for (const [input, output] of cases) expect(throughEditor(input), input).toBe(output);
  });

  it('drops what the server would refuse', () => {
    const cases: [string, string][] = [
      ['<p><a href="javascript:alert(1)">x</a></p>', '<p>x</p>'],
      ['<p><a href="//evil.example/">x</a></p>', '<p>x</p>'],
      ['<p><a href="join">x</a></p>', '<p>x</p>'],
      ['<p><a>x</a></p>', '<p>x</p>'],
      ['<img src="data:image/png;base64,AAAA" alt="x">', ''],
      ['<img src="/images/a.png" alt="x"><p>y</p>', '<p>y</p>'],
      ['<p>a<script>alert(1)</script>b<style>p{}</style></p>', '<p>ab</p>'],
      ['<p onclick="x()" style="color:red" class="c">p</p>', '<p>p</p>'],
      ['<iframe src="https://evil.example/"></iframe><svg><text>s</text></svg><p>kept</p>', '<p>kept</p>'],
    ];
    for (const [input, output] of cases) expect(throughEditor(input), input).toBe(output);
  });

  it('is stable: a second pass changes nothing', () => {
    const inputs = [
      ...Object.values(CANONICAL),
      '<h1><div><h2>x</h2></div></h1>',
      '<strong><p>x</p></strong>',
      '<ul><li>a<li>b<ul><li>c</ul></ul>',
      '<p><div><p>x</p></div></p>',
      '<blockquote></blockquote>',
      '<ol></ol>',
    ];
    for (const html of inputs) {
      const once = throughEditor(html);
      expect(throughEditor(once), html).toBe(once);
    }
  });
});
