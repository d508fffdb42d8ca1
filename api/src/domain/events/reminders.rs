//! The reminder the day before: at [`HOUR`] in the event's own time zone on the day before
//! it starts, each RSVP still going gets one message. The pass runs on the one clock; what
//! it queues is keyed by the RSVP and the start time (see `mail::Note::Reminder`) and
//! marked with `reminded_at` in the same write, so it goes exactly once however often the
//! pass runs or the server restarts, and again only if the start moves (which clears the
//! mark). An RSVP made after the reminder's time has just had its confirmation and gets none.

use generator::config::SiteConfig;
use jiff::civil::Time;
use jiff::{SignedDuration, Timestamp};
use rusqlite::{Connection, params};

use super::mail::{self, Note};
use crate::domain::clock::sql_time;
use crate::domain::mail::Mail;

/// The local hour of the reminder, the day before.
pub const HOUR: i8 = 9;

/// When the reminder of an event starting at `start` in `tz` goes.
pub fn reminder_at(start: Timestamp, tz: &jiff::tz::TimeZone) -> Timestamp {
    let day_before = start
        .to_zoned_datetime(tz.clone())
        .date()
        .yesterday()
        .unwrap_or_else(|_| start.to_zoned_datetime(tz.clone()).date());
    tz.to_ambiguous_zoned_datetime(day_before.to_datetime(Time::constant(HOUR, 0, 0, 0)))
        .later()
        .map(|z| z.timestamp())
        .unwrap_or(start - SignedDuration::from_hours(24))
}

/// Queues the reminders due at `now`; how many. Call inside one write.
pub fn due(
    mail: &Mail,
    site: &SiteConfig,
    conn: &Connection,
    now: Timestamp,
) -> rusqlite::Result<usize> {
    // Reminders go at most two days ahead of the start (a day and up to a day's hours).
    let events: Vec<(i64, String, String)> = conn
        .prepare_cached(
            "SELECT id, starts_at, time_zone FROM events WHERE status = 'published' \
             AND starts_at > ?1 AND starts_at <= ?2",
        )?
        .query_map(
            params![
                sql_time(now),
                sql_time(now + SignedDuration::from_hours(50))
            ],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )?
        .collect::<rusqlite::Result<_>>()?;
    let mut queued = 0;
    for (event, starts_at, tz) in events {
        let Ok(start) = starts_at.parse::<Timestamp>() else {
            continue;
        };
        let at = reminder_at(start, &generator::events::zone(&tz));
        if now < at {
            continue;
        }
        let rsvps: Vec<i64> = conn
            .prepare_cached(
                "SELECT id FROM event_rsvps WHERE event_id = ?1 AND status = 'going' \
                 AND reminded_at IS NULL AND created_at < ?2",
            )?
            .query_map(params![event, sql_time(at)], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        for id in rsvps {
            queued += usize::from(mail::queue(mail, site, conn, id, Note::Reminder, now)?);
            conn.prepare_cached("UPDATE event_rsvps SET reminded_at = ?2 WHERE id = ?1")?
                .execute(params![id, sql_time(now)])?;
        }
    }
    Ok(queued)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reminder_is_at_nine_the_day_before_in_the_events_zone() {
        let tz = generator::events::zone("America/Los_Angeles");
        // 6 PM Pacific on December 10th.
        let start: Timestamp = "2026-12-11T02:00:00Z".parse().unwrap();
        assert_eq!(reminder_at(start, &tz).to_string(), "2026-12-09T17:00:00Z");
        // The day after a clock change: 9 AM of the day before, in that day's offset.
        let start: Timestamp = "2026-11-02T18:00:00Z".parse().unwrap();
        assert_eq!(reminder_at(start, &tz).to_string(), "2026-11-01T17:00:00Z");
    }
}
