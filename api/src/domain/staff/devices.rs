//! Browsers that finished a sign-in, remembered by an HttpOnly cookie for 30 days: a known
//! browser is not asked for an e-mailed code again.

use jiff::{SignedDuration, Timestamp};
use rusqlite::{Connection, params};

use super::Keys;
use crate::domain::clock::sql_time;

/// The cookie's name and lifetime.
pub const COOKIE: &str = "acp_device";
pub const LIFETIME: SignedDuration = SignedDuration::from_hours(30 * 24);
const PURPOSE: &str = "device";

/// Remembers this browser for `user`; returns the cookie's value.
pub fn remember(
    tx: &Connection,
    keys: &Keys,
    user: i64,
    now: Timestamp,
) -> rusqlite::Result<String> {
    let token = super::new_token();
    tx.execute(
        "INSERT INTO staff_devices (user_id, token_hash, created_at, expires_at) VALUES (?1, ?2, ?3, ?4)",
        params![
            user,
            keys.hash(PURPOSE, &token),
            sql_time(now),
            sql_time(now + LIFETIME)
        ],
    )?;
    Ok(token)
}

/// Whether the cookie `token` is one `user`'s browser holds, unexpired.
pub fn known(
    conn: &Connection,
    keys: &Keys,
    user: i64,
    token: &str,
    now: Timestamp,
) -> rusqlite::Result<bool> {
    conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM staff_devices WHERE token_hash = ?1 AND user_id = ?2 AND expires_at > ?3)",
        params![keys.hash(PURPOSE, token), user, sql_time(now)],
        |r| r.get(0),
    )
}

pub fn forget_all(tx: &Connection, user: i64) -> rusqlite::Result<()> {
    tx.execute("DELETE FROM staff_devices WHERE user_id = ?1", [user])
        .map(|_| ())
}

/// The `Set-Cookie` value for `token`. `Path=/api/admin`: only sign-in reads it.
pub fn set_cookie(token: &str) -> String {
    format!(
        "{COOKIE}={token}; Path=/api/admin; Max-Age={}; HttpOnly; Secure; SameSite=Strict",
        LIFETIME.as_secs()
    )
}

/// The device cookie's value in a `Cookie` header, if any.
pub fn from_header(cookie: Option<&str>) -> Option<String> {
    cookie?
        .split(';')
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == COOKIE)
        .map(|(_, value)| value.trim().to_owned())
        .filter(|v| !v.is_empty() && v.len() < 100)
}
