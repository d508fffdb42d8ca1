//! The audit log: what staff did, when and from where. Rows are only ever added (the
//! table's triggers refuse changes), inside the same transaction as the change they record.

use std::net::IpAddr;

use rusqlite::{Connection, params};

/// What happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Login,
    Logout,
    Create,
    Update,
    Publish,
    Delete,
}

impl Action {
    pub fn as_str(self) -> &'static str {
        match self {
            Action::Login => "login",
            Action::Logout => "logout",
            Action::Create => "create",
            Action::Update => "update",
            Action::Publish => "publish",
            Action::Delete => "delete",
        }
    }
}

/// Adds a row: `target` names what was acted on, such as `blog:12`.
pub fn record(
    tx: &Connection,
    action: Action,
    target: Option<&str>,
    ip: IpAddr,
) -> rusqlite::Result<()> {
    tx.execute(
        "INSERT INTO audit_log (action, target, ip) VALUES (?1, ?2, ?3)",
        params![action.as_str(), target, ip.to_string()],
    )
    .map(|_| ())
}

/// Counts a failed sign-in from `ip` in the current minute (`failed_logins`). Failures are
/// kept in aggregate, not as audit rows: a flood of guesses must not fill the append-only
/// log with rows nobody may ever remove.
pub fn record_failed_login(tx: &Connection, ip: IpAddr) -> rusqlite::Result<()> {
    tx.execute(
        "INSERT INTO failed_logins (ip, minute, attempts)
         VALUES (?1, strftime('%Y-%m-%dT%H:%MZ', 'now'), 1)
         ON CONFLICT (ip, minute) DO UPDATE SET attempts = attempts + 1",
        [ip.to_string()],
    )
    .map(|_| ())
}
