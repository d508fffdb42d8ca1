//! The public site in a bucket (`DEPLOY_URL`), for a CDN to serve: `api deploy` (and every
//! start) makes the bucket equal `dist/`, and each change the server makes live afterwards
//! (a publish, an edit, an event) is queued here in the order it went live and copied by
//! [`Deployer::pass`]: exactly the files it touched, a post's page before the lists that
//! link to it, a removed file deleted. The queue is a table: a copy that fails stays, is
//! retried on the one clock's schedule, and is shown to staff (`GET /api/admin/deploy`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context as _, Result};
use futures_util::{StreamExt as _, TryStreamExt as _};
use jiff::SignedDuration;
use md5::{Digest as _, Md5};
use object_store::{Attribute, Attributes, ObjectStore as _, ObjectStoreExt as _, PutOptions};
use serde::Serialize;
use tokio::sync::Notify;

use super::remote::Remote;
use crate::domain::clock::{Clock, sql_time};
use crate::store::db::Db;

/// How many copies a full deploy has in flight at once.
const PARALLEL: usize = 8;
/// Hashed names (`assets/`, `media/`) never change: a CDN may keep them a year.
const IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// Pages change when staff publish: a CDN keeps them a minute.
const PAGE: &str = "public, max-age=60";
/// How often the queue is looked at besides the bell a change rings.
pub const POLL: std::time::Duration = std::time::Duration::from_secs(10);

pub struct Deployer {
    remote: Option<Remote>,
    dist: PathBuf,
    db: Db,
    clock: Arc<Clock>,
    bell: Arc<Notify>,
    /// One pass at a time: the queue's order is the bucket's.
    passing: tokio::sync::Mutex<()>,
    /// Whether the full copy after start has succeeded: until then the queue waits (what
    /// the copy covers is not in the queue) and the copy's failure is what staff see.
    in_step: std::sync::atomic::AtomicBool,
    syncing: tokio::sync::Mutex<()>,
    sync_failure: std::sync::Mutex<Option<Failing>>,
    /// What the bucket holds, as far as this process knows: each path's MD5 as the full copy
    /// found or left it and as the queue last copied it. A file queued again with the same
    /// bytes (another post's image, named again by the feed or a list page that changed)
    /// is not copied again.
    held: std::sync::Mutex<HashMap<String, String>>,
}

/// What a full deploy did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Synced {
    pub uploaded: usize,
    pub deleted: usize,
    pub unchanged: usize,
}

/// The queue, as staff see it.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Status {
    /// `s3://bucket/prefix`, or `None` when no deploy target is set.
    pub target: Option<String>,
    /// Files waiting to be copied.
    pub waiting: i64,
    /// When the oldest of them was queued.
    pub oldest_queued_at: Option<String>,
    /// The copy at the head of the queue, when it has failed.
    pub failing: Option<Failing>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Failing {
    pub path: String,
    pub attempts: i64,
    pub last_error: String,
    pub next_attempt_at: String,
}

impl Deployer {
    pub fn new(remote: Option<Remote>, dist: PathBuf, db: Db, clock: Arc<Clock>) -> Arc<Deployer> {
        Arc::new(Deployer {
            remote,
            dist,
            db,
            clock,
            bell: Arc::default(),
            passing: tokio::sync::Mutex::new(()),
            in_step: Default::default(),
            syncing: tokio::sync::Mutex::new(()),
            sync_failure: Default::default(),
            held: Default::default(),
        })
    }

    pub fn remote(&self) -> Option<&Remote> {
        self.remote.as_ref()
    }

    pub fn bell(&self) -> Arc<Notify> {
        self.bell.clone()
    }

    /// Queues `paths` (relative to `dist/`, in the order they went live) for the bucket.
    /// Nothing without a deploy target. A failure to queue is logged: the next start's
    /// full deploy brings the bucket in step whatever was missed.
    pub async fn enqueue(&self, paths: &[String]) {
        if self.remote.is_none() || paths.is_empty() {
            return;
        }
        let paths = paths.to_vec();
        let now = self.clock.now_sql();
        let queued = self
            .db
            .write(move |tx| {
                let mut insert = tx.prepare_cached(
                    "INSERT INTO deploy_queue (path, queued_at, next_attempt_at) VALUES (?1, ?2, ?2)",
                )?;
                for path in &paths {
                    insert.execute(rusqlite::params![path, now])?;
                }
                Ok(())
            })
            .await;
        match queued {
            Ok(()) => self.bell.notify_one(),
            Err(e) => {
                tracing::error!(error = %e, "changed files not queued for the deploy bucket; the next start copies them")
            }
        }
    }

