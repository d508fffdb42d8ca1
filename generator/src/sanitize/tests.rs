use super::*;

/// The hosts the tests' posts may show images from.
const TEST_HOSTS: &[&str] = &["cdn.example.com", "example.com"];

/// [`super::clean`] for a site that allows [`TEST_HOSTS`].
fn clean(html: &str) -> String {
    let hosts: Vec<String> = TEST_HOSTS.iter().map(|h| h.to_string()).collect();
    super::clean(html, &hosts)
}

const PAYLOADS: &str = include_str!("../../tests/fixtures/xss-payloads.txt");

/// The allowlist written out again, independently of the constants above, so a change
/// to the policy has to be made (and reviewed) in both places.
fn allowed_attributes(tag: &str) -> &'static [&'static str] {
    match tag {
        "a" => &["href", "title", "target", "rel"],
        "img" => &["src", "alt", "title"],
        "p" | "br" | "strong" | "em" | "u" | "s" | "h1" | "h2" | "h3" | "h4" | "h5" | "h6"
        | "ul" | "ol" | "li" | "blockquote" | "code" | "pre" => &[],
        other => panic!("tag <{other}> is not on the allowlist"),
    }
}

fn payloads() -> Vec<&'static str> {
    PAYLOADS
        .lines()
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .collect()
}

/// A start tag of cleaned output, with its attributes' values decoded.
#[derive(Debug)]
struct Tag {
    name: String,
    attributes: Vec<(String, String)>,
}

/// Reads the start tags of `html` as written by ammonia's serialiser (lower-case names,
/// every attribute as `name="value"`, `<` escaped everywhere but in markup), and fails on
/// anything else: a comment, a `<` that opens no tag, an unquoted value.
fn start_tags(html: &str) -> Vec<Tag> {
    let mut tags = Vec::new();
    let mut rest = html;
    while let Some(open) = rest.find('<') {
        rest = &rest[open + 1..];
        if let Some(end_tag) = rest.strip_prefix('/') {
            let close = end_tag.find('>').expect("an end tag is closed");
            let name = &end_tag[..close];
            assert!(is_tag_name(name), "odd end tag </{name}> in {html}");
            rest = &end_tag[close + 1..];
            continue;
        }
        let name_end = rest
            .find(|c: char| c.is_ascii_whitespace() || c == '>')
            .unwrap_or(rest.len());
        let name = &rest[..name_end];
        assert!(
            is_tag_name(name),
            "`<` that opens no tag (<{name}…) in {html}"
        );
        rest = &rest[name_end..];
        let mut attributes = Vec::new();
        loop {
            rest = rest.trim_start_matches(|c: char| c.is_ascii_whitespace());
            if let Some(after) = rest.strip_prefix('>') {
                rest = after;
                break;
            }
            let eq = rest
                .find("=\"")
                .unwrap_or_else(|| panic!("unquoted attribute in {html}"));
            let attribute = &rest[..eq];
            assert!(
                !attribute.is_empty()
                    && !attribute.contains(|c: char| c.is_ascii_whitespace() || c == '>'),
                "odd attribute {attribute:?} in {html}"
            );
            let value_and_rest = &rest[eq + 2..];
            let quote = value_and_rest.find('"').expect("a quoted value is closed");
            attributes.push((attribute.to_owned(), decode(&value_and_rest[..quote])));
            rest = &value_and_rest[quote + 1..];
        }
        tags.push(Tag {
            name: name.to_owned(),
            attributes,
        });
    }
    tags
}

fn is_tag_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric())
}

