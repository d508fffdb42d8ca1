//! The one path for "these files of `dist/` were written": every writer of the public site
//! (the blog's rebuilds, the events' pages) tells [`Published`] what it wrote, and it makes
//! each file live in the static-file index, queues it for the deploy bucket in the order it
//! went live, and runs `REBUILD_HOOK` with the paths on stdin (a CDN purge, a push to a
//! static host), so no writer can skip one of the three.

use std::path::PathBuf;
use std::process::Stdio;
use std::sync::Arc;

use tokio::io::AsyncWriteExt as _;

use crate::http::static_files::StaticFiles;
use crate::offsite::deploy::Deployer;

#[derive(Clone)]
pub struct Published {
    files: Arc<StaticFiles>,
    deployer: Arc<Deployer>,
    /// `REBUILD_HOOK`, run in `dist`.
    hook: Option<String>,
    dist: PathBuf,
}

impl Published {
    pub fn new(
        files: Arc<StaticFiles>,
        deployer: Arc<Deployer>,
        hook: Option<String>,
        dist: PathBuf,
    ) -> Published {
        Published {
            files,
            deployer,
            hook,
            dist,
        }
    }

    /// Makes `paths` answer from the static-file index now (a writer in stages calls this
    /// for each stage, then [`Published::went_live`] once for them all). Blocking: call it
    /// off the request threads.
    pub fn serve_now(&self, paths: &[String]) {
        self.files.refresh_now(paths);
    }

    /// `paths` are live: queued for the deploy bucket in that order, and told to the hook
    /// (which nobody waits for).
    pub async fn went_live(&self, paths: Vec<String>) {
        if paths.is_empty() {
            return;
        }
        self.deployer.enqueue(&paths).await;
        if let Some(hook) = &self.hook {
            tokio::spawn(run_hook(hook.clone(), self.dist.clone(), paths));
        }
    }

    /// The index, for a writer that reloads it whole after a failure.
    pub fn files(&self) -> &Arc<StaticFiles> {
        &self.files
    }
}

/// Runs `REBUILD_HOOK` with the changed paths on stdin; a failure is logged, nothing more.
async fn run_hook(hook: String, dist: PathBuf, paths: Vec<String>) {
    let child = tokio::process::Command::new("sh")
        .arg("-c")
        .arg(&hook)
        .current_dir(&dist)
        .stdin(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(child) => child,
        Err(e) => {
            tracing::error!(error = %e, "REBUILD_HOOK could not start");
            return;
        }
    };
    if let Some(mut stdin) = child.stdin.take() {
        let list = paths.join("\n") + "\n";
        if let Err(e) = stdin.write_all(list.as_bytes()).await {
            tracing::warn!(error = %e, "REBUILD_HOOK did not read the changed paths");
        }
    }
    match child.wait().await {
        Ok(status) if status.success() => {}
        Ok(status) => tracing::error!(%status, "REBUILD_HOOK failed"),
        Err(e) => tracing::error!(error = %e, "REBUILD_HOOK failed"),
    }
}
