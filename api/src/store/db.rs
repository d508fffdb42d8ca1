//! SQLite in WAL mode, migrated on open, with every acknowledged write on disk.
//!
//! Writes go through one writer thread that owns the only writing connection and uses
//! group commit: it takes every write waiting at that moment, runs each in its own
//! savepoint inside one `BEGIN IMMEDIATE` transaction (so one request's error rolls back
//! only that request's changes), commits them together with `synchronous=FULL` (one fsync
//! for the whole group) and only then answers each caller. A reply therefore always means
//! the row survives a crash or a power cut, at a cost of one fsync per group rather than
//! per write. Because the writer runs one closure at a time, a closure that reads and then
//! writes ("check the yearly total, then insert") is atomic and serialised against every
//! other write.
//!
//! Reads run on the blocking pool against a small pool of read-only connections; WAL lets
//! them read while the writer writes, and each read sees everything acknowledged before it
//! started.

use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::Context as _;
use rusqlite::{Connection, OpenFlags, Savepoint, TransactionBehavior, params};
use tokio::sync::oneshot;

use super::error::Error;

mod embedded {
    refinery::embed_migrations!("migrations");
}

/// The most writes committed together; bounds how long the last of a burst waits.
const MAX_GROUP: usize = 512;
/// The longest a group waits for more writes to join it (see [`writer`]).
const MAX_GATHER: Duration = Duration::from_millis(2);
/// Idle read connections kept open; more are opened under load and closed after use.
const IDLE_READERS: usize = 4;
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// What the writer thread runs: a write's closure, which returns whether it succeeded (its
/// savepoint is kept) and how to answer its caller once the group's commit has succeeded
/// (`Ok`) or failed (`Err`).
type WriteJob = Box<dyn FnOnce(&Savepoint<'_>) -> (bool, Reply) + Send>;
type Reply = Box<dyn FnOnce(Result<(), String>) + Send>;
/// A read run by the writer thread, for an in-memory database (which has no other
/// connection to read from).
type ReadJob = Box<dyn FnOnce(&Connection) + Send>;

enum Job {
    Write(WriteJob),
    Read(ReadJob),
    /// Copy the log into the database and empty it, after the writes before it commit.
    Checkpoint(oneshot::Sender<Result<(), String>>),
}

#[derive(Clone)]
pub struct Db {
    inner: Arc<Inner>,
}

struct Inner {
    jobs: mpsc::Sender<Job>,
    readers: Readers,
}

enum Readers {
    /// Read-only connections to the database file, opened as needed.
    Pool {
        path: PathBuf,
        idle: Mutex<Vec<Connection>>,
    },
    /// Reads go to the writer thread (an in-memory database).
    Writer,
}

/// `?,?,…` for a list of `n` parameters (`IN (…)`; `n` at least 1).
pub fn placeholders(n: usize) -> String {
    vec!["?"; n].join(",")
}

/// Writes a file only its owner can read (0600, whatever the umask), creating its folder
/// (0700) if missing.
pub fn write_private(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    use std::io::Write as _;
    if let Some(dir) = path.parent()
        && !dir.as_os_str().is_empty()
    {
        private_dir(dir)?;
    }
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut file = options
        .open(path)
        .with_context(|| format!("Failed to write {}", path.display()))?;
    // A file that was there before keeps its mode through `open`: made private here.
    make_private(path)?;
    file.write_all(bytes)
        .with_context(|| format!("Failed to write {}", path.display()))
}

/// Sets `path` to 0600 (a file) or 0700 (a folder): what a file made by another program (a
/// database Litestream restored, say) or under a loose umask gets before it is used.
pub fn make_private(path: &Path) -> anyhow::Result<()> {
    use std::os::unix::fs::PermissionsExt as _;
    let mode = if path.is_dir() { 0o700 } else { 0o600 };
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
        .with_context(|| format!("Failed to make {} private", path.display()))
}

/// Creates `dir` (and its parents) readable only by this user; an existing one is left
/// as it is, with a warning if others can read it.
pub fn private_dir(dir: &Path) -> anyhow::Result<()> {
    use std::os::unix::fs::DirBuilderExt as _;
    if !dir.exists() {
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)
            .with_context(|| format!("Failed to create {}", dir.display()))?;
    }
    warn_if_shared(dir);
    Ok(())
}

