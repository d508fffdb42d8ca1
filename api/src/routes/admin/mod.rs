//! `/api/admin/*`: the staff area's API. Every group but the sign-in itself puts
//! [`auth::admin`](crate::domain::auth::admin) right after its path and method, and every answer,
//! errors included, is `Cache-Control: no-store`.

pub(crate) mod blogs;
mod donations;
mod downloads;
#[cfg(test)]
mod editor_rules;
mod erasure;
mod mail;
mod monthly;
mod people;
mod session;
mod sms_opt_outs;
mod submissions;
mod test_clock;

use serde::Serialize;
use warp::filters::BoxedFilter;
use warp::http::StatusCode;
use warp::reply::Response;
use warp::{Filter, Reply};

use std::net::IpAddr;

use warp::Rejection;

use crate::domain::auth::Admin;
use crate::http::error::{self, ApiError};
use crate::http::filters::client_ip;
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
        .or(mail::routes(state.clone()))
        .unify()
        .or(monthly::routes(state.clone()))
        .unify()
        .or(people::routes(state.clone()))
        .unify()
        .or(test_clock::routes(state.clone()))
        .unify()
        .or(sms_opt_outs::routes(state.clone()))
        .unify()
        .or(blogs::routes(state))
        .unify();
    warp::path("admin")
        .and(routes.recover(error::recover).unify())
        .with(warp::reply::with::header("cache-control", "no-store"))
        .map(Reply::into_response)
        .boxed()
}

/// The filter every admin route group puts right after its path and method: a valid,
/// unrevoked `Authorization: Bearer` token, or `401`.
pub(super) fn signed_in(
    state: AppState,
) -> impl Filter<Extract = (Admin,), Error = Rejection> + Clone {
    let (auth, db) = (state.auth.clone(), state.db.clone());
    warp::header::headers_cloned()
        .and(client_ip(state.config.trust_proxy.clone()))
        .and_then(move |headers: warp::http::HeaderMap, ip: IpAddr| {
            let (auth, db) = (auth.clone(), db.clone());
            async move {
                let unauthorized = |m: &str| Rejection::from(ApiError::Unauthorized(m.to_owned()));
                // A header that is not even text is as good as none.
                let Some(header) = headers.get("authorization").and_then(|h| h.to_str().ok())
                else {
                    return Err(unauthorized("Sign in to continue."));
                };
                // The scheme's name is case-insensitive (RFC 9110 §11.1).
                let token = header
                    .split_once(' ')
                    .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
                    .map(|(_, token)| token.trim())
                    .filter(|t| !t.is_empty())
                    .ok_or_else(|| unauthorized("Sign in to continue."))?;
                let claims = auth.verify(token).ok_or_else(|| {
                    unauthorized("Your session has expired. Please sign in again.")
                })?;
                let jti = claims.jti.clone();
                let revoked: bool = db
                    .read(move |c| {
                        c.query_row(
                            "SELECT EXISTS (SELECT 1 FROM revoked_tokens WHERE jti = ?1)",
                            [&jti],
                            |r| r.get(0),
                        )
                    })
                    .await?;
                if revoked {
                    return Err(unauthorized("You have signed out. Please sign in again."));
                }
                Ok(Admin {
                    jti: claims.jti,
                    expires_at: claims.exp,
                    ip,
                })
            }
        })
}

/// A JSON answer with `status`.
fn json<T: Serialize>(status: StatusCode, body: &T) -> Response {
    warp::reply::with_status(warp::reply::json(body), status).into_response()
}

/// `{"success": true}`
fn success() -> Response {
    json(StatusCode::OK, &serde_json::json!({ "success": true }))
}

pub use crate::domain::donations::store::dollars;
