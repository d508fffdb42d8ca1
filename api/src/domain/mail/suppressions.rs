//! The suppression list: addresses no post is mailed to, each with why. A permanent
//! refusal (5xx) puts an address on it as `bounced`, a complaint as `complained`, an
//! unsubscribe as `unsubscribed`, staff as `staff`. Every send reads it when the list is
//! frozen and again as each message is about to go. Lifting a mistaken entry is audited
//! by the route; an `unsubscribed` entry is lifted by the person confirming a new signup.
//! Mail a person asked for (a confirmation, a receipt) is not list mail and ignores it.

use jiff::Timestamp;
use rusqlite::{Connection, OptionalExtension as _, params};
use serde::Serialize;

use crate::domain::clock::sql_time;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    Bounced,
    Complained,
    Unsubscribed,
    Staff,
}

impl Reason {
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Bounced => "bounced",
            Reason::Complained => "complained",
            Reason::Unsubscribed => "unsubscribed",
            Reason::Staff => "staff",
        }
    }
}

/// One entry as staff see it.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Entry {
    pub email: String,
    pub reason: String,
    pub detail: Option<String>,
    pub created_at: String,
    /// Who added it, when a person did.
    pub added_by: Option<String>,
}

/// The list's key for an address.
pub fn key(email: &str) -> String {
    email.trim().to_lowercase()
}

/// Puts `email` on the list; an address already on it keeps its first reason, except that
/// a bounce or a complaint outranks an unsubscribe (it says more). Returns whether the
/// list changed. Call inside a write.
pub fn add(
    conn: &Connection,
    email: &str,
    reason: Reason,
    detail: Option<&str>,
    by: Option<i64>,
    now: Timestamp,
) -> rusqlite::Result<bool> {
    let detail = detail.map(|d| d.chars().take(500).collect::<String>());
    let changed = conn.execute(
        "INSERT INTO mail_suppressions (email, reason, detail, created_by, created_at) \
         VALUES (?1, ?2, ?3, ?4, ?5) \
         ON CONFLICT (email) DO UPDATE SET reason = excluded.reason, detail = excluded.detail, \
             created_by = excluded.created_by, created_at = excluded.created_at \
         WHERE mail_suppressions.reason = 'unsubscribed' AND excluded.reason != 'unsubscribed'",
        params![key(email), reason.as_str(), detail, by, sql_time(now)],
    )?;
    if changed > 0 {
        // What is still queued for the address will not go.
        conn.execute(
            "UPDATE broadcast_recipients SET status = 'excluded', answer = ?2, done_at = ?3 \
             WHERE email = ?1 AND status = 'queued'",
            params![
                key(email),
                format!("suppressed: {}", reason.as_str()),
                sql_time(now)
            ],
        )?;
    }
    Ok(changed > 0)
}

/// Takes `email` off the list; returns the reason it was on it for, if it was.
pub fn lift(conn: &Connection, email: &str) -> rusqlite::Result<Option<String>> {
    conn.query_row(
        "DELETE FROM mail_suppressions WHERE email = ?1 RETURNING reason",
        [key(email)],
        |r| r.get(0),
    )
    .optional()
}

/// Lifts an `unsubscribed` entry only: a person who signs up again and confirms.
pub fn resubscribed(conn: &Connection, email: &str) -> rusqlite::Result<()> {
    conn.execute(
        "DELETE FROM mail_suppressions WHERE email = ?1 AND reason = 'unsubscribed'",
        [key(email)],
    )?;
    Ok(())
}

/// Forgets `email` entirely (erasure: the erased-address hash keeps list mail away).
pub fn erase(conn: &Connection, email: &str) -> rusqlite::Result<usize> {
    conn.execute(
        "DELETE FROM mail_suppressions WHERE email = ?1",
        [key(email)],
    )
}

/// The list, newest first; `search` narrows it to addresses containing it.
pub fn list(conn: &Connection, search: Option<&str>, limit: u32) -> rusqlite::Result<Vec<Entry>> {
    let pattern = search.map(|s| {
        let escaped = key(s)
            .replace('\\', "\\\\")
            .replace('%', "\\%")
            .replace('_', "\\_");
        format!("%{escaped}%")
    });
    let mut stmt = conn.prepare(
        "SELECT m.email, m.reason, m.detail, m.created_at, u.name FROM mail_suppressions m \
         LEFT JOIN users u ON u.id = m.created_by \
         WHERE ?1 IS NULL OR m.email LIKE ?1 ESCAPE '\\' \
         ORDER BY m.created_at DESC, m.email LIMIT ?2",
    )?;
    stmt.query_map(params![pattern, limit], |r| {
        Ok(Entry {
            email: r.get(0)?,
            reason: r.get(1)?,
            detail: r.get(2)?,
            created_at: r.get(3)?,
            added_by: r.get(4)?,
        })
    })?
    .collect()
}

/// How many addresses are on the list.
pub fn count(conn: &Connection) -> rusqlite::Result<i64> {
    conn.query_row("SELECT COUNT(*) FROM mail_suppressions", [], |r| r.get(0))
}
