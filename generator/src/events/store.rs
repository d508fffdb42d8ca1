//! The public side's one read of `events`: every published or cancelled event, soonest
//! first. The video link is not among the columns read.

use std::path::Path;

use anyhow::{Context as _, Result};
use jiff::Timestamp;
use rusqlite::{Connection, OpenFlags, Row};

/// An event as the public sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    pub id: i64,
    pub slug: String,
    pub title: String,
    /// Sanitised HTML (cleaned again when rendered).
    pub description: String,
    /// `town_hall`, `petitioning_shift`, `meeting` or `other`.
    pub kind: String,
    /// `published` or `cancelled`.
    pub status: String,
    pub starts_at: Timestamp,
    pub ends_at: Timestamp,
    /// IANA name.
    pub time_zone: String,
    pub venue: Option<String>,
    pub online: bool,
    pub capacity: Option<i64>,
    pub rsvp_deadline: Option<Timestamp>,
    pub waitlist: bool,
    /// Counts changes of time and place (the calendar files' `SEQUENCE`).
    pub sequence: i64,
    pub cancel_message: Option<String>,
    pub updated_at: String,
}

impl Event {
    pub fn cancelled(&self) -> bool {
        self.status == "cancelled"
    }

    /// Whether it has started (its page then says "This event has ended").
    pub fn started(&self, now: Timestamp) -> bool {
        self.starts_at <= now
    }

    /// Whether RSVPs are taken at `now`.
    pub fn open(&self, now: Timestamp) -> bool {
        !self.cancelled()
            && !self.started(now)
            && self.rsvp_deadline.is_none_or(|deadline| deadline > now)
    }

    pub fn zone(&self) -> jiff::tz::TimeZone {
        super::zone(&self.time_zone)
    }

    /// `/events/{slug}`
    pub fn route(&self) -> String {
        super::event_route(&self.slug)
    }
}

/// The public events, soonest first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Events {
    pub all: Vec<Event>,
}

/// A time column as the api writes it (`sql_time`); a bad one reads as the epoch, which
/// sorts it among the past events rather than failing the whole site.
fn time(row: &Row<'_>, column: &str) -> rusqlite::Result<Timestamp> {
    let text: String = row.get(column)?;
    Ok(text.parse().unwrap_or(Timestamp::UNIX_EPOCH))
}

fn event(row: &Row<'_>) -> rusqlite::Result<Event> {
    let deadline: Option<String> = row.get("rsvp_deadline")?;
    Ok(Event {
        id: row.get("id")?,
        slug: row.get("slug")?,
        title: row.get("title")?,
        description: row.get("description")?,
        kind: row.get("kind")?,
        status: row.get("status")?,
        starts_at: time(row, "starts_at")?,
        ends_at: time(row, "ends_at")?,
        time_zone: row.get("time_zone")?,
        venue: row.get("venue")?,
        online: row.get("online")?,
        capacity: row.get("capacity")?,
        rsvp_deadline: deadline.and_then(|d| d.parse().ok()),
        waitlist: row.get("waitlist")?,
        sequence: row.get("sequence")?,
        cancel_message: row.get("cancel_message")?,
        updated_at: row.get("updated_at")?,
    })
}

/// The columns the public side reads: never `video_link`.
const COLUMNS: &str = "id, slug, title, description, kind, status, starts_at, ends_at, time_zone, \
     venue, online, capacity, rsvp_deadline, waitlist, sequence, cancel_message, updated_at";

/// Public event `id` (published or cancelled), whatever its time.
pub fn public_by_id(conn: &Connection, id: i64) -> rusqlite::Result<Option<Event>> {
    use rusqlite::OptionalExtension as _;
    conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM events WHERE id = ?1 AND status IN ('published', 'cancelled')"
    ))?
    .query_row([id], event)
    .optional()
}

/// Public event `slug`.
pub fn public_by_slug(conn: &Connection, slug: &str) -> rusqlite::Result<Option<Event>> {
    use rusqlite::OptionalExtension as _;
    conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM events WHERE slug = ?1 AND status IN ('published', 'cancelled')"
    ))?
    .query_row([slug], event)
    .optional()
}

impl Events {
    /// Every public event through an open connection.
    pub fn query(conn: &Connection) -> rusqlite::Result<Events> {
        let all = conn
            .prepare_cached(&format!(
                "SELECT {COLUMNS} FROM events WHERE status IN ('published', 'cancelled') \
                 ORDER BY starts_at, id"
            ))?
            .query_map([], event)?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(Events { all })
    }

    /// The events in the database at `path` (none when there is no database yet, or it
    /// predates events).
    pub fn load(path: &Path) -> Result<Events> {
        if !path.exists() {
            return Ok(Events::default());
        }
        let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY)
            .with_context(|| format!("Failed to open the database {}", path.display()))?;
        let has_events: bool = conn.query_row(
            "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'events')",
            [],
            |r| r.get(0),
        )?;
        if !has_events {
            return Ok(Events::default());
        }
        Events::query(&conn)
            .with_context(|| format!("Failed to read the events in {}", path.display()))
    }

    /// Events not yet started (cancelled ones included, marked), soonest first.
    pub fn upcoming(&self, now: Timestamp) -> impl Iterator<Item = &Event> {
        self.all.iter().filter(move |e| !e.started(now))
    }

    /// Started events, the latest first.
    pub fn past(&self, now: Timestamp) -> impl Iterator<Item = &Event> {
        self.all.iter().rev().filter(move |e| e.started(now))
    }

    /// Event `slug`.
    pub fn by_slug(&self, slug: &str) -> Option<&Event> {
        self.all.iter().find(|e| e.slug == slug)
    }
}
