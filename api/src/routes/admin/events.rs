//! Events for staff (see docs/events.md): `events.manage` creates, changes, publishes,
//! cancels and deletes them; `events.attendees` sees who is coming, marks who came and
//! exports the list. Every change is audited; a change to a public event returns once its
//! pages are live, and mails those going or waiting in the same write when it concerns them.

use std::collections::HashSet;

use serde::Deserialize;
use serde_json::json;
use warp::filters::BoxedFilter;
use warp::http::StatusCode;
use warp::reply::Response;
use warp::{Filter, Rejection, Reply};

use super::{downloads, json};
use crate::domain::audit::{self, Action};
use crate::domain::auth::Admin;
use crate::domain::events::admin::{self, AdminEvent, Input};
use crate::domain::events::mail::{self as event_mail, Note};
use crate::domain::events::seats;
use crate::domain::export::Sheet;
use crate::domain::staff::Cap;
use crate::http::error::ApiError;
use crate::http::filters::json_body;
use crate::state::AppState;

/// The largest body: an event's description is HTML from the editor.
const BODY_LIMIT: u64 = 256 * 1024;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Cancel {
    message: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Attended {
    attended: Option<bool>,
}

pub fn routes(state: AppState) -> BoxedFilter<(Response,)> {
    let admin = |cap| super::allowed(state.clone(), cap);
    let s = state.clone();
    let list = warp::path!("events")
        .and(warp::get())
        .and(admin(Cap::EventsManage))
        .and_then(move |_admin| list(s.clone()));
    let s = state.clone();
    let create = warp::path!("events")
        .and(warp::post())
        .and(admin(Cap::EventsManage))
        .and(json_body::<Input>(BODY_LIMIT))
        .and_then(move |admin, body| create(s.clone(), admin, body));
    let s = state.clone();
    let one = warp::path!("events" / String)
        .and(warp::get())
        .and(admin(Cap::EventsManage))
        .and_then(move |id, _admin| one(s.clone(), id));
    let s = state.clone();
    let update = warp::path!("events" / String)
        .and(warp::put())
        .and(admin(Cap::EventsManage))
        .and(json_body::<Input>(BODY_LIMIT))
        .and_then(move |id, admin, body| update(s.clone(), id, admin, body));
    let s = state.clone();
    let delete = warp::path!("events" / String)
        .and(warp::delete())
        .and(admin(Cap::EventsManage))
        .and_then(move |id, admin| delete(s.clone(), id, admin));
    let s = state.clone();
    let publish = warp::path!("events" / String / "publish")
        .and(warp::post())
        .and(admin(Cap::EventsManage))
        .and_then(move |id, admin| publish(s.clone(), id, admin));
    let s = state.clone();
    let cancel = warp::path!("events" / String / "cancel")
        .and(warp::post())
        .and(admin(Cap::EventsManage))
        .and(json_body::<Cancel>(16 * 1024))
        .and_then(move |id, admin, body| cancel(s.clone(), id, admin, body));
    let s = state.clone();
    let rsvps = warp::path!("events" / String / "rsvps")
        .and(warp::get())
        .and(admin(Cap::EventsAttendees))
        .and_then(move |id, admin| rsvps(s.clone(), id, admin));
    let s = state.clone();
    let export = warp::path!("events" / String / "rsvps" / "export")
        .and(warp::get())
        .and(admin(Cap::EventsAttendees))
        .and_then(move |id, admin| export(s.clone(), id, admin));
    let s = state.clone();
    let attended = warp::path!("events" / String / "rsvps" / String / "attended")
        .and(warp::put())
        .and(admin(Cap::EventsAttendees))
        .and(json_body::<Attended>(1024))
        .and_then(move |id, rsvp, admin, body| attended(s.clone(), id, rsvp, admin, body));
    list.or(create)
        .unify()
        .or(one)
        .unify()
        .or(update)
        .unify()
        .or(delete)
        .unify()
        .or(publish)
        .unify()
        .or(cancel)
        .unify()
        .or(rsvps)
        .unify()
        .or(export)
        .unify()
        .or(attended)
        .unify()
        .boxed()
}

/// An id from the path.
fn id_of(id: &str, what: &str) -> Result<i64, ApiError> {
    id.parse::<i64>()
        .ok()
        .filter(|id| *id > 0)
        .ok_or_else(|| ApiError::BadRequest(format!("\"{id}\" is not {what}'s id.")))
}

fn not_found() -> ApiError {
    ApiError::NotFound("There is no such event.".into())
}

/// Event `id` as staff see it now.
async fn fetch(state: &AppState, id: i64) -> Result<AdminEvent, ApiError> {
    let now = state.clock.now();
    state
        .db
        .read(move |c| admin::get(c, id, now))
        .await?
        .ok_or_else(not_found)
}

/// The answer to a change: the event after it and how many people were mailed.
async fn changed(
    state: &AppState,
    id: i64,
    notified: usize,
    status: StatusCode,
) -> Result<Response, Rejection> {
    let event = fetch(state, id).await?;
    if event.status != "draft" {
        // The answer waits for the pages: a reply means they show the change.
        state
            .event_pages
            .refresh(Some(HashSet::from([id])))
            .await
            .map_err(|e| {
                ApiError::Internal(
                    e.context("the event is saved, but its pages could not be brought up to date"),
                )
            })?;
    }
    if notified > 0 {
        state.mail.wake();
    }
    Ok(json(
        status,
        &json!({ "event": event, "notified": notified }),
    ))
}

/// GET /api/admin/events
async fn list(state: AppState) -> Result<Response, Rejection> {
    let now = state.clock.now();
    let events = state.db.read(move |c| admin::list(c, now)).await?;
    Ok(json(
        StatusCode::OK,
        &json!({ "events": events, "timeZone": state.site.time_zone }),
    ))
}

/// GET /api/admin/events/{id}
async fn one(state: AppState, id: String) -> Result<Response, Rejection> {
    let id = id_of(&id, "an event")?;
    Ok(json(StatusCode::OK, &fetch(&state, id).await?))
}

/// POST /api/admin/events
async fn create(state: AppState, admin: Admin, body: Input) -> Result<Response, Rejection> {
    let clean = body
        .clean(&state.site.remote_image_hosts)
        .map_err(ApiError::BadRequest)?;
    let now = state.clock.now();
    if clean.starts_at <= now {
        return Err(ApiError::BadRequest(
            "That start has already passed. Choose a time in the future.".into(),
        )
        .into());
    }
    let (by, user) = (admin.by(), admin.user());
    let id = state
        .db
        .write(move |tx| {
            let id = admin::create(tx, &clean, user, now)?;
            audit::record(tx, Action::Create, Some(&format!("event:{id}")), by)?;
            Ok(id)
        })
        .await?;
    changed(&state, id, 0, StatusCode::CREATED).await
}

/// PUT /api/admin/events/{id}: a change of time or place to a public event mails those
/// going or waiting; more seats move up whoever waits.
async fn update(
    state: AppState,
    id: String,
    admin: Admin,
    body: Input,
) -> Result<Response, Rejection> {
    let id = id_of(&id, "an event")?;
    let clean = body
        .clean(&state.site.remote_image_hosts)
        .map_err(ApiError::BadRequest)?;
    let (now, by) = (state.clock.now(), admin.by());
    let (mail, site) = (state.mail.clone(), state.site.clone());
    let notified = state
        .db
        .write(move |tx| {
            let status: Option<String> = tx
                .query_row("SELECT status FROM events WHERE id = ?1", [id], |r| {
                    r.get(0)
                })
                .map(Some)
                .or_else(|e| match e {
                    rusqlite::Error::QueryReturnedNoRows => Ok(None),
                    e => Err(e),
                })?;
            let Some(status) = status else {
                return Ok(None);
            };
            if status == "cancelled" {
                return Ok(Some(Err(())));
            }
            let Some(changes) = admin::update(tx, id, &clean, now)? else {
                return Ok(None);
            };
            let mut notified = 0;
            if status == "published" {
                if changes.time_or_place {
                    notified += event_mail::queue_all(&mail, &site, tx, id, Note::Changed, now)?;
                }
                for moved in seats::promote(tx, id, now)? {
                    notified += usize::from(event_mail::queue(
                        &mail,
                        &site,
                        tx,
                        moved,
                        Note::MovedUp,
                        now,
                    )?);
                }
            }
            audit::record(tx, Action::Update, Some(&format!("event:{id}")), by)?;
            Ok(Some(Ok(notified)))
        })
        .await?;
    match notified {
        None => Err(not_found().into()),
        Some(Err(())) => Err(ApiError::Conflict(
            "This event has been cancelled; it can no longer be changed.".into(),
        )
        .into()),
        Some(Ok(n)) => changed(&state, id, n, StatusCode::OK).await,
    }
}

/// Whether event `id` exists, for a 404 rather than a 409.
async fn exists(state: &AppState, id: i64) -> Result<bool, ApiError> {
    Ok(state
        .db
        .read(move |c| {
            c.query_row(
                "SELECT EXISTS (SELECT 1 FROM events WHERE id = ?1)",
                [id],
                |r| r.get(0),
            )
        })
        .await?)
}

/// POST /api/admin/events/{id}/publish
async fn publish(state: AppState, id: String, admin: Admin) -> Result<Response, Rejection> {
    let id = id_of(&id, "an event")?;
    let (now, by) = (state.clock.now(), admin.by());
    let done = state
        .db
        .write(move |tx| {
            let done = admin::set_status(tx, id, "draft", "published", None, now)?;
            if done {
                audit::record(tx, Action::Publish, Some(&format!("event:{id}")), by)?;
            }
            Ok(done)
        })
        .await?;
    if !done {
        return Err(if exists(&state, id).await? {
            ApiError::Conflict("Only a draft can be published.".into())
        } else {
            not_found()
        }
        .into());
    }
    changed(&state, id, 0, StatusCode::OK).await
}

/// POST /api/admin/events/{id}/cancel `{message?}`: everyone going or waiting is told.
async fn cancel(
    state: AppState,
    id: String,
    admin: Admin,
    body: Cancel,
) -> Result<Response, Rejection> {
    let id = id_of(&id, "an event")?;
    let message = body
        .message
        .map(|m| m.trim().to_owned())
        .filter(|m| !m.is_empty());
    if message
        .as_ref()
        .is_some_and(|m| m.chars().count() > admin::MAX_MESSAGE)
    {
        return Err(ApiError::BadRequest(format!(
            "The message must be {} characters or fewer.",
            admin::MAX_MESSAGE
        ))
        .into());
    }
    let (now, by) = (state.clock.now(), admin.by());
    let (mail, site) = (state.mail.clone(), state.site.clone());
    let notified = state
        .db
        .write(move |tx| {
            if !admin::set_status(tx, id, "published", "cancelled", message.as_deref(), now)? {
                return Ok(None);
            }
            let n = event_mail::queue_all(&mail, &site, tx, id, Note::Cancelled, now)?;
            audit::record(tx, Action::CancelEvent, Some(&format!("event:{id}")), by)?;
            Ok(Some(n))
        })
        .await?;
    match notified {
        Some(n) => changed(&state, id, n, StatusCode::OK).await,
        None => Err(if exists(&state, id).await? {
            ApiError::Conflict("Only a published event can be cancelled.".into())
        } else {
            not_found()
        }
        .into()),
    }
}

/// DELETE /api/admin/events/{id}: drafts only.
async fn delete(state: AppState, id: String, admin: Admin) -> Result<Response, Rejection> {
    let id = id_of(&id, "an event")?;
    let by = admin.by();
    let deleted = state
        .db
        .write(move |tx| {
            let deleted = admin::delete_draft(tx, id)?;
            if deleted {
                audit::record(tx, Action::Delete, Some(&format!("event:{id}")), by)?;
            }
            Ok(deleted)
        })
        .await?;
    if !deleted {
        return Err(if exists(&state, id).await? {
            ApiError::Conflict(
                "Only a draft can be deleted. Cancel a published event instead, so those coming are told.".into(),
            )
        } else {
            not_found()
        }
        .into());
    }
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// GET /api/admin/events/{id}/rsvps
async fn rsvps(state: AppState, id: String, admin: Admin) -> Result<Response, Rejection> {
    let id = id_of(&id, "an event")?;
    let event = fetch(&state, id).await?;
    let (by, target) = (admin.by(), format!("event:{id}:rsvps"));
    state
        .db
        .write(move |tx| audit::record(tx, Action::View, Some(&target), by))
        .await?;
    let rsvps = state.db.read(move |c| admin::rsvps(c, id)).await?;
    Ok(json(
        StatusCode::OK,
        &json!({
            "rsvps": rsvps,
            "going": event.going,
            "waitlisted": event.waitlisted,
            "capacity": event.capacity,
        }),
    ))
}

/// GET /api/admin/events/{id}/rsvps/export
async fn export(state: AppState, id: String, admin: Admin) -> Result<Response, Rejection> {
    let id = id_of(&id, "an event")?;
    let event = fetch(&state, id).await?;
    let (by, target) = (admin.by(), format!("event:{id}:rsvps"));
    state
        .db
        .write(move |tx| audit::record(tx, Action::Export, Some(&target), by))
        .await?;
    let rsvps = state.db.read(move |c| admin::rsvps(c, id)).await?;
    let tz = state.site.tz();
    let sheet = Sheet {
        kind: "rsvps",
        headers: vec![
            "ID", "Name", "Email", "ZIP code", "Phone", "Guests", "Status", "Attended", "RSVPed",
        ],
        rows: rsvps
            .into_iter()
            .map(|r| {
                vec![
                    r.id.to_string(),
                    r.name,
                    r.email,
                    r.zip_code,
                    r.phone.unwrap_or_default(),
                    r.guests.to_string(),
                    r.status,
                    match r.attended {
                        Some(true) => "yes".into(),
                        Some(false) => "no".into(),
                        None => String::new(),
                    },
                    r.created_at
                        .parse::<jiff::Timestamp>()
                        .map(|t| {
                            t.to_zoned_datetime(tz.clone())
                                .strftime("%Y-%m-%d %H:%M")
                                .to_string()
                        })
                        .unwrap_or(r.created_at),
                ]
            })
            .collect(),
    };
    Ok(downloads::csv_named(
        &format!("{}-rsvps-{}.csv", state.site.abbreviation, event.slug),
        &sheet,
    )?)
}

/// PUT /api/admin/events/{id}/rsvps/{rsvp}/attended `{attended}`: once the event started.
async fn attended(
    state: AppState,
    id: String,
    rsvp: String,
    admin: Admin,
    body: Attended,
) -> Result<Response, Rejection> {
    let id = id_of(&id, "an event")?;
    let rsvp = id_of(&rsvp, "an RSVP")?;
    let event = fetch(&state, id).await?;
    if !event.started {
        return Err(ApiError::Conflict("Mark who came once the event has started.".into()).into());
    }
    let (now, by) = (state.clock.now(), admin.by());
    let marked = state
        .db
        .write(move |tx| {
            let marked = admin::mark(tx, id, rsvp, body.attended, now)?;
            if marked.is_some() {
                audit::record(
                    tx,
                    Action::Attendance,
                    Some(&format!("event:{id}:rsvp:{rsvp}")),
                    by,
                )?;
            }
            Ok(marked)
        })
        .await?
        .ok_or_else(|| ApiError::NotFound("There is no such RSVP for this event.".into()))?;
    Ok(json(StatusCode::OK, &marked))
}
