//! Policy PDFs: renders a simple flowing [`Document`] (titles, headings,
//! paragraphs, bullet lists) to US Letter pages.
//!
//! Text is set in the standard-14 fonts Helvetica and Helvetica-Bold, which
//! every PDF viewer must provide: nothing is embedded, so files stay tiny and
//! there is no font file to ship or license. The price is that only the
//! WinAnsi character set is available, so text is transcoded to it (with `?`
//! for anything it lacks) and wrapped using the fonts' published AFM widths.
//! Output is deterministic (no dates, no file IDs) so regenerated files only
//! change when the content does.

use std::io::Write;

use flate2::{Compression, write::ZlibEncoder};
use pdf_writer::{Content, Filter, Finish, Name, Pdf, Rect, Ref, Str, TextStr};

/// A document to render: US Letter pages, Helvetica, simple flowing layout.
pub struct Document {
    /// PDF metadata title (also not printed automatically).
    pub title: String,
    pub author: String,
    pub subject: String,
    /// Printed at the bottom of every page, left-aligned, with "Page N of M" right-aligned.
    pub footer: String,
    pub blocks: Vec<Block>,
}

pub enum Block {
    /// Large bold title (22 pt).
    Title(String),
    /// Slightly larger regular text under a title (13 pt, dark grey).
    Subtitle(String),
    /// Section heading (bold 15 pt, navy #14213d), kept on the same page as at least the next two lines.
    Heading(String),
    /// Small grey label line (9.5 pt), e.g. "Priority: High  ·  Category: Education".
    Label(String),
    /// Body paragraph (11 pt, leading 15.5).
    Paragraph(String),
    /// Bulleted list, each item wrapped with a hanging indent.
    Bullets(Vec<String>),
    /// A thin horizontal rule with spacing.
    Rule,
}

const CREATOR: &str = "American Conscience Party site generator";
const PAGE_W: f32 = 612.0;
const PAGE_H: f32 = 792.0;
const MARGIN_X: f32 = 72.0;
const CONTENT_W: f32 = PAGE_W - 2.0 * MARGIN_X;
/// Top of the first line box on every page.
const TOP: f32 = PAGE_H - 72.0;
/// Line boxes may not extend below this, which leaves room for the footer.
const BOTTOM: f32 = 72.0;
const FOOTER_Y: f32 = 40.0;
/// Bullet items: where the bullet glyph sits and where the wrapped text hangs.
const BULLET_X: f32 = MARGIN_X + 6.0;
const BULLET_INDENT: f32 = 18.0;

/// Helvetica advance widths (1/1000 em) for WinAnsi codes 32..=255, from
/// Adobe's AFM; the codes WinAnsi leaves undefined use the bullet width.
#[rustfmt::skip]
const HELVETICA: [u16; 224] = [
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278,
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556,
    1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778,
    667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556,
    333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556,
    556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584, 350,
    556, 350, 222, 556, 333, 1000, 556, 556, 333, 1000, 667, 333, 1000, 350, 611, 350,
    350, 222, 222, 333, 333, 350, 556, 1000, 333, 1000, 500, 333, 944, 350, 500, 667,
    278, 333, 556, 556, 556, 556, 260, 556, 333, 737, 370, 556, 584, 333, 737, 333,
    400, 584, 333, 333, 333, 556, 537, 278, 333, 333, 365, 556, 834, 834, 834, 611,
    667, 667, 667, 667, 667, 667, 1000, 722, 667, 667, 667, 667, 278, 278, 278, 278,
    722, 722, 778, 778, 778, 778, 778, 584, 778, 722, 722, 722, 722, 667, 667, 611,
    556, 556, 556, 556, 556, 556, 889, 500, 556, 556, 556, 556, 278, 278, 278, 278,
    556, 556, 556, 556, 556, 556, 556, 584, 611, 556, 556, 556, 556, 500, 556, 500,
];

/// Helvetica-Bold advance widths, laid out like [`HELVETICA`].
#[rustfmt::skip]
const HELVETICA_BOLD: [u16; 224] = [
    278, 333, 474, 556, 556, 889, 722, 238, 333, 333, 389, 584, 278, 333, 278, 278,
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 333, 333, 584, 584, 584, 611,
    975, 722, 722, 722, 722, 667, 611, 778, 722, 278, 556, 722, 611, 833, 722, 778,
    667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 333, 278, 333, 584, 556,
    333, 556, 611, 556, 611, 556, 333, 611, 611, 278, 278, 556, 278, 889, 611, 611,
    611, 611, 389, 556, 333, 611, 556, 778, 556, 556, 500, 389, 280, 389, 584, 350,
    556, 350, 278, 556, 500, 1000, 556, 556, 333, 1000, 667, 333, 1000, 350, 611, 350,
    350, 278, 278, 500, 500, 350, 556, 1000, 333, 1000, 556, 333, 944, 350, 500, 667,
    278, 333, 556, 556, 556, 556, 280, 556, 333, 737, 370, 556, 584, 333, 737, 333,
    400, 584, 333, 333, 333, 611, 556, 278, 333, 333, 365, 556, 834, 834, 834, 611,
    722, 722, 722, 722, 722, 722, 1000, 722, 667, 667, 667, 667, 278, 278, 278, 278,
    722, 722, 778, 778, 778, 778, 778, 584, 778, 722, 722, 722, 722, 667, 667, 611,
    556, 556, 556, 556, 556, 556, 889, 556, 556, 556, 556, 556, 278, 278, 278, 278,
    611, 611, 611, 611, 611, 611, 611, 584, 611, 611, 611, 611, 611, 556, 611, 556,
];