/// Warns when `path` (and the database's -wal and -shm beside it) can be read or written
/// by other users of the machine.
fn warn_if_shared(path: &Path) {
    use std::os::unix::fs::PermissionsExt as _;
    let mut paths = vec![path.to_owned()];
    if path.extension().is_some_and(|e| e == "db") {
        for suffix in ["-wal", "-shm"] {
            let mut p = path.as_os_str().to_owned();
            p.push(suffix);
            paths.push(p.into());
        }
    }
    for path in paths {
        if let Ok(meta) = std::fs::metadata(&path)
            && meta.permissions().mode() & 0o077 != 0
        {
            tracing::warn!(
                path = %path.display(),
                mode = format!("{:o}", meta.permissions().mode() & 0o777),
                "other users of this machine can open this file, which holds supporters' \
                 details: chmod {} it",
                if meta.is_dir() { "700" } else { "600" }
            );
        }
    }
}

/// The settings every connection that writes uses; the bench's plain loop applies the
/// same ones so the comparison is fair.
pub fn configure(conn: &Connection) -> rusqlite::Result<()> {
    conn.pragma_update(None, "journal_mode", "WAL")?;
    // FULL: in WAL mode the log is fsynced at every commit, so a committed (and thus
    // acknowledged) write survives an operating-system crash or a power cut. NORMAL
    // would only guarantee consistency.
    conn.pragma_update(None, "synchronous", "FULL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    // A deleted row's bytes are overwritten, not left in free pages for anyone who copies
    // the file (see [`Db::forget_deleted`] for the log).
    conn.pragma_update(None, "secure_delete", "ON")?;
    conn.busy_timeout(BUSY_TIMEOUT)
}

/// Fills in `phone_e164` (what consent to texts is matched on, see `domain/sms_consent.rs`)
/// for rows stored before it existed. Cheap when there are none.
fn fill_phone_numbers(conn: &Connection) -> rusqlite::Result<usize> {
    let mut filled = 0;
    for table in ["newsletter_signups", "volunteer_signups"] {
        // Table names are the two constants above.
        let rows: Vec<(i64, String)> = conn
            .prepare(&format!(
                "SELECT id, phone FROM {table} WHERE phone IS NOT NULL AND phone_e164 IS NULL"
            ))?
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<rusqlite::Result<_>>()?;
        for (id, phone) in rows {
            if let Some(e164) = generator::forms::e164(&phone) {
                filled += conn.execute(
                    &format!("UPDATE {table} SET phone_e164 = ?2 WHERE id = ?1"),
                    params![id, e164],
                )?;
            }
        }
    }
    Ok(filled)
}

impl Db {
    /// Opens (creating if needed) and migrates the database at `path`.
    pub fn open(path: &Path) -> anyhow::Result<Db> {
        if let Some(dir) = path.parent() {
            private_dir(dir)?;
        }
        let new = !path.exists();
        let conn = Connection::open(path)
            .with_context(|| format!("Failed to open the database {}", path.display()))?;
        if new {
            // It holds supporters' details. SQLite gives its -wal and -shm files the
            // database file's mode, so they are private too.
            use std::os::unix::fs::PermissionsExt as _;
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))
                .with_context(|| format!("Failed to make {} private", path.display()))?;
        }
        warn_if_shared(path);
        let readers = Readers::Pool {
            path: path.to_owned(),
            idle: Mutex::default(),
        };
        Db::start(conn, readers)
            .with_context(|| format!("Failed to prepare the database {}", path.display()))
    }

    /// A private in-memory database, for tests.
    pub fn open_in_memory() -> anyhow::Result<Db> {
        Db::start(Connection::open_in_memory()?, Readers::Writer)
    }

    fn start(mut conn: Connection, readers: Readers) -> anyhow::Result<Db> {
        configure(&conn)?;
        embedded::migrations::runner()
            .run(&mut conn)
            .context("Failed to migrate the database")?;
        fill_phone_numbers(&conn).context("Failed to fill in phone numbers' E.164 form")?;
        // What a write from outside the server (the sqlite3 shell, a restore) left queued.
        super::settle::settle(&conn).context("Failed to settle what earlier writes queued")?;
        let (jobs, queue) = mpsc::channel();
        std::thread::Builder::new()
            .name("db-writer".into())
            .spawn(move || writer(conn, queue))
            .context("Failed to start the database writer")?;
        Ok(Db {
            inner: Arc::new(Inner { jobs, readers }),
        })
    }

    /// Runs `f` with a read connection on the blocking pool.
    pub async fn read<T, F>(&self, f: F) -> Result<T, Error>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> rusqlite::Result<T> + Send + 'static,
    {
        let result = match &self.inner.readers {
            Readers::Pool { .. } => {
                let inner = self.inner.clone();
                tokio::task::spawn_blocking(move || inner.with_reader(f))
                    .await
                    .context("database task panicked")?
            }
            Readers::Writer => {
                let (done, wait) = oneshot::channel();
                self.send(Job::Read(Box::new(move |conn| {
                    let _ = done.send(f(conn));
                })))?;
                wait.await.context("the database read did not complete")?
            }
        };
        result.map_err(Error::from)
    }

    /// Runs `f` in its own savepoint inside the writer's next group transaction, and
    /// returns its result once that transaction is committed to disk. When `f` fails (or
    /// panics) only its own changes are rolled back. `f` gets a [`Savepoint`], which
    /// derefs to [`Connection`]: helpers it calls should take `&Connection`.
    pub async fn write<T, F>(&self, f: F) -> Result<T, Error>
    where
        T: Send + 'static,
        F: FnOnce(&Savepoint<'_>) -> rusqlite::Result<T> + Send + 'static,
    {
        let (done, wait) = oneshot::channel::<Result<T, Error>>();
        self.send(Job::Write(Box::new(move |sp| {
            let out = f(sp);
            let succeeded = out.is_ok();
            let reply: Reply = Box::new(move |committed: Result<(), String>| {
                let answer = match (out, committed) {
                    (Err(e), _) => Err(Error::from(e)),
                    (Ok(_), Err(why)) => Err(Error::Other(anyhow::anyhow!(
                        "committing the write failed: {why}"
                    ))),
                    (Ok(value), Ok(())) => Ok(value),
                };
                let _ = done.send(answer);
            });
            (succeeded, reply)
        })))?;
        wait.await.context("the database write did not complete")?
    }

    /// Makes what was just deleted unrecoverable from the files: the write-ahead log still
    /// holds the pages as they were before the delete (and as inserted), so it is copied
    /// into the database (whose freed bytes `secure_delete` zeroes) and truncated. Call it
    /// after a write that removes personal data; it waits for writes sent before it.
    pub async fn forget_deleted(&self) -> Result<(), Error> {
        let (done, wait) = oneshot::channel();
        self.send(Job::Checkpoint(done))?;
        wait.await
            .context("the checkpoint did not complete")?
            .map_err(|why| Error::Other(anyhow::anyhow!("checkpoint failed: {why}")))
    }

    fn send(&self, job: Job) -> Result<(), Error> {
        self.inner
            .jobs
            .send(job)
            .map_err(|_| Error::Other(anyhow::anyhow!("the database writer has stopped")))
    }
}

