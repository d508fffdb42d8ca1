//! Mailing a post to the newsletter list (capability `mail.broadcast`):
//!
//! - `POST /api/admin/broadcasts/preview {postId, subject?, again?}` → the e-mail as it will
//!   arrive (`html`, `text`, `subject`) and how many it would go to (`recipients`), and
//!   whether the post was mailed before (`alreadySent`). Changes nothing.
//! - `POST /api/admin/broadcasts/test {postId, subject?}` → one copy to the signed-in staff
//!   member, through the queue.
//! - `POST /api/admin/broadcasts {postId, subject?, confirm, sendAt?, again?}` → `201` the
//!   send. `confirm` must be the recipient count typed by staff; a post mailed before is
//!   `409` unless `again` (then only those it did not reach).
//! - `GET /api/admin/broadcasts[?postId=]`, `GET /api/admin/broadcasts/{id}` → counts that
//!   add up: `queued + sent + failed + excluded = recipients`.
//! - `GET /api/admin/broadcasts/{id}/recipients?status=failed|excluded` → who and why.
//! - `POST /api/admin/broadcasts/{id}/retry` → the failed, not suppressed, queued again.
//! - `POST /api/admin/broadcasts/{id}/send {confirm}` → a missed (or still scheduled) send
//!   starts now.
//! - `POST /api/admin/broadcasts/{id}/cancel` → a scheduled or missed send is called off.

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
use crate::domain::mail::broadcast::{self, New};
use crate::domain::mail::message::{Draft, Person, build};
use crate::domain::mail::queue::{self, Kind};
use crate::domain::schedule;
use crate::domain::staff::Cap;
use crate::http::error::ApiError;
use crate::http::filters::json_body;
use crate::state::AppState;

/// The longest subject staff may choose, in characters.
const MAX_SUBJECT: usize = 150;

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Message {
    post_id: i64,
    subject: Option<String>,
    #[serde(default)]
    again: bool,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Start {
    post_id: i64,
    subject: Option<String>,
    #[serde(default)]
    again: bool,
    confirm: Option<i64>,
    send_at: Option<String>,
}

#[derive(Debug, Deserialize)]
struct Confirm {
    confirm: Option<i64>,
}

pub fn routes(state: AppState) -> BoxedFilter<(Response,)> {
    let admin = |cap| super::allowed(state.clone(), cap);
    let s = state.clone();
    let preview = warp::path!("broadcasts" / "preview")
        .and(warp::post())
        .and(admin(Cap::MailBroadcast))
        .and(json_body::<Message>(8 * 1024))
        .and_then(move |_admin, body| preview(s.clone(), body));
    let s = state.clone();
    let test = warp::path!("broadcasts" / "test")
        .and(warp::post())
        .and(admin(Cap::MailBroadcast))
        .and(json_body::<Message>(8 * 1024))
        .and_then(move |admin, body| test(s.clone(), admin, body));
    let s = state.clone();
    let start = warp::path!("broadcasts")
        .and(warp::post())
        .and(admin(Cap::MailBroadcast))
        .and(json_body::<Start>(8 * 1024))
        .and_then(move |admin, body| start(s.clone(), admin, body));
    let s = state.clone();
    let list = warp::path!("broadcasts")
        .and(warp::get())
        .and(admin(Cap::MailBroadcast))
        .and(warp::query::<HashMap<String, String>>())
        .and_then(move |_admin, query| list(s.clone(), query));
    let s = state.clone();
    let one = warp::path!("broadcasts" / String)
        .and(warp::get())
        .and(admin(Cap::MailBroadcast))
        .and_then(move |id, _admin| one(s.clone(), id));
    let s = state.clone();
    let recipients = warp::path!("broadcasts" / String / "recipients")
        .and(warp::get())
        .and(admin(Cap::MailBroadcast))
        .and(warp::query::<HashMap<String, String>>())
        .and_then(move |id, admin, query| recipients(s.clone(), id, admin, query));
    let s = state.clone();
    let retry = warp::path!("broadcasts" / String / "retry")
        .and(warp::post())
        .and(admin(Cap::MailBroadcast))
        .and_then(move |id, admin| retry(s.clone(), id, admin));
    let s = state.clone();
    let send_now = warp::path!("broadcasts" / String / "send")
        .and(warp::post())
        .and(admin(Cap::MailBroadcast))
        .and(json_body::<Confirm>(1024))
        .and_then(move |id, admin, body| send_now(s.clone(), id, admin, body));
    let s = state.clone();
    let cancel = warp::path!("broadcasts" / String / "cancel")
        .and(warp::post())
        .and(admin(Cap::MailBroadcast))
        .and_then(move |id, admin| cancel(s.clone(), id, admin));
    preview
        .or(test)
        .unify()
        .or(start)
        .unify()
        .or(list)
        .unify()
        .or(one)
        .unify()
        .or(recipients)
        .unify()
        .or(retry)
        .unify()
        .or(send_now)
        .unify()
        .or(cancel)
        .unify()
        .boxed()
}

/// A send's id from the path.
fn id_of(id: &str) -> Result<i64, ApiError> {
    id.parse::<i64>()
        .ok()
        .filter(|id| *id > 0)
        .ok_or_else(|| ApiError::BadRequest(format!("\"{id}\" is not a send's id.")))
}

/// The subject: staff's, or the post's title.
fn subject_of(chosen: Option<&str>, title: &str) -> Result<String, ApiError> {
    let subject = chosen
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .unwrap_or(title);
    let subject = crate::domain::mail::message::one_line(subject, MAX_SUBJECT + 1);
    if subject.chars().count() > MAX_SUBJECT {
        return Err(ApiError::BadRequest(format!(
            "The subject must be {MAX_SUBJECT} characters or fewer."
        )));
    }
    Ok(subject)
}

/// What post `id` mails as: `(subject, email)`. A post that is not published is refused:
/// its "view on the website" link would lead nowhere. A plain newsletter is never
/// published and has no such link.
async fn rendered(
    state: &AppState,
    id: i64,
    subject: Option<&str>,
) -> Result<(String, generator::blog::email::Email), ApiError> {
    if id <= 0 {
        return Err(ApiError::BadRequest("postId must be a post's id.".into()));
    }
    if state.mail.postal_address.is_none() {
        return Err(ApiError::Conflict(
            "Add the party's postal address (postalAddress in content/site.yaml) before mailing the list: every message must carry it.".into(),
        ));
    }
    let post = state
        .db
        .read(move |c| generator::blog::store::by_id(c, id))
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("There is no blog post {id}.")))?;
    if post.status != "published" && !post.is_newsletter() {
        return Err(ApiError::Conflict(
            "Publish the post before mailing it: the e-mail links to it on the website.".into(),
        ));
    }
    let subject = subject_of(subject, &post.title)?;
    let site = state.rebuilder.site().cloned().ok_or_else(|| {
        ApiError::Internal(anyhow::anyhow!(
            "a post was to be mailed, but this server renders no pages (no site configured)"
        ))
    })?;
    let email = tokio::task::spawn_blocking(move || {
        if let Some(manifest) = site.missing_bundles() {
            return Err(ApiError::Unavailable(format!(
                "The site's scripts and styles are not built ({} is missing), so the mail cannot be rendered. Run `just build` on the server, then try again.",
                manifest.display()
            )));
        }
        let site = site.get().map_err(ApiError::Internal)?;
        generator::blog::email::email(&site, &post)
            .map_err(|e| ApiError::Internal(e.context("Failed to render a post for mail")))
    })
    .await
    .map_err(|e| ApiError::Internal(e.into()))??;
    Ok((subject, email))
}

