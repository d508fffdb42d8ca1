//! The database's own chores, run once a minute (see `AppState::housekeeping`): forgetting
//! revoked tokens past their expiry and failed sign-ins past their 90 days.

use rusqlite::Connection;

/// Deletes what is no longer needed; call inside one write.
pub fn prune(tx: &Connection) -> rusqlite::Result<()> {
    // Revoked tokens past their expiry would be refused anyway.
    tx.execute(
        "DELETE FROM revoked_tokens WHERE expires_at < CAST(strftime('%s', 'now') AS INTEGER)",
        [],
    )?;
    // Failed sign-ins are kept 90 days: long enough to see a pattern, no longer.
    tx.execute(
        "DELETE FROM failed_logins WHERE minute < strftime('%Y-%m-%dT%H:%MZ', 'now', '-90 days')",
        [],
    )?;
    Ok(())
}
