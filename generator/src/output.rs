//! The one place that writes into the output folder. Every file is written to a
//! temporary file and renamed into place, so a visitor never reads a half-written page
//! while the api rebuilds; text files also get `.br` and `.gz` siblings that the server
//! sends to browsers that accept them, except the blog's, which the server compresses
//! when they are first asked for (see [`Compression::OnDemand`]).

use std::collections::HashSet;
use std::fs;
use std::io::Write;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex};

use anyhow::{Context as _, Result, bail};
use sha2::{Digest, Sha256};

/// First 10 hex digits of the SHA-256: the fingerprint in the names of image variants
/// (`crate::media`) and of the cached compressed copies.
pub fn short_hash(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    digest.iter().take(5).map(|b| format!("{b:02x}")).collect()
}

/// Text smaller than this gains nothing from compression.
pub const COMPRESS_MIN_BYTES: usize = 512;

/// How hard to compress a text file's `.br`/`.gz` copies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compression {
    /// Brotli 11 and gzip 9: the smallest files, for what is built once (assets, pages).
    Best,
    /// No copies: the server compresses the file when it is first asked for, at brotli 5 and
    /// gzip 6 (a few percent larger than `Best`, many times faster), and keeps the result in
    /// memory. For the blog's thousands of pages, most of
    /// which are rarely read: compressing them all made a full build four times slower and
    /// `dist/` twice as large, and left a post waiting on its copies before going live.
    OnDemand,
}

/// The output folder (`dist/`).
#[derive(Debug, Clone)]
pub struct Output {
    root: PathBuf,
    /// Where the slowest copies ([`Compression::Best`]) are kept between builds, by the hash
    /// of what they compress: the bundles and pages of one build are mostly those of the last.
    cache: Option<PathBuf>,
    /// fsync each file before its rename and the folder after (see [`Output::durable`]).
    durable: bool,
    /// Every cache file this output (and the image pipelines writing through it) read or
    /// wrote, shared by its clones: what a full build keeps when it prunes the cache.
    cache_used: Arc<Mutex<HashSet<PathBuf>>>,
}

impl Output {
    pub fn new(root: impl Into<PathBuf>) -> Output {
        Output {
            root: root.into(),
            cache: None,
            durable: false,
            cache_used: Arc::default(),
        }
    }

    /// Notes that the cache file `path` served this build (see [`prune_cache`]).
    pub fn note_cache_use(&self, path: &Path) {
        self.cache_used
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(path.to_owned());
    }

