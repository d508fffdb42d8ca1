//! Previews of unsaved posts. The editor sends what is on screen to
//! `POST /api/admin/blogs/preview`; the page is rendered there and then, exactly as
//! `/blog/{slug}` will be, and kept in memory under a random 128-bit name. Its address,
//! `/admin/preview/{name}`, is a capability: a new browser tab cannot send the staff token,
//! so knowing the (unguessable, short-lived) address is what lets it in. It opens as often
//! as needed for 10 minutes (a reload, the same link on a phone), then is gone. Nothing is
//! written to disk, and a restart forgets them all.
//!
//! Answers are `Cache-Control: no-store` and `X-Robots-Tag: noindex`; the page itself
//! carries `<meta name="robots" content="noindex">`.

use std::sync::Arc;
use std::time::Duration;

use warp::Filter;
use warp::filters::BoxedFilter;
use warp::http::{Response as HttpResponse, StatusCode, header};
use warp::reply::Response;

use crate::store::expiring::Expiring;

/// Long enough for the tab to open, short enough that a leaked address is soon useless.
const KEEP_FOR: Duration = Duration::from_secs(10 * 60);
/// Bounds memory (a post may be 1 MB): the oldest go first.
const MOST_KEPT: usize = 32;
/// Where previews are served (the name follows).
pub const PATH_PREFIX: &str = "/admin/preview/";

const EXPIRED_PAGE: &str = "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
<meta name=\"robots\" content=\"noindex\">\n<title>Preview expired</title>\n</head>\n<body>\n\
<main>\n<h1>Preview expired</h1>\n<p>A preview lasts 10 minutes. \
Press Preview in the editor again to see the post as it is now.</p>\n</main>\n</body>\n</html>\n";

/// The previews waiting to be opened.
pub struct Previews {
    store: Expiring<String>,
}

impl Default for Previews {
    fn default() -> Self {
        Previews {
            store: Expiring::new(KEEP_FOR, MOST_KEPT),
        }
    }
}

impl Previews {
    /// Keeps a rendered page and returns the address it can be opened at for a while.
    pub fn keep(&self, html: String) -> String {
        format!("{PATH_PREFIX}{}", self.store.keep(html))
    }

    /// The page kept under `name`; `None` once expired (or crowded out).
    pub fn get(&self, name: &str) -> Option<String> {
        self.store.get(name)
    }
}

/// `GET /admin/preview/{name}`
pub fn routes(previews: Arc<Previews>) -> BoxedFilter<(Response,)> {
    warp::get()
        .and(warp::path!("admin" / "preview" / String))
        .map(move |name: String| {
            let found = previews.get(&name);
            let (status, body) = match found {
                Some(html) => (StatusCode::OK, html),
                None => (StatusCode::NOT_FOUND, EXPIRED_PAGE.to_owned()),
            };
            page(status, body)
        })
        .boxed()
}

fn page(status: StatusCode, body: String) -> Response {
    HttpResponse::builder()
        .status(status)
        .header(header::CONTENT_TYPE, "text/html; charset=utf-8")
        // A draft: never kept by a cache, never indexed.
        .header(header::CACHE_CONTROL, "no-store")
        .header("x-robots-tag", "noindex")
        .body(body.into())
        .unwrap_or_else(|_| Response::new("Internal Server Error".into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_preview_opens_again_under_an_unguessable_name() {
        let previews = Previews::default();
        let url = previews.keep("<p>draft</p>".into());
        let name = url.strip_prefix(PATH_PREFIX).unwrap();
        assert_eq!(name.len(), 32);
        assert!(name.chars().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(previews.keep("<p>other</p>".into()), url);
        assert_eq!(previews.get(name).as_deref(), Some("<p>draft</p>"));
        assert_eq!(
            previews.get(name).as_deref(),
            Some("<p>draft</p>"),
            "a reload"
        );
        assert_eq!(previews.get("nope"), None);
    }

    #[test]
    fn memory_stays_bounded() {
        let previews = Previews::default();
        let first = previews.keep("first".into());
        let mut last = String::new();
        for _ in 0..MOST_KEPT {
            last = previews.keep("x".into());
        }
        assert_eq!(previews.get(first.strip_prefix(PATH_PREFIX).unwrap()), None);
        assert!(
            previews
                .get(last.strip_prefix(PATH_PREFIX).unwrap())
                .is_some()
        );
    }
}
