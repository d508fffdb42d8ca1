//! Staff sign-in's mechanics: password checks (argon2id), lockouts, and JWT session tokens.
//! Who the accounts are and what they may do is `domain::staff`.
//!
//! - The first Owner (made on a database with no users) is `ADMIN_EMAIL` with the password
//!   from `ADMIN_PASSWORD_HASH` (a PHC string), or `ADMIN_PASSWORD` (hashed once at start),
//!   or, with neither, one generated on the first start: printed once to the log, only its
//!   hash kept in `DATA_DIR/admin-password.phc` (mode 0600).
//! - Tokens are HS256 JWTs with `sub` (the user), `iat`, `exp` (60 minutes) and a random
//!   `jti`, signed with a key derived from the secret (`JWT_SECRET`, or one generated into
//!   `DATA_DIR/jwt-secret`). Each `jti` is a row of `staff_sessions`, read on every
//!   request: ending the row signs the browser out at once.
//! - More than [`MAX_FAILURES`] sign-in attempts from one address within [`FAILURE_WINDOW`]
//!   lock that address out until the oldest ages out. An attempt counts from the moment it
//!   is let through to the password check (a success takes its count back), so attempts sent
//!   all at once cannot slip past the lock while the first ones are still being checked.
//! - Password checks are slow and take 19 MiB each (argon2): at most [`CHECKS_AT_ONCE`] run
//!   at a time; an attempt that cannot start one within [`CHECK_WAIT`] is told to retry.
//!
//! The filter every admin route group uses is `signed_in` in `routes/admin`.

use std::collections::{HashMap, VecDeque};
use std::fs;
use std::net::IpAddr;
use std::path::Path;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::Result;
use argon2::Argon2;
use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::domain::audit::By;
use crate::domain::staff::service_tokens::Scope;
use crate::domain::staff::{Cap, Keys, Role};
use crate::http::network::limit_key;
use crate::store::db::write_private;

/// How long a session lasts (spec §9: 60 minutes).
pub const SESSION: Duration = Duration::from_secs(60 * 60);
/// Failed logins one address may make within [`FAILURE_WINDOW`].
pub const MAX_FAILURES: usize = 10;
pub const FAILURE_WINDOW: Duration = Duration::from_secs(15 * 60);
/// Addresses tracked at most; beyond it the quietest are forgotten.
const MOST_TRACKED: usize = 10_000;
/// Password checks running at once: one core's worth, so the other keeps serving.
pub const CHECKS_AT_ONCE: usize = 1;
/// How long an attempt waits for its turn to be checked before it is told to retry.
pub const CHECK_WAIT: Duration = Duration::from_secs(3);

/// The turns to check a password (see [`CHECKS_AT_ONCE`]), in three lanes: one for a browser
/// the account signed in from before (its device cookie, which nobody else can make), one
/// for addresses with failures in the last [`FAILURE_WINDOW`], one for those without. A
/// flood of wrong passwords fills only its own lane (and, past its first try from each
/// network, waits there); one spread over many networks fills the clean lane, but never the
/// known browsers', so a staff member at their own browser never queues behind it.
struct Lanes {
    known: tokio::sync::Semaphore,
    suspect: tokio::sync::Semaphore,
    clean: tokio::sync::Semaphore,
    /// New passwords being hashed (an invitation accepted, a reset, a change).
    hashing: tokio::sync::Semaphore,
}

impl Default for Lanes {
    fn default() -> Lanes {
        Lanes {
            known: tokio::sync::Semaphore::new(CHECKS_AT_ONCE),
            suspect: tokio::sync::Semaphore::new(CHECKS_AT_ONCE),
            clean: tokio::sync::Semaphore::new(CHECKS_AT_ONCE),
            hashing: tokio::sync::Semaphore::new(CHECKS_AT_ONCE),
        }
    }
}

/// Why a sign-in attempt was not checked.
#[derive(Debug, PartialEq, Eq)]
pub enum NotChecked {
    /// This address has tried too often lately: wait this many seconds.
    LockedOut(u64),
    /// Too many checks are waiting already (a flood): try again shortly.
    Busy,
}

/// An attempt let through to the password check, counted against its address's network
/// ([`limit_key`]).
#[derive(Debug)]
pub struct Attempt {
    key: IpAddr,
    at: Instant,
    /// The network had no failures in the window before this attempt.
    pub clean: bool,
}

