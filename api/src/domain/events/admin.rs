//! Staff's side of events: what they send is checked and cleaned here ([`Input::clean`]),
//! and every read and write of `events` the admin makes. The routes add the audit rows and
//! the mail; each function runs inside the caller's write or read.

use jiff::Timestamp;
use jiff::civil::DateTime;
use jiff::tz::TimeZone;
use rusqlite::{Connection, OptionalExtension, Row, params};
use serde::{Deserialize, Serialize};

use crate::domain::clock::sql_time;

/// The longest title, in characters.
pub const MAX_TITLE: usize = 150;
/// The longest description, in bytes of HTML.
pub const MAX_DESCRIPTION: usize = 100_000;
/// The longest venue address, video link and cancellation message, in characters.
pub const MAX_VENUE: usize = 300;
pub const MAX_LINK: usize = 500;
pub const MAX_MESSAGE: usize = 2000;
/// The largest capacity.
pub const MAX_CAPACITY: i64 = 100_000;

/// An event as staff send it (`EventInput` in docs/events.md).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Input {
    pub title: String,
    #[serde(default)]
    pub description: String,
    pub kind: String,
    pub start: String,
    pub end: String,
    pub time_zone: String,
    #[serde(default)]
    pub venue: Option<String>,
    #[serde(default)]
    pub online: bool,
    #[serde(default)]
    pub video_link: Option<String>,
    #[serde(default)]
    pub capacity: Option<i64>,
    #[serde(default)]
    pub rsvp_deadline: Option<String>,
    #[serde(default = "yes")]
    pub waitlist: bool,
}

fn yes() -> bool {
    true
}

/// An [`Input`] checked and cleaned, ready to store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clean {
    pub title: String,
    pub description: String,
    pub kind: String,
    pub starts_at: Timestamp,
    pub ends_at: Timestamp,
    pub time_zone: String,
    pub venue: Option<String>,
    pub online: bool,
    pub video_link: Option<String>,
    pub capacity: Option<i64>,
    pub rsvp_deadline: Option<Timestamp>,
    pub waitlist: bool,
}

fn trimmed(value: Option<&str>) -> Option<String> {
    value
        .map(|v| v.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|v| !v.is_empty())
}

/// A wall-clock time in `tz` ("2026-12-10T18:00"); a time a clock change skips or repeats
/// is read as the later one.
fn local_time(input: &str, tz: &TimeZone, what: &str) -> Result<Timestamp, String> {
    input
        .trim()
        .parse::<DateTime>()
        .ok()
        .and_then(|civil| tz.to_ambiguous_zoned_datetime(civil).later().ok())
        .map(|zoned| zoned.timestamp())
        .ok_or_else(|| format!("The {what} must be a date and time like 2026-12-10T18:00."))
}

