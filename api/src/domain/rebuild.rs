//! Keeps the static blog in step with the database. When staff change posts, the handler
//! asks for a rebuild and waits: one worker takes every request waiting at that moment,
//! reads the published posts once, and calls the generator library in-process to write
//! only the files that differ (`generator::blog::changes`). Concurrent changes are thus
//! serialised and coalesced, and a reply goes out only once its change is live.
//!
//! The worker's first task is a sync of the whole blog against the database (posts may
//! have changed since the last `generator build`). After each rebuild, `REBUILD_HOOK` (if
//! set) runs with the changed paths on stdin. The static files' index is told which paths
//! changed before anyone is answered, so a reply means the new pages are being served.

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use generator::blog::{self, Blog};
use generator::{BuildOptions, Site};
use tokio::sync::{mpsc, oneshot};

use crate::domain::published::Published;
use crate::store::db::Db;

/// Why the public site could not be brought up to date (the post itself is saved).
pub type Failure = String;

/// A request: the post that changed (`None`: anything may have), and who waits for the answer.
type Request = (Option<i64>, oneshot::Sender<Result<(), Failure>>);
type Waiter = oneshot::Sender<Result<(), Failure>>;

/// The site the blog's pages are rendered with (content, templates, the client manifest),
/// opened once, the first time a rebuild or a preview needs it, and shared by both.
#[derive(Clone)]
pub struct SiteHandle {
    opts: BuildOptions,
    site: Arc<Mutex<Option<Arc<Site>>>>,
    /// Whether the missing bundles were logged (once is enough: every preview would repeat it).
    told_missing: Arc<AtomicBool>,
}

impl SiteHandle {
    pub fn new(opts: BuildOptions) -> SiteHandle {
        SiteHandle {
            opts,
            site: Arc::default(),
            told_missing: Arc::default(),
        }
    }

    /// The client bundles' manifest when it is missing (the site was never built on this
    /// machine, or `build/client/` was removed): what staff are told to build. Logged the
    /// first time it is found missing.
    pub fn missing_bundles(&self) -> Option<PathBuf> {
        let manifest = self.opts.client_dir.join(".vite/manifest.json");
        if manifest.is_file() {
            return None;
        }
        if !self.told_missing.swap(true, Ordering::Relaxed) {
            tracing::error!(
                manifest = %manifest.display(),
                "the site's client bundles are missing: mail cannot be rendered until `just build` runs"
            );
        }
        Some(manifest)
    }

    /// The site, opened now if it was not yet. Blocking (it reads files): call it from
    /// `spawn_blocking`. A failure is not kept: the next call tries again.
    pub fn get(&self) -> anyhow::Result<Arc<Site>> {
        let mut site = self.site.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(site) = &*site {
            return Ok(site.clone());
        }
        let opened = Arc::new(Site::open(&self.opts)?);
        *site = Some(opened.clone());
        Ok(opened)
    }
}

/// The handle handlers use; cheap to clone.
#[derive(Clone)]
pub struct Rebuilder {
    requests: Option<mpsc::UnboundedSender<Request>>,
    site: Option<SiteHandle>,
    /// Passes the worker has made, the first sync included (for tests: what waited on one).
    passes: Arc<AtomicU64>,
    /// The worker, until `workers` starts it.
    worker: Arc<Mutex<Option<Worker>>>,
    /// Why the public pages are behind the database, since when: set by a failed pass,
    /// cleared by the next one that succeeds (the dashboard shows it meanwhile).
    failure: Arc<Mutex<Option<Behind>>>,
}

/// The public blog could not be brought up to date.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Behind {
    pub message: String,
    /// When the first failing pass of this run of failures ran.
    pub since: String,
}

/// What the worker needs, kept until it is started.
struct Worker {
    db: Db,
    published: Published,
    requests: mpsc::UnboundedReceiver<Request>,
}

impl Rebuilder {
    /// No site to keep in step (tests of the API alone): every request succeeds at once.
    pub fn disabled() -> Rebuilder {
        Rebuilder {
            requests: None,
            site: None,
            passes: Arc::default(),
            worker: Arc::default(),
            failure: Arc::default(),
        }
    }

    /// The rebuilder of the site described by `opts`; its worker runs once
    /// [`Rebuilder::start_worker`] is called (by `crate::workers`), and requests made before
    /// wait for it.
    pub fn new(opts: BuildOptions, db: Db, published: Published) -> Rebuilder {
        let (tx, rx) = mpsc::unbounded_channel();
        Rebuilder {
            requests: Some(tx),
            site: Some(SiteHandle::new(opts)),
            passes: Arc::default(),
            worker: Arc::new(Mutex::new(Some(Worker {
                db,
                published,
                requests: rx,
            }))),
            failure: Arc::default(),
        }
    }

    /// Starts the worker (once; later calls do nothing).
    pub fn start_worker(&self) {
        let taken = self.worker.lock().unwrap_or_else(|p| p.into_inner()).take();
        if let (Some(w), Some(site)) = (taken, &self.site) {
            tokio::spawn(worker(
                site.clone(),
                w.db,
                w.published,
                w.requests,
                self.passes.clone(),
                self.failure.clone(),
            ));
        }
    }

