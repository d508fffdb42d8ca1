//! What a log line may say about a visitor. Logs never carry passwords, tokens or full
//! e-mail addresses: request bodies and headers are never logged, query strings (where a
//! link might carry a token) are left out of request lines, and e-mail addresses are
//! masked to their first letter and domain.

use std::borrow::Cow;

/// `jane.doe@example.org` -> `j…@example.org`; text without an `@` is returned as is.
pub fn email(address: &str) -> String {
    match address.rsplit_once('@') {
        Some((local, domain)) => {
            let first: String = local.chars().take(1).collect();
            format!("{first}…@{domain}")
        }
        None => address.to_owned(),
    }
}

/// A request path for the log: every segment that holds an e-mail address (`@`, or
/// `%40` encoded) is masked with [`email`].
pub fn path(path: &str) -> Cow<'_, str> {
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
        assert_eq!(path("/contact"), "/contact");
        assert_eq!(path("/u/jane@example.org/x"), "/u/j…@example.org/x");
        assert_eq!(path("/u/jane%40example.org"), "/u/j…@example.org");
    }

    #[test]
    fn decoded_control_characters_cannot_forge_a_line() {
        let logged = path("/u/a%40x.org%0A2026-01-01T00:00:00Z%20INFO%20forged%0D%1B[31m");
        assert!(!logged.chars().any(char::is_control), "{logged:?}");
        assert!(logged.contains("\\n"), "{logged:?}");
    }
}