impl Input {
    /// Checks every field, with a sentence staff can act on for the first that is wrong.
    /// `remote_hosts`: where the description's images may come from (as for posts).
    pub fn clean(&self, remote_hosts: &[String]) -> Result<Clean, String> {
        let title = trimmed(Some(&self.title)).ok_or("Give the event a title.")?;
        if title.chars().count() > MAX_TITLE {
            return Err(format!(
                "The title must be {MAX_TITLE} characters or fewer."
            ));
        }
        if self.description.len() > MAX_DESCRIPTION {
            return Err("The description is too long.".into());
        }
        if !generator::events::KINDS.contains(&self.kind.as_str()) {
            return Err("The type must be town_hall, petitioning_shift, meeting or other.".into());
        }
        let tz = TimeZone::get(self.time_zone.trim())
            .ok()
            .filter(|_| !self.time_zone.trim().is_empty())
            .ok_or_else(|| format!("\"{}\" is not a time zone.", self.time_zone.trim()))?;
        let starts_at = local_time(&self.start, &tz, "start")?;
        let ends_at = local_time(&self.end, &tz, "end")?;
        if ends_at <= starts_at {
            return Err("The end must be after the start.".into());
        }
        let venue = trimmed(self.venue.as_deref());
        if venue
            .as_ref()
            .is_some_and(|v| v.chars().count() > MAX_VENUE)
        {
            return Err(format!(
                "The venue must be {MAX_VENUE} characters or fewer."
            ));
        }
        if venue.is_none() && !self.online {
            return Err("Give a venue address, or mark the event as online.".into());
        }
        let video_link = trimmed(self.video_link.as_deref());
        if let Some(link) = &video_link {
            if !self.online {
                return Err("Only an online event has a video link.".into());
            }
            let ok = link.len() <= MAX_LINK
                && url::Url::parse(link).is_ok_and(|u| u.scheme() == "https" && u.host().is_some());
            if !ok {
                return Err("The video link must be an https:// address.".into());
            }
        }
        if let Some(capacity) = self.capacity
            && !(1..=MAX_CAPACITY).contains(&capacity)
        {
            return Err(format!(
                "Capacity must be a whole number from 1 to {MAX_CAPACITY}, or empty for no limit."
            ));
        }
        let rsvp_deadline = match trimmed(self.rsvp_deadline.as_deref()) {
            Some(d) => {
                let at = local_time(&d, &tz, "RSVP deadline")?;
                if at > starts_at {
                    return Err("The RSVP deadline must be before the start.".into());
                }
                Some(at)
            }
            None => None,
        };
        Ok(Clean {
            title,
            description: generator::sanitize::clean(&self.description, remote_hosts),
            kind: self.kind.clone(),
            starts_at,
            ends_at,
            time_zone: tz.iana_name().unwrap_or(self.time_zone.trim()).to_owned(),
            venue,
            online: self.online,
            video_link,
            capacity: self.capacity,
            rsvp_deadline,
            waitlist: self.waitlist,
        })
    }
}

/// An event as staff see it (`AdminEvent` in docs/events.md).
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct AdminEvent {
    pub id: i64,
    pub slug: String,
    pub url: String,
    pub title: String,
    pub description: String,
    pub kind: String,
    pub status: String,
    pub start: String,
    pub end: String,
    pub starts_at: String,
    pub ends_at: String,
    pub time_zone: String,
    pub venue: Option<String>,
    pub online: bool,
    pub video_link: Option<String>,
    pub capacity: Option<i64>,
    pub rsvp_deadline: Option<String>,
    pub waitlist: bool,
    pub started: bool,
    pub cancel_message: Option<String>,
    pub going: i64,
    pub waitlisted: i64,
    pub updated_at: String,
    #[serde(skip)]
    pub sequence: i64,
}

/// `2026-12-10T18:00` in `tz`.
fn wall(at: &str, tz: &TimeZone) -> String {
    at.parse::<Timestamp>()
        .map(|t| {
            t.to_zoned_datetime(tz.clone())
                .strftime("%Y-%m-%dT%H:%M")
                .to_string()
        })
        .unwrap_or_default()
}

const COLUMNS: &str = "e.id, e.slug, e.title, e.description, e.kind, e.status, e.starts_at, \
     e.ends_at, e.time_zone, e.venue, e.online, e.video_link, e.capacity, e.rsvp_deadline, \
     e.waitlist, e.cancel_message, e.updated_at, e.sequence, \
     (SELECT COALESCE(SUM(1 + guests), 0) FROM event_rsvps r WHERE r.event_id = e.id AND r.status = 'going'), \
     (SELECT COUNT(*) FROM event_rsvps r WHERE r.event_id = e.id AND r.status = 'waitlisted')";

fn admin_event(row: &Row<'_>, now: Timestamp) -> rusqlite::Result<AdminEvent> {
    let time_zone: String = row.get(8)?;
    let tz = generator::events::zone(&time_zone);
    let slug: String = row.get(1)?;
    let starts_at: String = row.get(6)?;
    let deadline: Option<String> = row.get(13)?;
    Ok(AdminEvent {
        id: row.get(0)?,
        url: generator::events::event_route(&slug),
        slug,
        title: row.get(2)?,
        description: row.get(3)?,
        kind: row.get(4)?,
        status: row.get(5)?,
        start: wall(&starts_at, &tz),
        end: wall(&row.get::<_, String>(7)?, &tz),
        started: starts_at.parse::<Timestamp>().is_ok_and(|s| s <= now),
        starts_at,
        ends_at: row.get(7)?,
        time_zone,
        venue: row.get(9)?,
        online: row.get(10)?,
        video_link: row.get(11)?,
        capacity: row.get(12)?,
        rsvp_deadline: deadline.map(|d| wall(&d, &tz)),
        waitlist: row.get(14)?,
        cancel_message: row.get(15)?,
        updated_at: row.get(16)?,
        sequence: row.get(17)?,
        going: row.get(18)?,
        waitlisted: row.get(19)?,
    })
}