pub(crate) const PASSWORD_FILE: &str = "admin-password.phc";
pub(crate) const SECRET_FILE: &str = "jwt-secret";
/// Failed passwords one account may take, from anywhere, within [`FAILURE_WINDOW`], before
/// only browsers it has signed in from before may try it (see [`Auth::account_locked`]).
pub const MAX_ACCOUNT_FAILURES: usize = 50;

/// What a session token says: `sub` is the user's id.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Claims {
    pub sub: String,
    pub iat: i64,
    pub exp: i64,
    pub jti: String,
}

/// Who is calling an admin route, as every admin handler receives them.
#[derive(Debug, Clone)]
pub struct Admin {
    /// The session token's id (empty for a service token).
    pub jti: String,
    pub expires_at: i64,
    /// Where the request came from, for the audit log.
    pub ip: IpAddr,
    pub actor: Actor,
}

/// A person signed in, or automation with a service token.
#[derive(Debug, Clone, Copy)]
pub enum Actor {
    User { id: i64, role: Role, session: i64 },
    Service { id: i64, scope: Scope },
}

impl Admin {
    /// What the audit log records of this caller.
    pub fn by(&self) -> By {
        match self.actor {
            Actor::User { id, .. } => By::person(self.ip, id),
            Actor::Service { id, .. } => By {
                ip: self.ip,
                user: None,
                service: Some(id),
            },
        }
    }

    /// The signed-in person's id; `None` for a service token.
    pub fn user(&self) -> Option<i64> {
        match self.actor {
            Actor::User { id, .. } => Some(id),
            Actor::Service { .. } => None,
        }
    }

    pub fn role(&self) -> Option<Role> {
        match self.actor {
            Actor::User { role, .. } => Some(role),
            Actor::Service { .. } => None,
        }
    }

    pub fn session(&self) -> Option<i64> {
        match self.actor {
            Actor::User { session, .. } => Some(session),
            Actor::Service { .. } => None,
        }
    }

    pub fn can(&self, cap: Cap) -> bool {
        match self.actor {
            Actor::User { role, .. } => role.can(cap),
            Actor::Service { scope, .. } => scope.can(cap),
        }
    }
}

/// What sign-in is set up from (`Config::auth_settings`): the first Owner's address and
/// password (an argon2 PHC string, or plain text), the token secret, and where generated
/// ones are kept.
pub struct Settings<'a> {
    pub email: Option<&'a str>,
    pub password_hash: Option<&'a str>,
    pub password: Option<&'a str>,
    pub jwt_secret: Option<&'a str>,
    pub data_dir: &'a Path,
}

/// The address of the Owner made on a first start without `ADMIN_EMAIL`.
pub const DEFAULT_OWNER_EMAIL: &str = "admin@localhost";

pub struct Auth {
    /// The first Owner's address and password hash, used once: on a database with no users.
    pub owner_email: String,
    pub owner_password: String,
    /// A hash checked for unknown addresses, so they take as long as known ones.
    decoy: String,
    encoding: EncodingKey,
    decoding: DecodingKey,
    validation: Validation,
    /// Staff secrets' hashing and sealing keys.
    pub keys: Keys,
    failures: Mutex<HashMap<IpAddr, VecDeque<Instant>>>,
    account_failures: Mutex<HashMap<i64, VecDeque<Instant>>>,
    lanes: Lanes,
}

impl Auth {
    /// Sets up the first Owner's password and the signing keys from `settings`, generating
    /// what is missing into `DATA_DIR`.
    pub fn new(settings: &Settings<'_>) -> Result<Auth> {
        let owner_password = match (settings.password_hash, settings.password) {
            (Some(phc), _) => {
                PasswordHash::new(phc).map_err(|e| {
                    anyhow::anyhow!("ADMIN_PASSWORD_HASH is not an argon2 PHC string: {e}")
                })?;
                phc.to_owned()
            }
            (None, Some(plain)) => hash(plain)?,
            (None, None) => generated_password(settings.data_dir)?,
        };
        let secret = signing_secret(settings)?;
        let key = Sha256::new()
            .chain_update(&secret)
            .chain_update([0])
            .chain_update(b"staff-session")
            .finalize();
        let mut validation = Validation::new(Algorithm::HS256);
        validation.leeway = 0;
        validation.set_required_spec_claims(&["exp", "sub"]);
        Ok(Auth {
            owner_email: settings
                .email
                .map(crate::domain::staff::normalise_email)
                .unwrap_or_else(|| DEFAULT_OWNER_EMAIL.into()),
            owner_password,
            decoy: hash(&format!("{:032x}", rand::random::<u128>()))?,
            encoding: EncodingKey::from_secret(&key),
            decoding: DecodingKey::from_secret(&key),
            validation,
            keys: Keys::new(&secret),
            failures: Mutex::default(),
            account_failures: Mutex::default(),
            lanes: Lanes::default(),
        })
    }

