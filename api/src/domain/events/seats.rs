//! Seats at an event: an RSVP takes its party's seats (itself and up to four guests) if they
//! fit, else it waits in arrival order (when the event keeps a waitlist); a cancellation or
//! more capacity moves up, in order, each waiting party that now fits.
//!
//! Nothing here stores a count: the seats taken are summed from the going RSVPs inside the
//! write that changes them, and writes are serialised by the one writer, so fifty RSVPs at
//! once for twenty seats take twenty at most and nothing is lost.

use jiff::Timestamp;
use rusqlite::{Connection, OptionalExtension, params};

use crate::domain::clock::sql_time;
use crate::domain::people;

/// The most guests one RSVP may bring.
pub use generator::forms::MAX_GUESTS;

/// What an RSVP asks for.
#[derive(Debug, Clone)]
pub struct Request<'a> {
    pub name: &'a str,
    pub email: &'a str,
    pub zip: &'a str,
    pub phone: Option<&'a str>,
    pub guests: i64,
}

/// Where an RSVP stands after a write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standing {
    Going,
    Waitlisted,
    /// Full and no waitlist: nothing was stored (an RSVP already going keeps its seats).
    Full,
    /// Not open to RSVPs: a draft, cancelled, past its deadline or started.
    Closed,
}

/// Seats the going RSVPs of `event` take, leaving out RSVP `except` (one being changed).
fn taken(conn: &Connection, event: i64, except: Option<i64>) -> rusqlite::Result<i64> {
    conn.prepare_cached(
        "SELECT COALESCE(SUM(1 + guests), 0) FROM event_rsvps \
         WHERE event_id = ?1 AND status = 'going' AND id IS NOT ?2",
    )?
    .query_row(params![event, except], |r| r.get(0))
}

/// An event as the seats need it.
struct Event {
    capacity: Option<i64>,
    waitlist: bool,
    open: bool,
}

fn event(conn: &Connection, id: i64, now: Timestamp) -> rusqlite::Result<Option<Event>> {
    let at = sql_time(now);
    conn.prepare_cached(
        "SELECT capacity, waitlist, status = 'published' AND starts_at > ?2 \
         AND (rsvp_deadline IS NULL OR rsvp_deadline > ?2) FROM events WHERE id = ?1",
    )?
    .query_row(params![id, at], |r| {
        Ok(Event {
            capacity: r.get(0)?,
            waitlist: r.get(1)?,
            open: r.get(2)?,
        })
    })
    .optional()
}

/// Seats left at `event` (`None`: no limit), for the "spots left" the page shows.
pub fn left(conn: &Connection, event: i64) -> rusqlite::Result<Option<i64>> {
    let capacity: Option<i64> = conn
        .prepare_cached("SELECT capacity FROM events WHERE id = ?1")?
        .query_row([event], |r| r.get(0))
        .optional()?
        .flatten();
    Ok(match capacity {
        Some(capacity) => Some((capacity - taken(conn, event, None)?).max(0)),
        None => None,
    })
}

/// What an RSVP did: where it stands, and the waiting RSVPs it moved up (a going one that
/// brings fewer guests frees seats), to be told "You're in".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    pub standing: Standing,
    pub moved_up: Vec<i64>,
    /// The RSVP stored or changed.
    pub rsvp: Option<i64>,
}

impl From<Standing> for Outcome {
    fn from(standing: Standing) -> Outcome {
        Outcome {
            standing,
            moved_up: Vec::new(),
            rsvp: None,
        }
    }
}