/// Every event, the latest start first.
pub fn list(conn: &Connection, now: Timestamp) -> rusqlite::Result<Vec<AdminEvent>> {
    conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM events e ORDER BY e.starts_at DESC, e.id DESC"
    ))?
    .query_map([], |r| admin_event(r, now))?
    .collect()
}

/// Event `id`.
pub fn get(conn: &Connection, id: i64, now: Timestamp) -> rusqlite::Result<Option<AdminEvent>> {
    conn.prepare_cached(&format!("SELECT {COLUMNS} FROM events e WHERE e.id = ?1"))?
        .query_row([id], |r| admin_event(r, now))
        .optional()
}

/// Slugs an event may not take: the paths beside the events' pages.
const RESERVED: [&str; 5] = ["going", "waitlisted", "check-email", "rsvp", "sitemap"];

/// A slug made from `title` that no event has (numbered when taken).
fn free_slug(conn: &Connection, title: &str) -> rusqlite::Result<String> {
    let base = Some(generator::slug::slugify(title))
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "event".into());
    let mut candidate = base.clone();
    let mut n = 1;
    loop {
        let taken: bool = conn
            .prepare_cached("SELECT EXISTS (SELECT 1 FROM events WHERE slug = ?1)")?
            .query_row([&candidate], |r| r.get(0))?;
        if !taken && !RESERVED.contains(&candidate.as_str()) {
            return Ok(candidate);
        }
        n += 1;
        candidate = generator::slug::numbered(&base, n);
    }
}

/// Stores a new draft; returns its id.
pub fn create(
    conn: &Connection,
    e: &Clean,
    by: Option<i64>,
    now: Timestamp,
) -> rusqlite::Result<i64> {
    let slug = free_slug(conn, &e.title)?;
    conn.query_row(
        "INSERT INTO events (slug, title, description, kind, starts_at, ends_at, time_zone, venue, \
         online, video_link, capacity, rsvp_deadline, waitlist, created_by, created_at, updated_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?15) RETURNING id",
        params![
            slug,
            e.title,
            e.description,
            e.kind,
            sql_time(e.starts_at),
            sql_time(e.ends_at),
            e.time_zone,
            e.venue,
            e.online,
            e.video_link,
            e.capacity,
            e.rsvp_deadline.map(sql_time),
            e.waitlist,
            by,
            sql_time(now),
        ],
        |r| r.get(0),
    )
}

/// What an update changed that attendees must hear about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Changed {
    /// The time or the place: calendars are updated (`SEQUENCE` + 1) and people mailed.
    pub time_or_place: bool,
    /// The start: the reminder is sent again for the new time.
    pub start: bool,
}