/// Decodes character references the way a browser would read an attribute value:
/// named ones (the few a serialiser or an attacker would use) and numeric ones, with
/// or without the `;`.
fn decode(value: &str) -> String {
    const NAMED: &[(&str, char)] = &[
        ("amp", '&'),
        ("quot", '"'),
        ("apos", '\''),
        ("lt", '<'),
        ("gt", '>'),
        ("nbsp", '\u{a0}'),
        ("colon", ':'),
        ("tab", '\t'),
        ("newline", '\n'),
        ("lpar", '('),
        ("rpar", ')'),
    ];
    let mut out = String::new();
    let mut rest = value;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        rest = &rest[amp + 1..];
        if let Some(number) = rest.strip_prefix('#') {
            let (digits, radix, skip) = match number.strip_prefix(['x', 'X']) {
                Some(hex) => (hex, 16, 2),
                None => (number, 10, 1),
            };
            let len = digits
                .find(|c: char| !c.is_digit(radix))
                .unwrap_or(digits.len());
            if len > 0 {
                let code = u32::from_str_radix(&digits[..len], radix).unwrap_or(0xFFFD);
                out.push(char::from_u32(code).unwrap_or('\u{FFFD}'));
                rest = &rest[skip + len..];
                rest = rest.strip_prefix(';').unwrap_or(rest);
                continue;
            }
        } else if let Some(&(name, c)) = NAMED.iter().find(|(name, _)| {
            rest.get(..name.len())
                .is_some_and(|n| n.eq_ignore_ascii_case(name))
        }) {
            out.push(c);
            rest = &rest[name.len()..];
            rest = rest.strip_prefix(';').unwrap_or(rest);
            continue;
        }
        out.push('&');
    }
    out.push_str(rest);
    out
}

/// Panics unless `cleaned` (the output of `clean` for `input`) is harmless: only allowed
/// tags and attributes, no dangerous markup even as a fragment, and every URL, target
/// and rel obeying the policy.
fn assert_harmless(input: &str, cleaned: &str) {
    let lower = cleaned.to_ascii_lowercase();
    for needle in [
        "<script", "<style", "<iframe", "<object", "<embed", "<svg", "<math", "<form", "<base",
        "<meta", "<link", "<!--", "style=",
    ] {
        assert!(
            !lower.contains(needle),
            "{needle} left in {cleaned:?} (from {input:?})"
        );
    }
    for tag in start_tags(cleaned) {
        let allowed = allowed_attributes(&tag.name);
        for (name, value) in &tag.attributes {
            assert!(
                allowed.contains(&name.as_str()),
                "attribute {name} on <{}> left in {cleaned:?} (from {input:?})",
                tag.name
            );
            let squashed: String = value
                .chars()
                .filter(|c| !c.is_whitespace() && !c.is_control())
                .collect::<String>()
                .to_lowercase();
            for scheme in ["javascript:", "vbscript:", "data:"] {
                assert!(
                    !squashed.contains(scheme),
                    "{scheme} in {name} left in {cleaned:?} (from {input:?})"
                );
            }
            match name.as_str() {
                "href" => assert!(
                    LINK_SCHEMES
                        .iter()
                        .any(|s| squashed.starts_with(&format!("{s}:")))
                        || (value.starts_with('/') && !value.starts_with("//"))
                        || value.starts_with('#'),
                    "href {value:?} left in {cleaned:?} (from {input:?})"
                ),
                "src" => assert!(
                    squashed.starts_with("http://")
                        || squashed.starts_with("https://")
                        || value.starts_with("/uploads/"),
                    "src {value:?} left in {cleaned:?} (from {input:?})"
                ),
                "target" => assert_eq!(value, "_blank", "in {cleaned:?}"),
                "rel" => assert_eq!(value, "noopener noreferrer", "in {cleaned:?}"),
                _ => {}
            }
        }
        if tag.name == "a" {
            assert!(
                tag.attributes.iter().any(|(name, _)| name == "rel"),
                "link without rel in {cleaned:?}"
            );
        }
    }
}

fn assert_stable(cleaned: &str) {
    assert_eq!(clean(cleaned), cleaned, "cleaning again changed it");
}