    /// Whether `candidate` is the password `phc` is the hash of (the decoy's, for an
    /// unknown address). Slow on purpose (argon2), and as slow for a wrong password as for
    /// the right one: call it on the blocking pool.
    pub fn password_matches(&self, phc: Option<&str>, candidate: &str) -> bool {
        let known = phc.is_some();
        let Ok(hash) = PasswordHash::new(phc.unwrap_or(&self.decoy)) else {
            return false;
        };
        Argon2::default()
            .verify_password(candidate.as_bytes(), &hash)
            .is_ok()
            && known
    }

    /// A new session token for `user` and its claims, from `now` (seconds).
    pub fn issue(&self, user: i64, now: i64) -> Result<(String, Claims)> {
        let claims = Claims {
            sub: user.to_string(),
            iat: now,
            exp: now + SESSION.as_secs() as i64,
            jti: format!("{:032x}", rand::random::<u128>()),
        };
        let token = jsonwebtoken::encode(&Header::new(Algorithm::HS256), &claims, &self.encoding)?;
        Ok((token, claims))
    }

    /// The claims of a token this server signed and that has not expired.
    pub fn verify(&self, token: &str) -> Option<Claims> {
        jsonwebtoken::decode::<Claims>(token, &self.decoding, &self.validation)
            .ok()
            .map(|data| data.claims)
    }

    /// Checks `candidate` against `phc` for a sign-in from `ip`: counts the attempt first
    /// (refused when `ip` is locked out), then waits for a turn to run the slow check on the
    /// blocking pool, in the known browsers' lane when `known` (a device cookie the account
    /// signed in from, or a session of its own). `Ok(true)` is the right password (whose
    /// attempt no longer counts).
    pub async fn check_attempt(
        self: &std::sync::Arc<Self>,
        ip: IpAddr,
        (phc, known): (Option<String>, bool),
        candidate: String,
    ) -> Result<bool, NotChecked> {
        let attempt = self.begin_attempt(ip).map_err(NotChecked::LockedOut)?;
        let lane = if known {
            &self.lanes.known
        } else if attempt.clean {
            &self.lanes.clean
        } else {
            &self.lanes.suspect
        };
        let Ok(Ok(turn)) = tokio::time::timeout(CHECK_WAIT, lane.acquire()).await else {
            return Err(NotChecked::Busy);
        };
        let auth = self.clone();
        let matches =
            tokio::task::spawn_blocking(move || auth.password_matches(phc.as_deref(), &candidate))
                .await
                .unwrap_or(false);
        drop(turn);
        if matches {
            self.forget_attempt(&attempt);
        }
        Ok(matches)
    }

    /// Hashes a new password on the blocking pool, one at a time (argon2 takes 19 MiB and a
    /// core's worth of time); `Busy` when the turn does not come within [`CHECK_WAIT`].
    pub async fn hash_new(&self, password: String) -> Result<String, NotChecked> {
        let Ok(Ok(turn)) = tokio::time::timeout(CHECK_WAIT, self.lanes.hashing.acquire()).await
        else {
            return Err(NotChecked::Busy);
        };
        let hashed = tokio::task::spawn_blocking(move || hash(&password))
            .await
            .ok()
            .and_then(Result::ok);
        drop(turn);
        hashed.ok_or(NotChecked::Busy)
    }

    /// Whether account `user` has had [`MAX_ACCOUNT_FAILURES`] wrong passwords lately, from
    /// any number of networks: then only a browser it signed in from before may try it. A
    /// guesser spread over many addresses stops there, and the person keeps their way in.
    pub fn account_locked(&self, user: i64) -> bool {
        let mut failures = self
            .account_failures
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        let Some(times) = failures.get_mut(&user) else {
            return false;
        };
        while times.front().is_some_and(|t| t.elapsed() >= FAILURE_WINDOW) {
            times.pop_front();
        }
        times.len() >= MAX_ACCOUNT_FAILURES
    }