/// POST /api/admin/broadcasts/preview
async fn preview(state: AppState, body: Message) -> Result<Response, Rejection> {
    let (subject, email) = rendered(&state, body.post_id, body.subject.as_deref()).await?;
    let (post, again) = (body.post_id, body.again);
    let (recipients, already) = state
        .db
        .read(move |c| {
            Ok((
                broadcast::audience(c, post, again)?,
                broadcast::already_sent(c, post)?,
            ))
        })
        .await?;
    let sample = state.mail.link("/newsletter/unsubscribe/…");
    let (footer_text, footer_html) = state.mail.list_footer(&sample);
    Ok(json(
        StatusCode::OK,
        &json!({
            "subject": subject,
            "html": generator::blog::email::document(&subject, &email.html, &footer_html),
            "text": format!("{}\n\n-- \n{footer_text}\n", email.text.trim_end()),
            "url": email.url,
            "recipients": recipients,
            "alreadySent": already,
        }),
    ))
}

/// POST /api/admin/broadcasts/test: one copy to the staff member asking, now.
async fn test(state: AppState, admin: Admin, body: Message) -> Result<Response, Rejection> {
    let user = admin.user().ok_or_else(|| {
        ApiError::Forbidden("A test copy goes to a person: sign in as one.".into())
    })?;
    let (subject, email) = rendered(&state, body.post_id, body.subject.as_deref()).await?;
    let to: String = state
        .db
        .read(move |c| {
            c.query_row("SELECT email FROM users WHERE id = ?1", [user], |r| {
                r.get(0)
            })
        })
        .await?;
    let mail = state.mail.clone();
    let sample = mail.link("/newsletter/unsubscribe/…");
    let (footer_text, footer_html) = mail.list_footer(&sample);
    let subject = format!("[Test] {subject}");
    let draft = Draft {
        to: Person {
            name: None,
            email: &to,
        },
        reply_to: None,
        subject: &subject,
        text: format!(
            "{}\n\n-- \n{footer_text}\n(A test copy: each recipient's unsubscribe link is their own.)\n",
            email.text.trim_end()
        ),
        html: generator::blog::email::document(&subject, &email.html, &footer_html),
        unsubscribe: None,
        unsubscribe_mailto: None,
        message_id: format!(
            "<broadcast-test.{:032x}@{}>",
            rand::random::<u128>(),
            mail.from.email.domain()
        ),
        date: state.clock.now(),
        calendar: None,
    };
    let built = build(&mail.from, draft)
        .map_err(|e| ApiError::BadRequest(format!("Your address cannot receive mail: {e}")))?;
    let (now, by, post) = (state.clock.now(), admin.by(), body.post_id);
    state
        .db
        .write(move |tx| {
            let key = format!("broadcast-test:{post}:{:016x}", rand::random::<u64>());
            queue::enqueue(tx, &key, Kind::BroadcastTest, &built.to, &built, now)?;
            audit::record(tx, Action::BroadcastTest, Some(&format!("blog:{post}")), by)
        })
        .await?;
    state.mail.wake();
    Ok(json(StatusCode::OK, &json!({ "success": true, "to": to })))
}

