//! `api backup DIR`: everything a restore needs, in one folder: `DIR/site.db` (below),
//! `DIR/uploads/` (the uploaded images) and `DIR/keys/` (the keys in DATA_DIR that links
//! already mailed and sign-in depend on), all private to their owner. `api restore --from
//! DIR` puts them back.
//!
//! The database is a consistent copy of the database, made with SQLite's online backup
//! while the server keeps running (and writing). The copy is taken in one step from one
//! read snapshot, so it holds every write committed before it started and none after;
//! it is checked with `PRAGMA integrity_check`, made private (0600: it holds supporters'
//! details), synced to disk and only then renamed to FILE, so FILE is never half-written.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context as _, bail};
use rusqlite::backup::{Backup, StepResult};
use rusqlite::{Connection, OpenFlags};

/// What a backup wrote.
#[derive(Debug)]
pub struct Summary {
    pub bytes: u64,
}

/// What [`backup_all`] wrote.
#[derive(Debug)]
pub struct Folder {
    pub database: Summary,
    pub uploads: usize,
    pub keys: usize,
}

/// Writes `dest/site.db`, `dest/uploads/` and `dest/keys/` from `data_dir`.
pub fn backup_all(data_dir: &Path, dest: &Path) -> anyhow::Result<Folder> {
    crate::store::db::private_dir(dest)?;
    let database = backup(&data_dir.join("site.db"), &dest.join("site.db"))?;
    let (mut uploads, mut keys) = (0, 0);
    for (rel, path) in crate::offsite::replica::local_files(data_dir)? {
        let target = dest.join(&rel);
        // Uploads are named by their content: one already there is this one.
        if rel.starts_with("uploads/") && target.is_file() {
            uploads += 1;
            continue;
        }
        let bytes =
            fs::read(&path).with_context(|| format!("Failed to read {}", path.display()))?;
        crate::store::db::write_private(&target, &bytes)?;
        fs::File::open(&target).and_then(|f| f.sync_all())?;
        if rel.starts_with("keys/") {
            keys += 1;
        } else {
            uploads += 1;
        }
    }
    for dir in [dest.join("uploads"), dest.join("keys"), dest.to_path_buf()] {
        if dir.is_dir() {
            // An existing folder keeps its mode through `private_dir`: private here.
            crate::store::db::make_private(&dir)?;
            fs::File::open(&dir).and_then(|d| d.sync_all()).ok();
        }
    }
    Ok(Folder {
        database,
        uploads,
        keys,
    })
}

/// Copies the database at `source` to `dest` (replacing it).
pub fn backup(source: &Path, dest: &Path) -> anyhow::Result<Summary> {
    if !source.is_file() {
        bail!("There is no database at {}", source.display());
    }
    let src = Connection::open_with_flags(source, OpenFlags::SQLITE_OPEN_READ_ONLY)
        .with_context(|| format!("Failed to open {}", source.display()))?;
    src.busy_timeout(Duration::from_secs(10))?;
    let dir = match dest.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_owned(),
        _ => PathBuf::from("."),
    };
    fs::create_dir_all(&dir).with_context(|| format!("Failed to create {}", dir.display()))?;
    let partial = dir.join(format!(
        ".{}.partial",
        dest.file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("backup")
    ));
    let _ = fs::remove_file(&partial);
    let result = copy(&src, &partial);
    if let Err(e) = result {
        let _ = fs::remove_file(&partial);
        return Err(e);
    }
    fs::File::open(&partial)
        .and_then(|f| f.sync_all())
        .with_context(|| format!("Failed to sync {}", partial.display()))?;
    fs::rename(&partial, dest)
        .with_context(|| format!("Failed to move the backup to {}", dest.display()))?;
    // The rename itself must survive a crash too.
    fs::File::open(&dir).and_then(|d| d.sync_all()).ok();
    Ok(Summary {
        bytes: fs::metadata(dest)?.len(),
    })
}

fn copy(src: &Connection, partial: &Path) -> anyhow::Result<()> {
    // Private from the first byte; SQLite takes an empty file as a new database.
    let mut options = fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    options
        .open(partial)
        .with_context(|| format!("Failed to create {}", partial.display()))?;
    let mut dst = Connection::open(partial)
        .with_context(|| format!("Failed to open {}", partial.display()))?;
    {
        let backup = Backup::new(src, &mut dst)?;
        // All pages in one step: one read snapshot, so the copy is consistent however
        // busy the server is (several steps would restart whenever it writes).
        let mut tries = 0;
        loop {
            match backup.step(-1)? {
                StepResult::Done => break,
                StepResult::More => continue,
                StepResult::Busy | StepResult::Locked if tries < 100 => {
                    tries += 1;
                    std::thread::sleep(Duration::from_millis(100));
                }
                other => bail!("The database stayed busy; the backup stopped ({other:?})"),
            }
        }
    }
    // One self-contained file (no -wal beside it) is what an operator expects to copy.
    let mode: String = dst.query_row("PRAGMA journal_mode = DELETE", [], |r| r.get(0))?;
    if mode != "delete" {
        bail!("The backup could not be made a single file (journal mode {mode})");
    }
    let check: String = dst.query_row("PRAGMA integrity_check", [], |r| r.get(0))?;
    if check != "ok" {
        bail!("The backup failed its integrity check: {check}");
    }
    dst.close().map_err(|(_, e)| e)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_backup_holds_every_committed_row_and_passes_its_check() {
        let dir = tempfile::tempdir().unwrap();
        let db = crate::store::db::Db::open(&dir.path().join("site.db")).unwrap();
        for i in 0..20 {
            db.write(move |tx| {
                tx.execute(
                    "INSERT INTO newsletter_signups (email, zip_code) VALUES (?1, '12345')",
                    [format!("b{i}@example.org")],
                )
            })
            .await
            .unwrap();
        }
        let dest = dir.path().join("copies/site-backup.db");
        let summary = backup(&dir.path().join("site.db"), &dest).unwrap();
        assert!(summary.bytes > 0);
        let copy = Connection::open(&dest).unwrap();
        let n: i64 = copy
            .query_row("SELECT COUNT(*) FROM newsletter_signups", [], |r| r.get(0))
            .unwrap();
        assert_eq!(n, 20);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(&dest).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600);
        }
        assert!(!dest.with_file_name(".site-backup.db.partial").exists());
        assert!(backup(&dir.path().join("missing.db"), &dest).is_err());
    }
}