    /// Counts a wrong password for account `user`; `true` when this one locked it (so its
    /// owner is told once).
    pub fn account_failed(&self, user: i64) -> bool {
        let mut failures = self
            .account_failures
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        if failures.len() >= MOST_TRACKED && !failures.contains_key(&user) {
            failures.retain(|_, times| times.back().is_some_and(|t| t.elapsed() < FAILURE_WINDOW));
        }
        let times = failures.entry(user).or_default();
        while times.front().is_some_and(|t| t.elapsed() >= FAILURE_WINDOW) {
            times.pop_front();
        }
        times.push_back(Instant::now());
        let locked_now = times.len() == MAX_ACCOUNT_FAILURES;
        while times.len() > MAX_ACCOUNT_FAILURES {
            times.pop_front();
        }
        locked_now
    }
    /// Counts an attempt from `ip` (its /64, for IPv6: [`limit_key`]), or `Err(seconds to
    /// wait)` when that network has tried too often lately. Other networks are untouched.
    pub fn begin_attempt(&self, ip: IpAddr) -> Result<Attempt, u64> {
        let key = limit_key(ip);
        let mut failures = self.failures.lock().unwrap_or_else(|p| p.into_inner());
        if failures.len() >= MOST_TRACKED && !failures.contains_key(&key) {
            failures.retain(|_, times| times.back().is_some_and(|t| t.elapsed() < FAILURE_WINDOW));
        }
        let times = failures.entry(key).or_default();
        while times.front().is_some_and(|t| t.elapsed() >= FAILURE_WINDOW) {
            times.pop_front();
        }
        if let Some(oldest) = times.front().filter(|_| times.len() >= MAX_FAILURES) {
            return Err(FAILURE_WINDOW
                .saturating_sub(oldest.elapsed())
                .as_secs()
                .max(1));
        }
        let clean = times.is_empty();
        let at = Instant::now();
        times.push_back(at);
        Ok(Attempt { key, at, clean })
    }

    /// Takes back the count of an attempt that turned out right.
    fn forget_attempt(&self, attempt: &Attempt) {
        let mut failures = self.failures.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(times) = failures.get_mut(&attempt.key)
            && let Some(i) = times.iter().position(|t| *t == attempt.at)
        {
            times.remove(i);
        }
    }

    /// Forgets addresses whose failures have all aged out (called now and then).
    pub fn forget_old_failures(&self) {
        let mut failures = self.failures.lock().unwrap_or_else(|p| p.into_inner());
        failures.retain(|_, times| times.back().is_some_and(|t| t.elapsed() < FAILURE_WINDOW));
        drop(failures);
        let mut accounts = self
            .account_failures
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        accounts.retain(|_, times| times.back().is_some_and(|t| t.elapsed() < FAILURE_WINDOW));
    }
}

/// An argon2id PHC string for `password`, with a random salt.
/// The server's signing secret: `JWT_SECRET`, or the one generated once into `DATA_DIR`.
/// Each use derives its own key from it (sessions, donor passes), so a token made for one
/// can never pass as another.
pub fn signing_secret(settings: &Settings<'_>) -> Result<Vec<u8>> {
    match settings.jwt_secret {
        Some(secret) if secret.len() >= 32 => Ok(secret.as_bytes().to_vec()),
        Some(_) => anyhow::bail!("JWT_SECRET must be at least 32 characters long"),
        None => generated_secret(settings.data_dir),
    }
}

pub fn hash(password: &str) -> Result<String> {
    Argon2::default()
        .hash_password(password.as_bytes())
        .map(|h| h.to_string())
        .map_err(|e| anyhow::anyhow!("Failed to hash the admin password: {e}"))
}

/// The hash kept in `DATA_DIR`, or a new password made, printed once and hashed there.
fn generated_password(data_dir: &Path) -> Result<String> {
    let path = data_dir.join(PASSWORD_FILE);
    if let Ok(phc) = fs::read_to_string(&path) {
        let phc = phc.trim().to_owned();
        PasswordHash::new(&phc)
            .map_err(|e| anyhow::anyhow!("{} is not an argon2 PHC string: {e}", path.display()))?;
        return Ok(phc);
    }
    // 20 characters from an alphabet without look-alikes: about 114 bits.
    const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    let password: String = (0..20)
        .map(|_| ALPHABET[rand::random_range(0..ALPHABET.len())] as char)
        .collect();
    let phc = hash(&password)?;
    write_private(&path, phc.as_bytes())?;
    tracing::warn!(
        "No admin password was configured, so one was made: {password}\n\
         It is shown only this once; {} keeps only its hash. To choose your own, set \
         ADMIN_PASSWORD (or ADMIN_PASSWORD_HASH, an argon2 PHC string) and restart.",
        path.display()
    );
    Ok(phc)
}

