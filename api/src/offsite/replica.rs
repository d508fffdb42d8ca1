//! The continuous off-site copy: Litestream streams the database's WAL to the replica (the
//! real binary, run and watched by the server), and the server itself copies what Litestream
//! cannot see, the uploaded images and the keys in `DATA_DIR`, to the same bucket as they
//! appear.
//!
//! The bucket holds, under `REPLICA_URL`'s prefix: `db/` (Litestream's), `uploads/{name}`
//! and `keys/{name}`. `api restore` reads them back (`offsite::restore`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use anyhow::{Context as _, Result};
use futures_util::StreamExt as _;
use object_store::{ObjectStoreExt as _, PutPayload};
use sha2::{Digest as _, Sha256};
use tokio::io::{AsyncBufReadExt as _, BufReader};
use tokio::sync::Notify;

use super::remote::Remote;

/// The files in `DATA_DIR` that links and sign-in depend on: the mail links' key (every
/// unsubscribe, confirm and cancel link already sent), the session token secret (which
/// also seals the staff's authenticator secrets) and a generated admin password's hash.
pub const KEY_FILES: [&str; 3] = [
    crate::domain::mail::tokens::KEY_FILE,
    crate::domain::auth::SECRET_FILE,
    crate::domain::auth::PASSWORD_FILE,
];

/// How often the uploads and keys are looked at besides the nudge an upload gives: what a
/// failed copy left behind goes within this.
const RESCAN: Duration = Duration::from_secs(5);
/// How long Litestream is waited for after it stops unexpectedly, before it is run again
/// (doubling while it keeps stopping at once).
const RESTART_GAP: Duration = Duration::from_secs(2);

/// `REPLICA_*`: where and how often.
#[derive(Debug, Clone)]
pub struct ReplicaConfig {
    pub remote: Remote,
    /// `LITESTREAM`: the binary (default `litestream` on the `PATH`).
    pub litestream: String,
    /// `REPLICA_SYNC_INTERVAL` (default `1s`): how often Litestream ships the WAL, the
    /// most writes a lost machine can take with it.
    pub sync_interval: String,
    /// `REPLICA_RETENTION` (default `26280h`, three years: the FEC's record keeping): how
    /// long snapshots are kept.
    pub retention: String,
    /// `REPLICA_SNAPSHOT_INTERVAL` (default `24h`): how often a full snapshot is taken.
    pub snapshot_interval: String,
}

impl ReplicaConfig {
    pub fn from_env(var: impl Fn(&str) -> Option<String> + Copy) -> Result<Option<ReplicaConfig>> {
        let Some(remote) = Remote::from_env("REPLICA", var)? else {
            return Ok(None);
        };
        let duration = |name: &str, default: &str| -> Result<String> {
            let value = var(name).unwrap_or_else(|| default.into());
            let valid = value.len() > 1
                && value.ends_with(['s', 'm', 'h'])
                && value[..value.len() - 1].bytes().all(|b| b.is_ascii_digit());
            anyhow::ensure!(
                valid,
                "{name} must be a whole number of seconds, minutes or hours, like 1s, 10m or 24h"
            );
            Ok(value)
        };
        Ok(Some(ReplicaConfig {
            remote,
            litestream: var("LITESTREAM").unwrap_or_else(|| "litestream".into()),
            sync_interval: duration("REPLICA_SYNC_INTERVAL", "1s")?,
            retention: duration("REPLICA_RETENTION", "26280h")?,
            snapshot_interval: duration("REPLICA_SNAPSHOT_INTERVAL", "24h")?,
        }))
    }

