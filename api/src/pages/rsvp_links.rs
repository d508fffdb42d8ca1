//! `/events/rsvp/confirm/{token}`: the link mailed for an RSVP the form stored as waiting.
//! GET shows what it would confirm and one button; the POST takes the seat (or the place on
//! the waitlist), or changes the address's RSVP, and mails the RSVP's own link.
//!
//! `/events/rsvp/{token}`: an RSVP's own page, from the link in every message about it,
//! working without signing in and without JavaScript. GET shows the event, where the RSVP
//! stands, the video link of an online event to those going (the only page that shows it),
//! and one button; opening it changes nothing (mail scanners fetch links). The POST cancels
//! the RSVP at once and, in the same write, moves up whoever waits and fits, and mails them.

use std::net::IpAddr;
use std::sync::Arc;

use generator::config::SiteConfig;
use generator::events::{self, Event};
use rusqlite::{Connection, OptionalExtension};
use warp::Filter;
use warp::filters::BoxedFilter;
use warp::http::StatusCode;
use warp::reply::Response;

use super::notice::Links;
use crate::domain::audit::{self, Action};
use crate::domain::events::mail::{self as event_mail, Note};
use crate::domain::events::{requests, seats};
use crate::domain::mail::tokens::{Confirm, Tokens};
use crate::http::filters::client_ip;
use crate::http::proxy::ProxyTrust;

/// A token is an id and 32 hex digits; anything much longer is not one.
const MAX_TOKEN: usize = 100;

pub fn routes(
    links: Links,
    site: Arc<SiteConfig>,
    trust_proxy: ProxyTrust,
) -> BoxedFilter<(Response,)> {
    let show = warp::path!("events" / "rsvp" / String)
        .and(warp::get())
        .then({
            let links = links.clone();
            move |token| show(links.clone(), token)
        });
    let cancel = warp::path!("events" / "rsvp" / String)
        .and(warp::post())
        .and(client_ip(trust_proxy))
        .then({
            let (links, site) = (links.clone(), site.clone());
            move |token, ip| cancel(links.clone(), site.clone(), token, ip)
        });
    let ask = warp::path!("events" / "rsvp" / "confirm" / String)
        .and(warp::get())
        .then({
            let links = links.clone();
            move |token| show_request(links.clone(), token)
        });
    let confirm = warp::path!("events" / "rsvp" / "confirm" / String)
        .and(warp::post())
        .then(move |token| confirm(links.clone(), site.clone(), token));
    show.or(cancel)
        .unify()
        .or(ask)
        .unify()
        .or(confirm)
        .unify()
        .boxed()
}

/// What a confirmation link names.
enum Link {
    Waiting(requests::Waiting, Box<Event>),
    Expired,
    Invalid,
}

/// The waiting request `token` is the link of, at `now`.
fn request_of(
    conn: &Connection,
    tokens: &Tokens,
    token: &str,
    now: jiff::Timestamp,
) -> rusqlite::Result<Link> {
    if token.len() > MAX_TOKEN {
        return Ok(Link::Invalid);
    }
    let Some(id) = Tokens::id_of(token) else {
        return Ok(Link::Invalid);
    };
    let Some(email) = requests::email_of(conn, id)? else {
        // Used already, or forgotten: the RSVP's own mail took over.
        return Ok(Link::Expired);
    };
    match tokens.check_rsvp_request(token, id, &email, now) {
        Confirm::Invalid => return Ok(Link::Invalid),
        Confirm::Expired => return Ok(Link::Expired),
        Confirm::Valid => {}
    }
    let Some(waiting) = requests::waiting(conn, id, now)? else {
        return Ok(Link::Expired);
    };
    match events::store::public_by_id(conn, waiting.event)? {
        Some(event) => Ok(Link::Waiting(waiting, Box::new(event))),
        None => Ok(Link::Invalid),
    }
}

fn party(guests: i64) -> String {
    match guests {
        0 => String::new(),
        1 => " with 1 guest".into(),
        n => format!(" with {n} guests"),
    }
}

/// GET: what the link would confirm, and the one button; opening it changes nothing (mail
/// scanners fetch links).
async fn show_request(links: Links, token: String) -> Response {
    let (mail, now) = (links.mail.clone(), links.clock.now());
    let t = token.clone();
    let found = links
        .db
        .read(move |c| request_of(c, &mail.tokens, &t, now))
        .await;
    let (w, event) = match found {
        Ok(Link::Waiting(w, event)) => (w, event),
        Ok(Link::Expired) => return expired(&links).await,
        Ok(Link::Invalid) => return invalid(&links).await,
        Err(e) => return failed(&links, e).await,
    };
    if !event.open(now) {
        return closed(&links).await;
    }
    let mut paragraphs = vec![format!(
        "{}{}: confirm to take your seat, or your place on the waitlist if the event has filled.",
        w.name,
        party(w.guests)
    )];
    if w.changes {
        paragraphs.push(
            "You already have an RSVP for this event: confirming changes it to these details."
                .into(),
        );
    }
    let tz = event.zone();
    paragraphs.push(format!(
        "When: {}",
        events::display_span(event.starts_at, event.ends_at, &tz)
    ));
    let action = format!("/events/rsvp/confirm/{token}");
    let paragraphs: Vec<&str> = paragraphs.iter().map(String::as_str).collect();
    page(
        &links,
        StatusCode::OK,
        &format!("Confirm your RSVP: {}", event.title),
        &paragraphs,
        Some((action.as_str(), "Confirm my RSVP")),
    )
    .await
}