/// Replaces event `id`'s fields; `None` when there is no such event.
pub fn update(
    conn: &Connection,
    id: i64,
    e: &Clean,
    now: Timestamp,
) -> rusqlite::Result<Option<Changed>> {
    // What stays the same, asked of the row itself: (the start, the time and the place).
    let same: Option<(bool, bool)> = conn
        .query_row(
            "SELECT starts_at = ?2, starts_at = ?2 AND ends_at = ?3 AND time_zone = ?4 \
             AND venue IS ?5 AND online = ?6 AND video_link IS ?7 FROM events WHERE id = ?1",
            params![
                id,
                sql_time(e.starts_at),
                sql_time(e.ends_at),
                e.time_zone,
                e.venue,
                e.online,
                e.video_link
            ],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    let Some((same_start, same_place)) = same else {
        return Ok(None);
    };
    let (start, time_or_place) = (!same_start, !same_place);
    conn.execute(
        "UPDATE events SET title = ?2, description = ?3, kind = ?4, starts_at = ?5, ends_at = ?6, \
         time_zone = ?7, venue = ?8, online = ?9, video_link = ?10, capacity = ?11, \
         rsvp_deadline = ?12, waitlist = ?13, updated_at = ?14, \
         sequence = sequence + ?15 WHERE id = ?1",
        params![
            id,
            e.title,
            e.description,
            e.kind,
            sql_time(e.starts_at),
            sql_time(e.ends_at),
            e.time_zone,
            e.venue,
            e.online,
            e.video_link,
            e.capacity,
            e.rsvp_deadline.map(sql_time),
            e.waitlist,
            sql_time(now),
            i64::from(time_or_place),
        ],
    )?;
    if start {
        // A new start re-arms the reminder.
        conn.execute(
            "UPDATE event_rsvps SET reminded_at = NULL WHERE event_id = ?1",
            [id],
        )?;
    }
    Ok(Some(Changed {
        time_or_place,
        start,
    }))
}

/// Sets event `id`'s status from `from` to `to` (with `message` for a cancellation); whether
/// it was in `from`.
pub fn set_status(
    conn: &Connection,
    id: i64,
    from: &str,
    to: &str,
    message: Option<&str>,
    now: Timestamp,
) -> rusqlite::Result<bool> {
    let changed = conn.execute(
        "UPDATE events SET status = ?3, cancel_message = COALESCE(?4, cancel_message), \
         sequence = sequence + (?3 = 'cancelled'), updated_at = ?5 WHERE id = ?1 AND status = ?2",
        params![id, from, to, message, sql_time(now)],
    )?;
    Ok(changed == 1)
}

/// Deletes draft `id`; whether there was one.
pub fn delete_draft(conn: &Connection, id: i64) -> rusqlite::Result<bool> {
    Ok(conn.execute(
        "DELETE FROM events WHERE id = ?1 AND status = 'draft'",
        [id],
    )? == 1)
}

/// An RSVP as staff see it (`Rsvp` in docs/events.md).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Rsvp {
    pub id: i64,
    pub name: String,
    pub email: String,
    pub zip_code: String,
    pub phone: Option<String>,
    pub guests: i64,
    pub status: String,
    pub attended: Option<bool>,
    pub created_at: String,
}

const RSVP_COLUMNS: &str = "id, name, email, zip_code, phone, guests, status, attended, created_at";

fn rsvp(r: &Row<'_>) -> rusqlite::Result<Rsvp> {
    Ok(Rsvp {
        id: r.get(0)?,
        name: r.get(1)?,
        email: r.get(2)?,
        zip_code: r.get(3)?,
        phone: r.get(4)?,
        guests: r.get(5)?,
        status: r.get(6)?,
        attended: r.get(7)?,
        created_at: r.get(8)?,
    })
}

/// Event `id`'s RSVPs: going, then waiting in line order, then cancelled.
pub fn rsvps(conn: &Connection, id: i64) -> rusqlite::Result<Vec<Rsvp>> {
    conn.prepare_cached(&format!(
        "SELECT {RSVP_COLUMNS} FROM event_rsvps WHERE event_id = ?1 \
         ORDER BY CASE status WHEN 'going' THEN 0 WHEN 'waitlisted' THEN 1 ELSE 2 END, \
         waitlisted_at, created_at, id"
    ))?
    .query_map([id], rsvp)?
    .collect()
}

/// Marks RSVP `rsvp_id` of event `id` attended (or not, or unmarked); the RSVP after.
pub fn mark(
    conn: &Connection,
    id: i64,
    rsvp_id: i64,
    attended: Option<bool>,
    now: Timestamp,
) -> rusqlite::Result<Option<Rsvp>> {
    conn.prepare_cached(&format!(
        "UPDATE event_rsvps SET attended = ?3, updated_at = ?4 WHERE id = ?2 AND event_id = ?1 \
         RETURNING {RSVP_COLUMNS}"
    ))?
    .query_row(params![id, rsvp_id, attended, sql_time(now)], rsvp)
    .optional()
}
