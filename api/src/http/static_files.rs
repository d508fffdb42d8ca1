//! Serves the generated site from `dist/` out of memory: `/contact` -> `contact/index.html`,
//! the precompressed `.br`/`.gz` sibling when the browser accepts it, long immutable caching
//! for fingerprinted files, revalidation (ETag) for everything else, and `404.html` with
//! status 404 for anything that does not exist.
//!
//! Text files the generator wrote without siblings (the blog's pages, see
//! `generator::output::Compression::OnDemand`) are compressed here the first time a browser
//! asks for them, and the result is cached like any body: each version of a page is
//! compressed at most once while it stays in the cache, from the very bytes served plain, so
//! the two can never disagree.
//!
//! Nothing here touches the file system per request. An index of `dist/` (every file's
//! size, ETag, content type and compressed siblings) is built at start and replaced whole,
//! atomically, when the files change: after the server's own blog rebuilds
//! ([`StaticFiles::refresh`] with the paths it wrote) and on `SIGHUP` after an outside
//! `generator build` ([`StaticFiles::reload`]). File bodies are read once and then kept in a
//! cache bounded in bytes (`STATIC_CACHE_MB`); a file that does not fit is read per request.

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::UNIX_EPOCH;

use arc_swap::ArcSwap;
use percent_encoding::percent_decode_str;
use quick_cache::Weighter;
use quick_cache::sync::Cache;
use warp::filters::BoxedFilter;
use warp::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use warp::hyper::body::Bytes;
use warp::reply::Response;
use warp::{Filter, Rejection};

use crate::http::coding::{accepts, compress};

/// Folders whose file names carry a content hash: safe to cache forever.
const IMMUTABLE_PREFIXES: &[&str] = &["assets/", "media/"];
/// The compressed siblings the generator writes, in the order they are preferred.
const CODINGS: [(&str, &str); 2] = [("br", "br"), ("gz", "gzip")];

/// The site's files, their index and the body cache. Shared by every request.
pub struct StaticFiles {
    dist: PathBuf,
    index: ArcSwap<Index>,
    cache: Option<Cache<u64, Bytes, BodyWeight>>,
    /// Files larger than this are read per request rather than cached.
    max_cached: u64,
    next_id: AtomicU64,
    /// Serialises index updates so a refresh and a reload never undo each other.
    updating: Mutex<()>,
    /// How many bodies were compressed on demand since start.
    compressed_on_demand: AtomicU64,
}

/// `dist/` at one moment: relative file path (`contact/index.html`) -> what to send.
#[derive(Default)]
struct Index {
    files: HashMap<String, Arc<Entry>>,
}

struct Entry {
    content_type: HeaderValue,
    immutable: bool,
    plain: Variant,
    /// The `.br` and `.gz` siblings that exist, in order of preference; or, for a text file
    /// that has none, the same two made from it on demand.
    compressed: Vec<Variant>,
}

#[derive(Clone)]
struct Variant {
    /// The body's key in the cache; a new one whenever the file changes.
    id: u64,
    /// The file read for this body (for an on-demand variant, the plain file).
    path: PathBuf,
    /// The file's length (for an on-demand variant, the plain file's: the compressed
    /// length is known once it is made).
    len: u64,
    mtime: u128,
    etag: HeaderValue,
    coding: Option<&'static str>,
    /// Compressed from `path` by the server rather than read as it is.
    on_demand: bool,
}

#[derive(Clone)]
struct BodyWeight;

impl Weighter<u64, Bytes> for BodyWeight {
    fn weight(&self, _: &u64, body: &Bytes) -> u64 {
        // Never zero (an empty file), which the cache would never evict.
        body.len() as u64 + 64
    }
}

impl StaticFiles {
    /// Indexes `dist` and sets up a body cache of `cache_bytes` (0: none).
    pub fn open(dist: PathBuf, cache_bytes: u64) -> Arc<StaticFiles> {
        let cache = (cache_bytes > 0).then(|| {
            // Sized for pages and images of a few tens of KB.
            Cache::with_weighter(
                (cache_bytes / 16_384).max(64) as usize,
                cache_bytes,
                BodyWeight,
            )
        });
        let files = Arc::new(StaticFiles {
            dist,
            index: ArcSwap::from_pointee(Index::default()),
            cache,
            // Small enough that one file never crowds out the rest (the cache is sharded).
            max_cached: cache_bytes / 64,
            next_id: AtomicU64::new(1),
            updating: Mutex::new(()),
            compressed_on_demand: AtomicU64::new(0),
        });
        let count = files.reload_now();
        tracing::debug!(files = count, dist = %files.dist.display(), "static files indexed");
        files
    }

