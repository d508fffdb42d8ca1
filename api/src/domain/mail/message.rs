//! One message as it goes on the wire: RFC 5322 headers (RFC 2047 for anything not plain
//! ASCII), a plain-text body and its HTML alternative. Everything a visitor typed that ends
//! up in a header (a name, a subject) goes through [`one_line`] first, so no CR or LF can
//! start a header of its own, and lettre encodes what is left.

use jiff::Timestamp;
use lettre::Message;
use lettre::address::{Address, Envelope};
use lettre::message::header::{ContentType, HeaderName, HeaderValue};
use lettre::message::{Mailbox, MultiPart, SinglePart};

/// The longest name kept in a header, in characters.
const MAX_NAME: usize = 100;
/// The longest subject, in characters.
const MAX_SUBJECT: usize = 150;

/// Someone a message goes to (or is answered to).
#[derive(Debug, Clone)]
pub struct Person<'a> {
    pub name: Option<&'a str>,
    pub email: &'a str,
}

/// A message to build.
pub struct Draft<'a> {
    pub to: Person<'a>,
    /// Where a reply goes (a staff alert: the visitor who wrote).
    pub reply_to: Option<Person<'a>>,
    pub subject: &'a str,
    pub text: String,
    pub html: String,
    /// The one-click unsubscribe address (RFC 8058), for newsletter mail.
    pub unsubscribe: Option<&'a str>,
    /// A `mailto:` the `List-Unsubscribe` header offers beside it (for clients that only
    /// send mail), on posts mailed to the list.
    pub unsubscribe_mailto: Option<&'a str>,
    /// `<…@…>`, made once when the message is queued.
    pub message_id: String,
    pub date: Timestamp,
    /// An invitation (RFC 5546: `REQUEST` or `CANCEL`) attached as `event.ics`.
    pub calendar: Option<Calendar>,
}

/// A calendar file a message carries.
#[derive(Debug, Clone)]
pub struct Calendar {
    /// `REQUEST` or `CANCEL`.
    pub method: &'static str,
    pub ics: String,
}

/// A built message: its bytes and who the SMTP envelope names.
#[derive(Debug, Clone)]
pub struct Built {
    pub envelope_from: String,
    pub to: String,
    pub subject: String,
    pub bytes: Vec<u8>,
}

/// Why a message could not be built: an address lettre will not take.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Unbuildable(String);

/// Builds `draft` from `from`.
pub fn build(from: &Mailbox, draft: Draft<'_>) -> Result<Built, Unbuildable> {
    let to = mailbox(&draft.to).ok_or_else(|| Unbuildable("the recipient's address".into()))?;
    let subject = one_line(draft.subject, MAX_SUBJECT);
    let mut builder = Message::builder()
        .from(from.clone())
        .to(to.clone())
        .subject(subject.clone())
        .message_id(Some(draft.message_id.clone()))
        .date(
            std::time::SystemTime::try_from(draft.date)
                .unwrap_or_else(|_| std::time::SystemTime::now()),
        );
    // A reply-to address we cannot use is left out: the alert still goes to staff.
    if let Some(reply_to) = draft.reply_to.as_ref().and_then(mailbox) {
        builder = builder.reply_to(reply_to);
    }
    if let Some(url) = draft.unsubscribe {
        let value = match draft.unsubscribe_mailto {
            Some(mailto) => format!("<{url}>, <{mailto}>"),
            None => format!("<{url}>"),
        };
        builder = builder
            .raw_header(header("List-Unsubscribe", value))
            .raw_header(header(
                "List-Unsubscribe-Post",
                "List-Unsubscribe=One-Click".into(),
            ));
    }
    let body = MultiPart::alternative()
        .singlepart(
            SinglePart::builder()
                .header(ContentType::TEXT_PLAIN)
                .body(draft.text),
        )
        .singlepart(
            SinglePart::builder()
                .header(ContentType::TEXT_HTML)
                .body(draft.html),
        );
    let body = match draft.calendar {
        // The invitation both as an attachment (which every client offers to open) and
        // named by its method, which calendar clients read to add, move or remove it.
        Some(calendar) => {
            let kind = format!("text/calendar; charset=utf-8; method={}", calendar.method);
            let kind = ContentType::parse(&kind).map_err(|e| Unbuildable(e.to_string()))?;
            MultiPart::mixed().multipart(body).singlepart(
                lettre::message::Attachment::new("event.ics".into())
                    // As bytes: sent base64, its CRLF line ends (RFC 5545) kept exactly.
                    .body(calendar.ics.into_bytes(), kind),
            )
        }
        None => body,
    };
    let message = builder
        .multipart(body)
        .map_err(|e| Unbuildable(e.to_string()))?;
    Ok(Built {
        envelope_from: from.email.to_string(),
        to: to.email.to_string(),
        subject,
        bytes: message.formatted(),
    })
}