/// `html` with `rel="noopener noreferrer"` added to every link, as `clean` does.
fn with_rel(html: &str) -> String {
    let mut out = String::new();
    let mut rest = html;
    while let Some(start) = rest.find("<a ") {
        let close = start + rest[start..].find('>').expect("tag closed");
        out.push_str(&rest[..close]);
        out.push_str(" rel=\"noopener noreferrer\">");
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    out
}

/// A post using every allowed tag and attribute, written the way the serialiser
/// writes it, so that `clean` must give it back unchanged apart from `rel`.
const RICH_POST: &str = concat!(
    "<h1>Our platform</h1>\n<h2>Why we run</h2>\n<h3>Three</h3>\n<h4>Four</h4>\n",
    "<h5>Five</h5>\n<h6>Six</h6>\n",
    "<p>Read <strong>this</strong>, <em>that</em>, <u>underlined</u> and <s>struck</s>.",
    "<br>A new line with 5 &lt; 6 &amp; 7 &gt; 3, \"quotes\" and&nbsp;a non-breaking space.</p>\n",
    "<ul><li>One</li><li>Two <em>nested</em></li></ul>\n<ol><li>First</li><li>Second</li></ol>\n",
    "<blockquote><p>Conscience over party.</p></blockquote>\n",
    "<pre><code>fn main() {\n    println!(\"&lt;hi&gt;\");\n}</code></pre>\n",
    "<pre>\n\nStarts with a blank line</pre>\n",
    "<p><a href=\"http://example.com/\" title=\"Plain web\">http</a> ",
    "<a href=\"https://example.com/a?b=1&amp;c=2#d\" title=\"Secure\" target=\"_blank\">https</a> ",
    "<a href=\"ftp://files.example.com/platform.pdf\">ftp</a> ",
    "<a href=\"ftps://files.example.com/platform.pdf\">ftps</a> ",
    "<a href=\"mailto:info@example.org?subject=Hello\">mail</a> ",
    "<a href=\"tel:+1-555-555-0100\">tel</a> ",
    "<a href=\"callto:party.office\">callto</a> ",
    "<a href=\"sms:+15555550100\">sms</a> ",
    "<a href=\"cid:logo@example.org\">cid</a> ",
    "<a href=\"xmpp:office@example.org\">xmpp</a> ",
    "<a href=\"/join\">Join us</a> ",
    "<a href=\"/blog/our-first-post#comments\">a post</a> ",
    "<a href=\"#top\" target=\"_blank\">top</a></p>\n",
    "<p><img src=\"/uploads/rally.jpg\" alt=\"Supporters at the rally\" title=\"Rally\">",
    "<a href=\"/issues\"><img src=\"https://cdn.example.com/chart.png\" alt=\"Chart\"></a></p>",
);

#[test]
fn keeps_every_allowed_tag_and_attribute() {
    let cleaned = clean(RICH_POST);
    assert_eq!(cleaned, with_rel(RICH_POST));
    assert_harmless(RICH_POST, &cleaned);
    assert_stable(&cleaned);
    for tag in TAGS {
        assert!(
            cleaned.contains(&format!("<{tag}")),
            "the rich post lacks <{tag}>"
        );
    }
}

#[test]
fn unwraps_unknown_tags_and_drops_dangerous_ones_with_their_content() {
    let html = concat!(
        "<div class=\"x\">a<span>b</span></div><table><tr><td>c</td></tr></table>",
        "<font color=\"red\">d</font><custom-tag>e</custom-tag><details><summary>f</summary></details>",
        "<script>alert(1)</script><style>p{}</style><iframe>i</iframe>",
        "<object>o</object><embed src=\"x\"><noscript>n</noscript><template>t</template>",
        "<svg><text>s</text></svg><math><mi>m</mi></math><textarea>t</textarea>",
        "<select><option>o</option></select><title>t</title><xmp>x</xmp><noembed>n</noembed>",
        "<plaintext>rest of the document",
    );
    assert_eq!(clean(html), "abcdef");
}

#[test]
fn removes_every_other_attribute() {
    let html = concat!(
        "<p class=\"c\" id=\"i\" style=\"color:red\" data-x=\"1\" title=\"t\" lang=\"en\" dir=\"rtl\" onclick=\"x()\">p</p>",
        "<a href=\"/join\" id=\"x\" class=\"y\" rel=\"opener\" hreflang=\"en\" ping=\"/p\" download=\"\" src=\"/uploads/a.jpg\" name=\"n\">a</a>",
        "<img src=\"/uploads/a.jpg\" width=\"10\" height=\"10\" loading=\"lazy\" srcset=\"/uploads/b.jpg 2x\" onerror=\"x()\" href=\"/join\" alt=\"a\">",
        "<code title=\"t\">c</code><ol start=\"3\" reversed=\"\"><li value=\"2\">l</li></ol>",
        "<blockquote cite=\"https://example.com/\">q</blockquote>",
    );
    assert_eq!(
        clean(html),
        concat!(
            "<p>p</p><a href=\"/join\" rel=\"noopener noreferrer\">a</a>",
            "<img src=\"/uploads/a.jpg\" alt=\"a\"><code>c</code><ol><li>l</li></ol>",
            "<blockquote>q</blockquote>",
        )
    );
}

fn href_kept(url: &str) -> bool {
    let cleaned = clean(&format!("<a href=\"{url}\">x</a>"));
    assert!(cleaned.contains("rel=\"noopener noreferrer\""), "{cleaned}");
    cleaned.contains("href=")
}

#[test]
fn href_takes_the_editor_schemes_site_paths_and_fragments_only() {
    for url in [
        "http://example.com/",
        "https://example.com/path?q=1#x",
        "HTTPS://EXAMPLE.COM/",
        "ftp://example.com/a.pdf",
        "ftps://example.com/a.pdf",
        "mailto:info@example.org",
        "tel:+15555550100",
        "callto:someone",
        "sms:+15555550100",
        "cid:part@example.org",
        "xmpp:office@example.org",
        "/",
        "/join",
        "/blog/post#x",
        "/join?ref=home",
        "#top",
    ] {
        assert!(href_kept(url), "{url} should be kept");
    }
    for url in [
        "javascript:alert(1)",
        "JavaScript:alert(1)",
        "vbscript:msgbox(1)",
        "data:text/html,x",
        "file:///etc/passwd",
        "ssh://example.com",
        "irc://example.com",
        "geo:1,2",
        "foo:bar",
        "//evil.example/",
        "/\\evil.example/",
        "\\\\evil.example/",
        "/\t/evil.example/",
        "join",
        "../join",
        "?q=1",
        "",
        " /join",
    ] {
        assert!(!href_kept(url), "{url:?} should be dropped");
    }
}

fn src_kept(url: &str) -> bool {
    clean(&format!("<img src=\"{url}\" alt=\"a\">")).contains("src=")
}

#[test]
fn src_takes_our_uploads_and_https_from_allowed_hosts_only() {
    for url in [
        "https://example.com/a.png",
        "HTTPS://example.com/a.png",
        "https://CDN.example.com/chart.png",
        "/uploads/a.jpg",
        "/uploads/2026/a%20b.jpg?v=2",
    ] {
        assert!(src_kept(url), "{url} should be kept");
    }
    for url in [
        // Not https, or another host: a stranger would learn who reads the post.
        "http://example.com/a.png",
        "https://tracker.example.net/pixel.gif",
        "https://example.com.evil.example/a.png",
        "https://user@evil.example/a.png",
        "https://example.com:8443/a.png",
        "data:image/png;base64,iVBORw0KGgo=",
        "javascript:alert(1)",
        "ftp://example.com/a.png",
        "mailto:a@example.org",
        "/images/a.png",
        "uploads/a.jpg",
        "/uploads",
        "/uploads/../admin",
        "/uploads/%2e%2e/admin",
        "//evil.example/uploads/a.png",
        "/\\evil.example/uploads/a.png",
        "#x",
        "",
    ] {
        assert!(!src_kept(url), "{url:?} should be dropped");
    }
}

#[test]
fn an_image_whose_src_is_refused_stays_without_it() {
    assert_eq!(
        clean("<img src=\"data:image/png;base64,AAAA\" alt=\"Chart\" title=\"t\">"),
        "<img alt=\"Chart\" title=\"t\">"
    );
    // Refused by our filter rather than by ammonia's scheme list: same outcome.
    assert_eq!(
        clean("<img src=\"/images/a.png\" alt=\"Chart\">"),
        "<img alt=\"Chart\">"
    );
    // A site that allows no remote hosts (the default) keeps only its uploads.
    assert_eq!(
        super::clean(
            "<img src=\"https://example.com/a.png\" alt=\"A\"><img src=\"/uploads/b.jpg\" alt=\"B\">",
            &[]
        ),
        "<img alt=\"A\"><img src=\"/uploads/b.jpg\" alt=\"B\">"
    );
}

#[test]
fn target_is_blank_or_nothing_and_rel_is_forced() {
    assert_eq!(
        clean("<a href=\"/x\" target=\"_BLANK\" rel=\"opener\">x</a>"),
        "<a href=\"/x\" target=\"_blank\" rel=\"noopener noreferrer\">x</a>"
    );
    for target in ["_self", "_top", "_parent", "other-window", ""] {
        assert_eq!(
            clean(&format!("<a href=\"/x\" target=\"{target}\">x</a>")),
            "<a href=\"/x\" rel=\"noopener noreferrer\">x</a>"
        );
    }
    assert_eq!(clean("<a>x</a>"), "<a rel=\"noopener noreferrer\">x</a>");
}

#[test]
fn strips_comments_and_escapes_text() {
    assert_eq!(clean("<p>a<!-- note -->b</p><!---->"), "<p>ab</p>");
    assert_eq!(
        clean("<p>5 < 6 & 7 > 3 \"q\" 'a'</p>&lt;script&gt;alert(1)&lt;/script&gt;"),
        "<p>5 &lt; 6 &amp; 7 &gt; 3 \"q\" 'a'</p>&lt;script&gt;alert(1)&lt;/script&gt;"
    );
    assert_eq!(clean("plain text"), "plain text");
    assert_eq!(clean(""), "");
}

#[test]
fn output_is_stable() {
    let awkward = [
        "<h1><div><h2>x</h2></div></h1>",
        "<a href=\"/a\"><div><a href=\"/b\">x</a></div></a>",
        "<p><div><p>x</p></div></p>",
        "<ul><li>a<li>b<ul><li>c</ul></ul>",
        "<li>loose</li><p>a<blockquote>b</blockquote>c</p>",
        "<strong><p>x</p></strong><em><h1>y</em></h1>",
        "<pre>\n\n\ncode</pre><pre><code>\nx</code></pre><pre>\r\nx</pre>",
        "<table><tr><td>a</td><td>b</td></tr></table>x<table>y<tr><td>z</table>",
        "<a target=\"_self\" title=\"t\" href=\"//evil\">x</a>",
        "<a href=\"//evil\" title=\"t\">x</a>",
        "<a title=\"t\" href=\"javascript:x\" target=\"_blank\">x</a>",
        "<img src=\"data:x\" alt=\"a\" title=\"t\">",
        "<p>a\u{a0}b &amp;amp; &lt;p&gt; \u{0}</p>",
        "<code><pre>x</pre></code><s><u><strong>x</s></u></strong>",
    ];
    for html in awkward.into_iter().chain([RICH_POST]).chain(payloads()) {
        let cleaned = clean(html);
        assert_eq!(clean(&cleaned), cleaned, "unstable for {html:?}");
    }
}

#[test]
fn no_payload_of_the_corpus_survives() {
    let payloads = payloads();
    assert!(payloads.len() >= 150, "only {} payloads", payloads.len());
    for payload in payloads {
        assert_harmless(payload, &clean(payload));
    }
}

#[test]
fn the_checker_catches_what_it_should() {
    // The corpus test is only as good as `assert_harmless`; make sure it does fail.
    for bad in [
        "<script>x</script>",
        "<img src=\"x\" onerror=\"alert(1)\">",
        "<a href=\"java&#x09;script:alert(1)\" rel=\"noopener noreferrer\">x</a>",
        "<a href=\"/x\">no rel</a>",
        "<img src=\"&#100;ata:x\">",
        "<p style=\"x\">x</p>",
        "<div>x</div>",
        "<!-- x -->",
        "<img src=x>",
    ] {
        let caught = std::panic::catch_unwind(|| assert_harmless("", bad)).is_err();
        assert!(caught, "assert_harmless let {bad:?} through");
    }
}
