//! Who a person is. Two identities, because staff and the law ask different questions:
//!
//! - a **supporter** ([`link`]) is a person as staff know them: every submission links to
//!   its e-mail address, and each address belongs to one supporter. Staff may merge two
//!   supporters and undo it ([`merge`]); a submission always keeps what was typed.
//! - a **contributor** (`donations::contributors`) is the FEC's individual, a normalised
//!   name, street and ZIP: the annual limit and the Schedule A aggregate count per
//!   contributor, so two people sharing an inbox have a limit each and one person giving
//!   from two inboxes has one. Near matches are never combined by the server: the
//!   treasurer decides.
//!
//! Staff's view of a person (the People list, a person's page, their export) is
//! `domain::directory`, which reads both.
//!
//! Addresses are matched as Rust lower-cases them (trimmed), never with SQLite's `lower()`,
//! which leaves every letter outside ASCII as it is.

use jiff::Timestamp;
use rusqlite::{Connection, OptionalExtension, params};

use crate::domain::clock::sql_time;

pub mod merge;

/// An address as people are matched on it: trimmed, and lower case as Rust has it.
pub fn normalise(email: &str) -> String {
    email.trim().to_lowercase()
}

/// The id of `email`'s row in `supporter_emails`, made (with a new supporter) when the
/// address is new; `None` for an empty address. Call inside the write that stores the
/// submission: writes are serialised, so submissions racing with one new address make one
/// supporter.
pub fn link(conn: &Connection, email: &str, now: Timestamp) -> rusqlite::Result<Option<i64>> {
    let email = normalise(email);
    if email.is_empty() {
        return Ok(None);
    }
    if let Some(id) = email_id(conn, &email)? {
        return Ok(Some(id));
    }
    // Every form's write runs these: their statements are kept prepared.
    let at = sql_time(now);
    let supporter: i64 = conn
        .prepare_cached("INSERT INTO supporters (created_at) VALUES (?1) RETURNING id")?
        .query_row([&at], |r| r.get(0))?;
    conn.prepare_cached(
        "INSERT INTO supporter_emails (email, supporter_id, created_at) VALUES (?1, ?2, ?3) \
         RETURNING id",
    )?
    .query_row(params![email, supporter, at], |r| r.get(0))
    .map(Some)
}

/// The row of a normalised address, if it is known.
fn email_id(conn: &Connection, normalised: &str) -> rusqlite::Result<Option<i64>> {
    conn.prepare_cached("SELECT id FROM supporter_emails WHERE email = ?1")?
        .query_row([normalised], |r| r.get(0))
        .optional()
}

/// The supporter `email` belongs to now (after any merge), if the address is known.
pub fn supporter_of(conn: &Connection, email: &str) -> rusqlite::Result<Option<i64>> {
    conn.query_row(
        "SELECT supporter_id FROM supporter_emails WHERE email = ?1",
        [normalise(email)],
        |r| r.get(0),
    )
    .optional()
}

/// The tables whose rows link to an address, and the column that holds what was typed.
pub(crate) const LINKED: [(&str, &str); 7] = [
    ("newsletter_signups", "email"),
    ("contact_messages", "email"),
    ("volunteer_signups", "email"),
    ("donations", "donor_email"),
    ("donation_plans", "donor_email"),
    ("event_rsvps", "email"),
    ("event_rsvp_requests", "email"),
];

/// Links every row that has an address and no link yet (the rows stored before people were
/// known, migration V11); returns how many. Cheap when there is nothing to do; call inside
/// one write at start.
pub fn backfill(conn: &Connection, now: Timestamp) -> rusqlite::Result<usize> {
    let mut linked = 0;
    for (table, column) in LINKED {
        let rows: Vec<(i64, String)> = {
            let mut stmt = conn.prepare(&format!(
                "SELECT id, {column} FROM {table} WHERE email_id IS NULL AND {column} != '' \
                 ORDER BY id"
            ))?;
            stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect::<rusqlite::Result<_>>()?
        };
        // OR IGNORE: a newsletter signup is one per address (V16), so an unlinked one whose
        // address already has its signup stays as it is rather than stopping the start.
        let mut update = conn.prepare(&format!(
            "UPDATE OR IGNORE {table} SET email_id = ?2 WHERE id = ?1"
        ))?;
        for (id, email) in rows {
            if let Some(email_id) = link(conn, &email, now)? {
                linked += update.execute(params![id, email_id])?;
            }
        }
    }
    Ok(linked)
}

/// What keys an erased address in `suppressed_emails` (with the mail's secret: a stolen
/// database does not list who asked to be forgotten).
pub const SUPPRESS_PURPOSE: &str = "suppressed-email";

/// Forgets address `email` (being erased): the rows the law keeps (paid gifts, a plan's
/// amounts) lose their link to it, its row goes, and so does every supporter left with no
/// address (with their merges); `email_key` (its keyed hash) goes on the suppression list.
/// Call inside the erasure's write, after its rows are deleted.
pub fn forget(
    conn: &Connection,
    email: &str,
    email_key: &str,
    now: Timestamp,
) -> rusqlite::Result<()> {
    conn.execute(
        "INSERT INTO suppressed_emails (email_key, suppressed_at) VALUES (?1, ?2) \
         ON CONFLICT DO NOTHING",
        params![email_key, sql_time(now)],
    )?;
    let Some(id) = email_id(conn, &normalise(email))? else {
        return Ok(());
    };
    for (table, _) in LINKED {
        conn.execute(
            &format!("UPDATE {table} SET email_id = NULL WHERE email_id = ?1"),
            [id],
        )?;
    }
    let supporter: i64 = conn.query_row(
        "DELETE FROM supporter_emails WHERE id = ?1 RETURNING supporter_id",
        [id],
        |r| r.get(0),
    )?;
    // The supporter, and those merged with them, that no address is left to.
    let mut seen = vec![supporter];
    let mut i = 0;
    while i < seen.len() {
        let mut stmt = conn.prepare(
            "SELECT into_id FROM supporter_merges WHERE from_id = ?1 \
             UNION SELECT from_id FROM supporter_merges WHERE into_id = ?1",
        )?;
        let next: Vec<i64> = stmt
            .query_map([seen[i]], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        for n in next {
            if !seen.contains(&n) {
                seen.push(n);
            }
        }
        i += 1;
    }
    for s in seen {
        let empty: bool = conn.query_row(
            "SELECT NOT EXISTS (SELECT 1 FROM supporter_emails WHERE supporter_id = ?1)",
            [s],
            |r| r.get(0),
        )?;
        if empty {
            conn.execute(
                "UPDATE supporters SET merged_into = NULL WHERE merged_into = ?1",
                [s],
            )?;
            conn.execute(
                "DELETE FROM supporter_merges WHERE into_id = ?1 OR from_id = ?1",
                [s],
            )?;
            conn.execute("DELETE FROM supporters WHERE id = ?1", [s])?;
        }
    }
    Ok(())
}

/// Whether the address whose keyed hash is `email_key` asked to be forgotten and has not
/// signed up again since.
pub fn is_suppressed(conn: &Connection, email_key: &str) -> rusqlite::Result<bool> {
    conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM suppressed_emails WHERE email_key = ?1)",
        [email_key],
        |r| r.get(0),
    )
}

/// The address whose keyed hash is `email_key` confirmed a signup again: its own new consent
/// lifts the suppression.
pub fn unsuppress(conn: &Connection, email_key: &str) -> rusqlite::Result<()> {
    conn.execute(
        "DELETE FROM suppressed_emails WHERE email_key = ?1",
        [email_key],
    )
    .map(|_| ())
}