    /// One try at the full copy after start ([`Deployer::sync_all`]) unless one already
    /// succeeded; a failure is kept for [`Deployer::status`]. Returns whether the bucket is in
    /// step.
    pub async fn bring_in_step(&self) -> bool {
        let _one = self.syncing.lock().await;
        if self.in_step.load(std::sync::atomic::Ordering::SeqCst) {
            return true;
        }
        match self.sync_all().await {
            Ok(synced) => {
                tracing::info!(?synced, "the deploy bucket is in step with dist/");
                *self.sync_failure.lock().unwrap_or_else(|p| p.into_inner()) = None;
                self.in_step
                    .store(true, std::sync::atomic::Ordering::SeqCst);
                true
            }
            Err(e) => {
                let mut failure = self.sync_failure.lock().unwrap_or_else(|p| p.into_inner());
                let attempts = failure.as_ref().map_or(0, |f| f.attempts) + 1;
                let now = self.clock.now();
                let next = now.checked_add(backoff(attempts)).unwrap_or(now);
                let error = format!("{e:#}");
                tracing::error!(error = %error, attempts, "the deploy bucket could not be brought in step with dist/; trying again at {next}");
                *failure = Some(Failing {
                    path: "dist/".into(),
                    attempts,
                    last_error: error,
                    next_attempt_at: sql_time(next),
                });
                false
            }
        }
    }

    /// How long to wait before the next try at the full copy after start.
    pub fn sync_backoff(&self) -> std::time::Duration {
        let attempts = self
            .sync_failure
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .as_ref()
            .map_or(1, |f| f.attempts);
        backoff(attempts).unsigned_abs()
    }

    /// Copies the queue's files in order until it is empty or a copy fails (that one is
    /// tried again later: after 10 s, then twice as long each time, at most 15 minutes;
    /// nothing after it goes first); a file the bucket already holds with these bytes is
    /// passed over. Returns how many were copied.
    pub async fn pass(&self) -> Result<usize> {
        let Some(remote) = &self.remote else {
            return Ok(0);
        };
        if !self.in_step.load(std::sync::atomic::Ordering::SeqCst) {
            return Ok(0);
        }
        let _one = self.passing.lock().await;
        let mut done = 0;
        loop {
            let now = self.clock.now();
            let head = self
                .db
                .read(|c| {
                    c.prepare_cached(
                        "SELECT id, path, attempts, next_attempt_at FROM deploy_queue ORDER BY id LIMIT 1",
                    )?
                    .query_row([], |r| {
                        Ok((
                            r.get::<_, i64>(0)?,
                            r.get::<_, String>(1)?,
                            r.get::<_, i64>(2)?,
                            r.get::<_, String>(3)?,
                        ))
                    })
                    .map(Some)
                    .or_else(|e| match e {
                        rusqlite::Error::QueryReturnedNoRows => Ok(None),
                        e => Err(e),
                    })
                })
                .await?;
            let Some((id, path, attempts, next)) = head else {
                return Ok(done);
            };
            if next > sql_time(now) {
                return Ok(done);
            }
            match self.copy_changed(remote, &path).await {
                Ok(copied) => {
                    self.db
                        .write(move |tx| {
                            tx.execute("DELETE FROM deploy_queue WHERE id = ?1", [id])?;
                            Ok(())
                        })
                        .await?;
                    done += usize::from(copied);
                }
                Err(e) => {
                    let attempts = attempts + 1;
                    let next = sql_time(now.checked_add(backoff(attempts)).unwrap_or(now));
                    let error = format!("{e:#}");
                    tracing::warn!(%path, attempts, error = %error, "copying to the deploy bucket failed; trying again at {next}");
                    self.db
                        .write(move |tx| {
                            tx.execute(
                                "UPDATE deploy_queue SET attempts = ?2, last_error = ?3, next_attempt_at = ?4 WHERE id = ?1",
                                rusqlite::params![id, attempts, error, next],
                            )?;
                            Ok(())
                        })
                        .await?;
                    return Ok(done);
                }
            }
        }
    }

