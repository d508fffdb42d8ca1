use super::*;
use std::process::Command;

fn doc(blocks: Vec<Block>) -> Document {
    let s = String::from;
    Document {
        title: s("Platform"),
        author: s("ACP"),
        subject: s("Policy"),
        footer: s("American Conscience Party"),
        blocks,
    }
}

fn sample() -> Document {
    doc(vec![
        Block::Title("Our Platform for a Fairer Future".into()),
        Block::Subtitle("What we will do, issue by issue, and how we will pay for it.".into()),
        Block::Rule,
        Block::Heading("Public Education".into()),
        Block::Label("Priority: High  ·  Category: Education".into()),
        Block::Paragraph("Every child deserves a well-funded school, a qualified teacher in every classroom and a curriculum that prepares them for work, citizenship and a full life. We will raise teacher pay, cut class sizes and fix crumbling buildings.".into()),
        Block::Bullets(vec![
            "Raise starting teacher salaries to at least $60,000 a year, indexed to inflation.".into(),
            "Universal free school meals.".into(),
            "Fund school repairs through a dedicated infrastructure bond, repaid over twenty years from existing capital budgets.".into(),
        ]),
        Block::Paragraph("We will publish every school's budget online.".into()),
    ])
}

/// Writes the PDF to a temp dir and runs a poppler tool on it.
fn poppler(tool: &str, pdf: &[u8]) -> String {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("doc.pdf");
    std::fs::write(&path, pdf).expect("write pdf");
    let mut cmd = Command::new(tool);
    cmd.arg(&path);
    if tool == "pdftotext" {
        cmd.arg("-");
    }
    let out = cmd.output().expect("run poppler");
    assert!(
        out.status.success(),
        "{tool} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8 output")
}

fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn text_of(doc: &Document) -> String {
    collapse(&poppler("pdftotext", &render(doc)))
}

fn page_count(pdf: &[u8]) -> usize {
    let info = poppler("pdfinfo", pdf);
    let line = info
        .lines()
        .find(|l| l.starts_with("Pages:"))
        .expect("Pages line");
    line["Pages:".len()..].trim().parse().expect("page number")
}

#[test]
fn every_block_appears_in_extracted_text() {
    let doc = sample();
    let text = text_of(&doc);
    for block in &doc.blocks {
        let parts = match block {
            Block::Title(t) | Block::Subtitle(t) | Block::Heading(t) => vec![t.clone()],
            Block::Label(t) | Block::Paragraph(t) => vec![t.clone()],
            Block::Bullets(items) => items.clone(),
            Block::Rule => vec![],
        };
        for part in parts {
            assert!(
                text.contains(&collapse(&part)),
                "missing {part:?} in {text:?}"
            );
        }
    }
    assert!(
        text.contains("American Conscience Party Page 1 of 1"),
        "{text}"
    );
}

#[test]
fn long_documents_break_into_numbered_pages() {
    let para = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua.";
    let mut blocks = vec![Block::Title("Long".into())];
    for i in 0..60 {
        if i % 10 == 0 {
            blocks.push(Block::Heading(format!("Section {i}")));
        }
        blocks.push(Block::Paragraph(format!("{i}: {para}")));
    }
    let pdf = render(&doc(blocks));
    let n = page_count(&pdf);
    assert!(n >= 3, "only {n} pages");
    let text = collapse(&poppler("pdftotext", &pdf));
    assert!(
        text.contains("Page 1 of ") && text.contains(&format!("Page {n} of {n}")),
        "{text}"
    );
    assert!(text.contains(&format!("59: {para}")));
}

#[test]
fn typographic_characters_round_trip() {
    let para = "It’s “fair” — ‘really’ – café, naïve, €5 • 10… 🎉!";
    let text = text_of(&doc(vec![Block::Paragraph(para.into())]));
    assert!(
        text.contains("It’s “fair” — ‘really’ – café, naïve, €5 • 10"),
        "{text}"
    );
    assert!(text.contains("?!") && !text.contains('🎉'), "{text}");
    assert_eq!(
        encode("’‘“”–—•…éèàüöñç©®€\u{a0}"),
        b"\x92\x91\x93\x94\x96\x97\x95\x85\xe9\xe8\xe0\xfc\xf6\xf1\xe7\xa9\xae\x80 "
    );
}

#[test]
fn parentheses_and_backslashes_round_trip() {
    let para = r"Costs (in USD) are shown \ explained ) here ( and C:\path\to (nested (parens)).";
    let text = text_of(&doc(vec![Block::Paragraph(para.into())]));
    assert!(text.contains(para), "{text}");
}

#[test]
fn output_is_deterministic() {
    assert_eq!(render(&sample()), render(&sample()));
}

#[test]
fn empty_and_odd_inputs_still_render() {
    let empty = doc(vec![]);
    assert_eq!(page_count(&render(&empty)), 1);
    let odd = Document {
        title: "🎉 (x) \\".into(),
        author: String::new(),
        subject: "é".into(),
        footer: "A very long footer ".repeat(20),
        blocks: vec![
            Block::Title(String::new()),
            Block::Heading("   \n\t ".into()),
            Block::Paragraph("x".repeat(2000)),
            Block::Bullets(vec![String::new(), "🎉🎉".into()]),
            Block::Label("\u{0}\u{7f}\u{a0}".into()),
            Block::Rule,
        ],
    };
    let text = text_of(&odd);
    assert!(
        text.contains(&"x".repeat(50)) && text.contains("Page 1 of 1"),
        "{text}"
    );
}
