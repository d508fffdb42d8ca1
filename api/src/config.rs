//! Runtime settings, from the environment (and a `.env` file, read by main).

use std::net::IpAddr;
use std::path::PathBuf;

use anyhow::{Context as _, Result};

#[derive(Debug, Clone)]
pub struct Config {
    /// `BIND`, default 127.0.0.1.
    pub bind: IpAddr,
    /// `PORT`, default 8080.
    pub port: u16,
    /// `DATA_DIR`, default ./data: site.db, uploads/, and the generated admin password hash
    /// and token secret when none are configured.
    pub data_dir: PathBuf,
    /// `CONTENT_DIR`, default ./content: the party's settings (site.yaml) are read from here.
    pub content_dir: PathBuf,
    /// `DIST_DIR`, default ./dist: the generated site.
    pub dist_dir: PathBuf,
    /// `STATIC_CACHE_MB` (default 32), in bytes: the most memory the static files' bodies
    /// may take; 0 reads every file from disk.
    pub static_cache_bytes: u64,
    /// `FORM_RATE_LIMIT`: public form posts allowed per minute from one address (default 5).
    pub form_rate_limit: u32,
    /// `TRUST_PROXY=1`: take the client address from the last `X-Forwarded-For` entry,
    /// which is what a reverse proxy in front of us adds, when the connection comes from one
    /// of `TRUSTED_PROXIES` (CIDRs; default loopback). Leave off when clients connect directly.
    pub trust_proxy: crate::http::proxy::ProxyTrust,
    /// `ADMIN_EMAIL`: the first Owner's address, made on a database with no staff accounts
    /// (default `admin@localhost`).
    pub admin_email: Option<String>,
    /// `ADMIN_PASSWORD_HASH`: the admin password as an argon2 PHC string (preferred).
    pub admin_password_hash: Option<String>,
    /// `ADMIN_PASSWORD`: the admin password in plain text, hashed once at start.
    pub admin_password: Option<String>,
    /// `JWT_SECRET`: signs admin session tokens; generated once into DATA_DIR when unset.
    pub jwt_secret: Option<String>,
    /// Where the blog pages are re-rendered from when posts change: the project's
    /// `content/`, `site/templates/` and `build/client/` (the api runs in the project
    /// folder), writing into DIST_DIR. `None` turns rebuilds off (tests that need no site).
    pub site: Option<generator::BuildOptions>,
    /// `REBUILD_HOOK`: a shell command run after each blog rebuild, with the changed paths
    /// (relative to DIST_DIR, one a line) on its stdin.
    pub rebuild_hook: Option<String>,
    /// `STRIPE_SECRET_KEY` and `STRIPE_PUBLISHABLE_KEY` (both, or donations are off),
    /// `STRIPE_WEBHOOK_SECRET`, and `STRIPE_API_BASE` (tests only).
    pub stripe: Option<crate::domain::donations::stripe::StripeConfig>,
    /// `DONATION_RATE_LIMIT`: payment setups allowed per 10 minutes from one address, and for
    /// one e-mail (default 5). Card testers try many cards quickly; donors do not.
    pub donation_rate_limit: u32,
    /// `SUMMARY_RATE_LIMIT`: donation-status lookups allowed per 10 minutes from one address
    /// (default 30); each reveals what an e-mail gave this year.
    pub summary_rate_limit: u32,
    /// `SMTP_URL`, `MAIL_FROM`, `STAFF_EMAIL`, `COMMITTEE_NAME`: see `docs/mail.md`.
    pub mail: crate::domain::mail::MailConfig,
    /// `FEC_COMMITTEE_ID`: the committee's FEC id (`C` and eight digits), which every record
    /// of a `.fec` export carries; without it the schedules export as CSV only.
    pub fec_committee_id: Option<String>,
    /// `ENABLE_TEST_CLOCK=1`, honoured by debug builds only: `POST /api/admin/test-clock` moves
    /// the server's clock, for end-to-end tests of what happens over weeks (monthly gifts,
    /// scheduled posts). A release build (what `just serve` and production run) has no such
    /// route, whatever the environment says.
    pub test_clock: bool,
    /// `REPLICA_URL` and the rest of `REPLICA_*`: the database (by Litestream), uploads and
    /// keys copied off-site continuously; see `docs/operations.md`.
    pub replica: Option<crate::offsite::replica::ReplicaConfig>,
    /// `DEPLOY_URL` and the rest of `DEPLOY_*`: the bucket the public site is copied to.
    pub deploy: Option<crate::offsite::remote::Remote>,
    /// `TEST_CLOCK_OFFSET_SECS`, with the test clock on: the clock starts this far ahead, so
    /// a test can restart a server "a month later" and see what it does on start.
    pub test_clock_offset_secs: u64,
}

