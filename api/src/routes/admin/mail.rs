//! GET /api/admin/mail: what the site sent, for staff to see that mail goes out.

use jiff::Timestamp;
use serde_json::json;
use warp::filters::BoxedFilter;
use warp::http::StatusCode;
use warp::reply::Response;
use warp::{Filter, Rejection};

use super::json;
use crate::domain::audit::{self, Action};
use crate::domain::auth::Admin;
use crate::domain::mail::queue;
use crate::domain::staff::Cap;
use crate::state::AppState;
use crate::store::db::Db;

pub fn routes(state: AppState) -> BoxedFilter<(Response,)> {
    let (db, clock) = (state.db.clone(), state.clock.clone());
    warp::path!("mail")
        .and(warp::get())
        .and(super::allowed(state, Cap::MailRead))
        .and_then(move |admin| list(db.clone(), clock.now(), admin))
        .boxed()
}

/// GET /api/admin/mail → `{messages, failedLastWeek}`: the newest 100 messages (to,
/// subject, kind, status, attempts, last error) and how many were given up in the last 7
/// days (the dashboard warns when there are any). It names who got a receipt: audited like
/// every other list of people.
async fn list(db: Db, now: Timestamp, admin: Admin) -> Result<Response, Rejection> {
    audit::record_access(&db, Action::View, "mail", admin.by()).await?;
    let (messages, failed) = db
        .read(move |c| Ok((queue::newest(c)?, queue::failed_last_week(c, now)?)))
        .await?;
    Ok(json(
        StatusCode::OK,
        &json!({ "messages": messages, "failedLastWeek": failed }),
    ))
}
