//! The public side of events that the static pages cannot be:
//!
//! - `POST /api/events/rsvp` (the event page's form, JSON or a plain HTML post): an RSVP,
//!   answered "You're going!" or "You're on the waitlist" (a post without JavaScript gets
//!   `303` to `/events/going` or `/events/waitlisted`). The answer is what anyone asking
//!   for that party would get, whether or not the address had RSVPed before;
//! - `GET /api/events/{slug}/spots`: the seats left, never cached, for the page's "spots
//!   left" line.

use std::sync::Arc;

use generator::config::SiteConfig;
use generator::content::TextConsent;
use generator::forms::{self, Values};
use serde_json::json;
use warp::filters::BoxedFilter;
use warp::reply::Response;
use warp::{Filter, Rejection, Reply};

use super::submission::{Accepted, Gate, Submitter, form_route};
use crate::domain::events::mail::{self as event_mail, Note};
use crate::domain::events::seats::{self, Request, Standing};
use crate::domain::sms_consent::{self, Grant};
use crate::http::error::ApiError;
use crate::state::{AppState, Desk};

type Context = (Desk, Arc<SiteConfig>, Arc<TextConsent>);

pub fn routes(state: AppState) -> BoxedFilter<(Response,)> {
    let context: Context = (
        state.desk(),
        state.site.clone(),
        state.texts_consent.clone(),
    );
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

const GOING: Accepted = Accepted {
    created: true,
    message: Some(generator::events::GOING_TITLE),
    page: Some(generator::events::GOING_ROUTE),
};
const WAITLISTED: Accepted = Accepted {
    created: true,
    message: Some(generator::events::WAITLISTED_TITLE),
    page: Some(generator::events::WAITLISTED_ROUTE),
};

/// POST /api/events/rsvp `{event, name, email, zipCode, phone?, smsConsent?, guests?}`.
/// Stored, with its mail, in one write; a ticked box to get texts records consent as the
/// newsletter's does.
async fn rsvp(
    (desk, site, words): Context,
    v: Values,
    from: Submitter,
) -> Result<Accepted, ApiError> {
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
    let outcome = desk
        .db
        .write(move |tx| {
            let Some(event) = event_mail::event_by_slug(tx, &slug)? else {
                return Ok(None);
            };
            let request = Request {
                name: &name,
                email: &email,
                zip: &zip,
                phone: phone.as_deref(),
                guests,
            };
            let outcome = seats::rsvp(tx, event.id, &request, now)?;
            if let Some(id) = outcome.rsvp
                && matches!(outcome.standing, Standing::Going | Standing::Waitlisted)
            {
                event_mail::queue(&mail, &site, tx, id, Note::Confirmation, now)?;
            }
            for moved in &outcome.moved_up {
                event_mail::queue(&mail, &site, tx, *moved, Note::MovedUp, now)?;
            }
            if let (true, Some(phone), Some(_)) = (texts, phone.as_deref(), outcome.rsvp) {
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
            Ok(Some(outcome))
        })
        .await?;
    desk.mail.wake();
    let Some(outcome) = outcome else {
        return Err(ApiError::NotFound("There is no such event.".into()));
    };
    match outcome.answer {
        _ if outcome.standing == Standing::Closed => Err(ApiError::Conflict(
            "RSVPs for this event are closed.".into(),
        )),
        Standing::Going => Ok(GOING),
        Standing::Waitlisted => Ok(WAITLISTED),
        Standing::Full | Standing::Closed => {
            Err(ApiError::Conflict("Sorry, this event is full.".into()))
        }
    }
}
