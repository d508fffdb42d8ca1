//! A sign-in whose password was right, waiting for its second step: the opaque `challenge`
//! the browser holds (stored hashed), and the e-mailed code when that is the step (hashed
//! too). Ten minutes, one use, void after [`MAX_TRIES`] wrong codes.
//!
//! A challenge's own limit does not bound a password holder, who opens a fresh one at
//! every sign-in; so wrong answers are also counted per account (NIST SP 800-63B §5.2.2):
//! after [`MAX_WRONG_PER_ACCOUNT`] in [`WRONG_WINDOW`], codes are refused for that account
//! until the oldest ages out, and only a passkey or a browser it signed in from before
//! signs it in meanwhile.

use jiff::{SignedDuration, Timestamp};
use rusqlite::{Connection, OptionalExtension, params};

use super::Keys;
use crate::domain::clock::sql_time;

pub const LIFETIME: SignedDuration = SignedDuration::from_mins(10);
pub const MAX_TRIES: i64 = 5;
/// Wrong second-step answers one account may take in [`WRONG_WINDOW`], over all its
/// challenges.
pub const MAX_WRONG_PER_ACCOUNT: i64 = 10;
pub const WRONG_WINDOW: SignedDuration = SignedDuration::from_mins(15);
const PURPOSE: &str = "challenge";
const CODE_PURPOSE: &str = "email-code";

/// A waiting sign-in.
#[derive(Debug)]
pub struct Challenge {
    pub id: i64,
    pub user: i64,
    /// Whether a code was e-mailed for it.
    pub emailed: bool,
    pub browser: String,
}

/// Why a challenge cannot be answered.
#[derive(Debug, PartialEq, Eq)]
pub enum Over {
    /// Unknown, used, expired or out of tries.
    Gone,
}

pub struct Opened {
    pub token: String,
    /// The e-mailed code, to put in the message.
    pub code: Option<String>,
}

/// Opens a challenge for `user`; with `email_code`, makes a 6-digit code for it.
pub fn open(
    tx: &Connection,
    keys: &Keys,
    user: i64,
    email_code: bool,
    ip: &str,
    browser: &str,
    now: Timestamp,
) -> rusqlite::Result<Opened> {
    let token = super::new_token();
    let code = email_code.then(|| format!("{:06}", rand::random_range(0..1_000_000)));
    tx.execute(
        "INSERT INTO sign_in_challenges (token_hash, user_id, created_at, expires_at, code_hash, ip, browser)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![
            keys.hash(PURPOSE, &token),
            user,
            sql_time(now),
            sql_time(now + LIFETIME),
            code.as_ref().map(|c| keys.hash(CODE_PURPOSE, c)),
            ip,
            browser,
        ],
    )?;
    Ok(Opened { token, code })
}

/// The open challenge `token` names.
pub fn find(
    conn: &Connection,
    keys: &Keys,
    token: &str,
    now: Timestamp,
) -> rusqlite::Result<Result<Challenge, Over>> {
    let found = conn
        .query_row(
            "SELECT id, user_id, code_hash IS NOT NULL, browser FROM sign_in_challenges
             WHERE token_hash = ?1 AND done_at IS NULL AND expires_at > ?2 AND tries < ?3",
            params![keys.hash(PURPOSE, token), sql_time(now), MAX_TRIES],
            |r| {
                Ok(Challenge {
                    id: r.get(0)?,
                    user: r.get(1)?,
                    emailed: r.get(2)?,
                    browser: r.get(3)?,
                })
            },
        )
        .optional()?;
    Ok(found.ok_or(Over::Gone))
}

/// Whether `code` is the one e-mailed for `challenge`.
pub fn code_matches(
    conn: &Connection,
    keys: &Keys,
    challenge: i64,
    code: &str,
) -> rusqlite::Result<bool> {
    conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM sign_in_challenges WHERE id = ?1 AND code_hash = ?2)",
        params![challenge, keys.hash(CODE_PURPOSE, code.trim())],
        |r| r.get(0),
    )
}

/// Counts a wrong answer to `challenge` of `user`: the [`MAX_TRIES`]th voids the
/// challenge, and each counts against the account. Returns the account's wrong answers in
/// the window, this one included.
pub fn wrong(tx: &Connection, challenge: i64, user: i64, now: Timestamp) -> rusqlite::Result<i64> {
    tx.execute(
        "UPDATE sign_in_challenges SET tries = tries + 1 WHERE id = ?1",
        [challenge],
    )?;
    tx.execute(
        "INSERT INTO second_step_failures (user_id, at) VALUES (?1, ?2)",
        params![user, sql_time(now)],
    )?;
    wrong_lately(tx, user, now)
}

/// `user`'s wrong second-step answers within [`WRONG_WINDOW`] of `now`.
pub fn wrong_lately(conn: &Connection, user: i64, now: Timestamp) -> rusqlite::Result<i64> {
    conn.query_row(
        "SELECT COUNT(*) FROM second_step_failures WHERE user_id = ?1 AND at > ?2",
        params![user, sql_time(now - WRONG_WINDOW)],
        |r| r.get(0),
    )
}

/// Seconds until `user` may answer with a code again; `None` when they may now.
pub fn codes_locked(conn: &Connection, user: i64, now: Timestamp) -> rusqlite::Result<Option<u64>> {
    let since = sql_time(now - WRONG_WINDOW);
    let n = wrong_lately(conn, user, now)?;
    if n < MAX_WRONG_PER_ACCOUNT {
        return Ok(None);
    }
    // Free again when all but MAX - 1 of the window's failures have aged out.
    let freed: Option<String> = conn
        .query_row(
            "SELECT at FROM second_step_failures WHERE user_id = ?1 AND at > ?2 \
             ORDER BY at DESC LIMIT 1 OFFSET ?3",
            params![user, since, MAX_WRONG_PER_ACCOUNT - 1],
            |r| r.get(0),
        )
        .optional()?;
    let wait = freed
        .and_then(|at| at.parse::<Timestamp>().ok())
        .map(|at| (at + WRONG_WINDOW).duration_since(now).as_secs().max(1) as u64)
        .unwrap_or(WRONG_WINDOW.as_secs() as u64);
    Ok(Some(wait))
}

/// Marks `challenge` answered; `false` when it was answered already (a race).
pub fn done(tx: &Connection, challenge: i64, now: Timestamp) -> rusqlite::Result<bool> {
    Ok(tx.execute(
        "UPDATE sign_in_challenges SET done_at = ?2 WHERE id = ?1 AND done_at IS NULL",
        params![challenge, sql_time(now)],
    )? == 1)
}

/// Voids every open challenge of `user`.
pub fn void_all(tx: &Connection, user: i64, now: Timestamp) -> rusqlite::Result<()> {
    tx.execute(
        "UPDATE sign_in_challenges SET done_at = ?2 WHERE user_id = ?1 AND done_at IS NULL",
        params![user, sql_time(now)],
    )
    .map(|_| ())
}
