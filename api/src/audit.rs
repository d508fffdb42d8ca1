//! The audit log: what staff did, when and from where. Rows are only ever added (the
//! table's triggers refuse changes), inside the same transaction as the change they record.

use std::net::IpAddr;

use rusqlite::{Connection, params};

/// What happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Login,
    LoginFailed,
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
            Action::LoginFailed => "login_failed",
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