/// The token secret kept in `DATA_DIR`, made on first use.
fn generated_secret(data_dir: &Path) -> Result<Vec<u8>> {
    let path = data_dir.join(SECRET_FILE);
    if let Ok(secret) = fs::read(&path)
        && secret.len() >= 32
    {
        return Ok(secret);
    }
    let secret = format!(
        "{:032x}{:032x}",
        rand::random::<u128>(),
        rand::random::<u128>()
    );
    write_private(&path, secret.as_bytes())?;
    Ok(secret.into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(dir: &Path) -> crate::config::Config {
        let mut c =
            crate::config::Config::for_tests(dir.into(), dir.join("dist"), dir.join("content"));
        c.admin_password = None;
        c.jwt_secret = None;
        c
    }

    #[test]
    fn a_generated_password_is_kept_as_a_private_hash_and_reused() {
        let dir = tempfile::tempdir().unwrap();
        let first = Auth::new(&config(dir.path()).auth_settings()).unwrap();
        let path = dir.path().join(PASSWORD_FILE);
        let phc = fs::read_to_string(&path).unwrap();
        assert!(phc.starts_with("$argon2id$"), "{phc}");
        assert_eq!(first.owner_password, phc);
        assert_eq!(first.owner_email, crate::config::Config::TEST_EMAIL);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(
                fs::metadata(&path).unwrap().permissions().mode() & 0o777,
                0o600
            );
            let secret = dir.path().join(SECRET_FILE);
            assert_eq!(
                fs::metadata(secret).unwrap().permissions().mode() & 0o777,
                0o600
            );
        }
        // A restart keeps both: a token from before still verifies.
        let (token, _) = first.issue(1, jiff::Timestamp::now().as_second()).unwrap();
        let second = Auth::new(&config(dir.path()).auth_settings()).unwrap();
        assert_eq!(second.verify(&token).unwrap().sub, "1");
        assert_eq!(fs::read_to_string(&path).unwrap(), phc);
    }

    #[test]
    fn passwords_are_checked_against_their_hash_and_unknown_addresses_never_match() {
        let dir = tempfile::tempdir().unwrap();
        let mut c = config(dir.path());
        c.admin_password_hash = Some(hash("third").unwrap());
        let auth = Auth::new(&c.auth_settings()).unwrap();
        let phc = auth.owner_password.clone();
        assert!(auth.password_matches(Some(&phc), "third"));
        assert!(!auth.password_matches(Some(&phc), "Third"));
        assert!(!auth.password_matches(None, "third"));
        assert!(!auth.password_matches(Some("not a hash"), "third"));
    }

    #[test]
    fn an_account_locks_only_after_many_failures() {
        let dir = tempfile::tempdir().unwrap();
        let auth = Auth::new(&config(dir.path()).auth_settings()).unwrap();
        for _ in 0..MAX_ACCOUNT_FAILURES - 1 {
            auth.account_failed(7);
        }
        assert!(!auth.account_locked(7));
        auth.account_failed(7);
        assert!(auth.account_locked(7));
        assert!(!auth.account_locked(8));
    }

    #[test]
    fn bad_settings_are_refused_at_start() {
        let dir = tempfile::tempdir().unwrap();
        let mut c = config(dir.path());
        c.admin_password_hash = Some("hunter2".into());
        assert!(Auth::new(&c.auth_settings()).is_err());
        let mut c = config(dir.path());
        c.jwt_secret = Some("short".into());
        assert!(Auth::new(&c.auth_settings()).is_err());
    }

    #[test]
    fn failures_lock_out_one_address_for_the_window() {
        let dir = tempfile::tempdir().unwrap();
        let auth = Auth::new(&config(dir.path()).auth_settings()).unwrap();
        let (a, b): (IpAddr, IpAddr) = ([10, 0, 0, 1].into(), [10, 0, 0, 2].into());
        for _ in 0..MAX_FAILURES {
            auth.begin_attempt(a).unwrap();
        }
        let wait = auth.begin_attempt(a).unwrap_err();
        assert!(wait > 800 && wait <= 900, "{wait}");
        assert!(
            auth.begin_attempt(b).is_ok(),
            "another address is unaffected"
        );
        // A right password takes its attempt back.
        let attempt = auth.begin_attempt(b).unwrap();
        auth.forget_attempt(&attempt);
        assert_eq!(auth.failures.lock().unwrap()[&b].len(), 1);
    }
}