impl Inner {
    fn with_reader<T>(
        &self,
        f: impl FnOnce(&Connection) -> rusqlite::Result<T>,
    ) -> rusqlite::Result<T> {
        let Readers::Pool { path, idle } = &self.readers else {
            unreachable!("only called for a pool");
        };
        let taken = idle.lock().unwrap_or_else(|p| p.into_inner()).pop();
        let conn = match taken {
            Some(conn) => conn,
            None => {
                let conn = Connection::open_with_flags(
                    path,
                    OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
                )?;
                conn.busy_timeout(BUSY_TIMEOUT)?;
                conn
            }
        };
        let out = f(&conn);
        let mut idle = idle.lock().unwrap_or_else(|p| p.into_inner());
        if idle.len() < IDLE_READERS {
            idle.push(conn);
        }
        out
    }
}

/// The writer thread: runs until every [`Db`] handle is gone.
///
/// Under concurrent load, the clients answered by one commit send their next writes while
/// the next group is already being committed, so groups would alternate between large and
/// tiny, each tiny one costing a whole fsync. So when recent groups were large, the writer
/// waits briefly for as many writes as they held, never longer than half the last commit
/// took: a wait shorter than the fsync it saves. A lone writer (no recent groups of more
/// than one) never waits.
fn writer(mut conn: Connection, queue: mpsc::Receiver<Job>) {
    let mut group: Vec<WriteJob> = Vec::with_capacity(MAX_GROUP);
    let mut checkpoints: Vec<oneshot::Sender<Result<(), String>>> = Vec::new();
    // How many writes recent groups held (decaying), and how long the last commit took.
    let mut recent = 1usize;
    let mut last_commit = Duration::ZERO;
    while let Ok(first) = queue.recv() {
        let gather_until = (recent > 1).then(|| Instant::now() + (last_commit / 2).min(MAX_GATHER));
        let mut next = Some(first);
        loop {
            // Take everything waiting now; reads (in-memory databases only) run at once.
            while let Some(job) = next.take() {
                match job {
                    Job::Write(w) => group.push(w),
                    Job::Read(r) => run_read(&conn, r),
                    Job::Checkpoint(done) => checkpoints.push(done),
                }
                if group.len() < MAX_GROUP {
                    next = queue.try_recv().ok();
                }
            }
            let wait = gather_until.and_then(|t| t.checked_duration_since(Instant::now()));
            match wait {
                Some(wait) if group.len() < recent.min(MAX_GROUP) => {
                    next = queue.recv_timeout(wait).ok();
                    if next.is_none() {
                        break;
                    }
                }
                _ => break,
            }
        }
        if !group.is_empty() {
            recent = group.len().max(recent * 7 / 8).max(1);
            let started = Instant::now();
            commit_group(&mut conn, group.drain(..));
            last_commit = started.elapsed();
        }
        for done in checkpoints.drain(..) {
            // TRUNCATE waits (busy timeout) for readers of older snapshots to finish.
            let result = conn
                .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| {
                    r.get::<_, i64>(0)
                })
                .map_err(|e| e.to_string())
                .and_then(|busy| match busy {
                    0 => Ok(()),
                    _ => Err("readers kept the log busy".to_owned()),
                });
            let _ = done.send(result);
        }
    }
}

