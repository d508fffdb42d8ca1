//! The blog's addresses that are not files: a renamed post's old address answers a
//! permanent redirect to its new one (the admin API keeps the old slugs), and the list
//! pages' old addresses lead to their archive page. Everything else under `/blog` is a
//! static file, or the blog's own 404 page.

use generator::blog::{LIST_ROUTE, PAGE_SIZE, archive_holding, archive_route, post_route, store};
use warp::filters::BoxedFilter;
use warp::http::{HeaderValue, StatusCode, header};
use warp::reply::Response;
use warp::{Filter, Rejection};

use std::path::PathBuf;

use crate::store::db::Db;

/// The redirects, for the site in `dist` whose posts are in `db`.
pub fn routes(db: Db, dist: PathBuf) -> BoxedFilter<(Response,)> {
    let get = warp::get().or(warp::head()).unify();
    // `/blog/page/{n}` counted list pages from the newest post, so its posts moved with
    // every publish; the archive counts from the oldest. An old address leads (for now: the
    // answer moves as posts are published) to the archive page that holds the post that was
    // first on it, had nothing been published since.
    let list_page = {
        let db = db.clone();
        get.and(warp::path!("blog" / "page" / usize))
            .and_then(move |n: usize| {
                let db = db.clone();
                async move {
                    if n <= 1 {
                        return Ok(redirect(StatusCode::PERMANENT_REDIRECT, LIST_ROUTE));
                    }
                    let posts = db
                        .read(store::published_count)
                        .await
                        .map_err(Rejection::from)?;
                    let first = (n - 1).saturating_mul(PAGE_SIZE);
                    match archive_holding(posts, first) {
                        Some(k) => Ok(redirect(StatusCode::FOUND, &archive_route(k))),
                        None => Err(warp::reject::not_found()),
                    }
                }
            })
    };
    let renamed = get
        .and(warp::path!("blog" / String))
        .and_then(move |slug: String| {
            let db = db.clone();
            let page = dist.join("blog").join(&slug).join("index.html");
            async move {
                // A post that exists is the static site's to serve.
                if slug.starts_with('.') || slug.contains(['/', '\\']) || page.is_file() {
                    return Err(warp::reject::not_found());
                }
                let target = db
                    .read(move |c| store::redirect_target(c, &slug))
                    .await
                    .map_err(Rejection::from)?;
                match target {
                    Some(new) => Ok(redirect(StatusCode::PERMANENT_REDIRECT, &post_route(&new))),
                    None => Err(warp::reject::not_found()),
                }
            }
        });
    list_page.or(renamed).unify().boxed()
}

fn redirect(status: StatusCode, location: &str) -> Response {
    let mut res = Response::new(Default::default());
    *res.status_mut() = status;
    if let Ok(value) = HeaderValue::from_str(location) {
        res.headers_mut().insert(header::LOCATION, value);
    }
    res
}
