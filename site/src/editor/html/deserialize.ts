// HTML -> Slate nodes, for the stored post (trusted to be sanitised, but read as if it were
// not) and for pastes from Word, Google Docs and web pages. The HTML is parsed with
// DOMParser into an inert document: no script runs, no image loads, no handler fires.
// Everything the schema does not name is dropped: unknown elements keep their text, the
// sanitiser's "dropped with content" elements go whole, and links and images whose URLs
// the server would refuse lose their tag (a link keeps its text).
import {
  DROPPED_WITH_CONTENT,
  HEADING_TAGS,
  LIST_TAGS,
  PASTED_MARKS,
  TAG_MARKS,
  isAllowedHref,
  isAllowedImageSrc,
  isInsertableUrl,
  isUploadSrc,
} from '../schema';
import type { Block, ImageElement, Inline, Leaf, LinkElement, ListItemElement, ListType, Mark } from '../types';

export type DeserializeOptions = {
  /** Read as a paste from elsewhere: keep headings, lists, bold, italic, links and
   *  paragraphs; drop every other look, relative links and images from other hosts. */
  paste?: boolean;
  /** The site's origin, so a pasted image of our own uploads is kept (pastes only). */
  origin?: string;
};

type Marks = Partial<Record<Mark, true>>;

type Context = {
  marks: Marks;
  paste: boolean;
  origin: string | null;
  /** Inside a link already: a nested one keeps only its text. */
  inLink: boolean;
};

/** A Word list paragraph, gathered into real lists by `toBlocks`. */
type WordItem = { kind: 'word-item'; level: number; listType: ListType; children: Inline[] };

type Piece = Block | Inline | WordItem;

const isWordItem = (piece: Piece): piece is WordItem => 'kind' in piece;
const isLeaf = (piece: Piece): piece is Leaf => 'text' in piece;
const isInlinePiece = (piece: Piece): piece is Inline => isLeaf(piece) || (!isWordItem(piece) && piece.type === 'link');

/** Elements whose content is a run of blocks of its own (a div, a table cell…). */
const CONTAINERS = new Set([
  'DIV',
  'SECTION',
  'ARTICLE',
  'MAIN',
  'HEADER',
  'FOOTER',
  'ASIDE',
  'NAV',
  'FIGURE',
  'FIGCAPTION',
  'ADDRESS',
  'DETAILS',
  'SUMMARY',
  'TABLE',
  'THEAD',
  'TBODY',
  'TFOOT',
  'TR',
  'TD',
  'TH',
  'CAPTION',
  'DL',
  'DT',
  'DD',
  'CENTER',
  'FORM',
  'FIELDSET',
  'LEGEND',
  'HGROUP',
  'BODY',
  'HTML',
  'HR',
]);

const WHITESPACE = /[ \t\n\r\f]+/g;

/** The marks an element's inline style gives (Google Docs and Word mark text this way). */
function styleMarks(element: HTMLElement, marks: Marks): Marks {
  const style = element.style;
  const weight = style.fontWeight;
  const next = { ...marks };
  if (weight === 'bold' || weight === 'bolder' || Number(weight) >= 600) next.bold = true;
  else if (weight === 'normal' || weight === 'lighter' || (Number(weight) > 0 && Number(weight) < 600)) delete next.bold;
  if (style.fontStyle === 'italic' || style.fontStyle === 'oblique') next.italic = true;
  else if (style.fontStyle === 'normal') delete next.italic;
  return next;
}

function withMark(marks: Marks, mark: Mark, ctx: Context): Marks {
  return ctx.paste && !PASTED_MARKS.includes(mark) ? marks : { ...marks, [mark]: true };
}

function text(value: string, marks: Marks): Leaf {
  return { text: value, ...marks };
}

/** `mso-list:l0 level2 lfo1` on a Word paragraph: the level of its list item. */
function wordListLevel(element: HTMLElement): number | null {
  const style = element.getAttribute('style') ?? '';
  const match = /mso-list:\s*l\d+\s+level(\d+)/i.exec(style);
  return match ? Number(match[1]) : null;
}

/** Word writes a list item's bullet or number as text, between `<![if !supportLists]>` and
 *  `<![endif]>` (comments once parsed), or in a span styled `mso-list:Ignore`. */
function isWordMarker(node: Node): boolean {
  return node instanceof HTMLElement && /mso-list:\s*ignore/i.test(node.getAttribute('style') ?? '');
}

