//! The index of `dist/`: built at start, rebuilt whole on `SIGHUP`, and refreshed file by
//! file after the server's own blog rebuilds; each swapped in atomically.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::UNIX_EPOCH;

use warp::http::HeaderValue;

use super::paths::{clean_rel, content_type};
use super::{CODINGS, Entry, IMMUTABLE_PREFIXES, Index, MAX_CHANGES, StaticFiles, Variant};

impl StaticFiles {
    /// Re-indexes all of `dist/` (on `SIGHUP`, after an outside build) and swaps the new
    /// index in; returns how many files it holds.
    pub async fn reload(self: &Arc<Self>) -> usize {
        let files = self.clone();
        tokio::task::spawn_blocking(move || files.reload_now())
            .await
            .unwrap_or(0)
    }

    pub(super) fn reload_now(&self) -> usize {
        let _updating = self.updating.lock().unwrap_or_else(|p| p.into_inner());
        let old = self.index.load_full();
        let mut found = Vec::new();
        walk(&self.dist, String::new(), &mut found);
        let names: std::collections::HashSet<&str> = found.iter().map(String::as_str).collect();
        let mut files = HashMap::with_capacity(found.len());
        for rel in &found {
            if let Some(entry) = self.entry(&old, rel, |sibling| names.contains(sibling)) {
                files.insert(rel.clone(), Arc::new(entry));
            }
        }
        let count = files.len();
        self.swap(
            &old,
            Index {
                base: Arc::new(files),
                changes: HashMap::new(),
            },
        );
        count
    }

    /// Updates the index for files the server itself rewrote or removed (`rel` paths such
    /// as `blog/hello/index.html`; their `.br`/`.gz` siblings are looked at too).
    pub async fn refresh(self: &Arc<Self>, changed: Vec<String>) {
        let files = self.clone();
        let _ = tokio::task::spawn_blocking(move || files.refresh_now(&changed)).await;
    }

    /// [`StaticFiles::refresh`] from blocking code (the rebuild worker makes a new post live
    /// before it writes the pages that link to it).
    pub fn refresh_now(&self, changed: &[String]) {
        let _updating = self.updating.lock().unwrap_or_else(|p| p.into_inner());
        let old = self.index.load_full();
        // Only the changed files are looked at, copied or evicted: the work is the same
        // whatever the size of the site.
        let mut changes = old.changes.clone();
        let mut stale = Vec::new();
        for rel in changed {
            let Some(rel) = clean_rel(rel) else { continue };
            for name in [rel.clone(), format!("{rel}.br"), format!("{rel}.gz")] {
                let exists = |candidate: &str| self.dist.join(candidate).is_file();
                let entry = self.entry(&old, &name, exists).map(Arc::new);
                if let Some(before) = old.get(&name) {
                    let kept: Vec<u64> = entry.iter().flat_map(|e| e.variant_ids()).collect();
                    stale.extend(before.variant_ids().filter(|id| !kept.contains(id)));
                }
                changes.insert(name, entry);
            }
        }
        let new = if changes.len() > MAX_CHANGES {
            old.folded(changes)
        } else {
            Index {
                base: old.base.clone(),
                changes,
            }
        };
        if let Some(cache) = &self.cache {
            for id in stale {
                cache.remove(&id);
            }
        }
        self.index.store(Arc::new(new));
    }

    /// The index entry for the file `rel`, or `None` when it is not a file. `exists` says
    /// whether a sibling is there.
    pub(super) fn entry(
        &self,
        old: &Index,
        rel: &str,
        exists: impl Fn(&str) -> bool,
    ) -> Option<Entry> {
        let plain = self.variant(old, rel, None)?;
        let mut compressed: Vec<Variant> = CODINGS
            .iter()
            .filter(|(ext, _)| exists(&format!("{rel}.{ext}")))
            .filter_map(|(ext, coding)| self.variant(old, &format!("{rel}.{ext}"), Some(coding)))
            .collect();
        let len = usize::try_from(plain.len).unwrap_or(usize::MAX);
        if compressed.is_empty() && generator::output::worth_compressing(rel, len) {
            compressed = CODINGS
                .iter()
                .map(|(_, coding)| self.on_demand_variant(old, rel, &plain, coding))
                .collect();
        }
        Some(Entry {
            content_type: content_type(rel),
            immutable: IMMUTABLE_PREFIXES.iter().any(|p| rel.starts_with(p)),
            plain,
            compressed,
        })
    }

