//! The one HTML allowlist for blog content (spec §5). The api cleans every post body with
//! [`clean`] when it is saved, and the generator cleans it again when it renders the post,
//! so what is stored and what is published obey the same rules even if a row was written
//! by hand or by an older version. There is deliberately no second policy anywhere else.
//!
//! The policy, built once on a single `ammonia::Builder`:
//!
//! - Tags: `p br strong em u s h1`–`h6 ul ol li blockquote code pre a img`. Any other
//!   element is unwrapped (its text kept), except those whose content is code, another
//!   document or raw text (`script`, `style`, `iframe`, `object`, `svg`, `math`,
//!   `template`, `noscript`, … see `DROPPED_WITH_CONTENT`), which go with their content.
//! - Attributes: `a` may carry `href`, `title`, `target`; `img` may carry `src`, `alt`,
//!   `title`. Nothing else: no `class`, `style`, `id`, `data-*` or event handlers.
//! - `href`: an absolute URL in one of the editor's link schemes (http, https, ftp, ftps,
//!   mailto, tel, callto, sms, cid, xmpp), a site path (`/join`), or a fragment (`#top`).
//! - `src`: one of our uploads (`/uploads/…`), or an `https://` URL on a host the site
//!   allows (`remoteImageHosts` in `content/site.yaml`, passed to [`clean`]; none by
//!   default: a remote image tells its host who reads the post).
//! - `target`: `_blank` only; every link gets `rel="noopener noreferrer"`.
//! - Comments are removed. Text is kept and escaped.
//!
//! An `<img>` whose `src` was refused stays, without `src`: ammonia can only drop
//! attributes, not elements, from its filter, and the author's `alt` text is then still
//! there for readers (and for the author to notice and fix) rather than silently vanishing.
//!
//! The output is stable: cleaning it again gives the same string, so saving a post twice
//! or rendering a saved post never changes it (which takes two passes; see `clean`).

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

use ammonia::{Builder, Url, UrlRelative};

/// The elements a post may contain.
pub const TAGS: &[&str] = &[
    "p",
    "br",
    "strong",
    "em",
    "u",
    "s",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "ul",
    "ol",
    "li",
    "blockquote",
    "code",
    "pre",
    "a",
    "img",
];

/// The attributes each element may carry with any value (subject to the URL rules). With
/// `target` (below) and the forced `rel`, this is the spec's list (href, src, alt, title,
/// target, rel), each placed on the element it means something on.
pub const TAG_ATTRIBUTES: &[(&str, &[&str])] =
    &[("a", &["href", "title"]), ("img", &["src", "alt", "title"])];

/// The only `target` a link may have: opening in a new tab is the one use a post has for
/// it, and a named target could navigate another of the reader's windows. Matched without
/// regard to case, as browsers do, and written out in lower case.
pub const LINK_TARGET: &str = "_blank";

/// Schemes an absolute `href` may use: the editor's "Inserted links must use scheme …"
/// list (spec §5). ammonia applies it to `src` too; `filter_attribute` narrows `src`.
pub const LINK_SCHEMES: &[&str] = &[
    "http", "https", "ftp", "ftps", "mailto", "tel", "callto", "sms", "cid", "xmpp",
];

/// Schemes an absolute `src` may use: our uploads ([`UPLOADS_PREFIX`]) or https from an
/// allowed host, never `http:`, `data:`, `mailto:` and the like.
pub const IMAGE_SCHEMES: &[&str] = &["https"];

/// Elements removed together with everything inside them. Unwrapping these would turn
/// script source, style sheets, fallback documents or raw text into visible prose, or
/// (for `svg`/`math`) keep content that was parsed under another namespace's rules, the
/// root of most mutation-XSS tricks. Elements neither listed here nor allowed are
/// unwrapped, so their text survives (a pasted `<div>` or `<span>` loses only its tags).
pub const DROPPED_WITH_CONTENT: &[&str] = &[
    "script",
    "style",
    "iframe",
    "frame",
    "frameset",
    "object",
    "embed",
    "applet",
    "svg",
    "math",
    "template",
    "noscript",
    "noembed",
    "noframes",
    "xmp",
    "plaintext",
    "textarea",
    "title",
    "select",
];

/// The value forced onto every link's `rel`: a post's links never get a handle on our
/// window (`noopener`) and never leak the reader's page to the target (`noreferrer`).
pub const LINK_REL: &str = "noopener noreferrer";

/// Where uploaded images are served from; the only relative `src` allowed.
pub const UPLOADS_PREFIX: &str = "/uploads/";

