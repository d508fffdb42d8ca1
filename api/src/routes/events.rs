//! The public side of events that the static pages cannot be:
//!
//! - `POST /api/events/rsvp` (the event page's form, JSON or a plain HTML post): an RSVP
//!   waiting for its mailbox, answered "Check your e-mail to confirm" (a post without
//!   JavaScript gets `303` to `/events/check-email`), the same whoever it names; the seats
//!   left move only when the mailed link is used;
//! - `GET /api/events/{slug}/spots`: the seats left, never cached, for the page's "spots
//!   left" line.

use std::sync::Arc;

use generator::content::TextConsent;
use generator::forms::{self, Values};
use serde_json::json;
use warp::filters::BoxedFilter;
use warp::reply::Response;
use warp::{Filter, Rejection, Reply};

use super::submission::{Accepted, Gate, Submitter, form_route};
use crate::domain::events::mail as event_mail;
use crate::domain::events::requests::{self, Asked};
use crate::domain::events::seats::{self, Request};
use crate::domain::sms_consent::{self, Grant};
use crate::http::error::ApiError;
use crate::state::{AppState, Desk};

type Context = (Desk, Arc<TextConsent>);

pub fn routes(state: AppState) -> BoxedFilter<(Response,)> {
    let context: Context = (state.desk(), state.texts_consent.clone());
    let rsvp = form_route(forms::RSVP, Gate::of(&state), context, rsvp);
    let db = state.db.clone();
    let clock = state.clock.clone();
    let spots = warp::path!("events" / String / "spots")
        .and(warp::get())
        .and_then(move |slug: String| {
            let (db, clock) = (db.clone(), clock.clone());
            async move {
                let now = clock.now();
                let found = db
                    .read(move |c| {
                        let Some(event) = generator::events::store::public_by_slug(c, &slug)?
                        else {
                            return Ok(None);
                        };
                        Ok(Some((
                            event.open(now),
                            event.waitlist,
                            seats::left(c, event.id)?,
                        )))
                    })
                    .await
                    .map_err(|e| Rejection::from(ApiError::from(e)))?;
                let Some((open, waitlist, left)) = found else {
                    return Err(Rejection::from(ApiError::NotFound(
                        "There is no such event.".into(),
                    )));
                };
                let mut res = warp::reply::json(&json!({
                    "open": open,
                    "left": left,
                    "waitlist": waitlist,
                }))
                .into_response();
                res.headers_mut().insert(
                    warp::http::header::CACHE_CONTROL,
                    warp::http::HeaderValue::from_static("no-store"),
                );
                Ok::<_, Rejection>(res)
            }
        });
    rsvp.or(spots).unify().boxed()
}

/// Every RSVP's answer, whoever it names: it waits for the link mailed to the address.
const CHECK_EMAIL: Accepted = Accepted {
    created: true,
    message: Some(generator::events::CHECK_TITLE),
    page: Some(generator::events::CHECK_ROUTE),
};

/// POST /api/events/rsvp `{event, name, email, zipCode, phone?, smsConsent?, guests?}`.
/// Stored as waiting for its mailbox, with the link's mail, in one write; the seats and any
/// RSVP the address has change only when that link is used (`pages::rsvp_links`). A ticked
/// box to get texts records consent as the newsletter's does.
async fn rsvp((desk, words): Context, v: Values, from: Submitter) -> Result<Accepted, ApiError> {
    let slug = v.required("event");
    let (name, email, zip) = (
        v.required("name"),
        v.required("email"),
        v.required("zipCode"),
    );
    let phone = v.get("phone").map(str::to_owned);
    let texts = v.get("smsConsent").is_some();
    let guests: i64 = v.get("guests").and_then(|g| g.parse().ok()).unwrap_or(0);
    let (mail, now) = (desk.mail.clone(), desk.clock.now());
    let network = mail.tokens.key_of(
        "rsvp-network",
        &crate::http::network::limit_key(from.ip).to_string(),
    );
    let answer = desk
        .db
        .write(move |tx| {
            let Some(event) = event_mail::event_by_slug(tx, &slug)? else {
                return Ok(Answer::NoSuchEvent);
            };
            if !event.open(now) {
                return Ok(Answer::Closed);
            }
            // Full with no waitlist is public (the page says so): refused alike for all.
            if !event.waitlist
                && seats::left(tx, event.id)?
                    .is_some_and(|left| left < 1 + guests.clamp(0, seats::MAX_GUESTS))
            {
                return Ok(Answer::Full);
            }
            let request = Request {
                name: &name,
                email: &email,
                zip: &zip,
                phone: phone.as_deref(),
                guests,
            };
            if let Asked::Mail { request, slot } =
                requests::ask(tx, event.id, &request, &network, now)?
            {
                event_mail::queue_request(&mail, tx, request, slot, now)?;
            }
            if let (true, Some(phone)) = (texts, phone.as_deref()) {
                let phone_key = |e164: &str| mail.tokens.key_of(sms_consent::KEY_PURPOSE, e164);
                sms_consent::grant(
                    tx,
                    &Grant {
                        phone,
                        email: &email,
                        phone_key: &phone_key,
                        form: forms::RSVP.slug,
                        ip: from.ip,
                        user_agent: from.user_agent.as_deref(),
                        words: &words,
                        at: now,
                    },
                )?;
            }
            Ok(Answer::Check)
        })
        .await?;
    desk.mail.wake();
    match answer {
        Answer::NoSuchEvent => Err(ApiError::NotFound("There is no such event.".into())),
        Answer::Closed => Err(ApiError::Conflict(
            "RSVPs for this event are closed.".into(),
        )),
        Answer::Full => Err(ApiError::Conflict("Sorry, this event is full.".into())),
        Answer::Check => Ok(CHECK_EMAIL),
    }
}

/// What the form is answered, from the request and the public facts of the event alone.
enum Answer {
    NoSuchEvent,
    Closed,
    Full,
    Check,
}
