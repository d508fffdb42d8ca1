//! `/api/admin/*`: the staff area's API. Every route but the sign-in steps and the mailed
//! links' puts [`allowed`] with the capability it needs right after its path and method
//! (and names it as `x-capability` in api/openapi.json), and every answer, errors
//! included, is `Cache-Control: no-store`.

mod audit_log;
pub(crate) mod blogs;
mod broadcasts;
mod deploy;
mod donations;
mod downloads;
#[cfg(test)]
mod editor_rules;
mod erasure;
mod events;
mod links;
mod mail;
mod monthly;
mod people;
mod security;
mod session;
mod sms_opt_outs;
mod submissions;
mod suppressions;
mod test_clock;
mod tokens;
mod users;

use serde::Serialize;
use warp::filters::BoxedFilter;
use warp::http::StatusCode;
use warp::reply::Response;
use warp::{Filter, Reply};

use std::net::IpAddr;

use warp::Rejection;

use std::str::FromStr as _;

use crate::domain::auth::{Actor, Admin};
use crate::domain::clock::sql_time;
use crate::domain::staff::{Cap, service_tokens, sessions};
use crate::http::error::{self, ApiError};
use crate::http::filters::client_ip;
use crate::state::AppState;

/// All routes below `/api/admin/` (the caller adds `/api`).
pub fn routes(state: AppState) -> BoxedFilter<(Response,)> {
    let routes = session::routes(state.clone())
        .or(security::routes(state.clone()))
        .unify()
        .or(links::routes(state.clone()))
        .unify()
        .or(users::routes(state.clone()))
        .unify()
        .or(tokens::routes(state.clone()))
        .unify()
        .or(audit_log::routes(state.clone()))
        .unify()
        .or(submissions::routes(state.clone()))
        .unify()
        .or(donations::routes(state.clone()))
        .unify()
        .or(erasure::routes(state.clone()))
        .unify()
        .or(mail::routes(state.clone()))
        .unify()
        .or(broadcasts::routes(state.clone()))
        .unify()
        .or(suppressions::routes(state.clone()))
        .unify()
        .or(monthly::routes(state.clone()))
        .unify()
        .or(people::routes(state.clone()))
        .unify()
        .or(test_clock::routes(state.clone()))
        .unify()
        .or(sms_opt_outs::routes(state.clone()))
        .unify()
        .or(deploy::routes(state.clone()))
        .unify()
        .or(events::routes(state.clone()))
        .unify()
        .or(blogs::routes(state))
        .unify();
    warp::path("admin")
        .and(routes.recover(error::recover).unify())
        .with(warp::reply::with::header("cache-control", "no-store"))
        .map(Reply::into_response)
        .boxed()
}

/// How often a session's "last seen" is written: at most once a minute per session, so a
/// busy admin page does not turn every read into a write.
const SEEN_EVERY_SECS: i64 = 60;

/// The filter every admin route puts right after its path and method: a valid, live session
/// (or service token) whose role (or scope) holds `cap`. Without one, `401`; without the
/// capability, `403 "Your role (Organizer) can't …"`; an Owner or Treasurer with no strong
/// second factor yet gets `403` with `"enrol": true` on everything but their own account.
pub(super) fn allowed(
    state: AppState,
    cap: Cap,
) -> impl Filter<Extract = (Admin,), Error = Rejection> + Clone {
    let (auth, db, clock) = (state.auth.clone(), state.db.clone(), state.clock.clone());
    warp::header::headers_cloned()
        .and(client_ip(state.config.trust_proxy.clone()))
        .and_then(move |headers: warp::http::HeaderMap, ip: IpAddr| {
            let (auth, db, clock) = (auth.clone(), db.clone(), clock.clone());
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
                    .map(|(_, token)| token.trim().to_owned())
                    .filter(|t| !t.is_empty())
                    .ok_or_else(|| unauthorized("Sign in to continue."))?;
                let now = clock.now();
                if token.starts_with(service_tokens::PREFIX) {
                    let auth2 = auth.clone();
                    let found = db
                        .read(move |c| service_tokens::check(c, &auth2.keys, &token, now))
                        .await?;
                    let Some((id, scope)) = found else {
                        return Err(unauthorized("This service token is not valid."));
                    };
                    if !scope.can(cap) {
                        return Err(ApiError::Forbidden(format!(
                            "This service token ({}) can't {}.",
                            scope.label(),
                            cap.denied()
                        ))
                        .into());
                    }
                    db.write(move |tx| service_tokens::used(tx, id, now)).await?;
                    return Ok(Admin {
                        jti: String::new(),
                        expires_at: 0,
                        ip,
                        actor: Actor::Service { id, scope },
                    });
                }
                let claims = auth.verify(&token).ok_or_else(|| {
                    unauthorized("Your session has expired. Please sign in again.")
                })?;
                let jti = claims.jti.clone();
                let live = db.read(move |c| sessions::live(c, &jti)).await?;
                let Some(live) = live.filter(|l| l.user.to_string() == claims.sub) else {
                    return Err(unauthorized("You have signed out. Please sign in again."));
                };
                if !live.role.can(cap) {
                    return Err(ApiError::Forbidden(format!(
                        "Your role ({}) can't {}.",
                        live.role.label(),
                        cap.denied()
                    ))
                    .into());
                }
                if live.role.needs_strong_factor()
                    && !live.strong_factor
                    && cap.needs_strong_factor()
                {
                    return Err(ApiError::MustEnrol(format!(
                        "Set up an authenticator app or a passkey to continue: your role ({}) requires one.",
                        live.role.label()
                    ))
                    .into());
                }
                let stale = jiff::Timestamp::from_str(&live.last_seen_at)
                    .map(|seen| now.as_second() - seen.as_second() >= SEEN_EVERY_SECS)
                    .unwrap_or(true);
                if stale {
                    let (session, at, from) = (live.session, sql_time(now), ip.to_string());
                    db.write(move |tx| sessions::seen(tx, session, &at, &from)).await?;
                }
                Ok(Admin {
                    jti: claims.jti,
                    expires_at: claims.exp,
                    ip,
                    actor: Actor::User {
                        id: live.user,
                        role: live.role,
                        session: live.session,
                    },
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
pub(crate) use suppressions::address as suppressions_address;
