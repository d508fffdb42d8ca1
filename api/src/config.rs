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
    /// `DATA_DIR`, default ./data: site.db lives here.
    pub data_dir: PathBuf,
    /// `DIST_DIR`, default ./dist: the generated site.
    pub dist_dir: PathBuf,
    /// `FORM_RATE_LIMIT`: public form posts allowed per minute from one address (default 5).
    pub form_rate_limit: u32,
    /// `TRUST_PROXY=1`: take the client address from the last `X-Forwarded-For` entry,
    /// which is what a reverse proxy in front of us adds. Leave off when clients connect directly.
    pub trust_proxy: bool,
}

impl Config {
    pub fn from_env() -> Result<Config> {
        Ok(Config {
            bind: var("BIND")
                .unwrap_or_else(|| "127.0.0.1".into())
                .parse()
                .context("BIND must be an IP address")?,
            port: var("PORT")
                .unwrap_or_else(|| "8080".into())
                .parse()
                .context("PORT must be a port number")?,
            data_dir: var("DATA_DIR").unwrap_or_else(|| "data".into()).into(),
            dist_dir: var("DIST_DIR").unwrap_or_else(|| "dist".into()).into(),
            form_rate_limit: var("FORM_RATE_LIMIT")
                .unwrap_or_else(|| "5".into())
                .parse()
                .ok()
                .filter(|n| *n > 0)
                .context("FORM_RATE_LIMIT must be a whole number above 0")?,
            trust_proxy: matches!(var("TRUST_PROXY").as_deref(), Some("1" | "true" | "yes")),
        })
    }

    /// Settings for tests: nothing from the environment.
    pub fn for_tests(dist_dir: PathBuf) -> Config {
        Config {
            bind: [127, 0, 0, 1].into(),
            port: 0,
            data_dir: PathBuf::from("unused"),
            dist_dir,
            form_rate_limit: 5,
            trust_proxy: false,
        }
    }
}

fn var(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.trim().is_empty())
}
