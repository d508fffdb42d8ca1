//! The blog's addresses that are not files: a renamed post's old address answers a
//! permanent redirect to its new one (the admin API keeps the old slugs), and the list
//! pages' old addresses lead to the list page that holds their posts now. Everything else under `/blog` is a
//! static file, or the blog's own 404 page.

use generator::blog::{LIST_ROUTE, archive_pages, list_page_route, post_route, store};
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
    // every publish. It leads (for now: the answer moves as posts are published) to the page
    // that says "Page n of …" today, which holds about the posts it held then.
    let list_page = {
        let db = db.clone();
        get.and(warp::path!("blog" / "page" / usize))
            .and_then(move |n: usize| {
                let db = db.clone();
                async move {
                    if n <= 1 {
                        return Ok(redirect(StatusCode::PERMANENT_REDIRECT, LIST_ROUTE));
                    }
                    let posts = published(&db).await?;
                    match list_page_route(posts, n) {
                        Some(route) => Ok(redirect(StatusCode::FOUND, &route)),
                        None => Err(warp::reject::not_found()),
                    }
                }
            })
    };
    // An archive page that is not a file: when the archive counted every post from the
    // oldest, its newest pages held posts that `/blog` shows now, and those addresses may be
    // linked from elsewhere. They lead to `/blog` until the archive grows into them again
    // (with the same posts).
    let archive_page = {
        let db = db.clone();
        get.and(warp::path!("blog" / "archive" / usize))
            .and_then(move |k: usize| {
                let db = db.clone();
                async move {
                    if k >= 1 && k > archive_pages(published(&db).await?) {
                        Ok(redirect(StatusCode::FOUND, LIST_ROUTE))
                    } else {
                        Err(warp::reject::not_found())
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
    list_page
        .or(archive_page)
        .unify()
        .or(renamed)
        .unify()
        .boxed()
}

/// How many posts are published.
async fn published(db: &Db) -> Result<usize, Rejection> {
    db.read(store::published_count)
        .await
        .map_err(Rejection::from)
}

fn redirect(status: StatusCode, location: &str) -> Response {
    let mut res = Response::new(Default::default());
    *res.status_mut() = status;
    if let Ok(value) = HeaderValue::from_str(location) {
        res.headers_mut().insert(header::LOCATION, value);
    }
    res
}
