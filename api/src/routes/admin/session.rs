//! Signing in and out.

use std::net::IpAddr;
use std::sync::Arc;

use serde::Deserialize;
use serde_json::json;
use warp::filters::BoxedFilter;
use warp::http::StatusCode;
use warp::reply::Response;
use warp::{Filter, Rejection};

use super::{json, success};
use crate::domain::audit::{self, Action};
use crate::domain::auth::{Admin, Auth, NotChecked};
use crate::http::error::ApiError;
use crate::http::filters::{client_ip, json_body};
use crate::state::AppState;
use crate::store::db::Db;

/// A password is short; anything longer is not one.
const LOGIN_BODY_LIMIT: u64 = 4 * 1024;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Login {
    #[serde(default)]
    password: Option<String>,
}

pub fn routes(state: AppState) -> BoxedFilter<(Response,)> {
    let (auth, db) = (state.auth.clone(), state.db.clone());
    let login = warp::path!("login")
        .and(warp::post())
        .and(client_ip(state.config.trust_proxy.clone()))
        .and(json_body::<Login>(LOGIN_BODY_LIMIT))
        .and_then({
            let db = db.clone();
            move |ip, body| login(auth.clone(), db.clone(), ip, body)
        });
    let logout = warp::path!("logout")
        .and(warp::post())
        .and(super::signed_in(state))
        .and_then(move |admin| logout(db.clone(), admin));
    login.or(logout).unify().boxed()
}

/// POST /api/admin/login `{password}` -> `{success, token}`
async fn login(auth: Arc<Auth>, db: Db, ip: IpAddr, body: Login) -> Result<Response, Rejection> {
    let password = body.password.unwrap_or_default();
    if password.trim().is_empty() {
        return Err(ApiError::BadRequest("Enter the admin password.".into()).into());
    }
    let matches = match auth.check_attempt(ip, password).await {
        Ok(matches) => matches,
        Err(NotChecked::LockedOut(seconds)) => {
            tracing::warn!(%ip, "admin login locked out");
            return Err(ApiError::RetryAfter {
                message: format!(
                    "Too many failed sign-in attempts. Please try again in {} minutes.",
                    seconds.div_ceil(60)
                ),
                seconds,
            }
            .into());
        }
        Err(NotChecked::Busy) => {
            tracing::warn!(%ip, "admin login refused: too many password checks waiting");
            return Err(ApiError::RetryAfter {
                message: "Too many sign-in attempts at once. Please try again in a moment.".into(),
                seconds: 5,
            }
            .into());
        }
    };
    if !matches {
        // Counted per address and minute: a flood adds one row a minute, not one an attempt.
        db.write(move |tx| audit::record_failed_login(tx, ip))
            .await?;
        tracing::warn!(%ip, "admin login failed");
        return Err(ApiError::Unauthorized("Invalid password".into()).into());
    }
    db.write(move |tx| audit::record(tx, Action::Login, None, ip))
        .await?;
    let (token, _) = auth.issue().map_err(ApiError::Internal)?;
    Ok(json(
        StatusCode::OK,
        &json!({ "success": true, "token": token }),
    ))
}

/// POST /api/admin/logout: the presented token is refused from now until it would have
/// expired anyway.
async fn logout(db: Db, admin: Admin) -> Result<Response, Rejection> {
    let now = jiff::Timestamp::now().as_second();
    db.write(move |tx| {
        tx.execute("DELETE FROM revoked_tokens WHERE expires_at < ?1", [now])?;
        tx.execute(
            "INSERT OR IGNORE INTO revoked_tokens (jti, expires_at) VALUES (?1, ?2)",
            rusqlite::params![admin.jti, admin.expires_at],
        )?;
        audit::record(tx, Action::Logout, None, admin.ip)
    })
    .await?;
    Ok(success())
}