impl Config {
    /// What staff sign-in is set up from.
    pub fn auth_settings(&self) -> crate::domain::auth::Settings<'_> {
        crate::domain::auth::Settings {
            email: self.admin_email.as_deref(),
            password_hash: self.admin_password_hash.as_deref(),
            password: self.admin_password.as_deref(),
            jwt_secret: self.jwt_secret.as_deref(),
            data_dir: &self.data_dir,
        }
    }

    /// `SITE_URL`, when set: the origin that names the site everywhere.
    pub fn site_url(&self) -> Option<&str> {
        self.site.as_ref().and_then(|s| s.site_url.as_deref())
    }

    pub fn from_env() -> Result<Config> {
        let data_dir: PathBuf = var("DATA_DIR").unwrap_or_else(|| "data".into()).into();
        let content_dir: PathBuf = var("CONTENT_DIR")
            .unwrap_or_else(|| "content".into())
            .into();
        let dist_dir: PathBuf = var("DIST_DIR").unwrap_or_else(|| "dist".into()).into();
        let mut site = generator::BuildOptions::for_project(std::path::Path::new("."));
        site.content_dir = content_dir.clone();
        site.out_dir = dist_dir.clone();
        site.data_dir = data_dir.clone();
        site.site_url = var("SITE_URL");
        // Rebuilds replace pages visitors are reading: each must survive a crash whole.
        site.durable_writes = true;
        let bind: IpAddr = var("BIND")
            .unwrap_or_else(|| "127.0.0.1".into())
            .parse()
            .context("BIND must be an IP address")?;
        Ok(Config {
            bind,
            port: var("PORT")
                .unwrap_or_else(|| "8080".into())
                .parse()
                .context("PORT must be a port number")?,
            data_dir,
            content_dir,
            dist_dir,
            static_cache_bytes: var("STATIC_CACHE_MB")
                .unwrap_or_else(|| "32".into())
                .parse::<u64>()
                .ok()
                .and_then(|mb| mb.checked_mul(1024 * 1024))
                .context("STATIC_CACHE_MB must be a whole number of megabytes")?,
            form_rate_limit: var("FORM_RATE_LIMIT")
                .unwrap_or_else(|| "5".into())
                .parse()
                .ok()
                .filter(|n| *n > 0)
                .context("FORM_RATE_LIMIT must be a whole number above 0")?,
            trust_proxy: proxy_trust(bind)?,
            admin_email: var("ADMIN_EMAIL"),
            admin_password_hash: var("ADMIN_PASSWORD_HASH"),
            admin_password: var("ADMIN_PASSWORD")
                .map(|p| strong_enough(&p).map(|()| p))
                .transpose()?,
            jwt_secret: var("JWT_SECRET"),
            site: Some(site),
            rebuild_hook: var("REBUILD_HOOK"),
            stripe: stripe_from_env()?,
            donation_rate_limit: positive("DONATION_RATE_LIMIT", 5)?,
            summary_rate_limit: positive("SUMMARY_RATE_LIMIT", 30)?,
            mail: crate::domain::mail::MailConfig {
                smtp_url: var("SMTP_URL"),
                from: var("MAIL_FROM"),
                staff_email: var("STAFF_EMAIL"),
                committee_name: var("COMMITTEE_NAME"),
                rate: var("MAIL_RATE"),
                complaint_secret: var("MAIL_COMPLAINT_SECRET"),
                smtp_ca_file: var("SMTP_CA_FILE").map(Into::into),
                confirmations_per_hour: var("CONFIRMATIONS_PER_HOUR"),
            },
            fec_committee_id: var("FEC_COMMITTEE_ID")
                .map(|id| {
                    let id = id.trim().to_ascii_uppercase();
                    let valid = id.len() == 9
                        && id.starts_with('C')
                        && id[1..].bytes().all(|b| b.is_ascii_digit());
                    anyhow::ensure!(
                        valid,
                        "FEC_COMMITTEE_ID must be the committee's FEC id: C and eight digits, like C00123456"
                    );
                    Ok(id)
                })
                .transpose()?,
            replica: crate::offsite::replica::ReplicaConfig::from_env(var)?,
            deploy: crate::offsite::remote::Remote::from_env("DEPLOY", var)?,
            test_clock: test_clock(),
            test_clock_offset_secs: if test_clock() {
                positive_or_zero("TEST_CLOCK_OFFSET_SECS")?
            } else {
                0
            },
        })
    }

    /// Settings for tests: nothing from the environment; the admin password is
    /// [`Config::TEST_PASSWORD`].
    pub fn for_tests(data_dir: PathBuf, dist_dir: PathBuf, content_dir: PathBuf) -> Config {
        Config {
            bind: [127, 0, 0, 1].into(),
            port: 0,
            data_dir,
            content_dir,
            dist_dir,
            static_cache_bytes: 32 * 1024 * 1024,
            form_rate_limit: 5,
            trust_proxy: crate::http::proxy::ProxyTrust::off(),
            admin_email: Some(Config::TEST_EMAIL.into()),
            admin_password_hash: None,
            admin_password: Some(Config::TEST_PASSWORD.into()),
            jwt_secret: Some("a test secret that is at least thirty-two bytes long".into()),
            site: None,
            rebuild_hook: None,
            stripe: None,
            donation_rate_limit: 5,
            summary_rate_limit: 30,
            mail: crate::domain::mail::MailConfig::default(),
            fec_committee_id: None,
            replica: None,
            deploy: None,
            test_clock: false,
            test_clock_offset_secs: 0,
        }
    }

    /// The first Owner's address in [`Config::for_tests`].
    pub const TEST_EMAIL: &'static str = "owner@party.example";
    /// The admin password of [`Config::for_tests`].
    pub const TEST_PASSWORD: &str = "correct horse battery staple";
}