/// POST /api/admin/broadcasts
async fn start(state: AppState, admin: Admin, body: Start) -> Result<Response, Rejection> {
    let confirm = body.confirm.ok_or_else(|| {
        ApiError::BadRequest("Type the number of recipients to confirm the send.".into())
    })?;
    let now = state.clock.now();
    let at = body
        .send_at
        .as_deref()
        .filter(|s| !s.trim().is_empty())
        .map(|input| schedule::chosen_time(input, &state.mail.tz, now))
        .transpose()
        .map_err(ApiError::BadRequest)?;
    let (subject, email) = rendered(&state, body.post_id, body.subject.as_deref()).await?;
    let (post, again, by) = (body.post_id, body.again, admin.by());
    let user = admin.user();
    let created = state
        .db
        .write(move |tx| {
            if broadcast::already_sent(tx, post)? && !again {
                return Ok(Err(ApiError::Conflict(
                    "This post was already mailed to the list. To reach only those it missed, choose \u{201c}Send again to people who haven't received it\u{201d}.".into(),
                )));
            }
            let recipients = broadcast::audience(tx, post, again)?;
            if recipients == 0 {
                return Ok(Err(ApiError::Conflict(
                    "Nobody would receive it: the list has no one this post has not reached.".into(),
                )));
            }
            if confirm != recipients {
                return Ok(Err(ApiError::Conflict(format!(
                    "The number typed ({confirm}) is not the number of recipients ({recipients}). Check it and type it again."
                ))));
            }
            let id = broadcast::create(
                tx,
                &New {
                    post,
                    subject: &subject,
                    html: &email.html,
                    text: &email.text,
                    again,
                    at,
                    by: user,
                },
                now,
            )?;
            audit::record_detailed(
                tx,
                Action::Broadcast,
                &format!("broadcast:{id}"),
                Some(by),
                &format!("blog:{post}, {recipients} recipients{}", if again { ", again" } else { "" }),
            )?;
            Ok(Ok(broadcast::summary(tx, id)?))
        })
        .await??;
    state.mail.wake();
    Ok(json(StatusCode::CREATED, &created))
}

/// GET /api/admin/broadcasts[?postId=]
async fn list(state: AppState, query: HashMap<String, String>) -> Result<Response, Rejection> {
    let post = match query.get("postId") {
        Some(id) => Some(
            id.parse::<i64>()
                .map_err(|_| ApiError::BadRequest("postId must be a post's id.".into()))?,
        ),
        None => None,
    };
    let sends = state.db.read(move |c| broadcast::list(c, post)).await?;
    Ok(json(StatusCode::OK, &json!({ "broadcasts": sends })))
}

fn no_such(id: i64) -> ApiError {
    ApiError::NotFound(format!("There is no send {id}."))
}

/// GET /api/admin/broadcasts/{id}
async fn one(state: AppState, id: String) -> Result<Response, Rejection> {
    let id = id_of(&id)?;
    let found = state.db.read(move |c| broadcast::summary(c, id)).await?;
    Ok(json(StatusCode::OK, &found.ok_or_else(|| no_such(id))?))
}