function childPieces(parent: Node, ctx: Context): { pieces: Piece[]; marker: string } {
  const pieces: Piece[] = [];
  let marker = '';
  let inWordMarker = false;
  for (const child of Array.from(parent.childNodes)) {
    if (child.nodeType === Node.COMMENT_NODE) {
      const data = (child as Comment).data.trim();
      if (/^\[if !supportLists\]/i.test(data)) inWordMarker = true;
      else if (/^\[endif\]/i.test(data)) inWordMarker = false;
      continue;
    }
    if (inWordMarker || isWordMarker(child)) {
      marker += child.textContent ?? '';
      continue;
    }
    pieces.push(...walk(child, ctx));
  }
  return { pieces, marker };
}

/** One DOM node as pieces: blocks, inlines, or Word list items still to be gathered. */
function walk(node: Node, ctx: Context): Piece[] {
  if (node.nodeType === Node.TEXT_NODE) {
    const raw = node.nodeValue ?? '';
    const value = (ctx.paste ? raw.replace(/\u00a0/g, ' ') : raw).replace(WHITESPACE, ' ');
    return value === '' ? [] : [text(value, ctx.marks)];
  }
  if (!(node instanceof HTMLElement)) return [];
  const tag = node.tagName.toUpperCase();
  if (DROPPED_WITH_CONTENT.has(tag)) return [];
  let marks = ctx.paste ? styleMarks(node, ctx.marks) : ctx.marks;
  const mark = TAG_MARKS[tag];
  if (mark && !(tag === 'B' && node.style.fontWeight === 'normal')) marks = withMark(marks, mark, ctx);
  const inner: Context = { ...ctx, marks };

  if (tag === 'BR') return [text('\n', marks)];
  if (tag === 'IMG') {
    const image = imageFrom(node as HTMLImageElement, ctx);
    return image ? [image] : [];
  }
  if (tag === 'A') return linkFrom(node as HTMLAnchorElement, inner);
  if (tag === 'PRE') return preFrom(node, inner);
  if (tag === 'P' && ctx.paste) {
    const level = wordListLevel(node);
    if (level !== null) {
      const { pieces, marker } = childPieces(node, inner);
      const listType: ListType = /^\s*[\w]{1,4}[.)]/.test(marker) ? 'numbered-list' : 'bulleted-list';
      return [{ kind: 'word-item', level, listType, children: finishInlines(toInlines(pieces)) }];
    }
  }
  const { pieces } = childPieces(node, inner);
  const level = HEADING_TAGS[tag];
  if (level) return textBlocks(pieces, (children) => ({ type: 'heading', level, children }));
  if (tag === 'P') return textBlocks(pieces, (children) => ({ type: 'paragraph', children }));
  if (tag === 'BLOCKQUOTE') return ctx.paste ? toBlocks(pieces, ctx) : [{ type: 'blockquote', children: nonEmpty(toBlocks(pieces, ctx)) }];
  const listType = LIST_TAGS[tag];
  if (listType) return [{ type: listType, children: listItems(pieces, ctx) }];
  if (tag === 'LI') return [listItem(pieces, ctx)];
  if (CONTAINERS.has(tag)) return toBlocks(pieces, ctx);
  return pieces; // spans, fonts, marks and unknown inline elements: their content
}

function imageFrom(element: HTMLImageElement, ctx: Context): ImageElement | null {
  let src = element.getAttribute('src') ?? '';
  if (ctx.paste) {
    // Only our own uploads: an image from elsewhere would be hotlinked from a stranger's
    // server (and often a tracking pixel).
    if (ctx.origin && src.startsWith(`${ctx.origin}/`)) src = src.slice(ctx.origin.length);
    if (!isUploadSrc(src)) return null;
  } else if (!isAllowedImageSrc(src)) {
    return null;
  }
  const image: ImageElement = { type: 'image', src, alt: element.getAttribute('alt') ?? '', children: [{ text: '' }] };
  const title = element.getAttribute('title');
  if (title && !ctx.paste) image.title = title;
  return image;
}

function linkFrom(element: HTMLAnchorElement, ctx: Context): Piece[] {
  const { pieces } = childPieces(element, { ...ctx, inLink: true });
  const children = toInlines(pieces).flatMap((piece) => (isLeaf(piece) ? [piece] : piece.children));
  // An image in a link (a linked picture) stands on its own after it: images are blocks.
  const images = pieces.filter((piece): piece is ImageElement => !isInlinePiece(piece) && !isWordItem(piece) && piece.type === 'image');
  const href = element.getAttribute('href') ?? '';
  // A paste's relative links meant the page it came from, not ours.
  const allowed = ctx.paste ? isInsertableUrl(href) : isAllowedHref(href);
  if (ctx.inLink || !allowed || children.length === 0) return [...children, ...images];
  const link: LinkElement = { type: 'link', href, children };
  const title = element.getAttribute('title');
  if (title && !ctx.paste) link.title = title;
  if (!ctx.paste && element.getAttribute('target')?.toLowerCase() === '_blank') link.target = '_blank';
  return [link, ...images];
}