    /// Everything waiting is due now (staff's "Try again"); the full copy after start, when
    /// it has not succeeded yet, is tried at once.
    pub async fn retry_now(&self) -> Result<()> {
        if !self.bring_in_step().await {
            return Ok(());
        }
        let now = self.clock.now_sql();
        self.db
            .write(move |tx| {
                tx.execute("UPDATE deploy_queue SET next_attempt_at = ?1", [now])?;
                Ok(())
            })
            .await?;
        self.bell.notify_one();
        Ok(())
    }

    pub async fn status(&self) -> Result<Status> {
        let target = self.remote.as_ref().map(Remote::url);
        let (waiting, oldest, failing) = self
            .db
            .read(|c| {
                let (waiting, oldest) = c.query_row(
                    "SELECT COUNT(*), MIN(queued_at) FROM deploy_queue",
                    [],
                    |r| Ok((r.get::<_, i64>(0)?, r.get::<_, Option<String>>(1)?)),
                )?;
                let failing = c
                    .query_row(
                        "SELECT path, attempts, last_error, next_attempt_at FROM deploy_queue \
                         ORDER BY id LIMIT 1",
                        [],
                        |r| {
                            Ok(Failing {
                                path: r.get(0)?,
                                attempts: r.get(1)?,
                                last_error: r.get::<_, Option<String>>(2)?.unwrap_or_default(),
                                next_attempt_at: r.get(3)?,
                            })
                        },
                    )
                    .ok()
                    .filter(|f| f.attempts > 0);
                Ok((waiting, oldest, failing))
            })
            .await?;
        let failing = failing.or_else(|| {
            self.sync_failure
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .clone()
        });
        Ok(Status {
            target,
            waiting,
            oldest_queued_at: oldest,
            failing,
        })
    }

    /// Makes the bucket equal `dist/`: copies every file the bucket lacks or holds another
    /// version of (the hashed assets and images first, then the pages that use them), then
    /// deletes what `dist/` no longer has.
    pub async fn sync_all(&self) -> Result<Synced> {
        let Some(remote) = &self.remote else {
            return Ok(Synced::default());
        };
        // Whatever was queued before dist/ is read is copied by this pass, as it is now.
        let covered: i64 = self
            .db
            .read(|c| {
                c.query_row("SELECT COALESCE(MAX(id), 0) FROM deploy_queue", [], |r| {
                    r.get(0)
                })
            })
            .await?;
        let dist = self.dist.clone();
        let local = tokio::task::spawn_blocking(move || local_files(&dist)).await??;
        let mut remote_tags: HashMap<String, String> = HashMap::new();
        let prefix = (!remote.prefix.is_empty()).then(|| remote.key(""));
        let mut list = remote.store.list(prefix.as_ref());
        while let Some(meta) = list.next().await {
            let meta = meta?;
            if let Some(rel) = remote.rel(meta.location.as_ref()) {
                let tag = meta.e_tag.unwrap_or_default().trim_matches('"').to_owned();
                remote_tags.insert(rel.to_owned(), tag);
            }
        }
        let mut synced = Synced::default();
        let mut held = HashMap::with_capacity(local.len());
        let (first, then): (Vec<_>, Vec<_>) = local
            .into_iter()
            .filter(|(rel, md5)| {
                let same = remote_tags.remove(rel).as_deref() == Some(md5.as_str());
                if same {
                    synced.unchanged += 1;
                    held.insert(rel.clone(), md5.clone());
                }
                !same
            })
            .map(|(rel, _)| rel)
            .partition(|rel| rel.starts_with("assets/") || rel.starts_with("media/"));
        // What the bucket holds from here: the unchanged files now, each copied one as it
        // lands (a failure part way leaves the others known).
        *self.held.lock().unwrap_or_else(|p| p.into_inner()) = held;
        for group in [first, then] {
            synced.uploaded += group.len();
            futures_util::stream::iter(group)
                .map(|rel| async move { self.copy_changed(remote, &rel).await })
                .buffer_unordered(PARALLEL)
                .try_collect::<Vec<bool>>()
                .await?;
        }
        let gone: Vec<String> = remote_tags.into_keys().collect();
        synced.deleted = gone.len();
        futures_util::stream::iter(gone)
            .map(|rel| async move {
                remote
                    .store
                    .delete(&remote.key(&rel))
                    .await
                    .with_context(|| format!("deleting {rel}"))
            })
            .buffer_unordered(PARALLEL)
            .try_collect::<Vec<()>>()
            .await?;
        self.db
            .write(move |tx| {
                tx.execute("DELETE FROM deploy_queue WHERE id <= ?1", [covered])?;
                Ok(())
            })
            .await?;
        Ok(synced)
    }
}

