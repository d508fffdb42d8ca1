//! Which queued messages are on their way to the SMTP server right now, so an erasure can
//! stop the ones the sender read but has not started, and say which it could not stop.
//!
//! The sender reads a batch of due messages and sends a few at a time; an erasure in
//! between deletes the person's rows, but the copies already read would still go. So the
//! erasure, once its write committed, calls [`Flight::stop`] with the ids it deleted: those
//! not yet started are never sent ([`Flight::depart`] refuses them), and those inside an SMTP
//! transaction are counted and reported (the erasure says one message could not be
//! stopped). Ids are never used twice (`AUTOINCREMENT`, V20), so an outcome recorded for a
//! message sent before an erasure cannot land on a later one.

use std::collections::HashSet;
use std::sync::Mutex;

/// Stopped ids kept at most; past it the oldest are forgotten (a stopped id the sender
/// never reads again stays only until then).
const MOST_STOPPED: usize = 10_000;

#[derive(Default)]
pub struct Flight {
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    in_flight: HashSet<i64>,
    stopped: HashSet<i64>,
}

impl Flight {
    /// Message `id` is about to go: `false` when an erasure stopped it (send nothing).
    pub fn depart(&self, id: i64) -> bool {
        let mut s = self.state.lock().unwrap_or_else(|p| p.into_inner());
        if s.stopped.remove(&id) {
            return false;
        }
        s.in_flight.insert(id);
        true
    }

    /// Message `id`'s transaction ended (however it went).
    pub fn land(&self, id: i64) {
        let mut s = self.state.lock().unwrap_or_else(|p| p.into_inner());
        s.in_flight.remove(&id);
    }

    /// Stops messages `ids` (deleted from the queue): returns how many were already on their
    /// way and could not be stopped.
    pub fn stop(&self, ids: &[i64]) -> usize {
        let mut s = self.state.lock().unwrap_or_else(|p| p.into_inner());
        if s.stopped.len() + ids.len() > MOST_STOPPED {
            s.stopped.clear();
        }
        let mut going = 0;
        for id in ids {
            if s.in_flight.contains(id) {
                going += 1;
            } else {
                s.stopped.insert(*id);
            }
        }
        going
    }
}

#[cfg(test)]
mod tests {
    use super::Flight;

    #[test]
    fn a_stopped_message_does_not_depart_and_one_in_flight_is_counted() {
        let flight = Flight::default();
        assert!(flight.depart(1));
        assert_eq!(flight.stop(&[1, 2]), 1, "1 is on its way");
        assert!(!flight.depart(2), "2 was stopped before it left");
        assert!(flight.depart(2), "once: a stop is used up");
        flight.land(1);
        assert_eq!(flight.stop(&[1]), 0);
    }
}