/// A whole number from the environment, 0 when unset.
fn positive_or_zero(name: &str) -> Result<u64> {
    var(name)
        .map(|v| v.parse::<u64>())
        .transpose()
        .with_context(|| format!("{name} must be a whole number"))
        .map(Option::unwrap_or_default)
}

/// `ENABLE_TEST_CLOCK`: on only in a debug build (see [`Config::test_clock`]).
fn test_clock() -> bool {
    let asked = var("ENABLE_TEST_CLOCK").is_some_and(|v| v == "1");
    if asked && !cfg!(debug_assertions) {
        tracing::warn!("ENABLE_TEST_CLOCK is ignored: this is a release build");
    }
    asked && cfg!(debug_assertions)
}

/// `TRUST_PROXY` and `TRUSTED_PROXIES`.
fn proxy_trust(bind: IpAddr) -> Result<crate::http::proxy::ProxyTrust> {
    use crate::http::proxy::ProxyTrust;
    if !matches!(var("TRUST_PROXY").as_deref(), Some("1" | "true" | "yes")) {
        return Ok(ProxyTrust::off());
    }
    let trust = match var("TRUSTED_PROXIES") {
        Some(list) => {
            ProxyTrust::parse(&list).map_err(|e| anyhow::anyhow!("TRUSTED_PROXIES: {e}"))?
        }
        None => {
            if !bind.is_loopback() {
                tracing::warn!(
                    %bind,
                    "TRUST_PROXY is on and the server listens beyond this machine, but \
                     TRUSTED_PROXIES is not set: X-Forwarded-For is believed only from \
                     loopback. Name your proxy's addresses in TRUSTED_PROXIES."
                );
            }
            ProxyTrust::loopback()
        }
    };
    Ok(trust)
}

