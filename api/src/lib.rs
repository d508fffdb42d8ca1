//! The party site's server: the JSON API under `/api`, the pages the server answers itself,
//! and the generated static site, on one origin.
//!
//! - [`http`]: the server loop, filters, the one error type, headers, static files;
//! - [`routes`]: the JSON API, one module per route group;
//! - [`pages`]: the non-`/api` answers (blog redirects, previews, form problems, the admin shell);
//! - [`domain`]: the rules with no HTTP in them (sign-in, donations, uploads, audit, erasure…);
//! - [`store`]: SQLite, backups and housekeeping;
//! - [`workers`]: every background loop, started in one place;
//! - [`config`] and [`state`]: the settings and what every handler can reach.

mod chores;
pub mod config;
pub mod domain;
#[cfg(test)]
mod generated_files;
pub mod http;
pub mod memory;
pub mod offsite;
pub mod pages;
pub mod routes;
pub mod state;
pub mod store;
pub mod workers;

use std::sync::Arc;

use warp::filters::BoxedFilter;
use warp::reply::Response;
use warp::{Filter, Reply};

pub use state::AppState;

/// The whole application: API, static site, error mapping and security headers.
pub fn app(state: AppState) -> BoxedFilter<(Response,)> {
    let files = state.static_files.clone();
    let security = state.security_headers.clone();
    let uploads = pages::uploads::routes(state.config.data_dir.join("uploads"));
    let links = pages::Links {
        db: state.db.clone(),
        clock: state.clock.clone(),
        mail: state.mail.clone(),
        dist: Arc::new(state.config.dist_dir.clone()),
    };
    // Everything under /api/ answers JSON, errors and unknown paths included; every
    // other path falls through to the pages the server answers itself (no-script form
    // results, the blog's redirects, previews of unsaved posts, the admin app's shell), the
    // blog's uploaded images, then the static site and its HTML 404 pages.
    let pages = pages::form_problems::routes(
        state.form_problems.clone(),
        state.texts_consent.clone(),
        state.config.dist_dir.clone(),
    )
    .or(pages::blog_pages::routes(
        state.db.clone(),
        state.config.dist_dir.clone(),
    ))
    .unify()
    .or(pages::previews::routes(state.previews.clone()))
    .unify()
    .or(pages::admin_shell::routes(files.clone()))
    .unify()
    .or(pages::newsletter_links::routes(links.clone()))
    .unify()
    .or(pages::plan_links::routes(
        links.clone(),
        state.config.trust_proxy.clone(),
    ))
    .unify()
    .or(pages::rsvp_links::routes(
        links.clone(),
        state.site.clone(),
        state.config.trust_proxy.clone(),
    ))
    .unify()
    .or(pages::donor_links::routes(links))
    .unify();
    let api = warp::path::full()
        .and(warp::path("api"))
        .and(routes::api(state).recover(http::error::recover).unify())
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
        .or(http::static_files::routes(files))
        .unify()
        .recover(http::error::recover)
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
