//! The audit log: what staff did, when and from where. Rows are only ever added (the
//! table's triggers refuse changes), inside the same transaction as the change they record.

use std::net::IpAddr;

use rusqlite::{Connection, params};

use crate::store::db::Db;

/// What happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Login,
    Logout,
    Create,
    Update,
    Publish,
    /// The server published a post at the time staff scheduled it for.
    PublishBySchedule,
    /// Staff chose (or changed) the time a post goes live.
    Schedule,
    /// Staff took a scheduled post back to a draft.
    Unschedule,
    /// Staff put an earlier version of a post back.
    Restore,
    Delete,
    /// Staff opened a list of people's details.
    View,
    /// Staff downloaded people's details.
    Export,
    /// Staff erased a person on request.
    Erase,
    /// The server removed the details of unpaid gifts past their retention.
    Redact,
    /// Staff recorded that a number said stop to texts.
    OptOut,
    /// Staff recorded that a number's owner asked to get texts again.
    OptIn,
    /// Money went back to a donor: staff refunded a gift, or Stripe reported a refund or a
    /// lost dispute.
    Refund,
    /// Stripe reported a dispute opened or closed on a gift.
    Dispute,
    /// A monthly gift was canceled: by its donor (from their link) or by staff.
    CancelPlan,
    /// Staff merged one supporter into another.
    Merge,
    /// Staff undid a merge.
    Unmerge,
    /// The treasurer decided whether two contributors are one person.
    DecideMatch,
}

impl Action {
    pub fn as_str(self) -> &'static str {
        match self {
            Action::Login => "login",
            Action::Logout => "logout",
            Action::Create => "create",
            Action::Update => "update",
            Action::Publish => "publish",
            Action::PublishBySchedule => "published by schedule",
            Action::Schedule => "schedule",
            Action::Unschedule => "unschedule",
            Action::Restore => "restore",
            Action::Delete => "delete",
            Action::View => "view",
            Action::Export => "export",
            Action::Erase => "erase",
            Action::Redact => "redact",
            Action::OptOut => "opt_out",
            Action::OptIn => "opt_in",
            Action::Refund => "refund",
            Action::Dispute => "dispute",
            Action::CancelPlan => "cancel_plan",
            Action::Merge => "merge",
            Action::Unmerge => "unmerge",
            Action::DecideMatch => "decide_match",
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

/// Adds a row for something the server did on its own (no address).
pub fn record_system(
    tx: &Connection,
    action: Action,
    target: Option<&str>,
) -> rusqlite::Result<()> {
    tx.execute(
        "INSERT INTO audit_log (action, target, ip) VALUES (?1, ?2, NULL)",
        params![action.as_str(), target],
    )
    .map(|_| ())
}

/// Adds a row with `detail`, what the action carried besides its target (a refund's amount
/// and reason); `ip` is `None` for what the server did on its own (an event from Stripe).
pub fn record_detailed(
    tx: &Connection,
    action: Action,
    target: &str,
    ip: Option<IpAddr>,
    detail: &str,
) -> rusqlite::Result<()> {
    tx.execute(
        "INSERT INTO audit_log (action, target, ip, detail) VALUES (?1, ?2, ?3, ?4)",
        params![action.as_str(), target, ip.map(|ip| ip.to_string()), detail],
    )
    .map(|_| ())
}

/// Adds a row for what a donor did themselves, from a link mailed to them (`actor` donor,
/// their address, and `detail`).
pub fn record_donor(
    tx: &Connection,
    action: Action,
    target: &str,
    ip: IpAddr,
    detail: &str,
) -> rusqlite::Result<()> {
    tx.execute(
        "INSERT INTO audit_log (action, target, ip, detail, actor) VALUES (?1, ?2, ?3, ?4, 'donor')",
        params![action.as_str(), target, ip.to_string(), detail],
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

/// Records that staff at `ip` saw (`View`) or downloaded (`Export`) people's details
/// (`target`: which list). Written before the details are sent, in a write of its own.
pub async fn record_access(
    db: &Db,
    action: Action,
    target: &'static str,
    ip: IpAddr,
) -> Result<(), crate::store::error::Error> {
    db.write(move |tx| record(tx, action, Some(target), ip))
        .await
}
