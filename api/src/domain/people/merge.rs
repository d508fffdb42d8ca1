//! Merging two supporters, and undoing it. A merge moves one supporter's addresses to the
//! other and records exactly which; undoing it moves exactly those back. No submission,
//! gift or consent record is touched, so nothing is lost (the failure CRMs are known for),
//! and consent, which is kept per address and per number, stays as it was: a merge never
//! subscribes an address or turns a stopped number back on.

use jiff::Timestamp;
use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;

use crate::domain::clock::sql_time;

/// Why a merge or its undoing was refused (nothing changed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refused {
    NotFound,
    /// The two are one supporter already.
    Same,
    /// One of them is merged into another: merge that one instead.
    AlreadyMerged,
    /// The merge was undone before.
    Undone,
}

/// A supporter's merges, as their page lists them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Merge {
    pub id: i64,
    pub into_id: i64,
    pub from_id: i64,
    /// The addresses it moved.
    pub emails: Vec<String>,
    pub merged_at: String,
    pub undone_at: Option<String>,
}

fn is_current(conn: &Connection, id: i64) -> rusqlite::Result<Option<bool>> {
    conn.query_row(
        "SELECT merged_into IS NULL FROM supporters WHERE id = ?1",
        [id],
        |r| r.get(0),
    )
    .optional()
}

/// The addresses of supporter `id`, if it exists and is not merged into another (whose
/// addresses they now are).
pub fn current_addresses(conn: &Connection, id: i64) -> rusqlite::Result<Option<Vec<String>>> {
    if is_current(conn, id)? != Some(true) {
        return Ok(None);
    }
    let mut stmt =
        conn.prepare("SELECT email FROM supporter_emails WHERE supporter_id = ?1 ORDER BY id")?;
    stmt.query_map([id], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()
        .map(Some)
}

/// Merges supporter `from` into `into`; returns the merge's id. Call inside one write.
pub fn merge(
    conn: &Connection,
    into: i64,
    from: i64,
    now: Timestamp,
) -> rusqlite::Result<Result<i64, Refused>> {
    if into == from {
        return Ok(Err(Refused::Same));
    }
    match (is_current(conn, into)?, is_current(conn, from)?) {
        (Some(true), Some(true)) => {}
        (None, _) | (_, None) => return Ok(Err(Refused::NotFound)),
        _ => return Ok(Err(Refused::AlreadyMerged)),
    }
    let ids: Vec<i64> = {
        let mut stmt =
            conn.prepare("SELECT id FROM supporter_emails WHERE supporter_id = ?1 ORDER BY id")?;
        stmt.query_map([from], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?
    };
    let list = serde_json::to_string(&ids).unwrap_or_else(|_| "[]".into());
    conn.execute(
        "UPDATE supporter_emails SET supporter_id = ?1 WHERE supporter_id = ?2",
        params![into, from],
    )?;
    conn.execute(
        "UPDATE supporters SET merged_into = ?1 WHERE id = ?2",
        params![into, from],
    )?;
    conn.query_row(
        "INSERT INTO supporter_merges (into_id, from_id, email_ids, merged_at) \
         VALUES (?1, ?2, ?3, ?4) RETURNING id",
        params![into, from, list, sql_time(now)],
        |r| r.get(0),
    )
    .map(Ok)
}

/// Undoes merge `id`: the addresses it moved go back to the supporter they came from, and
/// that supporter stands alone again. Returns (into, from). Call inside one write.
pub fn undo(
    conn: &Connection,
    id: i64,
    now: Timestamp,
) -> rusqlite::Result<Result<(i64, i64), Refused>> {
    let found: Option<(i64, i64, String, Option<String>)> = conn
        .query_row(
            "SELECT into_id, from_id, email_ids, undone_at FROM supporter_merges WHERE id = ?1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )
        .optional()?;
    let Some((into, from, list, undone)) = found else {
        return Ok(Err(Refused::NotFound));
    };
    if undone.is_some() {
        return Ok(Err(Refused::Undone));
    }
    // Where `into`'s addresses are now: `into` itself, or whoever it was merged into since.
    let mut holder = into;
    while let Some(next) = conn.query_row(
        "SELECT merged_into FROM supporters WHERE id = ?1",
        [holder],
        |r| r.get::<_, Option<i64>>(0),
    )? {
        holder = next;
    }
    let ids: Vec<i64> = serde_json::from_str(&list).unwrap_or_default();
    let mut stmt = conn.prepare(
        "UPDATE supporter_emails SET supporter_id = ?1 WHERE id = ?2 AND supporter_id = ?3",
    )?;
    for email in ids {
        stmt.execute(params![from, email, holder])?;
    }
    conn.execute(
        "UPDATE supporters SET merged_into = NULL WHERE id = ?1",
        [from],
    )?;
    conn.execute(
        "UPDATE supporter_merges SET undone_at = ?2 WHERE id = ?1",
        params![id, sql_time(now)],
    )?;
    Ok(Ok((into, from)))
}

/// The merges into or from supporter `id`, newest first.
pub fn merges_of(conn: &Connection, id: i64) -> rusqlite::Result<Vec<Merge>> {
    let rows: Vec<(i64, i64, i64, String, String, Option<String>)> = {
        let mut stmt = conn.prepare(
            "SELECT id, into_id, from_id, email_ids, merged_at, undone_at FROM supporter_merges \
             WHERE into_id = ?1 OR from_id = ?1 ORDER BY id DESC",
        )?;
        stmt.query_map([id], |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                r.get(2)?,
                r.get(3)?,
                r.get(4)?,
                r.get(5)?,
            ))
        })?
        .collect::<rusqlite::Result<_>>()?
    };
    let mut address = conn.prepare("SELECT email FROM supporter_emails WHERE id = ?1")?;
    rows.into_iter()
        .map(|(id, into_id, from_id, list, merged_at, undone_at)| {
            let ids: Vec<i64> = serde_json::from_str(&list).unwrap_or_default();
            let mut emails = Vec::new();
            for email in ids {
                if let Some(e) = address
                    .query_row([email], |r| r.get::<_, String>(0))
                    .optional()?
                {
                    emails.push(e);
                }
            }
            Ok(Merge {
                id,
                into_id,
                from_id,
                emails,
                merged_at,
                undone_at,
            })
        })
        .collect()
}
