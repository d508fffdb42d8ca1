//! POST /api/admin/sms-opt-outs `{phone, method, note?}`: staff record that someone said stop
//! to texts (replied STOP, called, wrote). From that moment the number shows as opted out and
//! leaves every export (see [`crate::domain::sms_consent`]), and no signup form can take it
//! back.
//!
//! POST /api/admin/sms-opt-ins `{phone, note}`: staff record that the number's owner asked
//! them to get texts again (the only way a stop is undone), with how and when in the note.

use std::sync::Arc;

use generator::forms;
use serde::Deserialize;
use serde_json::json;
use warp::filters::BoxedFilter;
use warp::http::StatusCode;
use warp::reply::Response;
use warp::{Filter, Rejection};

use generator::content::TextConsent;

use super::json;
use crate::domain::audit::{self, Action};
use crate::domain::auth::Admin;
use crate::domain::clock::Clock;
use crate::domain::mail::Mail;
use crate::domain::sms_consent::{self, Method};
use crate::domain::staff::Cap;
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

/// The body of an opt-in: the note is required (who asked, how, when).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OptIn {
    phone: String,
    #[serde(default)]
    note: Option<String>,
}

pub fn routes(state: AppState) -> BoxedFilter<(Response,)> {
    let (db, clock) = (state.db.clone(), state.clock.clone());
    let opt_out = warp::path!("sms-opt-outs")
        .and(warp::post())
        .and(super::allowed(state.clone(), Cap::TextsManage))
        .and(json_body::<Request>(4 * 1024))
        .and_then(move |admin, request| opt_out(db.clone(), clock.clone(), admin, request));
    let (db, clock, mail, words) = (
        state.db.clone(),
        state.clock.clone(),
        state.mail.clone(),
        state.texts_consent.clone(),
    );
    let opt_in = warp::path!("sms-opt-ins")
        .and(warp::post())
        .and(super::allowed(state, Cap::TextsManage))
        .and(json_body::<OptIn>(4 * 1024))
        .and_then(move |admin, request| {
            opt_in(
                (db.clone(), clock.clone(), mail.clone(), words.clone()),
                admin,
                request,
            )
        });
    opt_out.or(opt_in).unify().boxed()
}

/// A note as staff typed it: trimmed, at most [`NOTE_MAX`] characters, no control
/// characters; `None` when empty.
fn note_of(note: Option<String>) -> Result<Option<String>, ApiError> {
    let note = note.map(|n| n.trim().to_owned()).filter(|n| !n.is_empty());
    if let Some(note) = &note {
        if note.chars().count() > NOTE_MAX {
            return Err(ApiError::BadRequest(format!(
                "The note must be at most {NOTE_MAX} characters."
            )));
        }
        if note
            .chars()
            .any(|c| c.is_control() && c != '\n' && c != '\r')
        {
            return Err(ApiError::BadRequest(
                "The note contains characters that are not allowed.".into(),
            ));
        }
    }
    Ok(note)
}

/// A number as staff typed it, in E.164.
fn phone_of(phone: &str) -> Result<String, ApiError> {
    forms::e164(phone.trim()).ok_or_else(|| {
        ApiError::BadRequest("Please enter a valid phone number (7 to 15 digits).".into())
    })
}

/// The audit log outlives an erasure: it names a number by its last digits only.
fn audit_target(phone: &str) -> String {
    format!("sms:…{}", &phone[phone.len().saturating_sub(4)..])
}

/// Records the owner's consent again and answers `201 {phone, wasStopped}`.
async fn opt_in(
    (db, clock, mail, words): (Db, Arc<Clock>, Arc<Mail>, Arc<TextConsent>),
    admin: Admin,
    request: OptIn,
) -> Result<Response, Rejection> {
    let phone = phone_of(&request.phone)?;
    let note = note_of(request.note)?.ok_or_else(|| {
        ApiError::BadRequest("Say how and when the number's owner asked to get texts again.".into())
    })?;
    let now = clock.now();
    let target = audit_target(&phone);
    let key = mail.tokens.key_of(sms_consent::KEY_PURPOSE, &phone);
    let answer = phone.clone();
    let was_stopped = db
        .write(move |tx| {
            let was = sms_consent::regrant(tx, &phone, &key, &words, &note, now)?;
            audit::record(tx, Action::OptIn, Some(&target), admin.by())?;
            Ok(was)
        })
        .await?;
    Ok(json(
        StatusCode::CREATED,
        &json!({ "phone": answer, "wasStopped": was_stopped }),
    ))
}

/// Records the revocation and answers `201 {phone, wasConsenting}`.
async fn opt_out(
    db: Db,
    clock: Arc<Clock>,
    admin: Admin,
    request: Request,
) -> Result<Response, Rejection> {
    let phone = phone_of(&request.phone)?;
    let method = Method::parse(request.method.trim()).ok_or_else(|| {
        ApiError::BadRequest("Choose how they asked to stop: text, phone, mail or other.".into())
    })?;
    let note = note_of(request.note)?;
    let now = clock.now();
    let target = audit_target(&phone);
    let answer = phone.clone();
    let was_consenting = db
        .write(move |tx| {
            let was = sms_consent::revoke(tx, &phone, method, note.as_deref(), now)?;
            audit::record(tx, Action::OptOut, Some(&target), admin.by())?;
            Ok(was)
        })
        .await?;
    Ok(json(
        StatusCode::CREATED,
        &json!({ "phone": answer, "wasConsenting": was_consenting }),
    ))
}
