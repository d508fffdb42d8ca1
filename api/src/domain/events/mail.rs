//! The mail an RSVP brings, queued in the write that causes it: the confirmation (going or
//! waiting), "You're in" when a seat opens, a change of time or place, a cancellation and
//! the reminder the day before. Those going get an invitation (`event.ics`, the same `UID`
//! every time, `SEQUENCE` from the event, `METHOD:CANCEL` when it is called off), an "add
//! to Google Calendar" link, the video link of an online event, and the link to their own
//! RSVP page, where they can cancel.

use generator::config::SiteConfig;
use generator::events::{self, Event, ics};
use jiff::Timestamp;
use rusqlite::{Connection, OptionalExtension};

use crate::domain::clock::sql_time;
use crate::domain::mail::Mail;
use crate::domain::mail::message::{Calendar, Person};
use crate::domain::mail::queue::{self, Kind};

/// Which message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Note {
    /// The answer to an RSVP: going or waiting, as stored.
    Confirmation,
    /// A seat opened: going now.
    MovedUp,
    /// The time or the place changed.
    Changed,
    /// The event was called off.
    Cancelled,
    /// The day before.
    Reminder,
}

/// An RSVP as its mail needs it.
struct Rsvp {
    id: i64,
    name: String,
    email: String,
    guests: i64,
    status: String,
}

fn rsvp(conn: &Connection, id: i64) -> rusqlite::Result<Option<(Rsvp, i64)>> {
    conn.prepare_cached(
        "SELECT id, name, email, guests, status, event_id FROM event_rsvps WHERE id = ?1",
    )?
    .query_row([id], |r| {
        Ok((
            Rsvp {
                id: r.get(0)?,
                name: r.get(1)?,
                email: r.get(2)?,
                guests: r.get(3)?,
                status: r.get(4)?,
            },
            r.get(5)?,
        ))
    })
    .optional()
}

/// The private video link of event `id`, for those going.
fn video_link(conn: &Connection, id: i64) -> rusqlite::Result<Option<String>> {
    conn.prepare_cached("SELECT video_link FROM events WHERE id = ?1")?
        .query_row([id], |r| r.get(0))
        .optional()
        .map(Option::flatten)
}

/// The link to RSVP `id`'s own page.
pub fn rsvp_url(mail: &Mail, id: i64, email: &str) -> String {
    mail.link(&format!("/events/rsvp/{}", mail.tokens.rsvp(id, email)))
}

fn party(guests: i64) -> String {
    match guests {
        0 => String::new(),
        1 => " with 1 guest".into(),
        n => format!(" with {n} guests"),
    }
}

