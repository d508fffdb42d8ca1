//! `api restore`: the database, the uploads and the keys back from the replica onto a
//! machine that has none of them, checked whole before any of them is put in place.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context as _, Result, bail};
use futures_util::StreamExt as _;
use object_store::ObjectStoreExt as _;

use super::replica::{KEY_FILES, ReplicaConfig};

/// What a restore brought back.
#[derive(Debug)]
pub struct Restored {
    pub database_bytes: u64,
    pub uploads: usize,
    pub keys: Vec<String>,
    pub seconds: f64,
}

/// Restores into `data_dir`, which must not hold a database: everything is fetched into a
/// folder beside it first, the database is checked (`PRAGMA integrity_check`) and every file
/// compared with the size the bucket lists, and only then is each moved into place, the
/// database last (a server started after a failed restore finds no database, never half a
/// restore).
pub async fn restore(config: &ReplicaConfig, data_dir: &Path) -> Result<Restored> {
    let started = Instant::now();
    let staging = prepare(data_dir)?;
    let target = data_dir.join("site.db");
    // The database, by Litestream: the latest snapshot and every WAL segment after it.
    let staged_db = staging.join("site.db");
    let db_path = std::path::absolute(&target)?;
    let mut command = config.litestream(&db_path, &staging.join("litestream.yml"), &["restore"])?;
    command.arg("-o").arg(&staged_db).arg(&db_path);
    let output = command
        .output()
        .await
        .with_context(|| format!("running {} (is Litestream installed?)", config.litestream))?;
    if !output.status.success() {
        bail!(
            "litestream could not restore the database from {}: {}",
            config.remote.url(),
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    let checked = staged_db.clone();
    let database_bytes = tokio::task::spawn_blocking(move || integrity(&checked)).await??;

    // The uploads and keys, each checked against the size the bucket gives.
    let remote = &config.remote;
    let mut uploads = 0;
    let mut keys = Vec::new();
    for folder in ["uploads", "keys"] {
        let mut list = remote.store.list(Some(&remote.key(folder)));
        while let Some(meta) = list.next().await {
            let meta = meta?;
            let Some(rel) = remote.rel(meta.location.as_ref()) else {
                continue;
            };
            let name = rel.rsplit('/').next().unwrap_or_default();
            let allowed = match folder {
                "keys" => KEY_FILES.contains(&name),
                _ => crate::domain::uploads::stored_name_type(name).is_some(),
            };
            if !allowed {
                tracing::warn!(key = %meta.location, "not an upload or key this server makes; left in the bucket");
                continue;
            }
            let bytes = remote.store.get(&meta.location).await?.bytes().await?;
            if bytes.len() as u64 != meta.size {
                bail!(
                    "{rel} came back with {} of its {} bytes",
                    bytes.len(),
                    meta.size
                );
            }
            let path = staging.join(folder).join(name);
            crate::store::db::write_private(&path, &bytes)?;
            if folder == "keys" {
                keys.push(name.to_owned());
            } else {
                uploads += 1;
            }
        }
    }

    install(&staging, data_dir, &keys)?;
    Ok(Restored {
        database_bytes,
        uploads,
        keys,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// `api restore --from DIR`: the same from a folder `api backup` wrote (DIR/site.db,
/// DIR/uploads/, DIR/keys/), with the same checks.
pub async fn restore_from_backup(backup: &Path, data_dir: &Path) -> Result<Restored> {
    let started = Instant::now();
    let source = backup.join("site.db");
    anyhow::ensure!(
        source.is_file(),
        "{} holds no site.db: name a folder `api backup` wrote",
        backup.display()
    );
    let staging = prepare(data_dir)?;
    let staged_db = staging.join("site.db");
    std::fs::copy(&source, &staged_db).context("copying the database")?;
    let checked = staged_db.clone();
    let database_bytes = tokio::task::spawn_blocking(move || integrity(&checked)).await??;
    let (mut uploads, mut keys) = (0, Vec::new());
    for (rel, path) in super::replica::local_files_in(backup, &backup.join("keys"))? {
        let target = staging.join(&rel);
        crate::store::db::write_private(&target, &std::fs::read(&path)?)?;
        match rel.split_once('/') {
            Some(("keys", name)) => keys.push(name.to_owned()),
            _ => uploads += 1,
        }
    }
    install(&staging, data_dir, &keys)?;
    Ok(Restored {
        database_bytes,
        uploads,
        keys,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// Refuses a `data_dir` that holds a database; returns an empty staging folder inside it.
fn prepare(data_dir: &Path) -> Result<PathBuf> {
    for name in ["site.db", "site.db-wal", "site.db-shm"] {
        let path = data_dir.join(name);
        if path.exists() {
            bail!(
                "{} exists: a restore never overwrites a database. Stop the server and move \
                 DATA_DIR ({}) aside first.",
                path.display(),
                data_dir.display()
            );
        }
    }
    crate::store::db::private_dir(data_dir)?;
    let staging = data_dir.join(".restoring");
    if staging.exists() {
        std::fs::remove_dir_all(&staging).context("removing an earlier restore's leftovers")?;
    }
    crate::store::db::private_dir(&staging)?;
    Ok(staging)
}

/// Moves what `staging` holds into `data_dir`: keys, uploads, and the database last.
fn install(staging: &Path, data_dir: &Path, keys: &[String]) -> Result<()> {
    use crate::store::db::make_private;
    for name in keys {
        make_private(&staging.join("keys").join(name))?;
        std::fs::rename(staging.join("keys").join(name), data_dir.join(name))?;
    }
    let uploads_dir = data_dir.join("uploads");
    crate::store::db::private_dir(&uploads_dir)?;
    make_private(&uploads_dir)?;
    if let Ok(entries) = std::fs::read_dir(staging.join("uploads")) {
        for entry in entries {
            let entry = entry?;
            make_private(&entry.path())?;
            std::fs::rename(entry.path(), uploads_dir.join(entry.file_name()))?;
        }
    }
    sync_dir(&uploads_dir)?;
    // Litestream writes the database with its own mode: private before it is in place.
    make_private(&staging.join("site.db"))?;
    std::fs::rename(staging.join("site.db"), data_dir.join("site.db"))?;
    sync_dir(data_dir)?;
    std::fs::remove_dir_all(staging)?;
    Ok(())
}

/// `PRAGMA integrity_check` on the restored file; its size.
fn integrity(path: &Path) -> Result<u64> {
    let conn =
        rusqlite::Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_WRITE)?;
    let verdict: String = conn.query_row("PRAGMA integrity_check", [], |r| r.get(0))?;
    if verdict != "ok" {
        bail!("the restored database fails its integrity check: {verdict}");
    }
    drop(conn);
    Ok(std::fs::metadata(path)?.len())
}

fn sync_dir(dir: &Path) -> Result<()> {
    std::fs::File::open(dir)?.sync_all()?;
    Ok(())
}
