//! POST /api/admin/erase `{email}`: erase a person on request (see [`crate::domain::erasure`]).

use generator::forms::is_valid_email;
use jiff::Timestamp;
use serde::Deserialize;
use warp::filters::BoxedFilter;
use warp::http::StatusCode;
use warp::reply::Response;
use warp::{Filter, Rejection};

use super::json;
use crate::domain::audit::{self, Action};
use crate::domain::auth::Admin;
use crate::domain::erasure;
use crate::http::error::ApiError;
use crate::http::filters::json_body;
use crate::state::AppState;
use crate::store::db::Db;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Request {
    email: String,
}

pub fn routes(state: AppState) -> BoxedFilter<(Response,)> {
    let (db, clock) = (state.db.clone(), state.clock.clone());
    warp::path!("erase")
        .and(warp::post())
        .and(super::signed_in(state))
        .and(json_body::<Request>(4 * 1024))
        .and_then(move |admin, request| erase(db.clone(), clock.now(), admin, request))
        .boxed()
}

/// Erases the person and answers what was done (`{contacts, volunteers, newsletters,
/// donationsRedacted, donationsKept, donationsInProgress}`).
async fn erase(
    db: Db,
    now: Timestamp,
    admin: Admin,
    request: Request,
) -> Result<Response, Rejection> {
    let email = request.email.trim().to_lowercase();
    if !is_valid_email(&email) {
        return Err(ApiError::BadRequest("Please enter a valid email address.".into()).into());
    }
    let target = erasure::audit_target(&email);
    let erased = db
        .write(move |tx| {
            let erased = erasure::erase(tx, &email, now)?;
            audit::record(tx, Action::Erase, Some(&target), admin.ip)?;
            Ok(erased)
        })
        .await?;
    // Gone from the database's files too, not only from its tables.
    if let Err(e) = db.forget_deleted().await {
        tracing::warn!(error = %e, "erased rows may stay in the database's log until the next checkpoint");
    }
    Ok(json(StatusCode::OK, &erased))
}
