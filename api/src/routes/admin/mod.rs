//! `/api/admin/*`: the staff area's API. Every group but the sign-in itself puts
//! [`auth::admin`](crate::domain::auth::admin) right after its path and method, and every answer,
//! errors included, is `Cache-Control: no-store`.

pub(crate) mod blogs;
mod donations;
mod erasure;
mod session;
mod submissions;

use serde::Serialize;
use warp::filters::BoxedFilter;
use warp::http::StatusCode;
use warp::reply::Response;
use warp::{Filter, Reply};

use crate::http::error;
use crate::state::AppState;

/// All routes below `/api/admin/` (the caller adds `/api`).
pub fn routes(state: AppState) -> BoxedFilter<(Response,)> {
    let routes = session::routes(state.clone())
        .or(submissions::routes(state.clone()))
        .unify()
        .or(donations::routes(state.clone()))
        .unify()
        .or(erasure::routes(state.clone()))
        .unify()
        .or(blogs::routes(state))
        .unify();
    warp::path("admin")
        .and(routes.recover(error::recover).unify())
        .with(warp::reply::with::header("cache-control", "no-store"))
        .map(Reply::into_response)
        .boxed()
}

/// A JSON answer with `status`.
fn json<T: Serialize>(status: StatusCode, body: &T) -> Response {
    warp::reply::with_status(warp::reply::json(body), status).into_response()
}

/// `{"success": true}`
fn success() -> Response {
    json(StatusCode::OK, &serde_json::json!({ "success": true }))
}

/// Money as the spec shows it: cents to `"25.00"`.
pub fn dollars(cents: i64) -> String {
    format!("{}.{:02}", cents / 100, (cents % 100).abs())
}
