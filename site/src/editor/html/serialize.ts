// Slate nodes -> the HTML the server stores. Every tag, attribute and URL written here is
// one the server's sanitiser keeps, and the text is escaped exactly as its serialiser does
// it, so cleaning our output on save changes nothing (api/src/editor_rules.rs checks that
// over every output of the tests).
import { Element, Text, type Descendant } from 'slate';

import { ALLOWLIST, MARK_TAGS, isAllowedHref, isAllowedImageSrc } from '../schema';
import type { Block, Inline, Leaf, LinkElement } from '../types';

/** What an HTML parser would change: NUL is dropped, CR and CRLF become LF. */
function parserSafe(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(/\0/g, '');
}

/** Text content, escaped as html5ever escapes it (& < > and the no-break space). */
export function escapeText(text: string): string {
  return parserSafe(text).replace(/[&<>\u00a0]/g, (c) => ESCAPES[c]);
}

/** An attribute value in double quotes, escaped as html5ever escapes it. */
export function escapeAttribute(value: string): string {
  return parserSafe(value).replace(/[&"<>\u00a0]/g, (c) => ESCAPES[c]);
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\u00a0': '&nbsp;' };

function leaf(node: Leaf): string {
  if (node.text === '') return '';
  let html = escapeText(node.text).replace(/\n/g, '<br>');
  for (const [mark, tag] of [...MARK_TAGS].reverse()) {
    if (node[mark]) html = `<${tag}>${html}</${tag}>`;
  }
  return html;
}

function link(node: LinkElement): string {
  const content = node.children.map(leaf).join('');
  if (!isAllowedHref(node.href)) return content;
  let attributes = ` href="${escapeAttribute(node.href)}"`;
  if (node.title) attributes += ` title="${escapeAttribute(node.title)}"`;
  if (node.target === ALLOWLIST.linkTarget) attributes += ` target="${ALLOWLIST.linkTarget}"`;
  return `<a${attributes} rel="${ALLOWLIST.linkRel}">${content}</a>`;
}

function inline(node: Inline): string {
  return Text.isText(node) ? leaf(node) : link(node);
}

function inlines(nodes: readonly Descendant[]): string {
  return nodes.map((node) => (Text.isText(node) || node.type === 'link' ? inline(node as Inline) : block(node))).join('');
}

function block(node: Block): string {
  switch (node.type) {
    case 'paragraph':
      return `<p>${inlines(node.children)}</p>`;
    case 'heading':
      return `<h${node.level}>${inlines(node.children)}</h${node.level}>`;
    case 'code-block':
      // Inside <code>, a leading newline survives parsing (after <pre> it would not).
      return `<pre><code>${escapeText(node.children.map((t) => t.text).join(''))}</code></pre>`;
    case 'blockquote':
      return `<blockquote>${blocks(node.children)}</blockquote>`;
    case 'bulleted-list':
      return `<ul>${blocks(node.children)}</ul>`;
    case 'numbered-list':
      return `<ol>${blocks(node.children)}</ol>`;
    case 'list-item':
      return `<li>${inlines(node.children)}</li>`;
    case 'image': {
      if (!isAllowedImageSrc(node.src)) return '';
      const title = node.title ? ` title="${escapeAttribute(node.title)}"` : '';
      return `<img src="${escapeAttribute(node.src)}" alt="${escapeAttribute(node.alt)}"${title}>`;
    }
  }
}

function blocks(nodes: readonly Descendant[]): string {
  return nodes.map((node) => (Element.isElement(node) && node.type !== 'link' ? block(node) : inline(node as Inline))).join('');
}

/** Whether a document holds nothing a reader would see: no text, no image. */
export function isEmptyDocument(nodes: readonly Descendant[]): boolean {
  return nodes.every((node) => (Text.isText(node) ? node.text.trim() === '' : node.type !== 'image' && isEmptyDocument(node.children)));
}

/** The document as HTML; an empty document is the empty string. */
export function serialize(nodes: readonly Descendant[]): string {
  return isEmptyDocument(nodes) ? '' : blocks(nodes);
}