    /// The cache files noted so far.
    pub fn cache_used(&self) -> HashSet<PathBuf> {
        self.cache_used
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// Every write reaches the disk before it replaces what was there, and the rename itself
    /// is made durable (the file, then its folder, are synced): after a crash or a power cut
    /// a live page is the old one or the new one, never empty. For rewriting pages that are
    /// being served; a full build into a fresh folder does not need it. The blog's rebuilds
    /// defer it ([`Output::write_unsynced`], then [`Output::sync_files`]).
    pub fn durable(mut self) -> Output {
        self.durable = true;
        self
    }

    /// Keeps [`Compression::Best`] copies in `dir` and reuses them.
    pub fn with_cache(mut self, dir: impl Into<PathBuf>) -> Output {
        self.cache = Some(dir.into());
        self
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Removes everything in the folder and recreates it, for a full build.
    pub fn clean(&self) -> Result<()> {
        if self.root.exists() {
            fs::remove_dir_all(&self.root)
                .with_context(|| format!("Failed to empty {}", self.root.display()))?;
        }
        fs::create_dir_all(&self.root)
            .with_context(|| format!("Failed to create {}", self.root.display()))
    }

    /// Writes `bytes` to `rel` (a path inside the folder such as `contact/index.html`).
    pub fn write(&self, rel: &str, bytes: &[u8]) -> Result<()> {
        self.write_with(rel, bytes, Compression::Best)
    }

    /// [`Output::write`] with the given compression for the `.br`/`.gz` copies. The copies
    /// are written first, so no moment pairs a new file with an old copy; until the file
    /// itself is renamed into place, a reader gets the old version in full.
    pub fn write_with(&self, rel: &str, bytes: &[u8], compression: Compression) -> Result<()> {
        let path = self.path_of(rel)?;
        if compression != Compression::OnDemand && worth_compressing(rel, bytes.len()) {
            let (compressed_br, compressed_gz) = self.compressed(bytes, compression)?;
            write_atomic(&sibling(&path, "br"), &compressed_br, self.durable)?;
            write_atomic(&sibling(&path, "gz"), &compressed_gz, self.durable)?;
            write_atomic(&path, bytes, self.durable)?;
        } else {
            write_without_copies(&path, bytes, self.durable)?;
        }
        Ok(())
    }

    /// The `.br` and `.gz` copies of `bytes`, from the cache when it has them.
    fn compressed(&self, bytes: &[u8], compression: Compression) -> Result<(Vec<u8>, Vec<u8>)> {
        let cached = match (&self.cache, compression) {
            (Some(dir), Compression::Best) => Some(dir.join(short_hash(bytes))),
            _ => None,
        };
        if let Some(stem) = &cached {
            self.note_cache_use(&sibling(stem, "br"));
            self.note_cache_use(&sibling(stem, "gz"));
            if let (Ok(b), Ok(g)) = (fs::read(sibling(stem, "br")), fs::read(sibling(stem, "gz"))) {
                return Ok((b, g));
            }
        }
        let pair = (brotli(bytes, compression)?, gzip(bytes, compression)?);
        if let Some(stem) = &cached {
            // The cache is only a speed-up: failing to fill it must not fail the build.
            if let Some(dir) = stem.parent() {
                let _ = fs::create_dir_all(dir);
            }
            let _ = fs::write(sibling(stem, "br"), &pair.0);
            let _ = fs::write(sibling(stem, "gz"), &pair.1);
        }
        Ok(pair)
    }

    /// Writes `bytes` to `rel` with no compressed copies (see [`Compression::OnDemand`]) and
    /// without syncing it, even on a durable output: for the blog's rebuilds, which make
    /// their pages live first and then sync them all at once with [`Output::sync_files`].
    /// Until then a crash may leave such a page short; the database holds the posts, and the
    /// api's start-up sync ([`crate::blog::sync`]) rewrites every page whose bytes differ.
    pub fn write_unsynced(&self, rel: &str, bytes: &[u8]) -> Result<()> {
        write_without_copies(&self.path_of(rel)?, bytes, false)
    }

    /// On a durable output, syncs the files `rels` (those that exist) and then their folders,
    /// so the renames that put them in place survive a crash; otherwise does nothing. One
    /// pass after a rebuild rather than two fsyncs before each page goes live: a publish's
    /// page answered about 10 ms sooner here, more under load.
    pub fn sync_files(&self, rels: &[String]) -> Result<()> {
        if !self.durable {
            return Ok(());
        }
        let mut dirs = std::collections::BTreeSet::new();
        for rel in rels {
            let path = self.path_of(rel)?;
            if let Ok(file) = fs::File::open(&path) {
                file.sync_all()
                    .with_context(|| format!("Failed to sync {}", path.display()))?;
            }
            if let Some(dir) = path.parent() {
                dirs.insert(dir.to_owned());
            }
        }
        for dir in dirs {
            sync_dir(&dir);
        }
        Ok(())
    }

    /// Copies a file from outside (an asset) to `rel`, compressing it like `write`.
    pub fn copy(&self, from: &Path, rel: &str) -> Result<()> {
        let bytes = fs::read(from).with_context(|| format!("Failed to read {}", from.display()))?;
        self.write(rel, &bytes)
    }

    /// Deletes `rel` and its compressed siblings, and the folders that leaves empty (a
    /// post's `blog/{slug}/`); a missing file is not an error.
    pub fn remove(&self, rel: &str) -> Result<()> {
        let path = self.path_of(rel)?;
        for p in [sibling(&path, "br"), sibling(&path, "gz"), path.clone()] {
            match fs::remove_file(&p) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => {
                    return Err(e).with_context(|| format!("Failed to remove {}", p.display()));
                }
            }
        }
        if self.durable
            && let Some(dir) = path.parent()
        {
            sync_dir(dir);
        }
        let mut dir = path.parent();
        while let Some(d) = dir.filter(|d| *d != self.root) {
            // Fails (and stops) at the first folder that still holds something.
            if fs::remove_dir(d).is_err() {
                break;
            }
            dir = d.parent();
        }
        Ok(())
    }

    /// Whether `rel` exists in the folder.
    pub fn exists(&self, rel: &str) -> bool {
        self.path_of(rel).map(|p| p.exists()).unwrap_or(false)
    }

    fn path_of(&self, rel: &str) -> Result<PathBuf> {
        let rel_path = Path::new(rel);
        if rel.is_empty()
            || !rel_path
                .components()
                .all(|c| matches!(c, Component::Normal(_)))
        {
            bail!("refusing to write outside the output folder: {rel:?}");
        }
        Ok(self.root.join(rel_path))
    }
}

/// The output file for a site path: `/` -> `index.html`, `/contact` -> `contact/index.html`.
pub fn html_path_for(route: &str) -> String {
    let trimmed = route.trim_matches('/');
    if trimmed.is_empty() {
        "index.html".into()
    } else {
        format!("{trimmed}/index.html")
    }
}

/// Removes the temporary files a write interrupted by a crash left behind (`.tmp…`, never
/// renamed into place) anywhere in `root`; returns how many. For the server's start, before
/// it indexes the folder.
pub fn remove_leftover_temp_files(root: &Path) -> usize {
    let mut removed = 0;
    let Ok(entries) = fs::read_dir(root) else {
        return 0;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() {
            removed += remove_leftover_temp_files(&path);
        } else if kind.is_file()
            && entry.file_name().to_string_lossy().starts_with(TEMP_PREFIX)
            && fs::remove_file(&path).is_ok()
        {
            removed += 1;
        }
    }
    removed
}

/// Removes every file under `dir` that is not in `used` (the cache files a build read or
/// wrote), so the cache holds what the last build needed and no more: resized images of
/// pictures since removed, compressed copies of old bundles. Returns how many went.
pub fn prune_cache(dir: &Path, used: &HashSet<PathBuf>) -> usize {
    let mut removed = 0;
    let Ok(entries) = fs::read_dir(dir) else {
        return 0;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        match entry.file_type() {
            Ok(kind) if kind.is_dir() => removed += prune_cache(&path, used),
            Ok(kind) if kind.is_file() && !used.contains(&path) => {
                removed += usize::from(fs::remove_file(&path).is_ok());
            }
            _ => {}
        }
    }
    removed
}

/// How the temporary files of [`write_atomic`] are named (tempfile's default).
const TEMP_PREFIX: &str = ".tmp";

/// Syncs a folder, so a rename in it survives a crash; failing that is only logged by the
/// caller's later write, as some file systems cannot sync folders.
fn sync_dir(dir: &Path) {
    if let Ok(d) = fs::File::open(dir) {
        let _ = d.sync_all();
    }
}

fn write_atomic(path: &Path, bytes: &[u8], durable: bool) -> Result<()> {
    let dir = path.parent().context("output path has no parent folder")?;
    fs::create_dir_all(dir).with_context(|| format!("Failed to create {}", dir.display()))?;
    let mut tmp = tempfile::Builder::new()
        .prefix(TEMP_PREFIX)
        .tempfile_in(dir)
        .with_context(|| format!("Failed to create a temporary file in {}", dir.display()))?;
    tmp.write_all(bytes)
        .with_context(|| format!("Failed to write {}", path.display()))?;
    // Temporary files are private (0600); published files must be world-readable.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        tmp.as_file()
            .set_permissions(fs::Permissions::from_mode(0o644))?;
    }
    if durable {
        tmp.as_file()
            .sync_all()
            .with_context(|| format!("Failed to sync {}", path.display()))?;
    }
    tmp.persist(path)
        .with_context(|| format!("Failed to move {} into place", path.display()))?;
    if durable {
        sync_dir(dir);
    }
    Ok(())
}

