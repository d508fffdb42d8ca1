//! The headers every response carries, chosen in one place by path. Both the application's
//! routes and the static files' fast path (which answers before the routes) add them.
//!
//! - A tight Content-Security-Policy: only our own scripts, styles, frames and connections;
//!   images from ourselves and the hosts `content/site.yaml` names in `remoteImageHosts`
//!   (an image from anywhere else is a tracking pixel that tells a stranger who reads the
//!   blog). Only the donate page may load, frame and call Stripe.
//! - Previews of unsaved posts are sandboxed (`sandbox`: an opaque origin, no scripts), so a
//!   post under review can never act as the site, even if the sanitiser missed something.
//! - `Strict-Transport-Security` when the site's canonical address is https.
//! - `Cross-Origin-Resource-Policy: same-origin`, except for the public images and PDFs
//!   (`/media/`, `/uploads/`, `/downloads/`), which feed readers and link previews show
//!   from other origins.

use warp::http::{HeaderMap, HeaderName, HeaderValue};

/// The pages that take cards: the donate page, and where a monthly donor gives another card.
const STRIPE_PATHS: [&str; 2] = ["/donate", "/donate/card"];
/// Where previews of unsaved posts are served.
const PREVIEW_PREFIX: &str = "/admin/preview/";
/// Public files other sites may show.
const SHAREABLE_PREFIXES: &[&str] = &["/media/", "/uploads/", "/downloads/"];
const HSTS: &str = "max-age=63072000; includeSubDomains";

pub struct SecurityHeaders {
    default: HeaderMap,
    shareable: HeaderMap,
    donate: HeaderMap,
    preview: HeaderMap,
}

impl SecurityHeaders {
    /// For a site served at an https address (`https`) whose posts may show images from
    /// `image_hosts` (host names).
    pub fn new(https: bool, image_hosts: &[String]) -> SecurityHeaders {
        let remote_images: String = image_hosts
            .iter()
            .map(|host| format!(" https://{host}"))
            .collect();
        let csp = |extra_script: &str, connect: &str, frames: &str| {
            format!(
                "default-src 'self'; script-src 'self'{extra_script}; style-src 'self' 'unsafe-inline'; \
                 img-src 'self' data:{remote_images}; font-src 'self'; connect-src 'self'{connect}; \
                 frame-src {frames}; object-src 'none'; base-uri 'self'; form-action 'self'; \
                 frame-ancestors 'none'"
            )
        };
        let default_csp = csp("", "", "'none'");
        let build = |csp: &str, permissions: &str, corp: &str| {
            let mut headers = HeaderMap::new();
            let mut set = |name: &'static str, value: &str| {
                headers.insert(
                    HeaderName::from_static(name),
                    HeaderValue::from_str(value).expect("a valid header value"),
                );
            };
            set("content-security-policy", csp);
            set("x-content-type-options", "nosniff");
            set("x-frame-options", "DENY");
            set("referrer-policy", "strict-origin-when-cross-origin");
            set("permissions-policy", permissions);
            set("cross-origin-opener-policy", "same-origin");
            set("cross-origin-resource-policy", corp);
            if https {
                set("strict-transport-security", HSTS);
            }
            headers
        };
        const PERMISSIONS: &str = "camera=(), microphone=(), geolocation=(), payment=(self)";
        SecurityHeaders {
            default: build(&default_csp, PERMISSIONS, "same-origin"),
            shareable: build(&default_csp, PERMISSIONS, "cross-origin"),
            donate: build(
                &csp(
                    " https://js.stripe.com",
                    " https://api.stripe.com",
                    "https://js.stripe.com https://hooks.stripe.com",
                ),
                "camera=(), microphone=(), geolocation=(), payment=(self \"https://js.stripe.com\")",
                "same-origin",
            ),
            preview: build(
                &format!("{default_csp}; sandbox"),
                PERMISSIONS,
                "same-origin",
            ),
        }
    }

    /// The headers for a response to `path`.
    pub fn for_path(&self, path: &str) -> &HeaderMap {
        if STRIPE_PATHS.contains(&path) {
            &self.donate
        } else if path.starts_with(PREVIEW_PREFIX) {
            &self.preview
        } else if SHAREABLE_PREFIXES.iter().any(|p| path.starts_with(p)) {
            &self.shareable
        } else {
            &self.default
        }
    }

    /// Adds the headers for `path` to a response's.
    pub fn add(&self, path: &str, headers: &mut HeaderMap) {
        for (name, value) in self.for_path(path) {
            headers.insert(name.clone(), value.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn csp(h: &SecurityHeaders, path: &str) -> String {
        h.for_path(path)["content-security-policy"]
            .to_str()
            .unwrap()
            .to_owned()
    }

    #[test]
    fn each_kind_of_page_gets_its_own() {
        let h = SecurityHeaders::new(true, &["images.example.org".into()]);
        assert!(csp(&h, "/").contains("img-src 'self' data: https://images.example.org;"));
        assert!(!csp(&h, "/").contains("stripe"));
        assert!(csp(&h, "/donate").contains("https://js.stripe.com"));
        assert!(csp(&h, "/admin/preview/abc").ends_with("; sandbox"));
        assert_eq!(h.for_path("/")["strict-transport-security"], HSTS);
        assert_eq!(
            h.for_path("/")["cross-origin-resource-policy"],
            "same-origin"
        );
        assert_eq!(
            h.for_path("/api/blogs")["cross-origin-resource-policy"],
            "same-origin"
        );
        assert_eq!(
            h.for_path("/uploads/a.jpg")["cross-origin-resource-policy"],
            "cross-origin"
        );
        let plain = SecurityHeaders::new(false, &[]);
        assert!(
            plain
                .for_path("/")
                .get("strict-transport-security")
                .is_none()
        );
        assert!(csp(&plain, "/").contains("img-src 'self' data:;"));
    }
}