/// The SMTP envelope of a queued message.
pub fn envelope(from: &str, to: &str) -> Option<Envelope> {
    let from: Address = from.parse().ok()?;
    let to: Address = to.parse().ok()?;
    Envelope::new(Some(from), vec![to]).ok()
}

fn mailbox(person: &Person<'_>) -> Option<Mailbox> {
    let email: Address = person.email.trim().parse().ok()?;
    let name = person
        .name
        .map(|n| one_line(n, MAX_NAME))
        .filter(|n| !n.is_empty());
    Some(Mailbox::new(name, email))
}

/// Our own header (names and values we wrote: ASCII, one line), encoded by lettre.
fn header(name: &'static str, value: String) -> HeaderValue {
    HeaderValue::new(HeaderName::new_from_ascii_str(name), value)
}

/// `text` fit for a header: control characters (CR, LF, tabs…) become spaces, runs of
/// spaces one, and at most `max` characters are kept.
pub fn one_line(text: &str, max: usize) -> String {
    let mut out = String::with_capacity(text.len().min(max * 4));
    let mut count = 0;
    for word in text
        .split(|c: char| c.is_control() || c.is_whitespace())
        .filter(|w| !w.is_empty())
    {
        if count > 0 {
            if count + 1 > max {
                break;
            }
            out.push(' ');
            count += 1;
        }
        for c in word.chars() {
            if count == max {
                out.push('…');
                return out;
            }
            out.push(c);
            count += 1;
        }
    }
    out
}

/// The HTML alternative of a plain-text body: paragraphs at blank lines, line breaks
/// kept, the site's own addresses (under `site_url`) made links, everything else escaped. A
/// block of lines starting `> ` (what a visitor wrote, [`quoted`]) is set apart as a quote.
/// Addresses a visitor typed stay text: a contact message's fake "sign in here" link must
/// not become a link in a staff alert, nor a donor-typed one in a receipt the party sends.
pub fn html_of(text: &str, site_url: &str) -> String {
    let mut html = String::from(
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"></head>\
         <body style=\"font-family: sans-serif; line-height: 1.5; max-width: 40em\">",
    );
    for paragraph in text.split("\n\n").filter(|p| !p.trim().is_empty()) {
        let is_quote = paragraph.lines().all(|l| l == ">" || l.starts_with("> "));
        if is_quote {
            html.push_str(
                "<blockquote style=\"margin: 0 0 1em; padding-left: 1em; border-left: 3px solid #94a3b8; color: #334155\">",
            );
            let lines: Vec<String> = paragraph
                .lines()
                .map(|l| escape(l.strip_prefix("> ").unwrap_or("")))
                .collect();
            html.push_str(&lines.join("<br>\n"));
            html.push_str("</blockquote>\n");
            continue;
        }
        html.push_str("<p>");
        let lines: Vec<String> = paragraph.lines().map(|l| linked(l, site_url)).collect();
        html.push_str(&lines.join("<br>\n"));
        html.push_str("</p>\n");
    }
    html.push_str("</body></html>\n");
    html
}

/// What a visitor wrote, set apart in a message: every line begins `> ` (an empty one `>`),
/// so it reads as a quote in plain text, keeps its blank lines inside one block, and
/// [`html_of`] shows it as one.
pub fn quoted(text: &str) -> String {
    text.lines()
        .map(|l| {
            let l = l.trim_end();
            if l.is_empty() {
                ">".to_owned()
            } else {
                format!("> {l}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// One line of text, escaped, with the site's own addresses as links.
fn linked(line: &str, site_url: &str) -> String {
    let ours = |word: &str| {
        word == site_url
            || word
                .strip_prefix(site_url)
                .is_some_and(|rest| rest.starts_with(['/', '?', '#']))
    };
    let mut out = String::new();
    for (i, word) in line.split(' ').enumerate() {
        if i > 0 {
            out.push(' ');
        }
        if !site_url.is_empty() && ours(word) {
            let href = escape(word);
            out.push_str(&format!("<a href=\"{href}\">{href}</a>"));
        } else {
            out.push_str(&escape(word));
        }
    }
    out
}

/// Text made safe for HTML, in an attribute or between tags: the generator's escaping.
pub use generator::templates::attr as escape;

#[cfg(test)]
mod tests;
