//! Markdown from content files to HTML. Content is written by the party, not by visitors,
//! but raw HTML in it is still escaped: the content files carry words, the templates
//! carry markup.

use pulldown_cmark::{Event, Options, Parser, TagEnd, html};

/// Renders Markdown (tables, strikethrough, smart quotes) to HTML.
pub fn to_html(markdown: &str) -> String {
    let options =
        Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_SMART_PUNCTUATION;
    let parser = Parser::new_ext(markdown, options).map(|event| match event {
        Event::Html(raw) | Event::InlineHtml(raw) => Event::Text(raw),
        other => other,
    });
    let mut out = String::with_capacity(markdown.len() * 3 / 2);
    html::push_html(&mut out, parser);
    out
}

/// Plain text of a Markdown snippet (for meta descriptions and PDFs).
pub fn to_text(markdown: &str) -> String {
    let mut out = String::new();
    for event in Parser::new_ext(markdown, Options::ENABLE_SMART_PUNCTUATION) {
        match event {
            Event::Text(t) | Event::Code(t) => out.push_str(&t),
            Event::SoftBreak | Event::HardBreak => out.push(' '),
            Event::End(
                TagEnd::Paragraph | TagEnd::Heading(_) | TagEnd::Item | TagEnd::TableCell,
            ) => out.push(' '),
            _ => {}
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_paragraphs_links_and_smart_quotes() {
        let html = to_html("We \"stand\" here.\n\n- [Vote](https://vote.gov)\n");
        assert!(html.contains("<p>We “stand” here.</p>"), "{html}");
        assert!(
            html.contains(r#"<li><a href="https://vote.gov">Vote</a></li>"#),
            "{html}"
        );
    }

    #[test]
    fn raw_html_is_shown_as_text() {
        let html = to_html("Hi <script>alert(1)</script>\n\n<div onclick=x>block</div>\n");
        assert!(
            !html.contains("<script>") && !html.contains("<div"),
            "{html}"
        );
        assert!(html.contains("&lt;script&gt;"), "{html}");
    }

    #[test]
    fn plain_text_drops_markup() {
        assert_eq!(
            to_text("**Free** [care](/x) for *all*.\n\nNext."),
            "Free care for all. Next."
        );
    }
}