    /// Litestream's configuration for the database at `db` (absolute). No secrets: the
    /// credentials reach Litestream through its environment ([`ReplicaConfig::litestream`]).
    pub fn litestream_yaml(&self, db: &Path) -> String {
        let r = &self.remote;
        let mut replica = format!(
            "      type: s3\n      bucket: {}\n      path: {}\n      region: {}\n      sync-interval: {}\n      \
             access-key-id: ${{LITESTREAM_ACCESS_KEY_ID}}\n      secret-access-key: ${{LITESTREAM_SECRET_ACCESS_KEY}}\n",
            yaml(&r.bucket),
            yaml(&join(&r.prefix, "db")),
            yaml(&r.region),
            self.sync_interval,
        );
        if let Some(endpoint) = &r.endpoint {
            replica.push_str(&format!(
                "      endpoint: {}\n      force-path-style: true\n",
                yaml(endpoint)
            ));
        }
        format!(
            "# Written by the api at each start from REPLICA_*; edits are lost.\n\
             snapshot:\n  interval: {}\n  retention: {}\n\
             dbs:\n  - path: {}\n    replica:\n{replica}",
            self.snapshot_interval,
            self.retention,
            yaml(&db.to_string_lossy()),
        )
    }

    /// `litestream ARGS…` with the configuration for `db` written to `config` and the
    /// credentials in its environment.
    pub fn litestream(
        &self,
        db: &Path,
        config: &Path,
        args: &[&str],
    ) -> Result<tokio::process::Command> {
        crate::store::db::write_private(config, self.litestream_yaml(db).as_bytes())?;
        let mut command = tokio::process::Command::new(&self.litestream);
        command
            .arg(args[0])
            .arg("-config")
            .arg(config)
            .args(&args[1..])
            .env("LITESTREAM_ACCESS_KEY_ID", &self.remote.access_key_id)
            .env(
                "LITESTREAM_SECRET_ACCESS_KEY",
                &self.remote.secret_access_key,
            )
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        // What Litestream writes beside the database (its generations, a restored
        // database) is private whatever the server's umask.
        // SAFETY: umask is async-signal-safe and changes only the child being made.
        unsafe {
            command.pre_exec(|| {
                libc::umask(0o077);
                Ok(())
            });
        }
        Ok(command)
    }
}