/// Queues `note` for RSVP `id`; whether a message was queued (a repeat of one already queued
/// is not, nor mail to a cancelled RSVP but its event's cancellation).
pub fn queue(
    mail: &Mail,
    site: &SiteConfig,
    conn: &Connection,
    id: i64,
    note: Note,
    now: Timestamp,
) -> rusqlite::Result<bool> {
    let Some((r, event_id)) = rsvp(conn, id)? else {
        return Ok(false);
    };
    let Some(event) = events::store::public_by_id(conn, event_id)? else {
        return Ok(false);
    };
    let going = r.status == "going";
    if r.status == "cancelled" || (note == Note::Reminder && !going) {
        return Ok(false);
    }
    let tz = event.zone();
    let when = events::display_span(event.starts_at, event.ends_at, &tz);
    let place = match (&event.venue, event.online) {
        (Some(venue), true) => format!("{venue}, and online"),
        (Some(venue), false) => venue.clone(),
        (None, _) => "Online".to_owned(),
    };
    let link = if going && event.online {
        video_link(conn, event_id)?
    } else {
        None
    };
    let own_page = rsvp_url(mail, r.id, &r.email);
    let page = mail.link(&event.route());
    let attendee = ics::Party {
        name: &r.name,
        email: &r.email,
    };
    let entry = events::entry(site, &event, Some(attendee));
    let google = ics::google_link(&entry);
    let details = {
        let mut d = format!("When: {when}\nWhere: {place}\n");
        if let Some(link) = &link {
            d.push_str(&format!("Join online: {link}\n(This link is for you and your guests only; please don't share it.)\n"));
        }
        d
    };
    let title = &event.title;
    let (kind, subject, body, method, key) = match note {
        Note::Confirmation if going => (
            Kind::EventRsvp,
            format!("You're going: {title}"),
            format!(
                "Hi {},\n\nYou're going to {title}{}.\n\n{details}\nAdd it to Google Calendar: {google}\nThe attached invitation adds it to most other calendars.\n\nCan't make it after all? Cancel your RSVP, so someone waiting can have your seat:\n{own_page}\n\nThe event's page: {page}",
                r.name,
                party(r.guests)
            ),
            Some("REQUEST"),
            // One confirmation a day per RSVP and answer: a repeated RSVP (or one someone
            // else makes with this address) cannot flood the inbox.
            format!("event-rsvp:{}:going:{}", r.id, day(now)),
        ),
        Note::Confirmation => (
            Kind::EventRsvp,
            format!("You're on the waitlist: {title}"),
            format!(
                "Hi {},\n\n{title} is full, so you're on the waitlist{}. If a seat opens for you, it's yours: we'll e-mail you right away with everything you need.\n\n{details}\nNo longer interested? Leave the waitlist here:\n{own_page}\n\nThe event's page: {page}",
                r.name,
                party(r.guests)
            ),
            None,
            format!("event-rsvp:{}:waitlisted:{}", r.id, day(now)),
        ),
        Note::MovedUp => (
            Kind::EventRsvp,
            format!("You're in: {title}"),
            format!(
                "Hi {},\n\nGood news: a seat opened up, and you're going to {title}{}.\n\n{details}\nAdd it to Google Calendar: {google}\nThe attached invitation adds it to most other calendars.\n\nCan't make it? Cancel here, so the next person waiting can go:\n{own_page}",
                r.name,
                party(r.guests)
            ),
            Some("REQUEST"),
            format!("event-in:{}:{}", r.id, sql_time(now)),
        ),
        Note::Changed => (
            Kind::EventUpdate,
            format!("Changed: {title}"),
            format!(
                "Hi {},\n\nThe time or place of {title} has changed. Here are the details now:\n\n{details}\n{}Can't make the new time? Cancel here:\n{own_page}\n\nThe event's page: {page}",
                r.name,
                if going {
                    "Your calendar invitation is updated too (open the attached file if your calendar does not do it by itself).\n\n"
                } else {
                    "You're still on the waitlist.\n\n"
                },
            ),
            going.then_some("REQUEST"),
            format!("event-change:{}:{}", r.id, event.sequence),
        ),
        Note::Cancelled => (
            Kind::EventUpdate,
            format!("Cancelled: {title}"),
            format!(
                "Hi {},\n\nWe're sorry: {title} ({when}) has been cancelled.{}\n\nSee what else is coming up: {}",
                r.name,
                event
                    .cancel_message
                    .as_deref()
                    .map(|m| format!("\n\nA note from the organizers:\n{m}"))
                    .unwrap_or_default(),
                mail.link(events::LIST_ROUTE)
            ),
            going.then_some("CANCEL"),
            format!("event-cancel:{}:{}", r.id, event_id),
        ),
        Note::Reminder => (
            Kind::EventReminder,
            format!("Tomorrow: {title}"),
            format!(
                "Hi {},\n\nA reminder: you're going to {title}{}.\n\n{details}\nCan't make it after all? Cancel here, so someone waiting can go:\n{own_page}",
                r.name,
                party(r.guests)
            ),
            None,
            // Once per RSVP and start time: a new time re-arms it.
            format!("event-reminder:{}:{}", r.id, sql_time(event.starts_at)),
        ),
    };
    let calendar = method.map(|method| Calendar {
        method,
        ics: ics::calendar(&site.name, Some(method), std::slice::from_ref(&entry)),
    });
    let to = Person {
        name: Some(&r.name),
        email: &r.email,
    };
    let Some(built) = mail.compose_invitation(kind, to, &subject, &body, calendar) else {
        return Ok(false);
    };
    queue::enqueue(conn, &key, kind, &r.email, &built, now)
}

