//! Recovery codes: ten, shown once, stored hashed, each working once. They are random
//! (50 bits each), so a keyed SHA-256 keeps them as safe as a slow hash would.

use jiff::Timestamp;
use rusqlite::{Connection, params};

use super::Keys;
use crate::domain::clock::sql_time;

pub const COUNT: usize = 10;
const PURPOSE: &str = "recovery";
/// Without look-alikes (no 0/o, 1/l/i).
const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";

/// `xxxxx-xxxxx`
fn new_code() -> String {
    let mut code: String = (0..10)
        .map(|_| ALPHABET[rand::random_range(0..ALPHABET.len())] as char)
        .collect();
    code.insert(5, '-');
    code
}

/// What a typed code is compared as: lower case, without spaces or dashes.
fn canonical(code: &str) -> String {
    code.chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// Replaces `user`'s codes with a new set, returned to be shown once.
pub fn regenerate(tx: &Connection, keys: &Keys, user: i64) -> rusqlite::Result<Vec<String>> {
    tx.execute("DELETE FROM recovery_codes WHERE user_id = ?1", [user])?;
    let codes: Vec<String> = (0..COUNT).map(|_| new_code()).collect();
    for code in &codes {
        tx.execute(
            "INSERT INTO recovery_codes (user_id, code_hash) VALUES (?1, ?2)",
            params![user, keys.hash(PURPOSE, &canonical(code))],
        )?;
    }
    Ok(codes)
}

/// Uses `code` of `user`: `true` when it was one of theirs, unused (now used).
pub fn redeem(
    tx: &Connection,
    keys: &Keys,
    user: i64,
    code: &str,
    now: Timestamp,
) -> rusqlite::Result<bool> {
    let code = canonical(code);
    if code.len() != 10 {
        return Ok(false);
    }
    Ok(tx.execute(
        "UPDATE recovery_codes SET used_at = ?3 WHERE user_id = ?1 AND code_hash = ?2 AND used_at IS NULL",
        params![user, keys.hash(PURPOSE, &code), sql_time(now)],
    )? == 1)
}

pub fn left(conn: &Connection, user: i64) -> rusqlite::Result<i64> {
    conn.query_row(
        "SELECT COUNT(*) FROM recovery_codes WHERE user_id = ?1 AND used_at IS NULL",
        [user],
        |r| r.get(0),
    )
}

/// Recovery codes stand in for an authenticator app or a passkey: with the last of those
/// removed, they go too.
pub fn forget_without_strong_factor(tx: &Connection, user: i64) -> rusqlite::Result<()> {
    if super::accounts::strong_factors(tx, user)? == 0 {
        tx.execute("DELETE FROM recovery_codes WHERE user_id = ?1", [user])?;
    }
    Ok(())
}
