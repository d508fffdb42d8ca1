//! Hostile names and subjects cannot add headers; non-ASCII is encoded (RFC 2047); long
//! values are cut and folded.

use super::*;

fn from() -> Mailbox {
    "American Conscience Party <hello@party.example>"
        .parse()
        .unwrap()
}

fn draft<'a>(name: &'a str, email: &'a str, subject: &'a str) -> Draft<'a> {
    Draft {
        to: Person {
            name: Some("Staff"),
            email: "staff@party.example",
        },
        reply_to: Some(Person {
            name: Some(name),
            email,
        }),
        subject,
        text: "Hello".into(),
        html: html_of("Hello", "https://party.example"),
        unsubscribe: None,
        unsubscribe_mailto: None,
        message_id: "<test.1@party.example>".into(),
        date: Timestamp::now(),
        calendar: None,
    }
}

/// The message's header block, unfolded (a folded line joined to the one before).
fn headers(bytes: &[u8]) -> Vec<String> {
    let text = String::from_utf8(bytes.to_vec()).unwrap();
    let head = text.split("\r\n\r\n").next().unwrap();
    let mut out: Vec<String> = Vec::new();
    for line in head.split("\r\n") {
        if line.starts_with([' ', '\t']) {
            out.last_mut().unwrap().push_str(line);
        } else {
            out.push(line.to_owned());
        }
    }
    out
}

fn names(headers: &[String]) -> Vec<String> {
    headers
        .iter()
        .map(|h| h.split(':').next().unwrap().to_ascii_lowercase())
        .collect()
}

#[test]
fn cr_and_lf_in_names_and_subjects_start_no_header() {
    let built = build(
        &from(),
        draft(
            "Eve\r\nBcc: victim@example.org",
            "eve@example.org",
            "Hi\r\nBcc: victim@example.org\nX-Evil: 1\rTo: more@example.org",
        ),
    )
    .unwrap();
    let hs = headers(&built.bytes);
    let names = names(&hs);
    assert!(!names.contains(&"bcc".to_owned()), "{hs:#?}");
    assert!(!names.contains(&"x-evil".to_owned()), "{hs:#?}");
    assert_eq!(names.iter().filter(|n| *n == "to").count(), 1, "{hs:#?}");
    let raw = String::from_utf8(built.bytes.clone()).unwrap();
    // No bare CR or LF anywhere: every line ends CRLF.
    assert!(!raw.replace("\r\n", "").contains(['\r', '\n']));
    assert_eq!(
        built.subject,
        "Hi Bcc: victim@example.org X-Evil: 1 To: more@example.org"
    );
    assert_eq!(built.to, "staff@party.example");
}

#[test]
fn non_ascii_names_and_subjects_are_encoded_words() {
    let built = build(
        &from(),
        draft("José Ñúñez 山田", "jose@example.org", "¿Dónde votar? 投票"),
    )
    .unwrap();
    let hs = headers(&built.bytes);
    for h in &hs {
        assert!(h.is_ascii(), "header not ASCII: {h}");
    }
    let subject = hs.iter().find(|h| h.starts_with("Subject:")).unwrap();
    assert!(subject.to_lowercase().contains("=?utf-8?"), "{subject}");
    let reply = hs.iter().find(|h| h.starts_with("Reply-To:")).unwrap();
    assert!(
        reply.to_lowercase().contains("=?utf-8?") && reply.contains("<jose@example.org>"),
        "{reply}"
    );
    assert_eq!(
        decode_words(subject.trim_start_matches("Subject: ")),
        "¿Dónde votar? 投票"
    );
}