/// GET /api/admin/broadcasts/{id}/recipients?status=failed|excluded|sent|queued: names
/// people, so audited like every list of them.
async fn recipients(
    state: AppState,
    id: String,
    admin: Admin,
    query: HashMap<String, String>,
) -> Result<Response, Rejection> {
    let id = id_of(&id)?;
    let status = query
        .get("status")
        .map_or("failed", String::as_str)
        .to_owned();
    if !["queued", "sent", "failed", "excluded"].contains(&status.as_str()) {
        return Err(ApiError::BadRequest(
            "status must be queued, sent, failed or excluded.".into(),
        )
        .into());
    }
    let found = state.db.read(move |c| broadcast::summary(c, id)).await?;
    found.ok_or_else(|| no_such(id))?;
    let by = admin.by();
    state
        .db
        .write(move |tx| audit::record(tx, Action::View, Some(&format!("broadcast:{id}")), by))
        .await?;
    // The addresses are the newsletter list's, which only `submissions.read` may see: a
    // role that may mail the list but not read it (an Editor) gets how many each answer
    // had.
    if !admin.can(Cap::SubmissionsRead) {
        let reasons = state
            .db
            .read(move |c| broadcast::reasons(c, id, &status))
            .await?;
        return Ok(json(
            StatusCode::OK,
            &json!({ "recipients": [], "reasons": reasons, "addressesHidden": true }),
        ));
    }
    let rows = state
        .db
        .read(move |c| broadcast::outcomes(c, id, &status))
        .await?;
    Ok(json(
        StatusCode::OK,
        &json!({ "recipients": rows, "addressesHidden": false }),
    ))
}

/// POST /api/admin/broadcasts/{id}/retry
async fn retry(state: AppState, id: String, admin: Admin) -> Result<Response, Rejection> {
    let id = id_of(&id)?;
    let (now, by) = (state.clock.now(), admin.by());
    let done = state
        .db
        .write(move |tx| {
            if broadcast::summary(tx, id)?.is_none() {
                return Ok(Err(no_such(id)));
            }
            let n = broadcast::retry_failed(tx, id, now)?;
            if n == 0 {
                return Ok(Err(ApiError::Conflict(
                    "Nothing to retry: every recipient was reached, excluded or is on the suppression list.".into(),
                )));
            }
            audit::record_detailed(
                tx,
                Action::BroadcastRetry,
                &format!("broadcast:{id}"),
                Some(by),
                &format!("{n} recipients"),
            )?;
            Ok(Ok(broadcast::summary(tx, id)?))
        })
        .await??;
    state.mail.wake();
    Ok(json(StatusCode::OK, &done))
}

/// POST /api/admin/broadcasts/{id}/send {confirm}: a missed or scheduled send, now.
async fn send_now(
    state: AppState,
    id: String,
    admin: Admin,
    body: Confirm,
) -> Result<Response, Rejection> {
    let id = id_of(&id)?;
    let confirm = body.confirm.ok_or_else(|| {
        ApiError::BadRequest("Type the number of recipients to confirm the send.".into())
    })?;
    let (now, by) = (state.clock.now(), admin.by());
    let done = state
        .db
        .write(move |tx| {
            let Some(found) = broadcast::summary(tx, id)? else {
                return Ok(Err(no_such(id)));
            };
            if !matches!(found.status.as_str(), "scheduled" | "missed") {
                return Ok(Err(ApiError::Conflict(
                    "This send has already started or was called off.".into(),
                )));
            }
            let recipients = broadcast::audience(tx, found.post_id.unwrap_or(0), found.again)?;
            if confirm != recipients {
                return Ok(Err(ApiError::Conflict(format!(
                    "The number typed ({confirm}) is not the number of recipients ({recipients}). Check it and type it again."
                ))));
            }
            broadcast::freeze(tx, id, now)?;
            audit::record_detailed(
                tx,
                Action::Broadcast,
                &format!("broadcast:{id}"),
                Some(by),
                &format!("sent now ({}), {recipients} recipients", found.status),
            )?;
            Ok(Ok(broadcast::summary(tx, id)?))
        })
        .await??;
    state.mail.wake();
    Ok(json(StatusCode::OK, &done))
}

/// POST /api/admin/broadcasts/{id}/cancel
async fn cancel(state: AppState, id: String, admin: Admin) -> Result<Response, Rejection> {
    let id = id_of(&id)?;
    let by = admin.by();
    let done = state
        .db
        .write(move |tx| {
            let changed = tx.execute(
                "UPDATE broadcasts SET status = 'cancelled' WHERE id = ?1 AND status IN ('scheduled', 'missed')",
                [id],
            )?;
            if changed == 0 {
                return Ok(Err(match broadcast::summary(tx, id)? {
                    None => no_such(id),
                    Some(_) => ApiError::Conflict(
                        "Only a send that has not started can be called off.".into(),
                    ),
                }));
            }
            audit::record(tx, Action::BroadcastCancel, Some(&format!("broadcast:{id}")), by)?;
            Ok(Ok(broadcast::summary(tx, id)?))
        })
        .await??;
    Ok(json(StatusCode::OK, &done))
}
