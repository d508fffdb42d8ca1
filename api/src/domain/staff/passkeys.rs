//! Passkeys (WebAuthn, through `webauthn-rs`): register, name, remove, and sign in with one
//! in place of any other second step. The relying party is the site's own address
//! (`SITE_URL`, or `url` in `content/site.yaml`); on `localhost` any port is accepted, for
//! development and the browser tests. A ceremony's state waits in memory for two minutes.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use jiff::Timestamp;
use rusqlite::{Connection, params};
use webauthn_rs::prelude::*;

use crate::domain::clock::sql_time;

/// How long a started ceremony can be finished.
const CEREMONY: Duration = Duration::from_secs(120);
/// Ceremonies waiting at most; past it the oldest are dropped.
const MOST_WAITING: usize = 1_000;

pub struct Passkeys {
    webauthn: Option<Webauthn>,
    registrations: Mutex<HashMap<i64, (PasskeyRegistration, Instant)>>,
    authentications: Mutex<HashMap<i64, (PasskeyAuthentication, Instant)>>,
}

/// Why a ceremony failed, in words for the person.
#[derive(Debug, thiserror::Error)]
pub enum Problem {
    #[error("Passkeys need this site to be served from a domain name (set SITE_URL).")]
    NotAvailable,
    #[error("That passkey request has expired. Please try again.")]
    Expired,
    #[error("The passkey could not be verified. Please try again.")]
    Refused,
}

fn keep<T>(map: &Mutex<HashMap<i64, (T, Instant)>>, key: i64, state: T) {
    let mut map = map.lock().unwrap_or_else(|p| p.into_inner());
    map.retain(|_, (_, at)| at.elapsed() < CEREMONY);
    if map.len() >= MOST_WAITING
        && let Some(oldest) = map.iter().min_by_key(|(_, (_, at))| *at).map(|(k, _)| *k)
    {
        map.remove(&oldest);
    }
    map.insert(key, (state, Instant::now()));
}

fn take<T>(map: &Mutex<HashMap<i64, (T, Instant)>>, key: i64) -> Option<T> {
    let mut map = map.lock().unwrap_or_else(|p| p.into_inner());
    map.remove(&key)
        .filter(|(_, at)| at.elapsed() < CEREMONY)
        .map(|(state, _)| state)
}

fn handle(user: i64) -> Uuid {
    Uuid::from_u64_pair(0x6163_705f_7374_6166, user as u64)
}

impl Passkeys {
    /// For the site at `site_url`; passkeys are off (and say why) when it has no domain name.
    pub fn new(site_url: &str, party: &str) -> Passkeys {
        let webauthn = Url::parse(site_url).ok().and_then(|origin| {
            let host = origin.host_str()?.to_owned();
            if host.parse::<std::net::IpAddr>().is_ok() {
                tracing::info!(
                    "passkeys are off: the site's address is an IP address, not a domain name"
                );
                return None;
            }
            WebauthnBuilder::new(&host, &origin)
                .ok()?
                .rp_name(party)
                .allow_any_port(host == "localhost")
                .build()
                .inspect_err(|e| tracing::warn!(error = %e, "passkeys are off"))
                .ok()
        });
        Passkeys {
            webauthn,
            registrations: Mutex::default(),
            authentications: Mutex::default(),
        }
    }

    fn webauthn(&self) -> Result<&Webauthn, Problem> {
        self.webauthn.as_ref().ok_or(Problem::NotAvailable)
    }

    /// Options for the browser to make a passkey for `user` (whose `existing` ones it skips).
    pub fn start_registration(
        &self,
        user: i64,
        email: &str,
        name: &str,
        existing: Vec<Passkey>,
    ) -> Result<CreationChallengeResponse, Problem> {
        let exclude: Vec<CredentialID> = existing.iter().map(|p| p.cred_id().clone()).collect();
        let display = if name.is_empty() { email } else { name };
        let (options, state) = self
            .webauthn()?
            .start_passkey_registration(handle(user), email, display, Some(exclude))
            .map_err(|e| {
                tracing::warn!(error = %e, "a passkey registration could not start");
                Problem::Refused
            })?;
        keep(&self.registrations, user, state);
        Ok(options)
    }