/// What the confirming POST did.
enum Confirmed {
    Standing(seats::Standing),
    Expired,
    Invalid,
}

/// POST: the RSVP is made (or the address's changed) now, with its mail; whoever a smaller
/// party frees seats for moves up.
async fn confirm(links: Links, site: Arc<SiteConfig>, token: String) -> Response {
    let (mail, now) = (links.mail.clone(), links.clock.now());
    let done = links
        .db
        .write(move |tx| {
            let (w, event) = match request_of(tx, &mail.tokens, &token, now)? {
                Link::Waiting(w, event) => (w, event),
                Link::Expired => return Ok(Confirmed::Expired),
                Link::Invalid => return Ok(Confirmed::Invalid),
            };
            if !event.open(now) {
                return Ok(Confirmed::Standing(seats::Standing::Closed));
            }
            let outcome = requests::confirm(tx, &w, now)?;
            if let Some(id) = outcome.rsvp
                && matches!(
                    outcome.standing,
                    seats::Standing::Going | seats::Standing::Waitlisted
                )
            {
                event_mail::queue(&mail, &site, tx, id, Note::Confirmation, now)?;
            }
            for moved in &outcome.moved_up {
                event_mail::queue(&mail, &site, tx, *moved, Note::MovedUp, now)?;
            }
            Ok(Confirmed::Standing(outcome.standing))
        })
        .await;
    match done {
        Ok(Confirmed::Standing(standing)) => {
            links.mail.wake();
            let (status, title, body) = match standing {
                seats::Standing::Going => (StatusCode::OK, events::GOING_TITLE, events::GOING_BODY),
                seats::Standing::Waitlisted => (
                    StatusCode::OK,
                    events::WAITLISTED_TITLE,
                    events::WAITLISTED_BODY,
                ),
                seats::Standing::Full => (
                    StatusCode::CONFLICT,
                    "Sorry, this event is full",
                    "Every seat was taken before you confirmed, and this event keeps no waitlist.",
                ),
                seats::Standing::Closed => return closed(&links).await,
            };
            page(&links, status, title, &[body], None).await
        }
        Ok(Confirmed::Expired) => expired(&links).await,
        Ok(Confirmed::Invalid) => invalid(&links).await,
        Err(e) => failed(&links, e).await,
    }
}

async fn expired(links: &Links) -> Response {
    page(
        links,
        StatusCode::GONE,
        "This link has expired",
        &["It worked for 24 hours, or it was used already. To RSVP, fill in the form on the event's page again; we'll send you a new link."],
        None,
    )
    .await
}

async fn closed(links: &Links) -> Response {
    page(
        links,
        StatusCode::GONE,
        "RSVPs for this event are closed",
        &["The event has started, its RSVP deadline has passed, or it was cancelled."],
        None,
    )
    .await
}

/// An RSVP as its page shows it.
struct Found {
    id: i64,
    status: String,
    guests: i64,
    event: Event,
    video_link: Option<String>,
}

