//! `/api/admin/service-tokens`: keys for automation, made and revoked by an Owner
//! (capability `service_tokens.manage`). The token is shown once, at creation.

use serde::Deserialize;
use serde_json::json;
use warp::filters::BoxedFilter;
use warp::http::StatusCode;
use warp::reply::Response;
use warp::{Filter, Rejection};

use super::{json, success};
use crate::domain::audit::{self, Action};
use crate::domain::auth::Admin;
use crate::domain::staff::Cap;
use crate::domain::staff::service_tokens::{self, Scope};
use crate::http::error::ApiError;
use crate::http::filters::{json_body, parse_id};
use crate::state::AppState;

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct New {
    name: String,
    scope: String,
    /// How many days it works for: 1 to 365, 90 when not given.
    #[serde(default)]
    expires_in_days: Option<i64>,
}

pub fn routes(state: AppState) -> BoxedFilter<(Response,)> {
    let with = {
        let state = state.clone();
        warp::any().map(move || state.clone())
    };
    let may = super::allowed(state.clone(), Cap::ServiceTokensManage).and(with);
    let list = warp::path!("service-tokens")
        .and(warp::get())
        .and(may.clone())
        .and_then(|_: Admin, state: AppState| async move {
            let now = state.clock.now();
            let tokens = state.db.read(move |c| service_tokens::list(c, now)).await?;
            Ok::<_, Rejection>(json(StatusCode::OK, &json!({ "tokens": tokens })))
        });
    let create = warp::path!("service-tokens")
        .and(warp::post())
        .and(may.clone())
        .and(json_body::<New>(4 * 1024))
        .and_then(create);
    let revoke = warp::path!("service-tokens" / String)
        .and(warp::delete())
        .and(may)
        .and_then(revoke);
    list.or(create).unify().or(revoke).unify().boxed()
}

/// POST /api/admin/service-tokens `{name, scope}` -> `201 {id, token}`
async fn create(admin: Admin, state: AppState, body: New) -> Result<Response, Rejection> {
    let name = body.name.trim().to_owned();
    if name.is_empty() || name.chars().count() > 60 {
        return Err(ApiError::BadRequest(
            "Name the token (up to 60 characters), such as \"Nightly export\".".into(),
        )
        .into());
    }
    let Some(scope) = Scope::parse(body.scope.trim()) else {
        return Err(ApiError::BadRequest("The scope must be \"exports\".".into()).into());
    };
    let days = body
        .expires_in_days
        .unwrap_or(service_tokens::DEFAULT_LIFE_DAYS);
    if !(1..=service_tokens::LONGEST_LIFE_DAYS).contains(&days) {
        return Err(ApiError::BadRequest(format!(
            "A token works for 1 to {} days.",
            service_tokens::LONGEST_LIFE_DAYS
        ))
        .into());
    }
    let (auth, now) = (state.auth.clone(), state.clock.now());
    let expires = now + jiff::SignedDuration::from_hours(24 * days);
    let by = admin.user().unwrap_or_default();
    let (id, token) = state
        .db
        .write(move |tx| {
            let made = service_tokens::create(tx, &auth.keys, &name, scope, by, (now, expires))?;
            audit::record_detailed(
                tx,
                Action::ServiceToken,
                &format!("service-token:{}", made.0),
                Some(admin.by()),
                &format!("created \"{name}\" ({}), for {days} days", scope.as_str()),
            )?;
            Ok(made)
        })
        .await?;
    Ok(json(
        StatusCode::CREATED,
        &json!({
            "id": id,
            "token": token,
            "expiresAt": crate::domain::clock::sql_time(expires),
        }),
    ))
}

/// DELETE /api/admin/service-tokens/{id}: refused from the next request on.
async fn revoke(id: String, admin: Admin, state: AppState) -> Result<Response, Rejection> {
    let id = parse_id(&id)?;
    let now = state.clock.now();
    let done = state
        .db
        .write(move |tx| {
            let done = service_tokens::revoke(tx, id, now)?;
            if done {
                audit::record_detailed(
                    tx,
                    Action::ServiceToken,
                    &format!("service-token:{id}"),
                    Some(admin.by()),
                    "revoked",
                )?;
            }
            Ok(done)
        })
        .await?;
    if !done {
        return Err(ApiError::NotFound(
            "There is no such service token, or it is revoked already.".into(),
        )
        .into());
    }
    Ok(success())
}
