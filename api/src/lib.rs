//! The party site's server: `/api/*` (forms now; donations, admin and blog later), the
//! pages a form posted without JavaScript lands on, and the generated static site, on one
//! origin.

pub mod audit;
pub mod auth;
pub mod backup;
mod blog_pages;
pub mod config;
pub mod db;
pub mod error;
pub mod export;
mod filters;
pub mod form_problems;
pub mod rate_limit;
pub mod rebuild;
pub mod redact;
pub mod routes;
pub mod server;
pub mod state;
pub mod static_files;
pub mod uploads;

use std::sync::LazyLock;

use warp::filters::BoxedFilter;
use warp::http::{HeaderMap, HeaderValue};
use warp::reply::Response;
use warp::{Filter, Reply};

pub use state::AppState;

/// Tight by default; Stripe's hosts are added with the donation flow. Images may come from
/// any https host: blog posts may show pictures staff link from elsewhere.
const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
     img-src 'self' data: https:; font-src 'self'; connect-src 'self'; frame-src 'none'; object-src 'none'; \
     base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

/// The headers every response carries, by path: the one place to choose them (the donation
/// page will allow Stripe's hosts). Both the application's routes and the static files'
/// fast path (which answers before the routes) add them with [`add_security_headers`].
pub fn security_headers(_path: &str) -> &'static HeaderMap {
    static DEFAULT: LazyLock<HeaderMap> = LazyLock::new(|| {
        let mut headers = HeaderMap::new();
        for (name, value) in [
            ("content-security-policy", CONTENT_SECURITY_POLICY),
            ("x-content-type-options", "nosniff"),
            ("x-frame-options", "DENY"),
            ("referrer-policy", "strict-origin-when-cross-origin"),
            (
                "permissions-policy",
                "camera=(), microphone=(), geolocation=(), payment=(self)",
            ),
            ("cross-origin-opener-policy", "same-origin"),
        ] {
            headers.insert(name, HeaderValue::from_static(value));
        }
        headers
    });
    &DEFAULT
}

/// Adds [`security_headers`] for `path` to a response's headers.
pub fn add_security_headers(path: &str, headers: &mut HeaderMap) {
    for (name, value) in security_headers(path) {
        headers.insert(name.clone(), value.clone());
    }
}

/// Paths the application's own routes answer even where `dist/` might have a file; the
/// static files' fast path leaves them alone.
pub fn is_server_route(path: &str) -> bool {
    ["/api", "/uploads"].iter().any(|prefix| {
        path.strip_prefix(prefix)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
    })
}

/// The whole application: API, static site, error mapping and security headers.
pub fn app(state: AppState) -> BoxedFilter<(Response,)> {
    let files = state.static_files.clone();
    let uploads = uploads::routes(state.config.data_dir.join("uploads"));
    // Everything under /api/ answers JSON, errors and unknown paths included; every
    // other path falls through to the pages the server answers itself (no-script form
    // results, the blog's redirects), the blog's uploaded images, then the static site and
    // its HTML 404 pages.
    let pages = form_problems::routes(state.clone())
        .or(blog_pages::routes(state.clone()))
        .unify();
    let api = warp::path("api").and(routes::api(state).recover(error::recover).unify());
    let routes = api
        .or(pages)
        .unify()
        .or(uploads)
        .unify()
        .or(static_files::routes(files))
        .unify()
        .recover(error::recover)
        .unify();
    warp::path::full()
        .and(routes)
        .map(|path: warp::path::FullPath, reply: Response| {
            let mut res = reply.into_response();
            add_security_headers(path.as_str(), res.headers_mut());
            res
        })
        .boxed()
}
