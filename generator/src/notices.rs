//! The short pages the server answers itself, outside the forms: a newsletter link's Confirm
//! and Unsubscribe pages and what they say afterwards. The generator writes one shell in the
//! site's layout ([`NOTICE_SHELL`]); the api fills in a title and a few paragraphs, with at
//! most one button that posts back to the same address (a mail scanner that fetches links
//! must not confirm or unsubscribe anyone).

use crate::templates::attr;

/// The shell in the output folder. A hidden path: the static server refuses to serve it.
pub const NOTICE_SHELL: &str = ".pages/notice.html";
/// Where the title goes, in `<title>`, the social tags and the heading. Plain text rather
/// than a comment, so the templates' escaping leaves it as it is.
pub const NOTICE_TITLE: &str = "__NOTICE_TITLE__";
/// Where the text goes.
pub const NOTICE_MARKER: &str = "<!--notice-->";

/// The shell with `title` and `paragraphs` (text, escaped here) in place, and a button
/// labelled `button.1` posting to `button.0`.
pub fn fill_notice(
    shell: &str,
    title: &str,
    paragraphs: &[&str],
    button: Option<(&str, &str)>,
) -> String {
    let mut body = String::new();
    for p in paragraphs {
        body.push_str(&format!(
            r#"<p class="mt-4 text-lg text-slate-700">{}</p>"#,
            attr(p)
        ));
    }
    if let Some((action, label)) = button {
        body.push_str(&format!(
            r#"<form method="post" action="{}" class="mt-8"><button type="submit" class="btn btn-primary text-base">{}</button></form>"#,
            attr(action),
            attr(label)
        ));
    }
    body.push_str(
        r#"<p class="mt-8"><a href="/" class="font-semibold text-navy underline decoration-crimson/60 underline-offset-4 hover:text-crimson">Back to the home page</a></p>"#,
    );
    shell
        .replace(NOTICE_TITLE, &attr(title))
        .replacen(NOTICE_MARKER, &body, 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_title_and_text_are_escaped_and_the_button_posts_back() {
        let shell =
            format!("<title>{NOTICE_TITLE} | ACP</title><h1>{NOTICE_TITLE}</h1>{NOTICE_MARKER}");
        let html = fill_notice(
            &shell,
            "Confirm <your> subscription",
            &["Press the button & you're in."],
            Some(("/newsletter/confirm/1.2.abc", "Confirm")),
        );
        assert!(html.starts_with("<title>Confirm &lt;your&gt; subscription | ACP</title><h1>Confirm &lt;your&gt; subscription</h1>"), "{html}");
        assert!(
            html.contains("Press the button &amp; you&#39;re in.")
                || html.contains("Press the button &amp; you're in."),
            "{html}"
        );
        assert!(html.contains(r#"<form method="post" action="/newsletter/confirm/1.2.abc""#));
        assert!(!html.contains(NOTICE_MARKER) && !html.contains(NOTICE_TITLE));
        let plain = fill_notice(&shell, "Done", &[], None);
        assert!(!plain.contains("<form"));
    }
}