/// The link that confirms waiting request `id` (of `email`), working until `expires`.
pub fn request_url(mail: &Mail, id: i64, email: &str, expires: Timestamp) -> String {
    mail.link(&format!(
        "/events/rsvp/confirm/{}",
        mail.tokens.rsvp_request(id, email, expires)
    ))
}

/// Queues the message that asks the address of waiting request `id` to confirm it, in the
/// day's `slot` (`requests::ask`); whether one was queued.
pub fn queue_request(
    mail: &Mail,
    conn: &Connection,
    id: i64,
    slot: i64,
    now: Timestamp,
) -> rusqlite::Result<bool> {
    let Some(w) = super::requests::waiting(conn, id, now)? else {
        return Ok(false);
    };
    let Some(event) = events::store::public_by_id(conn, w.event)? else {
        return Ok(false);
    };
    let email_id: Option<i64> = conn
        .prepare_cached("SELECT email_id FROM event_rsvp_requests WHERE id = ?1")?
        .query_row([id], |r| r.get(0))?;
    let Some(email_id) = email_id else {
        return Ok(false);
    };
    let tz = event.zone();
    let when = events::display_span(event.starts_at, event.ends_at, &tz);
    let place = match (&event.venue, event.online) {
        (Some(venue), true) => format!("{venue}, and online"),
        (Some(venue), false) => venue.clone(),
        (None, _) => "Online".to_owned(),
    };
    let link = request_url(mail, w.id, &w.email, w.expires_at);
    let title = &event.title;
    let change = if w.changes {
        "You already have an RSVP for this event: confirming changes it to these details.

"
    } else {
        ""
    };
    let subject = format!("Confirm your RSVP: {title}");
    let body = format!(
        "Hi {},

To RSVP to {title}{}, open this link and press Confirm:
{link}

It works for 24 hours. Your seat is taken when you confirm (or your place on the waitlist, if the event has filled by then).

{change}When: {when}
Where: {place}

If you didn't ask for this, ignore this message: nothing happens unless the link is used.",
        w.name,
        party(w.guests),
    );
    let to = Person {
        name: Some(&w.name),
        email: &w.email,
    };
    let Some(built) = mail.compose_invitation(Kind::EventRsvp, to, &subject, &body, None) else {
        return Ok(false);
    };
    let key = super::requests::mail_key(w.event, email_id, &day(now), slot);
    queue::enqueue(conn, &key, Kind::EventRsvp, &w.email, &built, now)
}

/// The day of `now` (UTC), for keys that allow one message a day.
fn day(now: Timestamp) -> String {
    now.strftime("%Y-%m-%d").to_string()
}

/// Queues `note` for every RSVP of `event` still going or waiting; how many were queued.
pub fn queue_all(
    mail: &Mail,
    site: &SiteConfig,
    conn: &Connection,
    event: i64,
    note: Note,
    now: Timestamp,
) -> rusqlite::Result<usize> {
    let ids: Vec<i64> = conn
        .prepare_cached(
            "SELECT id FROM event_rsvps WHERE event_id = ?1 AND status IN ('going', 'waitlisted') \
             ORDER BY id",
        )?
        .query_map([event], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    let mut queued = 0;
    for id in ids {
        queued += usize::from(queue(mail, site, conn, id, note, now)?);
    }
    Ok(queued)
}

/// Public event `slug` (for the RSVP route, which names events by slug).
pub fn event_by_slug(conn: &Connection, slug: &str) -> rusqlite::Result<Option<Event>> {
    events::store::public_by_slug(conn, slug)
}