/// Stripe's keys: both or neither (a half-configured processor would take a donor through
/// the form and fail at the last step). Without them the donate page says payments are not
/// available.
fn stripe_from_env() -> Result<Option<crate::domain::donations::stripe::StripeConfig>> {
    match (var("STRIPE_SECRET_KEY"), var("STRIPE_PUBLISHABLE_KEY")) {
        (Some(secret_key), Some(publishable_key)) => {
            let webhook_secret = var("STRIPE_WEBHOOK_SECRET");
            if webhook_secret.is_none() {
                tracing::warn!(
                    "STRIPE_WEBHOOK_SECRET is not set: donations will stay pending, because Stripe's \
                     reports of completed payments cannot be verified"
                );
            }
            Ok(Some(crate::domain::donations::stripe::StripeConfig {
                secret_key,
                publishable_key,
                webhook_secret,
                api_base: var("STRIPE_API_BASE"),
            }))
        }
        (None, None) => Ok(None),
        _ => anyhow::bail!(
            "Set both STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY, or neither (donations off)"
        ),
    }
}

/// A whole number above 0 from `name`, or `default`.
fn positive(name: &str, default: u32) -> Result<u32> {
    match var(name) {
        None => Ok(default),
        Some(v) => v
            .parse()
            .ok()
            .filter(|n| *n > 0)
            .with_context(|| format!("{name} must be a whole number above 0")),
    }
}

fn var(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.trim().is_empty())
}

/// The fewest characters an `ADMIN_PASSWORD` may have.
pub const MIN_PASSWORD_CHARS: usize = 12;

/// Refuses an admin password that is short, common or a pattern crackers try early
/// (zxcvbn's estimate below 10⁸ guesses): the one password guards every supporter's details.
pub fn strong_enough(password: &str) -> anyhow::Result<()> {
    let advice = "Choose at least 12 characters that are not a common password (a few \
                  unrelated words work well), or set ADMIN_PASSWORD_HASH instead.";
    if password.chars().count() < MIN_PASSWORD_CHARS {
        anyhow::bail!("ADMIN_PASSWORD is too short. {advice}");
    }
    let estimate = zxcvbn::zxcvbn(password, &["admin", "party", "conscience"]);
    if estimate.score() < zxcvbn::Score::Three {
        let why = estimate
            .feedback()
            .and_then(|f| f.warning())
            .map_or_else(|| "It is too easy to guess.".to_owned(), |w| w.to_string());
        anyhow::bail!("ADMIN_PASSWORD is too weak: {why} {advice}");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weak_admin_passwords_are_refused_with_the_reason() {
        for (weak, why) in [
            ("hunter2", "too short"),
            ("password1234", "very common"),
            ("aaaaaaaaaaaaaaaa", "Repeats"),
            ("qwertyuiopasdf", "commonly used"),
        ] {
            let message = strong_enough(weak).unwrap_err().to_string();
            assert!(message.contains(why), "{weak}: {message}");
            assert!(message.contains("at least 12 characters"), "{message}");
            assert!(
                !message.contains(weak),
                "the password is not repeated: {message}"
            );
        }
        for strong in [
            "correct horse battery staple",
            "Tr0ub4dor&3xx",
            "e2e admin password",
        ] {
            assert!(strong_enough(strong).is_ok(), "{strong}");
        }
    }
}
