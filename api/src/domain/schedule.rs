//! Scheduled posts: reading the time staff chose (in the party's time zone), and the task
//! that publishes a post once its time has come.
//!
//! The schedule is the post's own row (`status = 'scheduled'` with its `publish_date`), so
//! there is nothing else to keep in step: rescheduling, unscheduling or deleting the post
//! leaves nothing behind. The task publishes each due post in one write that flips its
//! status only while it is still scheduled, with its audit row, so a post is published
//! exactly once however often the task runs, and a server that was down at the time
//! publishes it on its first pass after the start. The pages follow through the same
//! [`Rebuilder`] as a Publish from the editor (and with it `REBUILD_HOOK`); a crash between
//! the write and the pages is repaired by the rebuilder's first full sync.

use std::sync::Arc;

use generator::blog::revisions::{self, Reason};
use generator::blog::store;
use jiff::civil::DateTime;
use jiff::tz::TimeZone;
use jiff::{SignedDuration, Timestamp};

use super::audit::{self, Action};
use super::clock::{Clock, sql_time};
use super::rebuild::Rebuilder;
use crate::store::db::Db;

/// How far in the past a chosen time may be (a slow form, a clock a little behind) and
/// still be taken, as "publish at the next pass".
pub const PAST_TOLERANCE: SignedDuration = SignedDuration::from_mins(2);

/// How often the task looks for due posts: a post goes live within this of its time.
pub const POLL: std::time::Duration = std::time::Duration::from_secs(15);

/// The instant staff meant by `input`: a date and time in the party's zone `tz`
/// (`2026-12-01T09:30`, seconds optional), or an instant with its offset
/// (`2026-12-01T15:30:00Z`). Refused with a message staff can act on when it cannot be read
/// or is more than [`PAST_TOLERANCE`] before `now`.
pub fn chosen_time(input: &str, tz: &TimeZone, now: Timestamp) -> Result<Timestamp, String> {
    let input = input.trim();
    let at = match input.parse::<Timestamp>() {
        Ok(at) => at,
        Err(_) => input
            .parse::<DateTime>()
            .ok()
            // A time that a clock change skips or repeats is taken as the later reading.
            .and_then(|civil| tz.to_ambiguous_zoned_datetime(civil).later().ok())
            .map(|zoned| zoned.timestamp())
            .ok_or_else(|| {
                format!(
                    "\"{input}\" is not a date and time. Choose one like 2026-12-01T09:30 ({}).",
                    tz.iana_name().unwrap_or("the party's time zone")
                )
            })?,
    };
    if at < now.checked_sub(PAST_TOLERANCE).unwrap_or(now) {
        return Err("That time has already passed. Choose a time in the future.".into());
    }
    Ok(at)
}

/// The task that publishes scheduled posts when their time comes.
#[derive(Clone)]
pub struct Scheduler {
    db: Db,
    clock: Arc<Clock>,
    rebuilder: Rebuilder,
}

impl Scheduler {
    pub fn new(db: Db, clock: Arc<Clock>, rebuilder: Rebuilder) -> Scheduler {
        Scheduler {
            db,
            clock,
            rebuilder,
        }
    }

    /// Publishes every post whose time has come, then brings the pages up to date;
    /// returns their ids. Failures are logged and retried on the next pass.
    pub async fn publish_due(&self) -> Vec<i64> {
        let now = sql_time(self.clock.now());
        let published = self
            .db
            .write(move |tx| {
                let mut published = Vec::new();
                for id in store::due(tx, &now)? {
                    if store::publish_scheduled(tx, id)? {
                        revisions::record(tx, id, Reason::Published)?;
                        audit::record_system(
                            tx,
                            Action::PublishBySchedule,
                            Some(&format!("blog:{id}")),
                        )?;
                        published.push(id);
                    }
                }
                Ok(published)
            })
            .await;
        let published = match published {
            Ok(published) => published,
            Err(e) => {
                tracing::warn!(error = %e, "could not publish the scheduled posts; will retry");
                return Vec::new();
            }
        };
        for &id in &published {
            tracing::info!(post = id, "scheduled post published");
            if let Err(why) = self.rebuilder.rebuild(Some(id)).await {
                tracing::warn!(post = id, %why, "a scheduled post is published but not yet on the public site");
            }
        }
        published
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chicago() -> TimeZone {
        TimeZone::get("America/Chicago").unwrap()
    }

    #[test]
    fn a_local_time_is_read_in_the_party_zone() {
        let now: Timestamp = "2026-01-05T12:00:00Z".parse().unwrap();
        // Chicago is UTC-6 in January.
        let at = chosen_time("2026-01-05T09:30", &chicago(), now).unwrap();
        assert_eq!(sql_time(at), "2026-01-05T15:30:00.000Z");
        let at = chosen_time("2026-01-05T15:30:00Z", &chicago(), now).unwrap();
        assert_eq!(sql_time(at), "2026-01-05T15:30:00.000Z");
    }

    #[test]
    fn the_past_beyond_two_minutes_and_nonsense_are_refused() {
        let now: Timestamp = "2026-01-05T15:30:00Z".parse().unwrap();
        assert!(chosen_time("2026-01-05T09:29", &chicago(), now).is_ok());
        let late = chosen_time("2026-01-05T09:27", &chicago(), now).unwrap_err();
        assert!(late.contains("already passed"), "{late}");
        for bad in ["", "tomorrow", "2026-13-01T09:00", "9:30"] {
            let why = chosen_time(bad, &chicago(), now).unwrap_err();
            assert!(why.contains("is not a date and time"), "{bad}: {why}");
            assert!(why.contains("America/Chicago"), "{why}");
        }
    }
}
