//! The blog's addresses that are not files: `/blog/page/1` is `/blog`, and a renamed post's
//! old address answers a permanent redirect to its new one (the admin API keeps the old
//! slugs). Everything else under `/blog` is a static file, or the blog's own 404 page.

use generator::blog::{post_route, store};
use warp::filters::BoxedFilter;
use warp::http::{HeaderValue, StatusCode, header};
use warp::reply::Response;
use warp::{Filter, Rejection};

use std::path::PathBuf;

use crate::store::db::Db;

/// The redirects, for the site in `dist` whose posts are in `db`.
pub fn routes(db: Db, dist: PathBuf) -> BoxedFilter<(Response,)> {
    let get = warp::get().or(warp::head()).unify();
    let first_page = get
        .and(warp::path!("blog" / "page" / "1"))
        .map(|| permanent_redirect("/blog"));
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
                    Some(new) => Ok(permanent_redirect(&post_route(&new))),
                    None => Err(warp::reject::not_found()),
                }
            }
        });
    first_page.or(renamed).unify().boxed()
}

fn permanent_redirect(location: &str) -> Response {
    let mut res = Response::new(Default::default());
    *res.status_mut() = StatusCode::PERMANENT_REDIRECT;
    if let Ok(value) = HeaderValue::from_str(location) {
        res.headers_mut().insert(header::LOCATION, value);
    }
    res
}
