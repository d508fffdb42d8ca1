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
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use arc_swap::ArcSwap;
use quick_cache::Weighter;
use quick_cache::sync::Cache;
use warp::filters::BoxedFilter;
use warp::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use warp::hyper::body::Bytes;
use warp::reply::Response;
use warp::{Filter, Rejection};

use crate::http::coding::{accepts, compress};

mod index;
mod paths;

use paths::{is_server_route, normalised, redirect, safe_relative_path, server_error};

/// Folders whose file names carry a content hash: safe to cache forever.
const IMMUTABLE_PREFIXES: &[&str] = &["assets/", "media/"];
/// The compressed siblings the generator writes, in the order they are preferred.
const CODINGS: [(&str, &str); 2] = [("br", "br"), ("gz", "gzip")];

/// How a copy of `dist/`'s file `rel` elsewhere (a bucket behind a CDN) should be described:
/// the content type this server sends, the coding of a compressed sibling (`a.html.br` is
/// `a.html`'s type, coded `br`), and whether its name is hashed (cache it for a year) or not.
pub fn describe(rel: &str) -> (String, Option<&'static str>, bool) {
    let (base, coding) = CODINGS
        .iter()
        .find_map(|(ext, coding)| {
            rel.strip_suffix(ext)
                .and_then(|b| b.strip_suffix('.'))
                .map(|b| (b, Some(*coding)))
        })
        .unwrap_or((rel, None));
    let content_type = paths::content_type(base)
        .to_str()
        .unwrap_or("application/octet-stream")
        .to_owned();
    let immutable = IMMUTABLE_PREFIXES.iter().any(|p| rel.starts_with(p));
    (content_type, coding, immutable)
}

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
///
/// The files as last indexed whole (at start, on `SIGHUP`) and what changed since, apart: a
/// blog rebuild replaces a handful of files, and copying an index of thousands for each
/// would make a publish cost more the more posts there are. The changes are folded into
/// the whole once they grow past [`MAX_CHANGES`].
#[derive(Default)]
struct Index {
    base: Arc<HashMap<String, Arc<Entry>>>,
    /// A newer entry, or `None` for a file that is gone.
    changes: HashMap<String, Option<Arc<Entry>>>,
}

/// How many changed files the index keeps beside its base before folding them in.
const MAX_CHANGES: usize = 512;

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
        let found = self.index.load().get(rel).cloned();
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
                .find_map(|candidate| index.get(candidate).cloned())
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

#[cfg(test)]
mod tests;