fn run_read(conn: &Connection, read: ReadJob) {
    // A panic drops the caller's reply channel, which it reports as an error.
    let _ = std::panic::catch_unwind(AssertUnwindSafe(|| read(conn)));
}

/// One group: every write in its own savepoint, one commit, then every answer.
fn commit_group(conn: &mut Connection, jobs: impl Iterator<Item = WriteJob>) {
    let mut replies: Vec<Reply> = Vec::new();
    let mut tx = match conn.transaction_with_behavior(TransactionBehavior::Immediate) {
        Ok(tx) => tx,
        Err(e) => {
            let why = e.to_string();
            tracing::error!(error = %why, "could not begin a write transaction");
            for job in jobs {
                fail_unrun(job, &why);
            }
            return;
        }
    };
    let mut broken: Option<String> = None;
    for job in jobs {
        if let Some(why) = &broken {
            fail_unrun(job, why);
            continue;
        }
        let sp = match tx.savepoint() {
            Ok(sp) => sp,
            Err(e) => {
                let why = e.to_string();
                fail_unrun(job, &why);
                broken = Some(why);
                continue;
            }
        };
        // A savepoint dropped without `commit` rolls back to where it began; that is what
        // happens to a write that fails or panics.
        match std::panic::catch_unwind(AssertUnwindSafe(|| job(&sp))) {
            Ok((succeeded, reply)) => {
                if succeeded {
                    if let Err(e) = sp.commit() {
                        broken = Some(e.to_string());
                    }
                } else {
                    drop(sp);
                }
                replies.push(reply);
            }
            Err(_) => {
                tracing::error!("a database write panicked; its changes are rolled back");
                drop(sp);
            }
        }
        // Some errors (a full disk, I/O) make SQLite roll the whole transaction back;
        // running more writes now would commit them one by one, outside the group.
        if tx.is_autocommit() && broken.is_none() {
            broken = Some("the transaction was rolled back by the database".into());
        }
    }
    if broken.is_none()
        && let Err(e) = super::settle::settle(&tx)
    {
        tracing::error!(error = %e, "could not settle a group of writes");
        broken = Some(e.to_string());
    }
    let outcome = match broken {
        Some(why) => {
            let _ = tx.rollback();
            Err(why)
        }
        None => tx.commit().map_err(|e| e.to_string()),
    };
    if let Err(why) = &outcome {
        tracing::error!(error = %why, writes = replies.len(), "a group of writes failed to commit");
    }
    for reply in replies {
        reply(outcome.clone());
    }
}

/// Answers a write that was never run because its group had already failed.
fn fail_unrun(job: WriteJob, why: &str) {
    // Dropping the job drops its reply channel; the caller sees an internal error. Say why
    // here, once per write, since the caller cannot.
    tracing::error!(error = %why, "a database write was not run");
    drop(job);
}

#[cfg(test)]
mod tests;
