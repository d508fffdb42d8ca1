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
    /// Staff accounts: an invitation sent, resent, revoked or accepted.
    Invite,
    InviteResend,
    InviteRevoke,
    InviteAccept,
    /// A user's role changed.
    RoleChange,
    Deactivate,
    Reactivate,
    /// A second factor added or removed, recovery codes made or one used, factors reset.
    Factor,
    PasswordChange,
    PasswordReset,
    /// Every session of a user ended.
    SignOutEverywhere,
    ServiceToken,
    /// A post mailed to the newsletter list (or scheduled to be), a test copy of it, a
    /// retry of those it failed to reach, a scheduled one called off.
    Broadcast,
    BroadcastTest,
    BroadcastRetry,
    BroadcastCancel,
    /// An address put on the suppression list by staff (or a complaint), or taken off it.
    Suppress,
    Unsuppress,
    /// Staff called an event off.
    CancelEvent,
    /// Staff marked who came to an event.
    Attendance,
    /// Someone cancelled their RSVP from their link.
    CancelRsvp,
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
            Action::Invite => "invite",
            Action::InviteResend => "invite_resend",
            Action::InviteRevoke => "invite_revoke",
            Action::InviteAccept => "invite_accept",
            Action::RoleChange => "role_change",
            Action::Deactivate => "deactivate",
            Action::Reactivate => "reactivate",
            Action::Factor => "factor",
            Action::PasswordChange => "password_change",
            Action::PasswordReset => "password_reset",
            Action::SignOutEverywhere => "sign_out_everywhere",
            Action::ServiceToken => "service_token",
            Action::Broadcast => "broadcast",
            Action::BroadcastTest => "broadcast_test",
            Action::BroadcastRetry => "broadcast_retry",
            Action::BroadcastCancel => "broadcast_cancel",
            Action::Suppress => "suppress",
            Action::Unsuppress => "unsuppress",
            Action::CancelEvent => "cancel_event",
            Action::Attendance => "attendance",
            Action::CancelRsvp => "cancel_rsvp",
        }
    }
}

/// Who did something: from where, and which user or service token.
#[derive(Debug, Clone, Copy)]
pub struct By {
    pub ip: IpAddr,
    pub user: Option<i64>,
    pub service: Option<i64>,
}

impl By {
    /// Someone not signed in (a sign-in attempt, a link from a mail).
    pub fn anonymous(ip: IpAddr) -> By {
        By {
            ip,
            user: None,
            service: None,
        }
    }

    /// Staff member `user`, on their own account (signed in, or finishing a sign-in or a
    /// mailed link's step).
    pub fn person(ip: IpAddr, user: i64) -> By {
        By {
            ip,
            user: Some(user),
            service: None,
        }
    }

    fn actor(&self) -> Option<String> {
        self.service.map(|id| format!("service-token:{id}"))
    }
}

/// Adds a row: `target` names what was acted on, such as `blog:12`.
pub fn record(
    tx: &Connection,
    action: Action,
    target: Option<&str>,
    by: By,
) -> rusqlite::Result<()> {
    tx.execute(
        "INSERT INTO audit_log (action, target, ip, user_id, actor) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![
            action.as_str(),
            target,
            by.ip.to_string(),
            by.user,
            by.actor()
        ],
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
/// and reason); `by` is `None` for what the server did on its own (an event from Stripe).
pub fn record_detailed(
    tx: &Connection,
    action: Action,
    target: &str,
    by: Option<By>,
    detail: &str,
) -> rusqlite::Result<()> {
    tx.execute(
        "INSERT INTO audit_log (action, target, ip, detail, user_id, actor) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![
            action.as_str(),
            target,
            by.map(|b| b.ip.to_string()),
            detail,
            by.and_then(|b| b.user),
            by.and_then(|b| b.actor())
        ],
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

/// Records that staff (`by`) saw (`View`) or downloaded (`Export`) people's details
/// (`target`: which list). Written before the details are sent, in a write of its own.
pub async fn record_access(
    db: &Db,
    action: Action,
    target: &'static str,
    by: By,
) -> Result<(), crate::store::error::Error> {
    db.write(move |tx| record(tx, action, Some(target), by))
        .await
}

/// One row of the audit log, as staff read it.
#[derive(Debug, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Entry {
    pub id: i64,
    pub at: String,
    pub action: String,
    pub target: Option<String>,
    /// The staff member, when a signed-in person did it.
    pub user: Option<Actor>,
    /// Who else: `donor`, `service-token:3`, or none for the server itself.
    pub actor: Option<String>,
    pub ip: Option<String>,
    pub detail: Option<String>,
}

#[derive(Debug, serde::Serialize)]
pub struct Actor {
    pub id: i64,
    pub email: String,
    pub name: String,
}

/// Entries on one page of the log.
pub const PAGE_SIZE: i64 = 100;

/// Page `page` of the log (newest first), only `user`'s rows when given, and how many
/// rows there are in all.
pub fn page(
    conn: &Connection,
    user: Option<i64>,
    page: Option<i64>,
) -> rusqlite::Result<(Vec<Entry>, i64)> {
    let total: i64 = conn.query_row(
        "SELECT COUNT(*) FROM audit_log WHERE ?1 IS NULL OR user_id = ?1",
        [user],
        |r| r.get(0),
    )?;
    let (limit, offset) = match page {
        Some(p) => (PAGE_SIZE, p * PAGE_SIZE),
        None => (-1, 0),
    };
    let mut stmt = conn.prepare(
        "SELECT a.id, a.at, a.action, a.target, a.user_id, u.email, u.name, a.actor, a.ip, a.detail
         FROM audit_log a LEFT JOIN users u ON u.id = a.user_id
         WHERE ?1 IS NULL OR a.user_id = ?1
         ORDER BY a.id DESC LIMIT ?2 OFFSET ?3",
    )?;
    let entries = stmt
        .query_map(params![user, limit, offset], |r| {
            let user = match r.get::<_, Option<i64>>(4)? {
                Some(id) => Some(Actor {
                    id,
                    email: r.get::<_, Option<String>>(5)?.unwrap_or_default(),
                    name: r.get::<_, Option<String>>(6)?.unwrap_or_default(),
                }),
                None => None,
            };
            Ok(Entry {
                id: r.get(0)?,
                at: r.get(1)?,
                action: r.get(2)?,
                target: r.get(3)?,
                user,
                actor: r.get(7)?,
                ip: r.get(8)?,
                detail: r.get(9)?,
            })
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok((entries, total))
}