    pub fn finish_registration(
        &self,
        user: i64,
        credential: &RegisterPublicKeyCredential,
    ) -> Result<Passkey, Problem> {
        let state = take(&self.registrations, user).ok_or(Problem::Expired)?;
        self.webauthn()?
            .finish_passkey_registration(credential, &state)
            .map_err(|e| {
                tracing::info!(error = %e, user, "a passkey registration was refused");
                Problem::Refused
            })
    }

    /// Options to sign in with one of `passkeys`, for the waiting sign-in `challenge`.
    pub fn start_authentication(
        &self,
        challenge: i64,
        passkeys: &[Passkey],
    ) -> Result<RequestChallengeResponse, Problem> {
        let (options, state) = self
            .webauthn()?
            .start_passkey_authentication(passkeys)
            .map_err(|e| {
                tracing::warn!(error = %e, "a passkey sign-in could not start");
                Problem::Refused
            })?;
        keep(&self.authentications, challenge, state);
        Ok(options)
    }

    pub fn finish_authentication(
        &self,
        challenge: i64,
        credential: &PublicKeyCredential,
    ) -> Result<AuthenticationResult, Problem> {
        let state = take(&self.authentications, challenge).ok_or(Problem::Expired)?;
        self.webauthn()?
            .finish_passkey_authentication(credential, &state)
            .map_err(|e| {
                tracing::info!(error = %e, "a passkey sign-in was refused");
                Problem::Refused
            })
    }
}

/// `user`'s passkeys, as stored.
pub fn of_user(conn: &Connection, user: i64) -> rusqlite::Result<Vec<(i64, Passkey)>> {
    let mut stmt = conn.prepare("SELECT id, passkey FROM passkeys WHERE user_id = ?1")?;
    let rows = stmt.query_map([user], |r| {
        Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?))
    })?;
    let mut out = Vec::new();
    for row in rows {
        let (id, json) = row?;
        match serde_json::from_str::<Passkey>(&json) {
            Ok(p) => out.push((id, p)),
            Err(e) => tracing::error!(id, error = %e, "a stored passkey does not read"),
        }
    }
    Ok(out)
}

fn credential_key(id: &CredentialID) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(id.as_ref())
}

/// Stores `passkey` for `user`; `None` when that credential is registered already.
pub fn add(
    tx: &Connection,
    user: i64,
    name: &str,
    passkey: &Passkey,
    now: Timestamp,
) -> rusqlite::Result<Option<i64>> {
    let json = serde_json::to_string(passkey).expect("a passkey serialises");
    let added = tx.execute(
        "INSERT INTO passkeys (user_id, name, credential_id, passkey, created_at) VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT (credential_id) DO NOTHING",
        params![user, name.trim(), credential_key(passkey.cred_id()), json, sql_time(now)],
    )?;
    Ok((added == 1).then(|| tx.last_insert_rowid()))
}

/// Notes a sign-in with `result`: the stored counter moves on.
pub fn used(
    tx: &Connection,
    user: i64,
    result: &AuthenticationResult,
    now: Timestamp,
) -> rusqlite::Result<bool> {
    for (id, mut passkey) in of_user(tx, user)? {
        if passkey.cred_id() == result.cred_id() {
            passkey.update_credential(result);
            tx.execute(
                "UPDATE passkeys SET passkey = ?2, last_used_at = ?3 WHERE id = ?1",
                params![
                    id,
                    serde_json::to_string(&passkey).expect("serialises"),
                    sql_time(now)
                ],
            )?;
            return Ok(true);
        }
    }
    Ok(false)
}

#[derive(Debug, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Listed {
    pub id: i64,
    pub name: String,
    pub created_at: String,
    pub last_used_at: Option<String>,
}

pub fn list(conn: &Connection, user: i64) -> rusqlite::Result<Vec<Listed>> {
    let mut stmt = conn.prepare(
        "SELECT id, name, created_at, last_used_at FROM passkeys WHERE user_id = ?1 ORDER BY id",
    )?;
    stmt.query_map([user], |r| {
        Ok(Listed {
            id: r.get(0)?,
            name: r.get(1)?,
            created_at: r.get(2)?,
            last_used_at: r.get(3)?,
        })
    })?
    .collect()
}

pub fn remove(tx: &Connection, user: i64, id: i64) -> rusqlite::Result<bool> {
    Ok(tx.execute(
        "DELETE FROM passkeys WHERE id = ?1 AND user_id = ?2",
        params![id, user],
    )? == 1)
}