    pub(super) fn variant(
        &self,
        old: &Index,
        rel: &str,
        coding: Option<&'static str>,
    ) -> Option<Variant> {
        let path = self.dist.join(rel);
        let meta = std::fs::metadata(&path).ok().filter(|m| m.is_file())?;
        let len = meta.len();
        let mtime = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_nanos());
        // The same bytes keep their cache key; changed ones get a new key (the old body
        // is dropped from the cache when the index is swapped).
        let base = rel.strip_suffix(".br").or_else(|| rel.strip_suffix(".gz"));
        let previous = match coding {
            None => old.get(rel).map(|e| &e.plain),
            Some(_) => base
                .and_then(|b| old.get(b))
                .and_then(|e| e.compressed.iter().find(|v| v.coding == coding)),
        };
        let id = previous
            .filter(|v| v.len == len && v.mtime == mtime)
            .map_or_else(|| self.next_id.fetch_add(1, Ordering::Relaxed), |v| v.id);
        let etag = format!(
            "\"{len:x}-{mtime:x}{}\"",
            coding.map(|c| format!("-{c}")).unwrap_or_default()
        );
        Some(Variant {
            id,
            path,
            len,
            mtime,
            etag: HeaderValue::from_str(&etag).ok()?,
            coding,
            on_demand: false,
        })
    }

    /// `plain` (the file `rel`) in `coding`, made when first asked for. It keeps its cache key
    /// as long as the file is unchanged, like a file on disk.
    pub(super) fn on_demand_variant(
        &self,
        old: &Index,
        rel: &str,
        plain: &Variant,
        coding: &'static str,
    ) -> Variant {
        let id = old
            .get(rel)
            .and_then(|e| {
                e.compressed
                    .iter()
                    .find(|v| v.on_demand && v.coding == Some(coding))
            })
            .filter(|v| v.len == plain.len && v.mtime == plain.mtime)
            .map_or_else(|| self.next_id.fetch_add(1, Ordering::Relaxed), |v| v.id);
        // The plain ETag with the coding added inside its quotes: `"1a2b-3c4d-br"`.
        let quoted = plain.etag.to_str().unwrap_or("\"\"");
        let etag = format!("{}-{coding}\"", quoted.trim_end_matches('"'));
        Variant {
            id,
            coding: Some(coding),
            on_demand: true,
            etag: HeaderValue::from_str(&etag).unwrap_or_else(|_| plain.etag.clone()),
            ..plain.clone()
        }
    }

    /// Puts `new` in place and forgets the cached bodies no entry refers to any more.
    pub(super) fn swap(&self, old: &Index, new: Index) {
        if let Some(cache) = &self.cache {
            let live: std::collections::HashSet<u64> = new.variant_ids().collect();
            for id in old.variant_ids().filter(|id| !live.contains(id)) {
                cache.remove(&id);
            }
        }
        self.index.store(Arc::new(new));
    }
}

impl Index {
    /// The entry of the file `rel`, if there is one.
    pub(super) fn get(&self, rel: &str) -> Option<&Arc<Entry>> {
        match self.changes.get(rel) {
            Some(changed) => changed.as_ref(),
            None => self.base.get(rel),
        }
    }

    /// The file for a decoded relative path: the file itself, or the folder's `index.html`.
    pub(super) fn find(&self, rel: &str) -> Option<Arc<Entry>> {
        if rel.is_empty() {
            return self.get("index.html").cloned();
        }
        self.get(rel)
            .or_else(|| self.get(&format!("{rel}/index.html")))
            .cloned()
    }

    /// Every entry, the changes in place of what they replace.
    fn entries(&self) -> impl Iterator<Item = &Arc<Entry>> + '_ {
        self.base
            .iter()
            .filter(|(rel, _)| !self.changes.contains_key(*rel))
            .map(|(_, e)| e)
            .chain(self.changes.values().flatten())
    }

    pub(super) fn variant_ids(&self) -> impl Iterator<Item = u64> + '_ {
        self.entries().flat_map(|e| e.variant_ids())
    }

    /// This index with `changes` (made against it) folded into a new base.
    fn folded(&self, changes: HashMap<String, Option<Arc<Entry>>>) -> Index {
        let mut base = (*self.base).clone();
        for (rel, entry) in changes {
            match entry {
                Some(entry) => base.insert(rel, entry),
                None => base.remove(&rel),
            };
        }
        Index {
            base: Arc::new(base),
            changes: HashMap::new(),
        }
    }
}

impl Entry {
    fn variant_ids(&self) -> impl Iterator<Item = u64> + '_ {
        std::iter::once(&self.plain)
            .chain(&self.compressed)
            .map(|v| v.id)
    }
}

/// Hidden folders indexed all the same: the server answers from them itself (the admin app's
/// shell, for `/admin` and its routes), while URLs never reach hidden paths.
const SERVER_ONLY_DIRS: &[&str] = &[".admin"];

/// Every file under `dir`, as paths relative to the root joined with `/`; hidden files and
/// folders (the form shells in `.forms/`, temporary files) are left out, but for
/// [`SERVER_ONLY_DIRS`].
pub(super) fn walk(dir: &Path, prefix: String, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        if name.starts_with('.') && !(prefix.is_empty() && SERVER_ONLY_DIRS.contains(&name)) {
            continue;
        }
        let rel = if prefix.is_empty() {
            name.to_owned()
        } else {
            format!("{prefix}/{name}")
        };
        match entry.file_type() {
            Ok(t) if t.is_dir() => walk(&entry.path(), rel, out),
            // A symlink counts when it points at a file (checked when its entry is made).
            Ok(_) => out.push(rel),
            Err(_) => {}
        }
    }
}