/// The characters at WinAnsi 0x80..=0x9F, the only codes that differ from
/// Latin-1 ('?' marks the five unused codes; it never reaches this lookup).
const WIN_ANSI_80: &str = "€?‚ƒ„…†‡ˆ‰Š‹Œ?Ž??‘’“”•–—˜™š›œ?žŸ";

/// Transcodes to WinAnsi. Any whitespace becomes a plain space (so wrapping
/// treats it uniformly); invisible joiners and variation selectors are
/// dropped so an emoji sequence turns into one '?', not several.
fn encode(text: &str) -> Vec<u8> {
    text.chars()
        .filter_map(|c| match c {
            '\u{AD}'
            | '\u{200B}'..='\u{200D}'
            | '\u{2060}'
            | '\u{FE00}'..='\u{FE0F}'
            | '\u{FEFF}' => None,
            _ if c.is_whitespace() => Some(b' '),
            ' '..='~' | '\u{A1}'..='\u{FF}' => u8::try_from(u32::from(c)).ok(),
            '\u{2010}' | '\u{2011}' | '\u{2212}' => Some(b'-'),
            _ => Some(
                WIN_ANSI_80
                    .chars()
                    .position(|u| u == c)
                    .map_or(b'?', |i| 0x80 + i as u8),
            ),
        })
        .collect()
}

/// One of the two standard fonts: its PDF object, resource name and metrics.
struct Font {
    id: Ref,
    base_font: &'static [u8],
    resource: &'static [u8],
    widths: &'static [u16; 224],
}

const REGULAR: Font = Font {
    id: Ref::new(3),
    base_font: b"Helvetica",
    resource: b"F1",
    widths: &HELVETICA,
};
const BOLD: Font = Font {
    id: Ref::new(4),
    base_font: b"Helvetica-Bold",
    resource: b"F2",
    widths: &HELVETICA_BOLD,
};

impl Font {
    /// Width in points of WinAnsi-encoded `text` at `size`.
    fn width(&self, text: &[u8], size: f32) -> f32 {
        let advance = |b: u8| {
            self.widths
                .get(usize::from(b).wrapping_sub(32))
                .map_or(278, |&w| u32::from(w))
        };
        text.iter().map(|&b| advance(b)).sum::<u32>() as f32 * size / 1000.0
    }
}

#[derive(Clone, Copy)]
struct Style {
    font: &'static Font,
    size: f32,
    leading: f32,
    rgb: Rgb,
    /// Space above and below the block; adjacent spacings collapse to the larger.
    before: f32,
    after: f32,
}

type Rgb = (f32, f32, f32);

const INK: Rgb = (0.13, 0.13, 0.15);
const NAVY: Rgb = (20.0 / 255.0, 33.0 / 255.0, 61.0 / 255.0);
/// Style table: font, size, leading, colour, space before, space after.
const TITLE: Style = style(&BOLD, 22.0, 27.0, NAVY, 0.0, 4.0);
const SUBTITLE: Style = style(&REGULAR, 13.0, 18.0, (0.3, 0.3, 0.33), 0.0, 10.0);
const HEADING: Style = style(&BOLD, 15.0, 20.0, NAVY, 18.0, 4.0);
const LABEL: Style = style(&REGULAR, 9.5, 13.0, (0.42, 0.42, 0.45), 0.0, 6.0);
const BODY: Style = style(&REGULAR, 11.0, 15.5, INK, 0.0, 8.0);
const FOOTER: Style = style(&REGULAR, 8.5, 11.0, (0.45, 0.45, 0.48), 0.0, 0.0);

const fn style(
    font: &'static Font,
    size: f32,
    leading: f32,
    rgb: Rgb,
    before: f32,
    after: f32,
) -> Style {
    Style {
        font,
        size,
        leading,
        rgb,
        before,
        after,
    }
}

/// Room kept below a heading: a label and two body lines, with their gaps.
const KEEP_WITH_HEADING: f32 = HEADING.after + LABEL.leading + LABEL.after + 2.0 * BODY.leading;