/// The RSVP `token` names, if it is a good link.
fn rsvp_of(conn: &Connection, tokens: &Tokens, token: &str) -> rusqlite::Result<Option<Found>> {
    if token.len() > MAX_TOKEN {
        return Ok(None);
    }
    let Some(id) = Tokens::id_of(token) else {
        return Ok(None);
    };
    let row: Option<(String, String, i64, i64)> = conn
        .query_row(
            "SELECT email, status, guests, event_id FROM event_rsvps WHERE id = ?1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )
        .optional()?;
    let Some((email, status, guests, event_id)) = row else {
        return Ok(None);
    };
    if !tokens.check_rsvp(token, id, &email) {
        return Ok(None);
    }
    let Some(event) = events::store::public_by_id(conn, event_id)? else {
        return Ok(None);
    };
    let video_link = conn
        .query_row(
            "SELECT video_link FROM events WHERE id = ?1",
            [event_id],
            |r| r.get::<_, Option<String>>(0),
        )
        .optional()?
        .flatten();
    Ok(Some(Found {
        id,
        status,
        guests,
        event,
        video_link,
    }))
}

fn details(f: &Found) -> Vec<String> {
    let tz = f.event.zone();
    let mut lines = vec![format!(
        "When: {}",
        events::display_span(f.event.starts_at, f.event.ends_at, &tz)
    )];
    lines.push(format!(
        "Where: {}",
        match (&f.event.venue, f.event.online) {
            (Some(v), true) => format!("{v}, and online"),
            (Some(v), false) => v.clone(),
            (None, _) => "Online".into(),
        }
    ));
    lines
}

/// GET: the RSVP, and the one button while it can still be cancelled.
async fn show(links: Links, token: String) -> Response {
    let (mail, now) = (links.mail.clone(), links.clock.now());
    let t = token.clone();
    let found = links.db.read(move |c| rsvp_of(c, &mail.tokens, &t)).await;
    let f = match found {
        Ok(Some(f)) => f,
        Ok(None) => return invalid(&links).await,
        Err(e) => return failed(&links, e).await,
    };
    let guests = match f.guests {
        0 => String::new(),
        1 => " with 1 guest".into(),
        n => format!(" with {n} guests"),
    };
    let mut paragraphs = vec![match (f.event.cancelled(), f.status.as_str()) {
        (true, _) => "This event has been cancelled.".to_owned(),
        (false, "going") if f.event.started(now) => {
            format!("You were going{guests}. This event has ended.")
        }
        (false, "going") => format!("You're going{guests}."),
        (false, "waitlisted") => {
            format!("You're on the waitlist{guests}. If a seat opens for you, we'll e-mail you.")
        }
        _ => "You cancelled this RSVP.".to_owned(),
    }];
    paragraphs.extend(details(&f));
    if f.status == "going"
        && !f.event.cancelled()
        && !f.event.started(now)
        && let Some(link) = &f.video_link
    {
        paragraphs.push(format!("Join online: {link}"));
        paragraphs.push("This link is for you and your guests only; please don't share it.".into());
    }
    let open = !f.event.cancelled()
        && !f.event.started(now)
        && matches!(f.status.as_str(), "going" | "waitlisted");
    let label = if f.status == "waitlisted" {
        "Leave the waitlist"
    } else {
        "Cancel my RSVP"
    };
    let action = format!("/events/rsvp/{token}");
    let paragraphs: Vec<&str> = paragraphs.iter().map(String::as_str).collect();
    page(
        &links,
        StatusCode::OK,
        &f.event.title,
        &paragraphs,
        open.then_some((action.as_str(), label)),
    )
    .await
}

/// What the POST did.
enum Done {
    Cancelled,
    Closed,
    Invalid,
}

/// POST: cancels at once; whoever waits and now fits moves up and is mailed.
async fn cancel(links: Links, site: Arc<SiteConfig>, token: String, ip: IpAddr) -> Response {
    let (mail, now) = (links.mail.clone(), links.clock.now());
    let done = links
        .db
        .write(move |tx| {
            let Some(f) = rsvp_of(tx, &mail.tokens, &token)? else {
                return Ok(Done::Invalid);
            };
            if f.event.cancelled() || f.event.started(now) {
                return Ok(Done::Closed);
            }
            if f.status != "cancelled" {
                for moved in seats::cancel(tx, f.id, now)? {
                    event_mail::queue(&mail, &site, tx, moved, Note::MovedUp, now)?;
                }
                audit::record(
                    tx,
                    Action::CancelRsvp,
                    Some(&format!("event:{}:rsvp:{}", f.event.id, f.id)),
                    audit::By::anonymous(ip),
                )?;
            }
            Ok(Done::Cancelled)
        })
        .await;
    match done {
        Ok(Done::Cancelled) => {
            links.mail.wake();
            page(
                &links,
                StatusCode::OK,
                "Your RSVP is cancelled",
                &["Thank you for letting us know: your seat can go to someone else. We hope to see you at another event."],
                None,
            )
            .await
        }
        Ok(Done::Closed) => {
            page(
                &links,
                StatusCode::GONE,
                "This RSVP can no longer be changed",
                &["The event has started, or it was cancelled."],
                None,
            )
            .await
        }
        Ok(Done::Invalid) => invalid(&links).await,
        Err(e) => failed(&links, e).await,
    }
}

async fn invalid(links: &Links) -> Response {
    let p = &links.mail.texts.pages;
    page(
        links,
        StatusCode::NOT_FOUND,
        &p.invalid_title,
        &[&p.invalid_text],
        None,
    )
    .await
}

async fn failed(links: &Links, e: crate::store::error::Error) -> Response {
    super::notice::failed(&links.mail, &links.dist, "an RSVP's link", &e).await
}

async fn page(
    links: &Links,
    status: StatusCode,
    title: &str,
    paragraphs: &[&str],
    button: Option<(&str, &str)>,
) -> Response {
    super::notice::page(&links.mail, &links.dist, status, title, paragraphs, button).await
}