/// The text of a header value with RFC 2047 base64 encoded words (the space between two
/// encoded words is not part of the text).
fn decode_words(value: &str) -> String {
    use base64::Engine as _;
    let mut out = String::new();
    let mut last_encoded = false;
    for (i, word) in value.split(' ').enumerate() {
        let inner = word.strip_prefix("=?").and_then(|w| w.strip_suffix("?="));
        let encoded = inner.is_some();
        if i > 0 && !(encoded && last_encoded) {
            out.push(' ');
        }
        match inner {
            Some(inner) => {
                let b64 = inner.splitn(3, '?').nth(2).unwrap();
                let bytes = base64::engine::general_purpose::STANDARD
                    .decode(b64)
                    .unwrap();
                out.push_str(&String::from_utf8(bytes).unwrap());
            }
            None => out.push_str(word),
        }
        last_encoded = encoded;
    }
    out
}

#[test]
fn very_long_names_are_cut_and_every_line_stays_short() {
    let name = "A".repeat(5000);
    let subject = "Ü".repeat(3000);
    let built = build(&from(), draft(&name, "long@example.org", &subject)).unwrap();
    let raw = String::from_utf8(built.bytes.clone()).unwrap();
    for line in raw.split("\r\n") {
        assert!(line.len() <= 998, "a line of {} bytes", line.len());
    }
    assert_eq!(
        built.subject.chars().count(),
        MAX_SUBJECT + 1,
        "cut, with an ellipsis"
    );
}

#[test]
fn an_unusable_reply_to_is_left_out_and_an_unusable_recipient_refused() {
    let built = build(&from(), draft("Eve", "not an address\r\nBcc: x@y.z", "Hi")).unwrap();
    assert!(!names(&headers(&built.bytes)).contains(&"reply-to".to_owned()));
    let mut d = draft("Eve", "eve@example.org", "Hi");
    d.to.email = "staff@party.example\r\nBcc: x@example.org";
    assert!(build(&from(), d).is_err());
}

#[test]
fn newsletter_mail_has_one_click_unsubscribe() {
    let mut d = draft("Ada", "ada@example.org", "Welcome");
    d.unsubscribe = Some("https://party.example/newsletter/unsubscribe/7-abc");
    let hs = headers(&build(&from(), d).unwrap().bytes);
    assert!(
        hs.contains(
            &"List-Unsubscribe: <https://party.example/newsletter/unsubscribe/7-abc>".to_owned()
        ),
        "{hs:#?}"
    );
    assert!(
        hs.contains(&"List-Unsubscribe-Post: List-Unsubscribe=One-Click".to_owned()),
        "{hs:#?}"
    );
    assert!(
        hs.contains(&"Message-ID: <test.1@party.example>".to_owned()),
        "{hs:#?}"
    );
}

#[test]
fn html_is_escaped_and_links_are_links() {
    let html = html_of(
        "<b>Hi</b> & you\nsee https://party.example/x?a=1&b=2\n\nNext",
        "https://party.example",
    );
    assert!(html.contains(
        "<p>&lt;b&gt;Hi&lt;/b&gt; &amp; you<br>\nsee <a href=\"https://party.example/x?a=1&amp;b=2\">"
    ));
    assert!(html.contains("<p>Next</p>"));
}

#[test]
fn only_the_sites_own_addresses_become_links_and_visitors_words_are_quoted() {
    let site = "https://party.example";
    let text = format!(
        "Sign in here: https://evil.example/admin http://party.example.evil/x \
         https://party.example.evil {site}\n\n{}",
        quoted("Dear staff,\n\nlog in at https://evil.example\n<script>")
    );
    let html = html_of(&text, site);
    assert!(!html.contains("href=\"https://evil.example"), "{html}");
    assert!(!html.contains("href=\"http://party.example.evil"), "{html}");
    assert!(
        !html.contains("href=\"https://party.example.evil"),
        "{html}"
    );
    assert!(
        html.contains("<a href=\"https://party.example\">"),
        "{html}"
    );
    // The visitor's words, blank line and all, are one quote, escaped, with no link.
    assert!(
        html.contains(">Dear staff,<br>\n<br>\nlog in at https://evil.example<br>\n&lt;script&gt;</blockquote>"),
        "{html}"
    );
    assert_eq!(quoted("a\n\nb"), "> a\n>\n> b");
}