thread_local! {
    /// The hosts remote images may come from during the [`clean`] running on this thread:
    /// ammonia's attribute filter is a `'static` function, so the call's allowlist reaches
    /// it this way rather than as a capture.
    static IMAGE_HOSTS: std::cell::RefCell<Vec<String>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Whether `src` is an https image on an allowed host.
fn remote_image_allowed(src: &str) -> bool {
    let Ok(url) = Url::parse(src) else {
        return false;
    };
    url.scheme() == "https"
        && url.port().is_none()
        && url.host_str().is_some_and(|host| {
            IMAGE_HOSTS.with_borrow(|hosts| hosts.iter().any(|h| h.eq_ignore_ascii_case(host)))
        })
}

/// A made-up origin to resolve relative URLs against exactly as a browser would (tabs and
/// newlines dropped, `\` read as `/`), to tell whether one stays on our site.
static SENTINEL: LazyLock<Url> =
    LazyLock::new(|| Url::parse("https://sentinel.invalid/").expect("a valid URL"));

static POLICY: LazyLock<Builder<'static>> = LazyLock::new(|| {
    let tag_attributes: HashMap<&str, HashSet<&str>> = TAG_ATTRIBUTES
        .iter()
        .map(|&(tag, attributes)| (tag, attributes.iter().copied().collect()))
        .collect();
    // An allowed value, not a filter that drops the rest: ammonia keeps the order of the
    // attributes it allows but not of those a filter drops (see `clean`).
    let link_target = HashMap::from([(
        "a",
        HashMap::from([("target", HashSet::from([LINK_TARGET]))]),
    )]);
    let mut builder = Builder::empty();
    builder
        .tags(TAGS.iter().copied().collect())
        .clean_content_tags(DROPPED_WITH_CONTENT.iter().copied().collect())
        // `Builder::empty` empties only the tags: ammonia's default generic attributes
        // (`lang`, `title` on every element) would otherwise still apply.
        .generic_attributes(HashSet::new())
        .tag_attributes(tag_attributes)
        .tag_attribute_values(link_target)
        .url_schemes(LINK_SCHEMES.iter().copied().collect())
        .url_relative(UrlRelative::Custom(Box::new(keep_site_path)))
        .attribute_filter(filter_attribute)
        .link_rel(Some(LINK_REL))
        .strip_comments(true);
    builder
});

/// Cleans `html` down to the spec's allowlist; `https://` images may come from
/// `image_hosts` (the site's `remoteImageHosts`).
pub fn clean(html: &str, image_hosts: &[String]) -> String {
    let previous = IMAGE_HOSTS.replace(image_hosts.to_vec());
    let cleaned = clean_twice(html);
    IMAGE_HOSTS.set(previous);
    cleaned
}

fn clean_twice(html: &str) -> String {
    // Twice, so that the result is a fixed point. One pass already removes everything
    // unsafe, but its output is not always what a second pass would make of it:
    // - ammonia drops attributes refused by the filter or the relative-URL rule with
    //   `swap_remove`, which can move the `rel` it has just appended in front of `href`;
    //   the next pass, finding nothing to refuse, puts `rel` back at the end;
    // - unwrapping can leave nesting the parser would not build, e.g. `<h1><h2>` from
    //   `<h1><div><h2>`, which reads back as two sibling headings.
    // After one pass every value passes every rule and the markup is what a parser built
    // (less removed attributes), so the second pass only normalises.
    let once = one_pass(html);
    // A stored post was cleaned when it was saved, so the render's pass changes nothing, and
    // a pass that changes nothing would change nothing a second time: the second pass is
    // skipped, which halves the cost of sanitising at render (the largest part of a blog
    // build).
    if once == html {
        return once;
    }
    one_pass(&once)
}

fn one_pass(html: &str) -> String {
    let cleaned = POLICY.clean(html).to_string();
    // A parser drops the newline straight after `<pre>`, and html5ever's serialiser does
    // not write the extra one that would protect a text starting with a newline; without
    // this, every clean would eat one leading newline of a code block. `<pre>` never has
    // attributes here, and `<` in text or attribute values is always escaped, so this
    // string only ever matches a `pre` whose text starts with a newline.
    if cleaned.contains("<pre>\n") {
        cleaned.replace("<pre>\n", "<pre>\n\n")
    } else {
        cleaned
    }
}

/// The value rules ammonia's allowlists cannot express. ammonia has already checked that
/// the attribute is allowed and, for a URL, that its scheme is in [`LINK_SCHEMES`] or that
/// it is relative (relative URLs are then checked by [`keep_site_path`]).
fn filter_attribute<'v>(element: &str, attribute: &str, value: &'v str) -> Option<Cow<'v, str>> {
    match (element, attribute) {
        // mailto:, tel: and the like make no sense as an image, a data: URL would let a
        // post carry content no one uploaded, and an image from a stranger's host is a
        // tracking pixel: so our own uploads, or https from an allowed host.
        ("img", "src") => {
            let allowed = site_path(value)
                .is_some_and(|url| url.path().starts_with(UPLOADS_PREFIX))
                || remote_image_allowed(value);
            allowed.then_some(Cow::Borrowed(value))
        }
        // ammonia has matched the value against LINK_TARGET without regard to case.
        ("a", "target") => Some(Cow::Borrowed(LINK_TARGET)),
        _ => Some(Cow::Borrowed(value)),
    }
}

/// ammonia's hook for relative URLs (in `href` and `src`): site paths stay as written,
/// anything else is dropped.
fn keep_site_path(url: &str) -> Option<Cow<'_, str>> {
    site_path(url).map(|_| Cow::Borrowed(url))
}

/// `url` resolved, if it is a path on our own site (`/join`, `/blog/post#x`) or a fragment
/// (`#x`); `None` for anything else, such as `//host/` and `/\host/` (both leave the site),
/// `page.html` or `?q` (their meaning depends on the page the post is shown on).
fn site_path(url: &str) -> Option<Url> {
    if !(url.starts_with('/') || url.starts_with('#')) || url.starts_with("//") {
        return None;
    }
    let resolved = SENTINEL.join(url).ok()?;
    (resolved.origin() == SENTINEL.origin()).then_some(resolved)
}

#[cfg(test)]
mod tests;
