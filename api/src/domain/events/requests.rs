//! An RSVP waits for its mailbox before it counts. The form stores a request and mails a
//! link to the address; only that link takes a seat (or a place on the waitlist) or changes
//! an RSVP the address already has. So a stranger typing someone's address can neither fill
//! an event with made-up names, nor rewrite another person's RSVP, nor learn from the seats
//! left whether that person is coming: nothing the public sees moves until the mailbox
//! answers.
//!
//! Bounds, so that one network cannot mail-bomb an inbox or bury an event in requests: one
//! waiting request per address and event (a new one replaces its details), at most
//! [`MAILS_PER_DAY`] links a day to one address for one event, and at most
//! [`PER_NETWORK`] waiting requests from one network (an IPv4 address or an IPv6 /64) per
//! event. Past either, the visitor gets the same answer and nothing more is mailed.

use jiff::{SignedDuration, Timestamp};
use rusqlite::{Connection, OptionalExtension, params};

use super::seats::{self, Outcome, Request};
use crate::domain::clock::sql_time;
use crate::domain::people;

/// How long the mailed link works.
pub const LIFETIME: SignedDuration = SignedDuration::from_hours(24);
/// Links mailed to one address for one event in a day (UTC).
pub const MAILS_PER_DAY: i64 = 3;
/// Waiting requests one network may have open for one event.
pub const PER_NETWORK: i64 = 10;

/// A waiting request.
#[derive(Debug, Clone)]
pub struct Waiting {
    pub id: i64,
    pub event: i64,
    pub name: String,
    pub email: String,
    pub zip: String,
    pub phone: Option<String>,
    pub guests: i64,
    pub expires_at: Timestamp,
    /// Whether the address already has an RSVP to this event that is not cancelled (the
    /// request would change it).
    pub changes: bool,
}

/// What asking did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Asked {
    /// Stored; mail this request's link with `slot` (one of the day's [`MAILS_PER_DAY`]).
    Mail { request: i64, slot: i64 },
    /// Stored or refused quietly: nothing to mail (the day's links are spent, or the
    /// network has too many waiting).
    Quiet,
}

/// Stores `request` for `event` from the network `network_key` at `now`, waiting for its
/// mailbox. The caller answers every visitor alike and checks the event is open first.
pub fn ask(
    conn: &Connection,
    event: i64,
    request: &Request<'_>,
    network_key: &str,
    now: Timestamp,
) -> rusqlite::Result<Asked> {
    let Some(email_id) = people::link(conn, request.email, now)? else {
        return Ok(Asked::Quiet);
    };
    let at = sql_time(now);
    let existing: Option<i64> = conn
        .prepare_cached(
            "SELECT id FROM event_rsvp_requests WHERE event_id = ?1 AND email_id = ?2 \
             AND expires_at > ?3",
        )?
        .query_row(params![event, email_id, at], |r| r.get(0))
        .optional()?;
    if existing.is_none() {
        let from_network: i64 = conn
            .prepare_cached(
                "SELECT COUNT(*) FROM event_rsvp_requests WHERE event_id = ?1 \
                 AND network_key = ?2 AND expires_at > ?3",
            )?
            .query_row(params![event, network_key, at], |r| r.get(0))?;
        if from_network >= PER_NETWORK {
            tracing::warn!(
                event,
                "an RSVP was not stored: its network has too many waiting"
            );
            return Ok(Asked::Quiet);
        }
    }
    let guests = request.guests.clamp(0, seats::MAX_GUESTS);
    let id: i64 = conn
        .prepare_cached(
            "INSERT INTO event_rsvp_requests (event_id, email_id, name, email, zip_code, phone, \
             guests, network_key, created_at, expires_at) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10) \
             ON CONFLICT (event_id, email_id) DO UPDATE SET name = excluded.name, \
             email = excluded.email, zip_code = excluded.zip_code, phone = excluded.phone, \
             guests = excluded.guests, network_key = excluded.network_key, \
             created_at = excluded.created_at, expires_at = excluded.expires_at \
             RETURNING id",
        )?
        .query_row(
            params![
                event,
                email_id,
                request.name,
                request.email,
                request.zip,
                request.phone,
                guests,
                network_key,
                at,
                sql_time(now + LIFETIME)
            ],
            |r| r.get(0),
        )?;
    // The day's slots are the mail queue's own keys: a slot already queued is taken.
    let day = now.strftime("%Y-%m-%d").to_string();
    for slot in 1..=MAILS_PER_DAY {
        let taken: bool = conn
            .prepare_cached("SELECT EXISTS (SELECT 1 FROM mail_queue WHERE event_key = ?1)")?
            .query_row([mail_key(event, email_id, &day, slot)], |r| r.get(0))?;
        if !taken {
            return Ok(Asked::Mail { request: id, slot });
        }
    }
    Ok(Asked::Quiet)
}

/// The mail queue's key of the link mailed to address row `email_id` for `event` on `day`
/// in `slot`.
pub fn mail_key(event: i64, email_id: i64, day: &str, slot: i64) -> String {
    format!("event-rsvp-ask:{event}:{email_id}:{day}:{slot}")
}

/// Waiting request `id`, while its link works at `now`.
pub fn waiting(conn: &Connection, id: i64, now: Timestamp) -> rusqlite::Result<Option<Waiting>> {
    let row = conn
        .prepare_cached(
            "SELECT q.id, q.event_id, q.name, q.email, q.zip_code, q.phone, q.guests, q.expires_at, \
             EXISTS (SELECT 1 FROM event_rsvps r WHERE r.event_id = q.event_id \
                     AND r.email_id = q.email_id AND r.status != 'cancelled') \
             FROM event_rsvp_requests q WHERE q.id = ?1 AND q.expires_at > ?2",
        )?
        .query_row(params![id, sql_time(now)], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, i64>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, String>(4)?,
                r.get::<_, Option<String>>(5)?,
                r.get::<_, i64>(6)?,
                r.get::<_, String>(7)?,
                r.get::<_, bool>(8)?,
            ))
        })
        .optional()?;
    Ok(row.and_then(
        |(id, event, name, email, zip, phone, guests, expires, changes)| {
            Some(Waiting {
                id,
                event,
                name,
                email,
                zip,
                phone,
                guests,
                expires_at: expires.parse().ok()?,
                changes,
            })
        },
    ))
}

/// The address of request `id` (to check its link's signature), whatever its state.
pub fn email_of(conn: &Connection, id: i64) -> rusqlite::Result<Option<String>> {
    conn.prepare_cached("SELECT email FROM event_rsvp_requests WHERE id = ?1")?
        .query_row([id], |r| r.get(0))
        .optional()
}

/// Confirms `waiting` from its mailbox: the RSVP is made (or the address's RSVP changed) as
/// [`seats::rsvp`] decides, and the request is gone. Call inside one write.
pub fn confirm(conn: &Connection, waiting: &Waiting, now: Timestamp) -> rusqlite::Result<Outcome> {
    let request = Request {
        name: &waiting.name,
        email: &waiting.email,
        zip: &waiting.zip,
        phone: waiting.phone.as_deref(),
        guests: waiting.guests,
    };
    let outcome = seats::rsvp(conn, waiting.event, &request, now)?;
    if outcome.standing != seats::Standing::Closed {
        conn.prepare_cached("DELETE FROM event_rsvp_requests WHERE id = ?1")?
            .execute([waiting.id])?;
    }
    Ok(outcome)
}
