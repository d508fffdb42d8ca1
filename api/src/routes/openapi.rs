//! GET /api/openapi.json: the OpenAPI 3.1 description of every `/api` route, kept beside
//! the code (api/openapi.json); a test checks the two agree route by route.

use warp::Filter;
use warp::filters::BoxedFilter;
use warp::http::{Response as HttpResponse, header};
use warp::reply::Response;

/// The document, as written.
pub const DOCUMENT: &str = include_str!("../../openapi.json");

pub fn routes() -> BoxedFilter<(Response,)> {
    warp::path!("openapi.json")
        .and(warp::get())
        .map(|| {
            HttpResponse::builder()
                .header(header::CONTENT_TYPE, "application/json")
                .header(header::CACHE_CONTROL, "no-cache")
                .body(DOCUMENT.into())
                .expect("static headers are valid")
        })
        .boxed()
}
