//! `GET /api/admin/audit?actor=&page=` and `/audit/export`: who did what (capability
//! `audit.read`: Owners and Administrators).

use std::collections::HashMap;

use serde_json::json;
use warp::filters::BoxedFilter;
use warp::http::StatusCode;
use warp::reply::Response;
use warp::{Filter, Rejection};

use super::downloads;
use super::json;
use crate::domain::audit::{self, Action};
use crate::domain::auth::Admin;
use crate::domain::export::{self, Sheet};
use crate::domain::staff::Cap;
use crate::http::error::ApiError;
use crate::state::AppState;

pub fn routes(state: AppState) -> BoxedFilter<(Response,)> {
    let with = {
        let state = state.clone();
        warp::any().map(move || state.clone())
    };
    let may = super::allowed(state, Cap::AuditRead).and(with);
    let list = warp::path!("audit")
        .and(warp::get())
        .and(may.clone())
        .and(warp::query::<HashMap<String, String>>())
        .and_then(list);
    let export = warp::path!("audit" / "export")
        .and(warp::get())
        .and(may)
        .and(warp::query::<HashMap<String, String>>())
        .and_then(export);
    list.or(export).unify().boxed()
}

fn number(query: &HashMap<String, String>, key: &str) -> Result<Option<i64>, ApiError> {
    match query.get(key).map(|v| v.trim()).filter(|v| !v.is_empty()) {
        None => Ok(None),
        Some(v) => v
            .parse::<i64>()
            .ok()
            .filter(|n| *n >= 0 && *n < 1_000_000_000)
            .map(Some)
            .ok_or_else(|| ApiError::BadRequest(format!("{key} must be a whole number."))),
    }
}

async fn list(
    admin: Admin,
    state: AppState,
    query: HashMap<String, String>,
) -> Result<Response, Rejection> {
    let (actor, page) = (
        number(&query, "actor")?,
        number(&query, "page")?.unwrap_or(0),
    );
    audit::record_access(&state.db, Action::View, "audit", admin.by()).await?;
    let (entries, total) = state
        .db
        .read(move |c| audit::page(c, actor, Some(page)))
        .await?;
    Ok(json(
        StatusCode::OK,
        &json!({ "entries": entries, "total": total, "pageSize": audit::PAGE_SIZE }),
    ))
}

async fn export(
    admin: Admin,
    state: AppState,
    query: HashMap<String, String>,
) -> Result<Response, Rejection> {
    let actor = number(&query, "actor")?;
    audit::record_access(&state.db, Action::Export, "audit", admin.by()).await?;
    let (entries, _) = state.db.read(move |c| audit::page(c, actor, None)).await?;
    let rows = entries
        .into_iter()
        .map(|e| {
            vec![
                e.id.to_string(),
                export::local_time(&state.site, Some(&e.at)),
                e.action,
                e.target.unwrap_or_default(),
                e.user.as_ref().map(|u| u.email.clone()).unwrap_or_default(),
                e.actor.unwrap_or_default(),
                e.ip.unwrap_or_default(),
                e.detail.unwrap_or_default(),
            ]
        })
        .collect();
    let sheet = Sheet {
        kind: "audit",
        headers: vec![
            "ID",
            "When",
            "Action",
            "Target",
            "User",
            "Other actor",
            "Address",
            "Detail",
        ],
        rows,
    };
    Ok(downloads::response(&state.site, &sheet)?)
}
