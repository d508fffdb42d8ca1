//! The suppression list for staff (capability `mail.suppressions`):
//!
//! - `GET /api/admin/suppressions[?q=]` → `{entries, total}`: who, why, when, added by whom.
//! - `POST /api/admin/suppressions {email, reason: "staff"|"complained", detail?}` → added
//!   (a complaint recorded from a provider's report, or an address staff were asked to stop).
//! - `POST /api/admin/suppressions/lift {email}` → a mistaken entry taken off. Both audited.

use std::collections::HashMap;

use serde::Deserialize;
use serde_json::json;
use warp::filters::BoxedFilter;
use warp::http::StatusCode;
use warp::reply::Response;
use warp::{Filter, Rejection};

use super::json;
use crate::domain::audit::{self, Action};
use crate::domain::auth::Admin;
use crate::domain::mail::suppressions::{self, Reason};
use crate::domain::staff::Cap;
use crate::http::error::ApiError;
use crate::http::filters::json_body;
use crate::state::AppState;

#[derive(Debug, Deserialize)]
struct Add {
    email: Option<String>,
    reason: Option<String>,
    detail: Option<String>,
}

#[derive(Debug, Deserialize)]
struct Lift {
    email: Option<String>,
}

pub fn routes(state: AppState) -> BoxedFilter<(Response,)> {
    let admin = |cap| super::allowed(state.clone(), cap);
    let s = state.clone();
    let list = warp::path!("suppressions")
        .and(warp::get())
        .and(admin(Cap::MailSuppressions))
        .and(warp::query::<HashMap<String, String>>())
        .and_then(move |admin, query| list(s.clone(), admin, query));
    let s = state.clone();
    let add = warp::path!("suppressions")
        .and(warp::post())
        .and(admin(Cap::MailSuppressions))
        .and(json_body::<Add>(8 * 1024))
        .and_then(move |admin, body| add(s.clone(), admin, body));
    let s = state.clone();
    let lift = warp::path!("suppressions" / "lift")
        .and(warp::post())
        .and(admin(Cap::MailSuppressions))
        .and(json_body::<Lift>(2 * 1024))
        .and_then(move |admin, body| lift(s.clone(), admin, body));
    list.or(add).unify().or(lift).unify().boxed()
}

/// An address as the list keys it, or the 400 a person can act on.
pub(crate) fn address(email: Option<&str>) -> Result<String, ApiError> {
    let email = email.map(str::trim).unwrap_or_default();
    let valid = email.len() <= 254
        && email.parse::<lettre::Address>().is_ok()
        && !email.chars().any(char::is_control);
    if !valid {
        return Err(ApiError::BadRequest("Enter an e-mail address.".into()));
    }
    Ok(suppressions::key(email))
}

/// GET /api/admin/suppressions
async fn list(
    state: AppState,
    admin: Admin,
    query: HashMap<String, String>,
) -> Result<Response, Rejection> {
    let q = query
        .get("q")
        .map(|q| q.trim().chars().take(254).collect::<String>())
        .filter(|q| !q.is_empty());
    audit::record_access(&state.db, Action::View, "suppressions", admin.by()).await?;
    let (entries, total) = state
        .db
        .read(move |c| {
            Ok((
                suppressions::list(c, q.as_deref(), 500)?,
                suppressions::count(c)?,
            ))
        })
        .await?;
    Ok(json(
        StatusCode::OK,
        &json!({ "entries": entries, "total": total }),
    ))
}

/// POST /api/admin/suppressions
async fn add(state: AppState, admin: Admin, body: Add) -> Result<Response, Rejection> {
    let email = address(body.email.as_deref())?;
    let reason = match body.reason.as_deref().unwrap_or("staff") {
        "staff" => Reason::Staff,
        "complained" => Reason::Complained,
        _ => {
            return Err(ApiError::BadRequest(
                "reason must be staff or complained (bounces and unsubscribes are recorded as they happen).".into(),
            )
            .into());
        }
    };
    let detail = body
        .detail
        .map(|d| d.trim().chars().take(500).collect::<String>())
        .filter(|d| !d.is_empty());
    let (now, by, user) = (state.clock.now(), admin.by(), admin.user());
    let added = state
        .db
        .write(move |tx| {
            let added = suppressions::add(tx, &email, reason, detail.as_deref(), user, now)?;
            if added {
                audit::record_detailed(
                    tx,
                    Action::Suppress,
                    &format!("email:{email}"),
                    Some(by),
                    reason.as_str(),
                )?;
            }
            Ok(added)
        })
        .await?;
    Ok(json(
        if added {
            StatusCode::CREATED
        } else {
            StatusCode::OK
        },
        &json!({ "success": true, "added": added }),
    ))
}

/// POST /api/admin/suppressions/lift
async fn lift(state: AppState, admin: Admin, body: Lift) -> Result<Response, Rejection> {
    let email = address(body.email.as_deref())?;
    let by = admin.by();
    let lifted = state
        .db
        .write(move |tx| {
            let Some(reason) = suppressions::lift(tx, &email)? else {
                return Ok(None);
            };
            audit::record_detailed(
                tx,
                Action::Unsuppress,
                &format!("email:{email}"),
                Some(by),
                &format!("was {reason}"),
            )?;
            Ok(Some(reason))
        })
        .await?;
    match lifted {
        Some(reason) => Ok(json(
            StatusCode::OK,
            &json!({ "success": true, "was": reason }),
        )),
        None => {
            Err(ApiError::NotFound("That address is not on the suppression list.".into()).into())
        }
    }
}
