//! The admin app's addresses: `/admin`, `/admin/dashboard`, `/admin/security`,
//! `/admin/invite`, `/admin/reset`, `/admin/suppressions`, `/admin/blog/{id}`,
//! `/admin/blog/{id}/mail`, `/admin/broadcasts/{id}`, `/admin/person/{id}`,
//! `/admin/events/{id}` and `/admin/events/{id}/attendees` all
//! answer the one shell the generator writes ([`generator::pages::ADMIN_SHELL`]); the
//! React app in it decides what to show. Never stored by a browser or proxy (it is the way
//! into staff data) and never indexed.

use std::sync::Arc;

use warp::Filter;
use warp::filters::BoxedFilter;
use warp::http::{HeaderValue, header};
use warp::reply::Response;

use crate::http::static_files::StaticFiles;

pub fn routes(files: Arc<StaticFiles>) -> BoxedFilter<(Response,)> {
    let paths = warp::path!("admin")
        .or(warp::path!("admin" / "dashboard"))
        .unify()
        // The Security screen, and the pages the mailed links open (their token is in the
        // fragment, which never reaches the server).
        .or(warp::path!("admin" / "security"))
        .unify()
        .or(warp::path!("admin" / "invite"))
        .unify()
        .or(warp::path!("admin" / "reset"))
        .unify()
        .or(warp::path!("admin" / "suppressions"))
        .unify()
        .or(warp::path!("admin" / "blog" / String / "mail")
            .map(|_id: String| ())
            .untuple_one())
        .unify()
        .or(warp::path!("admin" / "broadcasts" / String)
            .map(|_id: String| ())
            .untuple_one())
        .unify()
        .or(warp::path!("admin" / "blog" / String)
            .map(|_id: String| ())
            .untuple_one())
        .unify()
        .or(warp::path!("admin" / "person" / String)
            .map(|_id: String| ())
            .untuple_one())
        .unify()
        .or(warp::path!("admin" / "events" / String)
            .map(|_id: String| ())
            .untuple_one())
        .unify()
        .or(warp::path!("admin" / "events" / String / "attendees")
            .map(|_id: String| ())
            .untuple_one())
        .unify();
    warp::get()
        .or(warp::head())
        .unify()
        .and(paths)
        .and(warp::method())
        .and(warp::header::optional::<String>("accept-encoding"))
        .then(move |method: warp::http::Method, accept: Option<String>| {
            let head = method == warp::http::Method::HEAD;
            let files = files.clone();
            async move {
                let mut res = files
                    .file(generator::pages::ADMIN_SHELL, accept.as_deref(), head)
                    .await;
                let headers = res.headers_mut();
                headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
                headers.insert("x-robots-tag", HeaderValue::from_static("noindex"));
                headers.remove(header::ETAG);
                res
            }
        })
        .boxed()
}