/// Writes `path` alone and removes its `.br`/`.gz` copies: a stale copy of an earlier,
/// larger version would be served instead.
fn write_without_copies(path: &Path, bytes: &[u8], durable: bool) -> Result<()> {
    write_atomic(path, bytes, durable)?;
    for ext in ["br", "gz"] {
        let _ = fs::remove_file(sibling(path, ext));
    }
    Ok(())
}

fn sibling(path: &Path, ext: &str) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(".");
    s.push(ext);
    PathBuf::from(s)
}

/// Whether a file at `rel` with these bytes is sent compressed: text, and not tiny. The
/// generator writes copies of such files and the server compresses those it has none of.
pub fn worth_compressing(rel: &str, len: usize) -> bool {
    is_compressible(rel) && len >= COMPRESS_MIN_BYTES
}

fn is_compressible(rel: &str) -> bool {
    let ext = rel.rsplit('.').next().unwrap_or("");
    matches!(
        ext,
        "html" | "css" | "js" | "mjs" | "json" | "svg" | "xml" | "txt" | "map" | "webmanifest"
    )
}

impl Compression {
    /// Brotli's quality and gzip's level.
    fn levels(self) -> (i32, u32) {
        match self {
            Compression::Best => (11, 9),
            Compression::OnDemand => (5, 6),
        }
    }
}

