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
pub mod domain;
pub mod donations;
pub mod donor_pass;
#[cfg(test)]
mod editor_rules;
pub mod erasure;
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
pub mod security_headers;
pub mod server;
pub mod state;
pub mod static_files;
pub use domain::uploads;

use warp::filters::BoxedFilter;
use warp::reply::Response;
use warp::{Filter, Reply};

pub use state::AppState;

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
    let security = state.security_headers.clone();
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
    let api = warp::path::full()
        .and(warp::path("api"))
        .and(routes::api(state).recover(error::recover).unify())
        .map(|path: warp::path::FullPath, mut res: Response| {
            // A 405 says which methods the address takes.
            if res.status() == warp::http::StatusCode::METHOD_NOT_ALLOWED
                && let Some(allow) = routes::openapi::allowed_methods(path.as_str())
            {
                res.headers_mut().insert(
                    warp::http::header::ALLOW,
                    warp::http::HeaderValue::from_static(allow),
                );
            }
            res
        });
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
        .map(move |path: warp::path::FullPath, reply: Response| {
            let mut res = reply.into_response();
            security.add(path.as_str(), res.headers_mut());
            res
        })
        .boxed()
}
