//! What a log line may say about a visitor. Logs never carry passwords, tokens or full
//! e-mail addresses: request bodies and headers are never logged, query strings (where a
//! link might carry a token) are left out of request lines, and e-mail addresses are
//! masked to their first letter and domain.

use std::borrow::Cow;

/// `jane.doe@example.org` -> `j…@example.org`; text without an `@` tells nothing: `…`. The one
/// e-mail masker for every log line and audit target.
pub fn email(address: &str) -> String {
    match address.rsplit_once('@') {
        Some((local, domain)) => {
            let first: String = local.chars().take(1).collect();
            format!("{first}…@{domain}")
        }
        // Not an address: nothing of it is told.
        None => "…".to_owned(),
    }
}

/// The pages whose address ends in a secret: a link mailed to one person (confirm,
/// unsubscribe, cancel a monthly gift, sign a donor's browsers out, see, confirm or cancel
/// an RSVP) or a staff preview. Whoever reads the log must not be able to use them.
///
/// Every route with a free segment in its address joins this list or [`NOT_SECRET`]: a
/// test walks the routes' `warp::path!`s and fails on one that is in neither.
pub const TOKEN_PATHS: &[&str] = &[
    "/newsletter/confirm/",
    "/newsletter/unsubscribe/",
    "/donate/monthly/cancel/",
    "/donate/history/sign-out/",
    "/admin/preview/",
    "/events/rsvp/",
];

/// The addresses whose free segment is no secret (an id, a slug, a page number), written as
/// their fixed part (under `/api` or `/api/admin` for the API's route groups).
#[cfg(test)]
const NOT_SECRET: &[&str] = &[
    "admin/blog/",
    "admin/broadcasts/",
    "admin/events/",
    "admin/person/",
    "blog/archive/",
    "blog/page/",
    "blog/",
    "blogs/",
    "broadcasts/",
    "donations/",
    "events/",
    "forms/",
    "invitations/",
    "people/merges/",
    "people/",
    "plans/",
    "revisions/",
    "security/passkeys/",
    "service-tokens/",
    "users/",
];

/// A request path for the log: the secret at the end of a mailed link's address is
/// replaced by `…` ([`TOKEN_PATHS`]), and every segment that holds an e-mail address (`@`,
/// or `%40` encoded) is masked with [`email`].
pub fn path(path: &str) -> Cow<'_, str> {
    if let Some(prefix) = TOKEN_PATHS
        .iter()
        .find(|p| path.starts_with(*p) && path.len() > p.len())
    {
        return Cow::Owned(format!("{prefix}…"));
    }
    if !path.contains('@') && !path.contains("%40") {
        return Cow::Borrowed(path);
    }
    Cow::Owned(
        path.split('/')
            .map(|segment| {
                let decoded = percent_encoding::percent_decode_str(segment).decode_utf8_lossy();
                if decoded.contains('@') {
                    // Decoding can bring back a newline (`%0A`) or other control
                    // characters: escaped, so a path can never start a forged log line.
                    email(&decoded)
                        .chars()
                        .flat_map(char::escape_debug)
                        .collect()
                } else {
                    segment.to_owned()
                }
            })
            .collect::<Vec<_>>()
            .join("/"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_masked() {
        assert_eq!(email("jane.doe@example.org"), "j…@example.org");
        assert_eq!(email("@x.org"), "…@x.org");
        assert_eq!(email("ada@example.org"), "a\u{2026}@example.org");
        assert_eq!(email("nonsense"), "\u{2026}");
        assert_eq!(path("/contact"), "/contact");
        assert_eq!(path("/u/jane@example.org/x"), "/u/j…@example.org/x");
        assert_eq!(path("/u/jane%40example.org"), "/u/j…@example.org");
    }

    #[test]
    fn the_secrets_in_mailed_links_are_not_logged() {
        assert_eq!(
            path("/newsletter/confirm/12-1790000000-0123456789abcdef0123456789abcdef"),
            "/newsletter/confirm/…"
        );
        assert_eq!(
            path("/newsletter/unsubscribe/12-00ff"),
            "/newsletter/unsubscribe/…"
        );
        assert_eq!(
            path("/donate/monthly/cancel/3-abcd"),
            "/donate/monthly/cancel/…"
        );
        assert_eq!(
            path("/donate/history/sign-out/YUB4Lm9yZw.abcd"),
            "/donate/history/sign-out/…"
        );
        assert_eq!(path("/admin/preview/abcdef"), "/admin/preview/…");
        assert_eq!(path("/newsletter/confirm/"), "/newsletter/confirm/");
        assert_eq!(path("/blog/a-long-post-title"), "/blog/a-long-post-title");
    }

    #[test]
    fn an_rsvps_links_are_not_logged() {
        assert_eq!(path("/events/rsvp/12-abcdef"), "/events/rsvp/…");
        assert_eq!(path("/events/rsvp/confirm/3-17900-ab"), "/events/rsvp/…");
        assert_eq!(path("/events/town-hall"), "/events/town-hall");
    }

    /// The fixed part of each `warp::path!` in `source` that has a free segment: `"a" / "b"
    /// / String / "c"` is `a/b/`.
    fn free_routes(source: &str) -> Vec<String> {
        let mut found = Vec::new();
        let mut rest = source;
        while let Some(at) = rest.find("warp::path!(") {
            rest = &rest[at + "warp::path!(".len()..];
            let end = rest.find(')').unwrap_or(rest.len());
            let segments: Vec<&str> = rest[..end].split('/').map(str::trim).collect();
            if segments.iter().all(|s| s.starts_with('"')) {
                continue;
            }
            let fixed: String = segments
                .iter()
                .take_while(|s| s.starts_with('"'))
                .map(|s| format!("{}/", s.trim_matches('"')))
                .collect();
            found.push(fixed);
        }
        found
    }

    #[test]
    fn every_route_with_a_free_segment_says_whether_it_is_a_secret() {
        let src = concat!(env!("CARGO_MANIFEST_DIR"), "/src");
        let mut files = Vec::new();
        let mut dirs = vec![std::path::PathBuf::from(src)];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    files.push(path);
                }
            }
        }
        let mut routes = 0;
        for file in files {
            let source = std::fs::read_to_string(&file).unwrap();
            for fixed in free_routes(&source) {
                routes += 1;
                let secret = TOKEN_PATHS
                    .iter()
                    .any(|t| fixed.starts_with(t.trim_start_matches('/')));
                let open = NOT_SECRET.contains(&fixed.as_str());
                assert!(
                    secret || open,
                    "{}: the route under {fixed:?} has a free segment: add it to TOKEN_PATHS \
                     if that segment is a secret (a mailed link's token), else to NOT_SECRET",
                    file.display()
                );
            }
        }
        assert!(routes > 40, "the walk found the routes ({routes})");
        // And each secret page is redacted as a whole.
        for prefix in TOKEN_PATHS {
            assert_eq!(path(&format!("{prefix}s3cret-token")), format!("{prefix}…"));
        }
    }

    #[test]
    fn decoded_control_characters_cannot_forge_a_line() {
        let logged = path("/u/a%40x.org%0A2026-01-01T00:00:00Z%20INFO%20forged%0D%1B[31m");
        assert!(!logged.chars().any(char::is_control), "{logged:?}");
        assert!(logged.contains("\\n"), "{logged:?}");
    }
}