/// Greedy word wrap at spaces; a word wider than a whole line is split by
/// characters so nothing ever runs off the page.
fn wrap(text: &[u8], font: &Font, size: f32, max: f32) -> Vec<Vec<u8>> {
    let space = font.width(b" ", size);
    let mut lines = Vec::new();
    let mut line: Vec<u8> = Vec::new();
    let mut line_w = 0.0;
    for word in text.split(|&b| b == b' ').filter(|w| !w.is_empty()) {
        let w = font.width(word, size);
        if !line.is_empty() && line_w + space + w <= max {
            line.push(b' ');
            line.extend_from_slice(word);
            line_w += space + w;
            continue;
        }
        if !line.is_empty() {
            lines.push(std::mem::take(&mut line));
        }
        let mut rest = word;
        while font.width(rest, size) > max {
            let n = fitting_prefix(rest, font, size, max);
            lines.push(rest[..n].to_vec());
            rest = &rest[n..];
        }
        line = rest.to_vec();
        line_w = font.width(rest, size);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// How many leading bytes fit in `max`; at least one, so wrapping always progresses.
fn fitting_prefix(text: &[u8], font: &Font, size: f32, max: f32) -> usize {
    let mut w = 0.0;
    let n = text.iter().take_while(|&&b| {
        w += font.width(&[b], size);
        w <= max
    });
    n.count().max(1)
}

/// Something to draw, in page coordinates.
enum Op {
    /// WinAnsi text at (x, baseline y).
    Text(Style, f32, f32, Vec<u8>),
    /// A hairline across the text column at height y.
    Rule(f32),
}

/// First pass: flows blocks onto pages. Footers are added while writing,
/// once the page count is known.
struct Layout {
    pages: Vec<Vec<Op>>,
    /// Top of the next line box.
    y: f32,
    /// Nothing placed on the current page yet (suppresses leading space).
    fresh: bool,
    /// Space still owed below the previous block.
    pending: f32,
}

impl Layout {
    fn push(&mut self, op: Op) {
        if let Some(page) = self.pages.last_mut() {
            page.push(op);
        }
        self.fresh = false;
    }

    /// Starts a new page unless `height` more points fit on this one.
    fn ensure(&mut self, height: f32) {
        if !self.fresh && self.y - height < BOTTOM {
            self.pages.push(Vec::new());
            self.y = TOP;
            self.fresh = true;
        }
    }

    /// Applies the collapsed gap between the previous block and the next one.
    fn gap(&mut self, before: f32) {
        if !self.fresh {
            self.y -= self.pending.max(before);
        }
        self.pending = 0.0;
    }

    /// Places one line and returns its baseline. Cap height (~0.72 em) is
    /// centred in the line box so mixed sizes sit evenly.
    fn line(&mut self, style: Style, x: f32, text: Vec<u8>) -> f32 {
        self.ensure(style.leading);
        let y = self.y - style.leading / 2.0 - 0.36 * style.size;
        self.push(Op::Text(style, x, y, text));
        self.y -= style.leading;
        y
    }

    fn text_block(&mut self, style: Style, text: &str, keep_with_next: f32) {
        let lines = wrap(&encode(text), style.font, style.size, CONTENT_W);
        if lines.is_empty() {
            return;
        }
        self.gap(style.before);
        // Never strand a block's first line (or a heading) at the page foot.
        self.ensure(lines.len().min(2) as f32 * style.leading + keep_with_next);
        for line in lines {
            self.line(style, MARGIN_X, line);
        }
        self.pending = style.after;
    }

    fn bullets(&mut self, items: &[String]) {
        let width = CONTENT_W - BULLET_INDENT;
        for (i, item) in items.iter().enumerate() {
            let lines = wrap(&encode(item), BODY.font, BODY.size, width);
            if lines.is_empty() {
                continue;
            }
            self.gap(if i == 0 { BODY.before } else { 3.0 });
            for (n, line) in lines.into_iter().enumerate() {
                let y = self.line(BODY, MARGIN_X + BULLET_INDENT, line);
                if n == 0 {
                    self.push(Op::Text(BODY, BULLET_X, y, vec![0x95]));
                }
            }
            self.pending = 3.0;
        }
        self.pending = BODY.after;
    }

    fn rule(&mut self) {
        self.gap(10.0);
        // A rule at the top of a continuation page would separate nothing.
        if !(self.fresh && self.pages.len() > 1) {
            self.ensure(1.0);
            self.push(Op::Rule(self.y));
            self.pending = 14.0;
        }
    }

    fn block(&mut self, block: &Block) {
        match block {
            Block::Title(t) => self.text_block(TITLE, t, 0.0),
            Block::Subtitle(t) => self.text_block(SUBTITLE, t, 0.0),
            Block::Heading(t) => self.text_block(HEADING, t, KEEP_WITH_HEADING),
            Block::Label(t) => self.text_block(LABEL, t, 0.0),
            Block::Paragraph(t) => self.text_block(BODY, t, 0.0),
            Block::Bullets(items) => self.bullets(items),
            Block::Rule => self.rule(),
        }
    }
}

/// A hairline, the footer text (cut short with an ellipsis rather than run
/// into the page number) and the right-aligned "Page N of M".
fn footer_ops(footer: &str, page: usize, pages: usize) -> [Op; 3] {
    let (font, size) = (FOOTER.font, FOOTER.size);
    let number = format!("Page {page} of {pages}").into_bytes();
    let number_w = font.width(&number, size);
    let room = CONTENT_W - number_w - 18.0;
    let mut text = encode(footer);
    if font.width(&text, size) > room {
        let fits = fitting_prefix(&text, font, size, room - font.width(&[0x85], size));
        text.truncate(fits);
        text.push(0x85);
    }
    let number_x = PAGE_W - MARGIN_X - number_w;
    [
        Op::Rule(FOOTER_Y + 13.0),
        Op::Text(FOOTER, MARGIN_X, FOOTER_Y, text),
        Op::Text(FOOTER, number_x, FOOTER_Y, number),
    ]
}

fn draw(content: &mut Content, op: &Op) {
    match op {
        Op::Text(style, x, y, text) => {
            let (r, g, b) = style.rgb;
            content
                .begin_text()
                .set_font(Name(style.font.resource), style.size);
            content
                .set_fill_rgb(r, g, b)
                .next_line(*x, *y)
                .show(Str(text))
                .end_text();
        }
        Op::Rule(y) => {
            content
                .save_state()
                .set_line_width(0.5)
                .set_stroke_gray(0.78);
            content.move_to(MARGIN_X, *y).line_to(PAGE_W - MARGIN_X, *y);
            content.stroke().restore_state();
        }
    }
}

fn deflate(data: &[u8]) -> Option<Vec<u8>> {
    let mut encoder = ZlibEncoder::new(Vec::new(), Compression::default());
    encoder.write_all(data).ok()?;
    encoder.finish().ok()
}

const CATALOG: Ref = Ref::new(1);
const PAGE_TREE: Ref = Ref::new(2);
const INFO: Ref = Ref::new(5);

/// Page i is object 6 + 2i and its content stream the next one.
fn page_ref(i: usize) -> Ref {
    Ref::new(i32::try_from(6 + 2 * i).unwrap_or(i32::MAX - 1))
}

/// Renders the document. Deterministic: the same input gives byte-identical output
/// (no timestamps, no random IDs).
pub fn render(doc: &Document) -> Vec<u8> {
    let mut layout = Layout {
        pages: vec![Vec::new()],
        y: TOP,
        fresh: true,
        pending: 0.0,
    };
    for block in &doc.blocks {
        layout.block(block);
    }
    let pages = layout.pages;

    let mut pdf = Pdf::new();
    pdf.catalog(CATALOG).pages(PAGE_TREE);
    let count = i32::try_from(pages.len()).unwrap_or(i32::MAX);
    pdf.pages(PAGE_TREE)
        .kids((0..pages.len()).map(page_ref))
        .count(count);
    for font in [&REGULAR, &BOLD] {
        let mut dict = pdf.type1_font(font.id);
        dict.base_font(Name(font.base_font))
            .encoding_predefined(Name(b"WinAnsiEncoding"));
    }
    let mut info = pdf.document_info(INFO);
    info.title(TextStr(&doc.title)).author(TextStr(&doc.author));
    info.subject(TextStr(&doc.subject))
        .creator(TextStr(CREATOR));
    info.finish();

    for (i, ops) in pages.iter().enumerate() {
        let mut content = Content::new();
        let footer = footer_ops(&doc.footer, i + 1, pages.len());
        for op in ops.iter().chain(&footer) {
            draw(&mut content, op);
        }
        let data = content.finish();
        let packed = deflate(&data);
        let contents = page_ref(i).next();
        let mut stream = pdf.stream(contents, packed.as_deref().unwrap_or(&data));
        if packed.is_some() {
            stream.filter(Filter::FlateDecode);
        }
        stream.finish();
        let mut page = pdf.page(page_ref(i));
        let media_box = Rect::new(0.0, 0.0, PAGE_W, PAGE_H);
        page.parent(PAGE_TREE)
            .media_box(media_box)
            .contents(contents);
        page.resources()
            .fonts()
            .pair(Name(REGULAR.resource), REGULAR.id)
            .pair(Name(BOLD.resource), BOLD.id);
    }
    pdf.finish()
}

#[cfg(test)]
mod tests;
