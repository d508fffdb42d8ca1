//! The one clock that time-based rules read: when an unpaid gift stops holding its place,
//! when a donor's pass runs out. It is the system's time plus an offset that only tests
//! move, so a test can step past an hour without waiting for it.

use std::sync::atomic::{AtomicI64, Ordering};

use jiff::{SignedDuration, Timestamp};

#[derive(Debug, Default)]
pub struct Clock {
    /// Milliseconds added to the system's time (0 outside tests).
    offset_ms: AtomicI64,
}

impl Clock {
    pub fn now(&self) -> Timestamp {
        let offset = SignedDuration::from_millis(self.offset_ms.load(Ordering::Relaxed));
        Timestamp::now()
            .checked_add(offset)
            .unwrap_or_else(|_| Timestamp::now())
    }

    /// `now` as the database stores times: UTC, milliseconds, `Z`.
    pub fn now_sql(&self) -> String {
        sql_time(self.now())
    }

    /// Moves the clock forward (tests).
    pub fn advance(&self, by: std::time::Duration) {
        self.offset_ms
            .fetch_add(by.as_millis() as i64, Ordering::Relaxed);
    }
}

/// A time as the database stores it (`strftime('%Y-%m-%dT%H:%M:%fZ')`), so stored times and
/// this clock's compare as text.
pub fn sql_time(at: Timestamp) -> String {
    at.strftime("%Y-%m-%dT%H:%M:%S%.3fZ").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn it_moves_only_when_told_and_prints_as_the_database_does() {
        let clock = Clock::default();
        let before = clock.now();
        clock.advance(std::time::Duration::from_secs(3600));
        let after = clock.now();
        assert!(after.duration_since(before) >= SignedDuration::from_secs(3600));
        let printed = sql_time("2026-01-02T03:04:05.5Z".parse().unwrap());
        assert_eq!(printed, "2026-01-02T03:04:05.500Z");
    }
}