/// An RSVP for `event`; a second one from the same address changes the first (its details
/// and party) rather than adding one. Call inside one write, once the address's mailbox has
/// confirmed it (`requests::confirm`) or for staff: a stranger's form post never reaches it.
pub fn rsvp(
    conn: &Connection,
    event: i64,
    request: &Request<'_>,
    now: Timestamp,
) -> rusqlite::Result<Outcome> {
    let Some(found) = self::event(conn, event, now)? else {
        return Ok(Standing::Closed.into());
    };
    if !found.open {
        return Ok(Standing::Closed.into());
    }
    let guests = request.guests.clamp(0, MAX_GUESTS);
    let email_id = people::link(conn, request.email, now)?;
    let at = sql_time(now);
    let existing: Option<(i64, String)> = conn
        .prepare_cached(
            "SELECT id, status FROM event_rsvps WHERE event_id = ?1 AND email_id IS ?2",
        )?
        .query_row(params![event, email_id], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?;
    let own = existing.as_ref().map(|(id, _)| *id);
    let fits = match found.capacity {
        Some(capacity) => taken(conn, event, own)? + 1 + guests <= capacity,
        None => true,
    };
    let was_going = matches!(&existing, Some((_, status)) if status == "going");
    let standing = if fits {
        Standing::Going
    } else if was_going {
        // Going, and asked for more seats than are left: keeps the ones it has rather than
        // losing its own place.
        return Ok(Outcome {
            standing: Standing::Going,
            moved_up: Vec::new(),
            rsvp: own,
        });
    } else if found.waitlist {
        Standing::Waitlisted
    } else {
        return Ok(Outcome {
            standing: Standing::Full,
            moved_up: Vec::new(),
            rsvp: own,
        });
    };
    let status = if standing == Standing::Going {
        "going"
    } else {
        "waitlisted"
    };
    let phone_e164 = request.phone.and_then(generator::forms::e164);
    let mut moved_up = Vec::new();
    let stored = match existing {
        Some((id, previous)) => {
            // One waiting already keeps its place; one newly waiting joins the end.
            conn.prepare_cached(
                "UPDATE event_rsvps SET name = ?2, email = ?3, zip_code = ?4, phone = ?5, \
                 phone_e164 = ?6, guests = ?7, status = ?8, updated_at = ?9, \
                 waitlisted_at = CASE WHEN ?8 = 'waitlisted' \
                 THEN COALESCE(CASE WHEN status = 'waitlisted' THEN waitlisted_at END, ?9) END \
                 WHERE id = ?1",
            )?
            .execute(params![
                id,
                request.name,
                request.email,
                request.zip,
                request.phone,
                phone_e164,
                guests,
                status,
                at
            ])?;
            // A going RSVP with fewer guests frees seats.
            if previous == "going" {
                moved_up = promote(conn, event, now)?;
            }
            id
        }
        None => {
            conn.prepare_cached(
                "INSERT INTO event_rsvps (event_id, email_id, name, email, zip_code, phone, \
                 phone_e164, guests, status, created_at, updated_at, waitlisted_at) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?10, \
                 CASE WHEN ?9 = 'waitlisted' THEN ?10 END)",
            )?
            .execute(params![
                event,
                email_id,
                request.name,
                request.email,
                request.zip,
                request.phone,
                phone_e164,
                guests,
                status,
                at
            ])?;
            conn.last_insert_rowid()
        }
    };
    Ok(Outcome {
        standing,
        moved_up,
        rsvp: Some(stored),
    })
}

/// Cancels RSVP `id` (from its link, or by staff) and moves up whoever now fits; returns
/// the RSVPs moved up, to be told "You're in". Cancelling twice changes nothing.
pub fn cancel(conn: &Connection, id: i64, now: Timestamp) -> rusqlite::Result<Vec<i64>> {
    let event: Option<i64> = conn
        .prepare_cached(
            "UPDATE event_rsvps SET status = 'cancelled', waitlisted_at = NULL, updated_at = ?2 \
             WHERE id = ?1 AND status != 'cancelled' RETURNING event_id",
        )?
        .query_row(params![id, sql_time(now)], |r| r.get(0))
        .optional()?;
    match event {
        Some(event) => promote(conn, event, now),
        None => Ok(Vec::new()),
    }
}

/// Moves up the waiting RSVPs of `event`, earliest first, each whose party fits in the seats
/// left (a party of three waits while a later one of one takes the last seat); returns them.
/// Call inside the write that freed seats (a cancellation, more capacity).
pub fn promote(conn: &Connection, event: i64, now: Timestamp) -> rusqlite::Result<Vec<i64>> {
    let Some(mut left) = left(conn, event)? else {
        // No limit: everyone waiting is in.
        return conn
            .prepare_cached(
                "UPDATE event_rsvps SET status = 'going', waitlisted_at = NULL, updated_at = ?2 \
                 WHERE event_id = ?1 AND status = 'waitlisted' RETURNING id",
            )?
            .query_map(params![event, sql_time(now)], |r| r.get(0))?
            .collect();
    };
    let waiting: Vec<(i64, i64)> = conn
        .prepare_cached(
            "SELECT id, 1 + guests FROM event_rsvps WHERE event_id = ?1 AND status = 'waitlisted' \
             ORDER BY waitlisted_at, id",
        )?
        .query_map([event], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?;
    let mut moved = Vec::new();
    for (id, party) in waiting {
        if left == 0 {
            break;
        }
        if party <= left {
            conn.prepare_cached(
                "UPDATE event_rsvps SET status = 'going', waitlisted_at = NULL, updated_at = ?2 \
                 WHERE id = ?1",
            )?
            .execute(params![id, sql_time(now)])?;
            left -= party;
            moved.push(id);
        }
    }
    Ok(moved)
}
