//! Service tokens: keys for automation (a nightly export, a probe), made and revoked by an
//! Owner, each with a scope that is a fixed set of capabilities. A token is
//! `acp_st_<id>_<secret>`; only the secret's hash is stored. A token ends on the date set
//! when it was made (at most [`LONGEST_LIFE_DAYS`] on), and with its maker: it works only
//! while the Owner who made it is an active Owner, so a departed Owner's automation stops
//! with their account and an active Owner issues its replacement.

use jiff::Timestamp;
use rusqlite::{Connection, OptionalExtension, params};

use super::{Cap, Keys};
use crate::domain::clock::sql_time;

pub const PREFIX: &str = "acp_st_";
/// The longest a token may be made for, and the default.
pub const LONGEST_LIFE_DAYS: i64 = 365;
pub const DEFAULT_LIFE_DAYS: i64 = 90;
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
    (now, expires): (Timestamp, Timestamp),
) -> rusqlite::Result<(i64, String)> {
    let secret = super::new_token();
    tx.execute(
        "INSERT INTO service_tokens (name, scope, secret_hash, created_by, created_at, expires_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![
            name.trim(),
            scope.as_str(),
            keys.hash(PURPOSE, &secret),
            by,
            sql_time(now),
            sql_time(expires)
        ],
    )?;
    let id = tx.last_insert_rowid();
    Ok((id, format!("{PREFIX}{id}_{secret}")))
}

/// The (id, scope) of `token` while it works: not revoked, not expired at `now`, and made
/// by an Owner who is still an active Owner.
pub fn check(
    conn: &Connection,
    keys: &Keys,
    token: &str,
    now: Timestamp,
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
            "SELECT t.scope FROM service_tokens t JOIN users u ON u.id = t.created_by \
             WHERE t.id = ?1 AND t.secret_hash = ?2 AND t.revoked_at IS NULL \
               AND t.expires_at > ?3 AND u.active = 1 AND u.role = 'owner'",
            params![id, keys.hash(PURPOSE, secret), sql_time(now)],
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
    pub expires_at: Option<String>,
    /// Who made it (their name, else their address).
    pub created_by: Option<String>,
    /// Whether it works now: not revoked or expired, and its maker still an active Owner.
    pub active: bool,
    /// Why it does not, when it does not.
    pub ended: Option<&'static str>,
}

pub fn list(conn: &Connection, now: Timestamp) -> rusqlite::Result<Vec<Listed>> {
    let mut stmt = conn.prepare(
        "SELECT t.id, t.name, t.scope, t.created_at, t.last_used_at, t.revoked_at, t.expires_at,
                COALESCE(NULLIF(u.name, ''), u.email), u.active = 1 AND u.role = 'owner'
         FROM service_tokens t LEFT JOIN users u ON u.id = t.created_by
         ORDER BY t.revoked_at IS NOT NULL, t.id DESC",
    )?;
    let now = sql_time(now);
    stmt.query_map([], |r| {
        let revoked_at: Option<String> = r.get(5)?;
        let expires_at: Option<String> = r.get(6)?;
        let maker_owner: Option<bool> = r.get(8)?;
        let ended = if revoked_at.is_some() {
            Some("revoked")
        } else if expires_at.as_deref().is_none_or(|e| e <= now.as_str()) {
            Some("expired")
        } else if maker_owner != Some(true) {
            Some("maker left")
        } else {
            None
        };
        Ok(Listed {
            id: r.get(0)?,
            name: r.get(1)?,
            scope: r.get(2)?,
            created_at: r.get(3)?,
            last_used_at: r.get(4)?,
            revoked_at,
            expires_at,
            created_by: r.get(7)?,
            active: ended.is_none(),
            ended,
        })
    })?
    .collect()
}
