//! POST /api/admin/sms-opt-outs `{phone, method, note?}`: staff record that someone said stop
//! to texts (replied STOP, called, wrote). From that moment the number shows as opted out and
//! leaves every export (see [`crate::domain::sms_consent`]).

use std::sync::Arc;

use generator::forms;
use serde::Deserialize;
use serde_json::json;
use warp::filters::BoxedFilter;
use warp::http::StatusCode;
use warp::reply::Response;
use warp::{Filter, Rejection};

use super::json;
use crate::domain::audit::{self, Action};
use crate::domain::auth::Admin;
use crate::domain::clock::Clock;
use crate::domain::sms_consent::{self, Method};
use crate::http::error::ApiError;
use crate::http::filters::json_body;
use crate::state::AppState;
use crate::store::db::Db;

/// Room for a sentence or two of what the person said.
const NOTE_MAX: usize = 500;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Request {
    phone: String,
    method: String,
    #[serde(default)]
    note: Option<String>,
}

pub fn routes(state: AppState) -> BoxedFilter<(Response,)> {
    let (db, clock) = (state.db.clone(), state.clock.clone());
    warp::path!("sms-opt-outs")
        .and(warp::post())
        .and(super::signed_in(state))
        .and(json_body::<Request>(4 * 1024))
        .and_then(move |admin, request| opt_out(db.clone(), clock.clone(), admin, request))
        .boxed()
}

/// Records the revocation and answers `201 {phone, wasConsenting}`.
async fn opt_out(
    db: Db,
    clock: Arc<Clock>,
    admin: Admin,
    request: Request,
) -> Result<Response, Rejection> {
    let phone = forms::e164(request.phone.trim()).ok_or_else(|| {
        ApiError::BadRequest("Please enter a valid phone number (7 to 15 digits).".into())
    })?;
    let method = Method::parse(request.method.trim()).ok_or_else(|| {
        ApiError::BadRequest("Choose how they asked to stop: text, phone, mail or other.".into())
    })?;
    let note = request
        .note
        .map(|n| n.trim().to_owned())
        .filter(|n| !n.is_empty());
    if let Some(note) = &note {
        if note.chars().count() > NOTE_MAX {
            return Err(ApiError::BadRequest(format!(
                "The note must be at most {NOTE_MAX} characters."
            ))
            .into());
        }
        if note
            .chars()
            .any(|c| c.is_control() && c != '\n' && c != '\r')
        {
            return Err(ApiError::BadRequest(
                "The note contains characters that are not allowed.".into(),
            )
            .into());
        }
    }
    let now = clock.now();
    // The audit log outlives an erasure: it names the number by its last digits only.
    let target = format!("sms:…{}", &phone[phone.len().saturating_sub(4)..]);
    let answer = phone.clone();
    let was_consenting = db
        .write(move |tx| {
            let was = sms_consent::revoke(tx, &phone, method, note.as_deref(), now)?;
            audit::record(tx, Action::OptOut, Some(&target), admin.ip)?;
            Ok(was)
        })
        .await?;
    Ok(json(
        StatusCode::CREATED,
        &json!({ "phone": answer, "wasConsenting": was_consenting }),
    ))
}