/// `bytes` in brotli at `compression`'s quality: what the server makes of a file written
/// [`Compression::OnDemand`] for a browser that takes brotli.
pub fn brotli(bytes: &[u8], compression: Compression) -> Result<Vec<u8>> {
    crunch::brotli(bytes, compression.levels().0)
}

/// `bytes` in gzip at `compression`'s level.
pub fn gzip(bytes: &[u8], compression: Compression) -> Result<Vec<u8>> {
    crunch::gzip(bytes, compression.levels().1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn routes_map_to_index_files() {
        assert_eq!(html_path_for("/"), "index.html");
        assert_eq!(html_path_for("/contact"), "contact/index.html");
        assert_eq!(html_path_for("/blog/hello/"), "blog/hello/index.html");
    }

    #[test]
    fn text_gets_compressed_siblings_that_decode_to_the_original() {
        let dir = tempfile::tempdir().unwrap();
        let out = Output::new(dir.path());
        let html = "<p>conscience</p>".repeat(100);
        out.write("a/index.html", html.as_bytes()).unwrap();
        let mut gz = String::new();
        flate2::read::GzDecoder::new(&fs::read(dir.path().join("a/index.html.gz")).unwrap()[..])
            .read_to_string(&mut gz)
            .unwrap();
        assert_eq!(gz, html);
        let mut br = Vec::new();
        brotli::BrotliDecompress(
            &mut &fs::read(dir.path().join("a/index.html.br")).unwrap()[..],
            &mut br,
        )
        .unwrap();
        assert_eq!(br, html.as_bytes());
    }

    #[test]
    fn small_or_binary_files_are_not_compressed_and_stale_siblings_go() {
        let dir = tempfile::tempdir().unwrap();
        let out = Output::new(dir.path());
        out.write("x.html", "<p>long</p>".repeat(100).as_bytes())
            .unwrap();
        out.write("x.html", b"<p>short</p>").unwrap();
        assert!(!dir.path().join("x.html.br").exists());
        out.write("i.png", &[0u8; 4096]).unwrap();
        assert!(!dir.path().join("i.png.gz").exists());
    }

    #[test]
    fn leftover_temporary_files_are_removed_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        let out = Output::new(dir.path()).durable();
        out.write("blog/a/index.html", b"<p>kept</p>").unwrap();
        fs::write(dir.path().join("blog/a/.tmpX1y2Z3"), b"half a pa").unwrap();
        fs::write(dir.path().join(".tmpabc"), b"").unwrap();
        fs::write(dir.path().join("blog/.well-known"), b"kept").unwrap();
        assert_eq!(remove_leftover_temp_files(dir.path()), 2);
        assert!(dir.path().join("blog/a/index.html").exists());
        assert!(dir.path().join("blog/.well-known").exists());
        assert!(!dir.path().join("blog/a/.tmpX1y2Z3").exists());
    }

    #[test]
    fn unsynced_writes_drop_stale_copies_and_are_synced_later_together() {
        let dir = tempfile::tempdir().unwrap();
        let out = Output::new(dir.path()).durable();
        out.write("blog/a/index.html", "<p>long</p>".repeat(100).as_bytes())
            .unwrap();
        assert!(dir.path().join("blog/a/index.html.br").exists());
        out.write_unsynced("blog/a/index.html", b"<p>new</p>")
            .unwrap();
        assert_eq!(
            fs::read(dir.path().join("blog/a/index.html")).unwrap(),
            b"<p>new</p>"
        );
        assert!(!dir.path().join("blog/a/index.html.br").exists());
        assert!(!dir.path().join("blog/a/index.html.gz").exists());
        // A path removed in between is skipped; one outside the folder is refused.
        out.sync_files(&["blog/a/index.html".into(), "blog/gone/index.html".into()])
            .unwrap();
        assert!(out.sync_files(&["../x".into()]).is_err());
    }

    #[test]
    fn refuses_paths_outside_the_folder() {
        let dir = tempfile::tempdir().unwrap();
        let out = Output::new(dir.path().join("dist"));
        for bad in ["../x.html", "/etc/passwd", "a/../../x", ""] {
            assert!(out.write(bad, b"x").is_err(), "{bad}");
        }
    }
}