    /// Re-indexes all of `dist/` (on `SIGHUP`, after an outside build) and swaps the new
    /// index in; returns how many files it holds.
    pub async fn reload(self: &Arc<Self>) -> usize {
        let files = self.clone();
        tokio::task::spawn_blocking(move || files.reload_now())
            .await
            .unwrap_or(0)
    }

    fn reload_now(&self) -> usize {
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
        self.swap(&old, Index { files });
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
        let mut files = old.files.clone();
        for rel in changed {
            let Some(rel) = clean_rel(rel) else { continue };
            for name in [rel.clone(), format!("{rel}.br"), format!("{rel}.gz")] {
                let exists = |candidate: &str| self.dist.join(candidate).is_file();
                match self.entry(&old, &name, exists) {
                    Some(entry) => files.insert(name, Arc::new(entry)),
                    None => files.remove(&name),
                };
            }
        }
        self.swap(&old, Index { files });
    }

    /// The index entry for the file `rel`, or `None` when it is not a file. `exists` says
    /// whether a sibling is there.
    fn entry(&self, old: &Index, rel: &str, exists: impl Fn(&str) -> bool) -> Option<Entry> {
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

    fn variant(&self, old: &Index, rel: &str, coding: Option<&'static str>) -> Option<Variant> {
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
            None => old.files.get(rel).map(|e| &e.plain),
            Some(_) => base
                .and_then(|b| old.files.get(b))
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
    fn on_demand_variant(
        &self,
        old: &Index,
        rel: &str,
        plain: &Variant,
        coding: &'static str,
    ) -> Variant {
        let id = old
            .files
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
    fn swap(&self, old: &Index, new: Index) {
        if let Some(cache) = &self.cache {
            let live: std::collections::HashSet<u64> = new.variant_ids().collect();
            for id in old.variant_ids().filter(|id| !live.contains(id)) {
                cache.remove(&id);
            }
        }
        self.index.store(Arc::new(new));
    }

    /// The fast path: the answer for a `GET` or `HEAD` of a file that exists (200 or 304),
    /// or `None` for everything else (which then goes through the application's routes).
    pub async fn serve_existing(
        &self,
        method: &Method,
        path: &str,
        headers: &HeaderMap,
    ) -> Option<Response> {
        let head = match *method {
            Method::GET => false,
            Method::HEAD => true,
            _ => return None,
        };
        if is_server_route(path) || (path.len() > 1 && path.ends_with('/')) {
            return None;
        }
        let rel = safe_relative_path(path)?;
        let entry = self.index.load().find(&rel)?;
        let text = |name| {
            headers
                .get(name)
                .and_then(|v: &HeaderValue| v.to_str().ok())
        };
        Some(
            self.send(
                &entry,
                text(header::ACCEPT_ENCODING),
                text(header::IF_NONE_MATCH),
                head,
                StatusCode::OK,
            )
            .await,
        )
    }

    /// A file the server chose by its relative path (`.admin/index.html`), compressed when the
    /// browser accepts it; no URL reaches such files by itself (see [`SERVER_ONLY_DIRS`]).
    pub async fn file(&self, rel: &str, accept_encoding: Option<&str>, head: bool) -> Response {
        let found = self.index.load().files.get(rel).cloned();
        match found {
            Some(entry) => {
                self.send(&entry, accept_encoding, None, head, StatusCode::OK)
                    .await
            }
            None => self.not_found(None, head).await,
        }
    }

    /// The full answer for a `GET` or `HEAD`: the file, a redirect to drop a trailing
    /// slash, or the 404 page.
    async fn respond(
        &self,
        method: &Method,
        raw_path: &str,
        query: &str,
        accept_encoding: Option<&str>,
        if_none_match: Option<&str>,
    ) -> Response {
        let head = method == Method::HEAD;
        let Some(rel) = safe_relative_path(raw_path) else {
            return self.not_found(None, head).await;
        };
        // One URL per page: `/contact/` redirects to `/contact`. The target is the path with
        // its empty segments dropped, so it always starts with exactly one `/`: a path like
        // `//evil.example/` must never become `Location: //evil.example`, which browsers
        // read as another site.
        if raw_path.len() > 1 && raw_path.ends_with('/') {
            let target = format!("/{}", normalised(raw_path));
            let location = if query.is_empty() {
                target
            } else {
                format!("{target}?{query}")
            };
            return redirect(&location);
        }
        let found = self.index.load().find(&rel);
        match found {
            Some(entry) => {
                self.send(&entry, accept_encoding, if_none_match, head, StatusCode::OK)
                    .await
            }
            None => self.not_found(Some(&rel), head).await,
        }
    }

    /// The 404 page: a section's own (`blog/404.html` for `/blog/…`) when it has one, else
    /// the site's.
    async fn not_found(&self, rel: Option<&str>, head: bool) -> Response {
        let section = rel
            .and_then(|r| r.split('/').next())
            .filter(|first| !first.is_empty())
            .map(|first| format!("{first}/404.html"));
        let page = {
            let index = self.index.load();
            section
                .iter()
                .map(String::as_str)
                .chain(["404.html"])
                .find_map(|candidate| index.files.get(candidate).cloned())
        };
        match page {
            Some(entry) => {
                self.send(&entry, None, None, head, StatusCode::NOT_FOUND)
                    .await
            }
            None => {
                let mut res = Response::new("Page Not Found".into());
                *res.status_mut() = StatusCode::NOT_FOUND;
                res
            }
        }
    }

    async fn send(
        &self,
        entry: &Entry,
        accept_encoding: Option<&str>,
        if_none_match: Option<&str>,
        head: bool,
        status: StatusCode,
    ) -> Response {
        let variant = entry
            .compressed
            .iter()
            .find(|v| v.coding.is_some_and(|c| accepts(accept_encoding, c)))
            .unwrap_or(&entry.plain);
        let not_modified = status == StatusCode::OK
            && if_none_match.is_some_and(|v| {
                v.split(',')
                    .any(|t| t.trim() == variant.etag || t.trim() == "*")
            });
        // A HEAD of a body made on demand still makes it: its length is the answer.
        let needs_body = !not_modified && (!head || variant.on_demand);
        let body = if !needs_body {
            Bytes::new()
        } else {
            match self.body(entry, variant).await {
                Ok(body) => body,
                // Removed since the index was made (a rebuild in progress): as if missing.
                Err(e) if e.kind() == std::io::ErrorKind::NotFound && status == StatusCode::OK => {
                    return Box::pin(self.not_found(None, head)).await;
                }
                Err(e) => {
                    tracing::error!(file = %variant.path.display(), error = %e, "failed to read a static file");
                    return server_error();
                }
            }
        };
        let len = if variant.on_demand {
            body.len() as u64
        } else {
            variant.len
        };
        let body = if head { Bytes::new() } else { body };
        let mut res = Response::new(body.into());
        *res.status_mut() = if not_modified {
            StatusCode::NOT_MODIFIED
        } else {
            status
        };
        let headers = res.headers_mut();
        headers.insert(header::CONTENT_TYPE, entry.content_type.clone());
        headers.insert(
            header::CACHE_CONTROL,
            HeaderValue::from_static(if status == StatusCode::OK && entry.immutable {
                "public, max-age=31536000, immutable"
            } else {
                "no-cache"
            }),
        );
        headers.insert(header::ETAG, variant.etag.clone());
        if head && !not_modified {
            headers.insert(header::CONTENT_LENGTH, HeaderValue::from(len));
        }
        if let Some(coding) = variant.coding {
            headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static(coding));
        }
        if !entry.compressed.is_empty() {
            headers.insert(header::VARY, HeaderValue::from_static("Accept-Encoding"));
        }
        res
    }

    /// A body: from the cache, or read (or, on demand, compressed) and cached when it fits.
    /// Requests that arrive for the same uncached body while it is being made wait for it
    /// rather than make it again: the first visitors of a newly published post would
    /// otherwise each compress it.
    async fn body(&self, entry: &Entry, variant: &Variant) -> std::io::Result<Bytes> {
        let Some(cache) = self
            .cache
            .as_ref()
            .filter(|_| variant.len <= self.max_cached)
        else {
            // Never cached (a compressed body is no larger than the file it comes from), so
            // there is nothing to wait for.
            return self.load(entry, variant).await;
        };
        match cache.get_value_or_guard_async(&variant.id).await {
            Ok(body) => Ok(body),
            // On an error the guard goes unfilled and the next waiter tries for itself.
            Err(guard) => {
                let body = self.load(entry, variant).await?;
                let _ = guard.insert(body.clone());
                Ok(body)
            }
        }
    }

    /// A body made afresh: the file read, or the plain body compressed.
    async fn load(&self, entry: &Entry, variant: &Variant) -> std::io::Result<Bytes> {
        match variant.coding.filter(|_| variant.on_demand) {
            None => Ok(Bytes::from(tokio::fs::read(&variant.path).await?)),
            Some(coding) => {
                let plain = Box::pin(self.body(entry, &entry.plain)).await?;
                self.compressed_on_demand.fetch_add(1, Ordering::Relaxed);
                // Off the request threads: a long post takes a few milliseconds.
                tokio::task::spawn_blocking(move || compress(&plain, coding))
                    .await
                    .map_err(std::io::Error::other)?
            }
        }
    }
}

impl Index {
    /// The file for a decoded relative path: the file itself, or the folder's `index.html`.
    fn find(&self, rel: &str) -> Option<Arc<Entry>> {
        if rel.is_empty() {
            return self.files.get("index.html").cloned();
        }
        self.files
            .get(rel)
            .or_else(|| self.files.get(&format!("{rel}/index.html")))
            .cloned()
    }

    fn variant_ids(&self) -> impl Iterator<Item = u64> + '_ {
        self.files
            .values()
            .flat_map(|e| std::iter::once(&e.plain).chain(&e.compressed))
            .map(|v| v.id)
    }
}

/// The warp route for everything the application's other routes leave: files, trailing
/// slash redirects and 404 pages.
pub fn routes(files: Arc<StaticFiles>) -> BoxedFilter<(Response,)> {
    warp::get()
        .or(warp::head())
        .unify()
        .and(warp::method())
        .and(warp::path::full())
        .and(warp::query::raw().or(warp::any().map(String::new)).unify())
        .and(warp::header::optional::<String>("accept-encoding"))
        .and(warp::header::optional::<String>("if-none-match"))
        .and_then(
            move |method: Method,
                  path: warp::path::FullPath,
                  query: String,
                  accept: Option<String>,
                  etag: Option<String>| {
                let files = files.clone();
                async move {
                    Ok::<_, Rejection>(
                        files
                            .respond(
                                &method,
                                path.as_str(),
                                &query,
                                accept.as_deref(),
                                etag.as_deref(),
                            )
                            .await,
                    )
                }
            },
        )
        .boxed()
}

/// Hidden folders indexed all the same: the server answers from them itself (the admin app's
/// shell, for `/admin` and its routes), while URLs never reach hidden paths.
const SERVER_ONLY_DIRS: &[&str] = &[".admin"];

/// Every file under `dir`, as paths relative to the root joined with `/`; hidden files and
/// folders (the form shells in `.forms/`, temporary files) are left out, but for
/// [`SERVER_ONLY_DIRS`].
fn walk(dir: &Path, prefix: String, out: &mut Vec<String>) {
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

/// A path the generator reports, checked like a request's.
fn clean_rel(rel: &str) -> Option<String> {
    safe_relative_path(&format!("/{rel}")).filter(|r| !r.is_empty())
}

/// Decodes the URL path into `a/b/c` and refuses anything that could leave `dist` or reach
/// hidden files.
fn safe_relative_path(raw: &str) -> Option<String> {
    let decoded = percent_decode_str(raw).decode_utf8().ok()?;
    if decoded.contains('\0') || decoded.contains('\\') {
        return None;
    }
    let mut parts = Vec::new();
    for part in decoded.split('/').filter(|p| !p.is_empty()) {
        if part.starts_with('.')
            || !Path::new(part)
                .components()
                .all(|c| matches!(c, Component::Normal(_)))
        {
            return None;
        }
        parts.push(part);
    }
    Some(parts.join("/"))
}

/// `raw` (still percent-encoded) without empty segments: `//a///b/` is `a/b`.
fn normalised(raw: &str) -> String {
    raw.split('/')
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join("/")
}

fn content_type(rel: &str) -> HeaderValue {
    let mime = mime_guess::from_path(rel).first_or_octet_stream();
    let value =
        if mime.type_() == "text" || mime.subtype() == "javascript" || mime.subtype() == "json" {
            format!("{mime}; charset=utf-8")
        } else {
            mime.to_string()
        };
    HeaderValue::from_str(&value).unwrap_or(HeaderValue::from_static("application/octet-stream"))
}

fn redirect(location: &str) -> Response {
    let mut res = Response::new(Bytes::new().into());
    *res.status_mut() = StatusCode::PERMANENT_REDIRECT;
    if let Ok(value) = HeaderValue::from_str(location) {
        res.headers_mut().insert(header::LOCATION, value);
    }
    res
}

fn server_error() -> Response {
    let mut res = Response::new("Internal Server Error".into());
    *res.status_mut() = StatusCode::INTERNAL_SERVER_ERROR;
    res
}

/// Paths the application's own routes answer even where `dist/` might have a file; the
/// static files' fast path leaves them alone.
fn is_server_route(path: &str) -> bool {
    ["/api", "/uploads"].iter().any(|prefix| {
        path.strip_prefix(prefix)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
    })
}

#[cfg(test)]
mod tests;