    /// Why the public pages are behind, while they are.
    pub fn behind(&self) -> Option<Behind> {
        self.failure
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// How many passes the worker has made so far.
    pub fn passes(&self) -> u64 {
        self.passes.load(Ordering::SeqCst)
    }

    /// The site the pages are rendered with; `None` when rebuilds are off.
    pub fn site(&self) -> Option<&SiteHandle> {
        self.site.as_ref()
    }

    /// Brings the blog's pages up to date with the database and returns once they are live.
    /// `changed` names the post a change was about, so only it is read again; `None` reads
    /// every post.
    pub async fn rebuild(&self, changed: Option<i64>) -> Result<(), Failure> {
        let Some(requests) = &self.requests else {
            return Ok(());
        };
        let (done, wait) = oneshot::channel();
        requests
            .send((changed, done))
            .map_err(|_| Failure::from("the rebuild worker has stopped"))?;
        wait.await
            .unwrap_or_else(|_| Err("the rebuild worker has stopped".into()))
    }
}

/// The state the worker keeps between rebuilds.
struct Current {
    site: Arc<Site>,
    /// What the output folder shows now (shared with the next read, never copied).
    blog: Arc<Blog>,
}

async fn worker(
    site: SiteHandle,
    db: Db,
    published: Published,
    mut requests: mpsc::UnboundedReceiver<Request>,
    passes: Arc<AtomicU64>,
    failure: Arc<Mutex<Option<Behind>>>,
) {
    let mut current: Option<Current> = None;
    // The first pass syncs everything, even before anyone asks.
    let mut waiters: Vec<Waiter> = Vec::new();
    // The posts changed since the last pass; `None` when any may have.
    let mut changed: Option<HashSet<i64>> = None;
    loop {
        let result = run(&site, &db, &published, &mut current, changed.take()).await;
        let result = match result {
            Ok(paths) => {
                // The deploy bucket and the hook get them in the order they went live.
                published.went_live(paths).await;
                *failure.lock().unwrap_or_else(|p| p.into_inner()) = None;
                Ok(())
            }
            Err(e) => {
                // Some files may have been written before the failure: look at them all.
                published.files().reload().await;
                let message = format!("{e:#}");
                tracing::error!(error = %message, "blog rebuild failed; the posts are saved, the site is not updated");
                let mut behind = failure.lock().unwrap_or_else(|p| p.into_inner());
                let since = behind
                    .take()
                    .map(|b| b.since)
                    .unwrap_or_else(|| crate::domain::clock::sql_time(jiff::Timestamp::now()));
                *behind = Some(Behind {
                    message: message.clone(),
                    since,
                });
                Err(message)
            }
        };
        // Counted once its files are queued for the deploy bucket too: the full copy at start
        // waits for the first pass and takes what it queued as covered.
        passes.fetch_add(1, Ordering::SeqCst);
        for waiter in waiters.drain(..) {
            let _ = waiter.send(result.clone());
        }
        // Wait for the next request, then take every other one already waiting.
        let Some(first) = requests.recv().await else {
            return;
        };
        let mut batch = vec![first];
        while let Ok(more) = requests.try_recv() {
            batch.push(more);
        }
        let mut ids = Some(HashSet::new());
        for (post, waiter) in batch {
            match (post, &mut ids) {
                (Some(id), Some(ids)) => {
                    ids.insert(id);
                }
                _ => ids = None,
            }
            waiters.push(waiter);
        }
        changed = ids;
    }
}

/// One rebuild: the published posts now, against what the output shows.
async fn run(
    handle: &SiteHandle,
    db: &Db,
    published: &Published,
    current: &mut Option<Current>,
    changed: Option<HashSet<i64>>,
) -> anyhow::Result<Vec<String>> {
    let started = std::time::Instant::now();
    let previous = current.as_ref().map(|c| c.blog.clone());
    let after = db
        .read(move |c| match (&previous, &changed) {
            (Some(previous), Some(changed)) => Blog::query_changed(c, previous, changed),
            _ => Blog::query(c),
        })
        .await
        .map_err(|e| anyhow::anyhow!("reading the posts: {e}"))?;
    let after = Arc::new(after);
    let handle = handle.clone();
    let published = published.clone();
    let state = current.take();
    let (state, paths) =
        tokio::task::spawn_blocking(move || -> anyhow::Result<(Current, Vec<String>)> {
            match state {
                Some(state) => {
                    let read = started.elapsed();
                    let changes = blog::changes(&state.site, &state.blog, &after)?;
                    let compared = started.elapsed();
                    // The index learns of each stage as it is written: a new post answers
                    // before its list pages, feed and sitemap are rewritten.
                    let mut stages = Vec::new();
                    let paths = changes.apply_in_stages(|written| {
                        published.serve_now(written);
                        stages.push(started.elapsed());
                    })?;
                    tracing::debug!(
                        posts = after.posts.len(),
                        files = paths.len(),
                        ?read,
                        ?compared,
                        ?stages,
                        "blog rebuilt in {:.1?}",
                        started.elapsed()
                    );
                    Ok((
                        Current {
                            site: state.site,
                            blog: after,
                        },
                        paths,
                    ))
                }
                None => {
                    let started = std::time::Instant::now();
                    let site = handle.get()?;
                    let paths = blog::sync(&site, &after)?;
                    published.serve_now(&paths);
                    tracing::info!(
                        posts = after.posts.len(),
                        changed = paths.len(),
                        "blog in step with the database in {:.0?}",
                        started.elapsed()
                    );
                    Ok((Current { site, blog: after }, paths))
                }
            }
        })
        .await??;
    *current = Some(state);
    Ok(paths)
}
