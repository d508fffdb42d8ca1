//! Service tokens: keys for automation (a nightly export, a probe), made and revoked by an
//! Owner, each with a scope that is a fixed set of capabilities. A token is
//! `acp_st_<id>_<secret>`; only the secret's hash is stored.

use jiff::Timestamp;
use rusqlite::{Connection, OptionalExtension, params};

use super::{Cap, Keys};
use crate::domain::clock::sql_time;

pub const PREFIX: &str = "acp_st_";
const PURPOSE: &str = "service-token";

/// What a token may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    /// Download the exports: submissions, donations, monthly gifts, FEC schedules.
    Exports,
}

impl Scope {
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Exports => "exports",
        }
    }

    pub fn parse(s: &str) -> Option<Scope> {
        (s == "exports").then_some(Scope::Exports)
    }

    pub fn can(self, cap: Cap) -> bool {
        match self {
            Scope::Exports => matches!(cap, Cap::SubmissionsExport | Cap::DonationsExport),
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Scope::Exports => "Exports",
        }
    }
}

/// Makes a token; returns its id and the token, shown once.
pub fn create(
    tx: &Connection,
    keys: &Keys,
    name: &str,
    scope: Scope,
    by: i64,
    now: Timestamp,
) -> rusqlite::Result<(i64, String)> {
    let secret = super::new_token();
    tx.execute(
        "INSERT INTO service_tokens (name, scope, secret_hash, created_by, created_at) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![name.trim(), scope.as_str(), keys.hash(PURPOSE, &secret), by, sql_time(now)],
    )?;
    let id = tx.last_insert_rowid();
    Ok((id, format!("{PREFIX}{id}_{secret}")))
}

/// The (id, scope) of the unrevoked token `token`.
pub fn check(
    conn: &Connection,
    keys: &Keys,
    token: &str,
) -> rusqlite::Result<Option<(i64, Scope)>> {
    let Some((id, secret)) = token
        .strip_prefix(PREFIX)
        .and_then(|rest| rest.split_once('_'))
        .and_then(|(id, secret)| Some((id.parse::<i64>().ok()?, secret)))
    else {
        return Ok(None);
    };
    let scope: Option<String> = conn
        .query_row(
            "SELECT scope FROM service_tokens WHERE id = ?1 AND secret_hash = ?2 AND revoked_at IS NULL",
            params![id, keys.hash(PURPOSE, secret)],
            |r| r.get(0),
        )
        .optional()?;
    Ok(scope.and_then(|s| Scope::parse(&s)).map(|s| (id, s)))
}

pub fn used(tx: &Connection, id: i64, now: Timestamp) -> rusqlite::Result<()> {
    tx.execute(
        "UPDATE service_tokens SET last_used_at = ?2 WHERE id = ?1",
        params![id, sql_time(now)],
    )
    .map(|_| ())
}

pub fn revoke(tx: &Connection, id: i64, now: Timestamp) -> rusqlite::Result<bool> {
    Ok(tx.execute(
        "UPDATE service_tokens SET revoked_at = ?2 WHERE id = ?1 AND revoked_at IS NULL",
        params![id, sql_time(now)],
    )? == 1)
}

#[derive(Debug, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Listed {
    pub id: i64,
    pub name: String,
    pub scope: String,
    pub created_at: String,
    pub last_used_at: Option<String>,
    pub revoked_at: Option<String>,
}

pub fn list(conn: &Connection) -> rusqlite::Result<Vec<Listed>> {
    let mut stmt = conn.prepare(
        "SELECT id, name, scope, created_at, last_used_at, revoked_at FROM service_tokens
         ORDER BY revoked_at IS NOT NULL, id DESC",
    )?;
    stmt.query_map([], |r| {
        Ok(Listed {
            id: r.get(0)?,
            name: r.get(1)?,
            scope: r.get(2)?,
            created_at: r.get(3)?,
            last_used_at: r.get(4)?,
            revoked_at: r.get(5)?,
        })
    })?
    .collect()
}
