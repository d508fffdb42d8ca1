//! The party site's server: `/api/*` (forms now; donations, admin and blog later), the
//! pages a form posted without JavaScript lands on, and the generated static site, on one
//! origin.

mod admin_shell;
pub mod audit;
pub mod auth;
mod blog_pages;
pub mod config;
pub mod db;
pub mod donations;
#[cfg(test)]
mod editor_rules;
pub mod error;
pub mod export;
mod filters;
pub mod form_problems;
pub mod housekeeping;
pub mod payments;
pub mod previews;
pub mod rate_limit;
pub mod rebuild;
pub mod routes;
pub mod state;
pub mod static_files;
pub mod uploads;

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

/// Headers every response carries.
fn security_headers() -> HeaderMap {
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
}

/// The whole application: API, static site, error mapping and security headers.
pub fn app(state: AppState) -> BoxedFilter<(Response,)> {
    let dist = state.config.dist_dir.clone();
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
        .or(admin_shell::routes(dist.clone()))
        .unify();
    let api = warp::path("api").and(routes::api(state).recover(error::recover).unify());
    api.or(pages)
        .unify()
        .or(uploads)
        .unify()
        .or(static_files::routes(dist))
        .unify()
        .recover(error::recover)
        .unify()
        .with(warp::reply::with::headers(security_headers()))
        .with(warp::trace::request())
        .map(Reply::into_response)
        .boxed()
}