impl Deployer {
    /// Copies `dist/{rel}` to the bucket (or deletes it there, see [`copy`]) unless the
    /// bucket is known to hold these bytes already. Returns whether it copied.
    async fn copy_changed(&self, remote: &Remote, rel: &str) -> Result<bool> {
        anyhow::ensure!(
            !rel.split('/')
                .any(|p| p.is_empty() || p == "." || p == ".."),
            "{rel:?} is not a path inside dist/"
        );
        let bytes = match tokio::fs::read(self.dist.join(rel)).await {
            Ok(bytes) => Some(bytes),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(e).with_context(|| format!("reading {rel}")),
        };
        let md5 = bytes.as_ref().map(|b| format!("{:x}", Md5::digest(b)));
        let known = self
            .held
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(rel)
            .cloned();
        if md5.is_some() && known == md5 {
            return Ok(false);
        }
        copy(remote, rel, bytes).await?;
        let mut held = self.held.lock().unwrap_or_else(|p| p.into_inner());
        match md5 {
            Some(md5) => held.insert(rel.to_owned(), md5),
            None => held.remove(rel),
        };
        Ok(true)
    }
}

/// After the `attempts`th failure: 10 s, doubling each time, at most 15 minutes.
fn backoff(attempts: i64) -> SignedDuration {
    SignedDuration::from_secs((10_i64 << (attempts - 1).clamp(0, 10)).min(15 * 60))
}

/// Puts `bytes` (what `dist/{rel}` holds) in the bucket with its type and cache policy,
/// or, when `dist/` no longer has the file, deletes it (and any compressed copies) there.
async fn copy(remote: &Remote, rel: &str, bytes: Option<Vec<u8>>) -> Result<()> {
    match bytes {
        Some(bytes) => {
            let (content_type, coding, immutable) = crate::http::static_files::describe(rel);
            let mut attributes = Attributes::new();
            attributes.insert(Attribute::ContentType, content_type.into());
            attributes.insert(
                Attribute::CacheControl,
                if immutable { IMMUTABLE } else { PAGE }.into(),
            );
            if let Some(coding) = coding {
                attributes.insert(Attribute::ContentEncoding, coding.into());
            }
            let options = PutOptions {
                attributes,
                ..Default::default()
            };
            remote
                .store
                .put_opts(&remote.key(rel), bytes.into(), options)
                .await
                .with_context(|| format!("copying {rel}"))?;
        }
        None => {
            for gone in [rel.to_owned(), format!("{rel}.br"), format!("{rel}.gz")] {
                remote
                    .store
                    .delete(&remote.key(&gone))
                    .await
                    .with_context(|| format!("deleting {gone}"))?;
            }
        }
    }
    Ok(())
}

/// Every file under `dist` (not hidden ones: a rebuild's temporary files), relative, with
/// the MD5 of its bytes in hex.
pub fn local_files(dist: &Path) -> Result<Vec<(String, String)>> {
    let mut found = Vec::new();
    let mut folders = vec![dist.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in
            std::fs::read_dir(&folder).with_context(|| format!("reading {}", folder.display()))?
        {
            let entry = entry?;
            if entry.file_name().to_string_lossy().starts_with('.') {
                continue;
            }
            let kind = entry.file_type()?;
            if kind.is_dir() {
                folders.push(entry.path());
            } else if kind.is_file() {
                let path = entry.path();
                let rel = path
                    .strip_prefix(dist)
                    .unwrap_or(&path)
                    .to_string_lossy()
                    .replace('\\', "/");
                let md5 = format!("{:x}", Md5::digest(std::fs::read(&path)?));
                found.push((rel, md5));
            }
        }
    }
    found.sort_unstable();
    Ok(found)
}
