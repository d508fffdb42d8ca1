//! The database's own chores, run once a minute (see `AppState::housekeeping`): forgetting
//! staff sessions and sign-in challenges a day past their end, wrong second-step answers a
//! day on, RSVPs never confirmed a day past their link, and failed sign-ins past their 90
//! days.

use rusqlite::Connection;

/// Deletes what is no longer needed; call inside one write.
pub fn prune(tx: &Connection) -> rusqlite::Result<()> {
    // Sessions and challenges past their end would be refused anyway; a day's grace keeps
    // the sessions list honest about what just ended.
    tx.execute(
        "DELETE FROM staff_sessions WHERE expires_at < CAST(strftime('%s', 'now') AS INTEGER) - 86400",
        [],
    )?;
    tx.execute(
        "DELETE FROM sign_in_challenges WHERE expires_at < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 day')",
        [],
    )?;
    // Wrong second-step answers count for 15 minutes; a day shows a pattern to whoever looks.
    tx.execute(
        "DELETE FROM second_step_failures WHERE at < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 day')",
        [],
    )?;
    // An RSVP nobody confirmed holds a stranger's name and address: gone a day after its
    // link stopped working.
    tx.execute(
        "DELETE FROM event_rsvp_requests WHERE expires_at < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 day')",
        [],
    )?;
    // Failed sign-ins are kept 90 days: long enough to see a pattern, no longer.
    tx.execute(
        "DELETE FROM failed_logins WHERE minute < strftime('%Y-%m-%dT%H:%MZ', 'now', '-90 days')",
        [],
    )?;
    Ok(())
}
