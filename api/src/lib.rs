//! The party site's server: `/api/*` (forms now; donations, admin and blog later), the
//! pages a form posted without JavaScript lands on, and the generated static site, on one
//! origin.

mod admin_shell;
pub mod audit;
pub mod auth;
pub mod backup;
mod blog_pages;
pub mod clock;
mod coding;
pub mod config;
pub mod connections;
pub mod db;
pub mod donations;
pub mod donor_pass;
#[cfg(test)]
mod editor_rules;
pub mod error;
pub mod export;
mod filters;
pub mod form_problems;
pub mod housekeeping;
pub mod memory;
pub mod payments;
pub mod previews;
pub mod proxy;
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

/// Tight: only our own scripts, styles, frames and connections. Images may come from any
/// https host: blog posts may show pictures staff link from elsewhere.
const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
     img-src 'self' data: https:; font-src 'self'; connect-src 'self'; frame-src 'none'; object-src 'none'; \
     base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

/// The donate page alone also loads Stripe.js, frames Stripe's payment fields (and its 3-D
/// Secure pages on hooks.stripe.com), and lets Stripe.js talk to Stripe's API.
const DONATE_CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self' https://js.stripe.com; \
     style-src 'self' 'unsafe-inline'; img-src 'self' data: https:; font-src 'self'; \
     connect-src 'self' https://api.stripe.com; frame-src https://js.stripe.com https://hooks.stripe.com; \
     object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

/// The page that takes card payments.
const DONATE_PATH: &str = "/donate";

/// The headers every response carries, by path: the one place to choose them. Only the
/// donate page may load, frame and call Stripe. Both the application's routes and the static
/// files' fast path (which answers before the routes) add them with [`add_security_headers`].
pub fn security_headers(path: &str) -> &'static HeaderMap {
    fn headers(csp: &'static str, permissions: &'static str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for (name, value) in [
            ("content-security-policy", csp),
            ("x-content-type-options", "nosniff"),
            ("x-frame-options", "DENY"),
            ("referrer-policy", "strict-origin-when-cross-origin"),
            ("permissions-policy", permissions),
            ("cross-origin-opener-policy", "same-origin"),
        ] {
            headers.insert(name, HeaderValue::from_static(value));
        }
        headers
    }
    static DEFAULT: LazyLock<HeaderMap> = LazyLock::new(|| {
        headers(
            CONTENT_SECURITY_POLICY,
            "camera=(), microphone=(), geolocation=(), payment=(self)",
        )
    });
    static DONATE: LazyLock<HeaderMap> = LazyLock::new(|| {
        headers(
            DONATE_CONTENT_SECURITY_POLICY,
            "camera=(), microphone=(), geolocation=(), payment=(self \"https://js.stripe.com\")",
        )
    });
    if path == DONATE_PATH {
        &DONATE
    } else {
        &DEFAULT
    }
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
    // results, the blog's redirects, previews of unsaved posts, the admin app's shell), the
    // blog's uploaded images, then the static site and its HTML 404 pages.
    let pages = form_problems::routes(state.clone())
        .or(blog_pages::routes(state.clone()))
        .unify()
        .or(previews::routes(state.clone()))
        .unify()
        .or(admin_shell::routes(files.clone()))
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