function preFrom(element: HTMLElement, ctx: Context): Piece[] {
  const code = (element.textContent ?? '').replace(/\r\n?/g, '\n');
  if (ctx.paste) {
    return code.trim() === '' ? [] : [{ type: 'paragraph', children: [text(code.replace(/\n+$/, ''), ctx.marks)] }];
  }
  return [{ type: 'code-block', children: [{ text: code }] }];
}

/** The pieces of a paragraph or heading: one block of its kind per run of inline content,
 *  with any blocks found inside (`<h1><div><h2>`) kept in place between them. */
function textBlocks(pieces: Piece[], make: (children: Inline[]) => Block): Block[] {
  if (pieces.every(isInlinePiece)) return [make(finishInlines(pieces))];
  const out: Block[] = [];
  let run: Inline[] = [];
  const flush = () => {
    if (run.length > 0 && !isBlank(run)) out.push(make(finishInlines(run)));
    run = [];
  };
  for (const piece of pieces) {
    if (isInlinePiece(piece)) run.push(piece);
    else {
      flush();
      out.push(...(isWordItem(piece) ? [{ type: 'paragraph', children: piece.children } as Block] : [piece]));
    }
  }
  flush();
  return out;
}

/** Inline content only: the text of any block inside, blocks' boundaries as spaces. */
function toInlines(pieces: Piece[]): Inline[] {
  return pieces.flatMap((piece): Inline[] => {
    if (isInlinePiece(piece)) return [piece];
    if (isWordItem(piece)) return piece.children;
    if (piece.type === 'image') return [];
    return [{ text: ' ' }, ...toInlines(piece.children as Piece[]), { text: ' ' }];
  });
}

function isBlank(inlines: Inline[]): boolean {
  return inlines.every((node) => (isLeaf(node) ? node.text.trim() === '' : false));
}

/** Pieces as blocks: runs of inline content become paragraphs (a run of whitespace
 *  between blocks is nothing), Word list items become lists. */
function toBlocks(pieces: Piece[], ctx: Context): Block[] {
  const out: Block[] = [];
  let run: Inline[] = [];
  let words: WordItem[] = [];
  const flush = () => {
    if (run.length > 0 && !isBlank(run)) out.push({ type: 'paragraph', children: finishInlines(run) });
    run = [];
    if (words.length > 0) out.push(...wordLists(words));
    words = [];
  };
  for (const piece of pieces) {
    if (isInlinePiece(piece)) {
      if (words.length > 0 && isBlank([piece])) continue;
      if (words.length > 0) flush();
      run.push(piece);
    } else if (isWordItem(piece)) {
      if (run.length > 0) {
        const pending = words;
        words = [];
        flush();
        words = pending;
      }
      words.push(piece);
    } else if (piece.type === 'list-item') {
      // An item outside any list is just its content.
      run.push(...(piece.children as Piece[]).filter(isInlinePiece));
      const inner = (piece.children as Piece[]).filter((child) => !isInlinePiece(child));
      if (inner.length > 0) {
        flush();
        out.push(...(inner as Block[]));
      }
    } else {
      flush();
      out.push(piece);
    }
  }
  flush();
  // A paste has no use for the blank paragraphs Word and Docs put between paragraphs.
  return ctx.paste ? out.filter((b) => !((b.type === 'paragraph' || b.type === 'heading') && isBlank(b.children))) : out;
}

/** Consecutive Word list paragraphs as nested lists, by their levels. */
function wordLists(items: WordItem[]): Block[] {
  const roots: Block[] = [];
  // stack[n]: the open list at depth n+1.
  const stack: { type: ListType; children: ListItemElement[] }[] = [];
  for (const item of items) {
    const depth = Math.min(Math.max(item.level, 1), stack.length + 1);
    stack.length = Math.min(stack.length, depth);
    let list = stack[depth - 1];
    if (!list || list.type !== item.listType) {
      list = { type: item.listType, children: [] };
      if (depth === 1) roots.push(list);
      else {
        const parentList = stack[depth - 2];
        const parentItem = parentList.children[parentList.children.length - 1];
        parentItem.children = [...asBlocks(parentItem), list];
      }
      stack[depth - 1] = list;
      stack.length = depth;
    }
    list.children.push({ type: 'list-item', children: item.children.length > 0 ? item.children : [{ text: '' }] });
  }
  return roots;
}