/// A YAML double-quoted scalar.
fn yaml(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

fn join(prefix: &str, rel: &str) -> String {
    if prefix.is_empty() {
        rel.to_owned()
    } else {
        format!("{prefix}/{rel}")
    }
}

/// The running replication: Litestream and the copier of uploads and keys.
pub struct Replication {
    config: ReplicaConfig,
    data_dir: PathBuf,
    bell: Notify,
    litestream_pid: AtomicU32,
    stopping: std::sync::atomic::AtomicBool,
}

impl Replication {
    pub fn new(config: ReplicaConfig, data_dir: PathBuf) -> Arc<Replication> {
        Arc::new(Replication {
            config,
            data_dir,
            bell: Notify::new(),
            litestream_pid: AtomicU32::new(0),
            stopping: Default::default(),
        })
    }

    /// Something new is in the uploads folder: copy it now rather than at the next rescan.
    pub fn nudge(&self) {
        self.bell.notify_one();
    }

    /// Runs Litestream (again whenever it stops) and the copier, for as long as the server
    /// runs.
    pub fn start(self: &Arc<Self>) -> Result<()> {
        let db = std::path::absolute(self.data_dir.join("site.db"))?;
        let config = self.data_dir.join("litestream.yml");
        tracing::info!(replica = %self.config.remote.url(), "replicating the database, uploads and keys");
        let me = self.clone();
        tokio::spawn(async move {
            let mut gap = RESTART_GAP;
            loop {
                let began = std::time::Instant::now();
                if let Err(e) = me.run_litestream(&db, &config).await {
                    tracing::error!(error = %format!("{e:#}"), "litestream could not run; the database is not being copied off-site; trying again in {gap:?}");
                }
                if me.stopping.load(Ordering::SeqCst) {
                    return;
                }
                tokio::time::sleep(gap).await;
                // A Litestream that keeps failing at once (a bad setting) is tried less and
                // less often, up to every 5 minutes; one that ran a while starts over.
                gap = if began.elapsed() > Duration::from_secs(60) {
                    RESTART_GAP
                } else {
                    (gap * 2).min(Duration::from_secs(300))
                };
            }
        });
        let me = self.clone();
        tokio::spawn(async move {
            let mut copied = None;
            loop {
                match me.copy_files(copied.take()).await {
                    Ok(now) => copied = Some(now),
                    Err(e) => {
                        tracing::warn!(error = %format!("{e:#}"), "uploads and keys not copied off-site yet; trying again")
                    }
                }
                let _ = tokio::time::timeout(RESCAN, me.bell.notified()).await;
            }
        });
        Ok(())
    }

    async fn run_litestream(&self, db: &Path, config: &Path) -> Result<()> {
        let mut command = self.config.litestream(db, config, &["replicate"])?;
        // Litestream goes when the server goes, even by SIGKILL: it is told to stop (and so
        // ships what it has) rather than left behind holding the database.
        // SAFETY: prctl is async-signal-safe and touches only the child being made.
        unsafe {
            command.pre_exec(|| {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM);
                Ok(())
            });
        }
        let mut child = command.spawn().with_context(|| {
            format!(
                "starting {} (install Litestream, or set LITESTREAM to its path)",
                self.config.litestream
            )
        })?;
        let pid = child.id().unwrap_or_default();
        self.litestream_pid.store(pid, Ordering::SeqCst);
        tracing::info!(pid, "litestream started");
        for stream in [
            child
                .stdout
                .take()
                .map(|s| Box::new(s) as Box<dyn tokio::io::AsyncRead + Unpin + Send>),
            child
                .stderr
                .take()
                .map(|s| Box::new(s) as Box<dyn tokio::io::AsyncRead + Unpin + Send>),
        ]
        .into_iter()
        .flatten()
        {
            tokio::spawn(async move {
                let mut lines = BufReader::new(stream).lines();
                while let Ok(Some(line)) = lines.next_line().await {
                    if line.contains("level=ERROR") || line.starts_with("Error") {
                        tracing::error!(target: "litestream", "{line}");
                    } else if line.contains("level=WARN") {
                        tracing::warn!(target: "litestream", "{line}");
                    } else {
                        tracing::debug!(target: "litestream", "{line}");
                    }
                }
            });
        }
        let status = child.wait().await?;
        self.litestream_pid.store(0, Ordering::SeqCst);
        if !self.stopping.load(Ordering::SeqCst) {
            anyhow::bail!("litestream stopped: {status}");
        }
        Ok(())
    }

    /// Tells Litestream to stop (it ships what it has first) and waits a little for it.
    pub async fn stop(&self) {
        self.stopping.store(true, Ordering::SeqCst);
        let pid = self.litestream_pid.load(Ordering::SeqCst);
        if pid == 0 {
            return;
        }
        // SAFETY: kill with a pid this process started and has not reaped.
        unsafe { libc::kill(pid as i32, libc::SIGTERM) };
        for _ in 0..100 {
            if self.litestream_pid.load(Ordering::SeqCst) == 0 {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        tracing::warn!(pid, "litestream did not stop within 5 s");
    }

    /// Copies every upload and key the bucket does not have yet (or has another version of);
    /// returns what the bucket now holds, for the next pass to start from. `known` is the
    /// last pass's; `None` lists the bucket.
    async fn copy_files(
        &self,
        known: Option<HashMap<String, String>>,
    ) -> Result<HashMap<String, String>> {
        let remote = &self.config.remote;
        let mut known = match known {
            Some(known) => known,
            None => {
                let mut found = HashMap::new();
                for folder in ["uploads", "keys"] {
                    let prefix = remote.key(folder);
                    let mut list = remote.store.list(Some(&prefix));
                    while let Some(meta) = list.next().await {
                        let meta = meta?;
                        if let Some(rel) = remote.rel(meta.location.as_ref()) {
                            found.insert(rel.to_owned(), format!("size:{}", meta.size));
                        }
                    }
                }
                found
            }
        };
        let local = local_files(&self.data_dir)?;
        let mut copied = 0;
        for (rel, path) in local {
            // Uploads are named by their content: the same name and size is the same file.
            // A key is small and may be replaced: compared by its hash.
            let bytes = tokio::fs::read(&path).await?;
            let stamp = if rel.starts_with("keys/") {
                format!("sha256:{:x}", Sha256::digest(&bytes))
            } else {
                format!("size:{}", bytes.len())
            };
            if known.get(&rel) == Some(&stamp) {
                continue;
            }
            remote
                .store
                .put(&remote.key(&rel), PutPayload::from(bytes))
                .await
                .with_context(|| format!("copying {rel}"))?;
            known.insert(rel, stamp);
            copied += 1;
        }
        if copied > 0 {
            tracing::info!(files = copied, "uploads and keys copied off-site");
        }
        Ok(known)
    }
}

/// `uploads/{name}` and `keys/{name}` for every file of those in `data_dir`, with their
/// paths (not the temporary files of an upload being written).
pub fn local_files(data_dir: &Path) -> Result<Vec<(String, PathBuf)>> {
    local_files_in(data_dir, data_dir)
}

/// [`local_files`] with the keys looked for in `keys_dir` (a backup keeps them in `keys/`).
pub fn local_files_in(data_dir: &Path, keys_dir: &Path) -> Result<Vec<(String, PathBuf)>> {
    let mut files = Vec::new();
    for name in KEY_FILES {
        let path = keys_dir.join(name);
        if path.is_file() {
            files.push((format!("keys/{name}"), path));
        }
    }
    match std::fs::read_dir(data_dir.join("uploads")) {
        Ok(entries) => {
            for entry in entries {
                let entry = entry?;
                let name = entry.file_name().to_string_lossy().into_owned();
                if !name.starts_with('.') && entry.file_type()?.is_file() {
                    files.push((format!("uploads/{name}"), entry.path()));
                }
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e).context("reading the uploads folder"),
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn litestreams_configuration_names_the_bucket_and_no_secret() {
        let config = ReplicaConfig::from_env(|name| {
            match name {
                "REPLICA_URL" => Some("s3://acp-backups/site"),
                "REPLICA_ENDPOINT" => Some("http://127.0.0.1:9000"),
                "AWS_ACCESS_KEY_ID" => Some("AKIDEXAMPLE"),
                "AWS_SECRET_ACCESS_KEY" => Some("a-very-secret-key"),
                _ => None,
            }
            .map(Into::into)
        })
        .unwrap()
        .unwrap();
        let yaml = config.litestream_yaml(Path::new("/srv/acp/data/site.db"));
        assert!(yaml.contains("bucket: \"acp-backups\""), "{yaml}");
        assert!(yaml.contains("path: \"site/db\""), "{yaml}");
        assert!(yaml.contains("sync-interval: 1s"), "{yaml}");
        assert!(yaml.contains("retention: 26280h"), "{yaml}");
        assert!(
            yaml.contains("endpoint: \"http://127.0.0.1:9000\""),
            "{yaml}"
        );
        assert!(
            !yaml.contains("a-very-secret-key") && !yaml.contains("AKIDEXAMPLE"),
            "{yaml}"
        );
    }

    #[test]
    fn durations_are_checked() {
        let with = |value: &'static str| {
            ReplicaConfig::from_env(move |name| {
                match name {
                    "REPLICA_URL" => Some("s3://acp-backups"),
                    "AWS_ACCESS_KEY_ID" | "AWS_SECRET_ACCESS_KEY" => Some("x"),
                    "REPLICA_SYNC_INTERVAL" => Some(value),
                    _ => None,
                }
                .map(Into::into)
            })
        };
        assert!(with("10s").is_ok());
        for bad in ["1", "s", "1.5s", "1d", "-1s"] {
            assert!(with(bad).is_err(), "{bad}");
        }
    }
}
