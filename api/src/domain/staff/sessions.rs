//! Signed-in browsers. A session token (a JWT, `domain::auth`) names its row by `jti`; the
//! row is read on every request, so ending it (sign-out, sign-out everywhere, a password
//! change, deactivation) takes effect on the next request, not at the token's expiry.

use rusqlite::{Connection, OptionalExtension, params};

use super::Role;
use crate::domain::audit::{self, Action, By};

/// A live session and its user, as every staff request reads them.
#[derive(Debug, Clone)]
pub struct Live {
    pub session: i64,
    pub user: i64,
    pub role: Role,
    pub strong_factor: bool,
    pub last_seen_at: String,
}

pub struct New<'a> {
    pub user: i64,
    pub jti: &'a str,
    pub now: &'a str,
    pub expires_at: i64,
    pub ip: &'a str,
    pub browser: &'a str,
}

pub fn start(tx: &Connection, s: &New<'_>) -> rusqlite::Result<i64> {
    tx.execute(
        "INSERT INTO staff_sessions (user_id, jti, created_at, last_seen_at, expires_at, ip, browser)
         VALUES (?1, ?2, ?3, ?3, ?4, ?5, ?6)",
        params![s.user, s.jti, s.now, s.expires_at, s.ip, s.browser],
    )?;
    Ok(tx.last_insert_rowid())
}

/// The session `jti` names, when it has not ended and its user is active.
pub fn live(conn: &Connection, jti: &str) -> rusqlite::Result<Option<Live>> {
    conn.query_row(
        "SELECT s.id, u.id, u.role, s.last_seen_at,
                u.totp_secret IS NOT NULL OR EXISTS (SELECT 1 FROM passkeys p WHERE p.user_id = u.id)
         FROM staff_sessions s JOIN users u ON u.id = s.user_id
         WHERE s.jti = ?1 AND s.ended_at IS NULL AND u.active = 1",
        [jti],
        |r| {
            Ok(Live {
                session: r.get(0)?,
                user: r.get(1)?,
                role: Role::parse(&r.get::<_, String>(2)?).unwrap_or(Role::Contributor),
                last_seen_at: r.get(3)?,
                strong_factor: r.get(4)?,
            })
        },
    )
    .optional()
}

/// Notes that `session` was used at `now` and from `ip`.
pub fn seen(tx: &Connection, session: i64, now: &str, ip: &str) -> rusqlite::Result<()> {
    tx.execute(
        "UPDATE staff_sessions SET last_seen_at = ?2, ip = ?3 WHERE id = ?1",
        params![session, now, ip],
    )
    .map(|_| ())
}

pub fn end(tx: &Connection, jti: &str, now: &str) -> rusqlite::Result<()> {
    tx.execute(
        "UPDATE staff_sessions SET ended_at = ?2 WHERE jti = ?1 AND ended_at IS NULL",
        params![jti, now],
    )
    .map(|_| ())
}

/// Ends every session of `user` (the caller's too, when it is theirs) and records who did.
pub fn end_everywhere(tx: &Connection, user: i64, by: By, now: &str) -> rusqlite::Result<()> {
    end_all(tx, user, None, now)?;
    // "Everywhere" includes the browsers it remembers: each asks for a second step again.
    super::devices::forget_all(tx, user)?;
    audit::record(
        tx,
        Action::SignOutEverywhere,
        Some(&format!("user:{user}")),
        by,
    )
}

/// Ends every session of `user` but `keep` (the one asking, when it stays signed in).
pub fn end_all(
    tx: &Connection,
    user: i64,
    keep: Option<i64>,
    now: &str,
) -> rusqlite::Result<usize> {
    tx.execute(
        "UPDATE staff_sessions SET ended_at = ?3
         WHERE user_id = ?1 AND ended_at IS NULL AND id IS NOT ?2",
        params![user, keep, now],
    )
}

/// One row of a sessions list.
#[derive(Debug, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Listed {
    pub id: i64,
    pub browser: String,
    pub ip: Option<String>,
    pub created_at: String,
    pub last_seen_at: String,
    pub current: bool,
}

/// `user`'s sessions that have not ended or run out, most recently used first.
pub fn list(
    conn: &Connection,
    user: i64,
    current: Option<i64>,
    now_secs: i64,
) -> rusqlite::Result<Vec<Listed>> {
    let mut stmt = conn.prepare(
        "SELECT id, browser, ip, created_at, last_seen_at FROM staff_sessions
         WHERE user_id = ?1 AND ended_at IS NULL AND expires_at > ?2
         ORDER BY last_seen_at DESC, id DESC",
    )?;
    stmt.query_map(params![user, now_secs], |r| {
        let id: i64 = r.get(0)?;
        Ok(Listed {
            id,
            browser: r.get(1)?,
            ip: r.get(2)?,
            created_at: r.get(3)?,
            last_seen_at: r.get(4)?,
            current: Some(id) == current,
        })
    })?
    .collect()
}

/// How recently a session must have proved its password (by signing in, or again) to
/// change how its person signs in: a token stolen from a browser cannot swap the
/// authenticator app and lock its owner out.
pub const PROOF_LIFETIME: jiff::SignedDuration = jiff::SignedDuration::from_mins(5);

/// Whether `session` signed in or proved its password within [`PROOF_LIFETIME`] of `now`.
pub fn recently_proved(
    conn: &Connection,
    session: i64,
    now: jiff::Timestamp,
) -> rusqlite::Result<bool> {
    let since = crate::domain::clock::sql_time(now - PROOF_LIFETIME);
    conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM staff_sessions WHERE id = ?1 AND ended_at IS NULL \
         AND (created_at > ?2 OR confirmed_at > ?2))",
        params![session, since],
        |r| r.get(0),
    )
}

/// Records that `session` proved its password again at `now`.
pub fn proved(tx: &Connection, session: i64, now: jiff::Timestamp) -> rusqlite::Result<()> {
    tx.execute(
        "UPDATE staff_sessions SET confirmed_at = ?2 WHERE id = ?1",
        params![session, crate::domain::clock::sql_time(now)],
    )
    .map(|_| ())
}