/** A list item's children as blocks (its text as a paragraph), to nest a list in it. */
function asBlocks(item: ListItemElement): Block[] {
  const first = item.children[0];
  if (first && ('text' in first || first.type === 'link')) return [{ type: 'paragraph', children: item.children as Inline[] }];
  return item.children as Block[];
}

function listItem(pieces: Piece[], ctx: Context): ListItemElement {
  if (pieces.every(isInlinePiece)) {
    const children = finishInlines(pieces);
    return { type: 'list-item', children };
  }
  const blocks = toBlocks(pieces, { ...ctx, paste: false });
  // `<li><p>text</p></li>` (Google Docs) is a plain item.
  if (blocks.length === 1 && blocks[0].type === 'paragraph') return { type: 'list-item', children: blocks[0].children };
  return { type: 'list-item', children: nonEmpty(blocks) };
}

/** A list's items; a list directly inside a list (Google Docs) nests in the item before it. */
function listItems(pieces: Piece[], ctx: Context): ListItemElement[] {
  const items: ListItemElement[] = [];
  let loose: Piece[] = [];
  const flushLoose = () => {
    if (loose.length > 0 && !(loose.every(isInlinePiece) && isBlank(loose as Inline[]))) items.push(listItem(loose, ctx));
    loose = [];
  };
  for (const piece of pieces) {
    if (loose.length === 0 && isInlinePiece(piece) && isBlank([piece])) continue;
    if (!isInlinePiece(piece) && !isWordItem(piece) && piece.type === 'list-item') {
      flushLoose();
      items.push(piece);
    } else if (
      !isInlinePiece(piece) &&
      !isWordItem(piece) &&
      (piece.type === 'bulleted-list' || piece.type === 'numbered-list') &&
      loose.length === 0 &&
      items.length > 0
    ) {
      const previous = items[items.length - 1];
      previous.children = [...asBlocks(previous), piece];
    } else {
      loose.push(piece);
    }
  }
  flushLoose();
  return items.length > 0 ? items : [{ type: 'list-item', children: [{ text: '' }] }];
}

function nonEmpty(blocks: Block[]): Block[] {
  return blocks.length > 0 ? blocks : [{ type: 'paragraph', children: [{ text: '' }] }];
}

function sameMarks(a: Leaf, b: Leaf): boolean {
  const keys = (leaf: Leaf) =>
    Object.keys(leaf)
      .filter((k) => k !== 'text')
      .sort()
      .join();
  return keys(a) === keys(b);
}

/** Inline content as a reader sees it: whitespace collapsed across neighbours, trimmed at
 *  the ends of the block, neighbouring texts with the same marks merged. */
function finishInlines(inlines: Inline[]): Inline[] {
  const leaves: Leaf[] = [];
  const collect = (nodes: Inline[]) => {
    for (const node of nodes) {
      if (isLeaf(node)) leaves.push(node);
      else collect(node.children);
    }
  };
  collect(inlines);
  // Collapse: a space after a space (or after a line break, or at the start) goes.
  let previousEndsInSpace = true;
  for (const leaf of leaves) {
    if (previousEndsInSpace && leaf.text.startsWith(' ')) leaf.text = leaf.text.slice(1);
    leaf.text = leaf.text.replace(/ ?\n ?/g, '\n');
    if (leaf.text !== '') previousEndsInSpace = leaf.text.endsWith(' ') || leaf.text.endsWith('\n');
  }
  for (let i = leaves.length - 1; i >= 0; i--) {
    leaves[i].text = leaves[i].text.replace(/ $/, '');
    if (leaves[i].text !== '') break;
  }
  const merge = (nodes: Inline[]): Inline[] => {
    const out: Inline[] = [];
    for (const node of nodes) {
      if (isLeaf(node)) {
        if (node.text === '') continue;
        const last = out[out.length - 1];
        if (last && isLeaf(last) && sameMarks(last, node)) {
          out[out.length - 1] = { ...last, text: last.text + node.text };
          continue;
        }
        out.push(node);
      } else {
        const children = merge(node.children) as Leaf[];
        if (children.length > 0) out.push({ ...node, children });
      }
    }
    return out;
  };
  const merged = merge(inlines);
  return merged.length > 0 ? merged : [{ text: '' }];
}

/** Parses `html` into the editor's blocks; always at least one (an empty paragraph). */
export function deserialize(html: string, options: DeserializeOptions = {}): Block[] {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  const ctx: Context = { marks: {}, paste: options.paste ?? false, origin: options.origin ?? null, inLink: false };
  const { pieces } = childPieces(doc.body, ctx);
  return nonEmpty(toBlocks(pieces, ctx));
}
