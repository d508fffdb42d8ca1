//! Serves the generated site from `dist/`: `/contact` -> `contact/index.html`, the
//! precompressed `.br`/`.gz` sibling when the browser accepts it, long immutable caching
//! for fingerprinted files, revalidation (ETag) for everything else, and `404.html` with
//! status 404 for anything that does not exist.

use std::path::{Component, Path, PathBuf};
use std::sync::Arc;
use std::time::UNIX_EPOCH;

use percent_encoding::percent_decode_str;
use warp::filters::BoxedFilter;
use warp::http::{HeaderValue, Response as HttpResponse, StatusCode, header};
use warp::hyper::body::Bytes;
use warp::reply::Response;
use warp::{Filter, Rejection};

/// Folders whose file names carry a content hash: safe to cache forever.
const IMMUTABLE_PREFIXES: &[&str] = &["assets/", "media/"];

pub fn routes(dist: PathBuf) -> BoxedFilter<(Response,)> {
    let dist = Arc::new(dist);
    warp::get()
        .or(warp::head())
        .unify()
        .and(warp::method())
        .and(warp::path::full())
        .and(warp::query::raw().or(warp::any().map(String::new)).unify())
        .and(warp::header::optional::<String>("accept-encoding"))
        .and(warp::header::optional::<String>("if-none-match"))
        .and_then(
            move |method: warp::http::Method,
                  path: warp::path::FullPath,
                  query: String,
                  accept: Option<String>,
                  etag: Option<String>| {
                let dist = dist.clone();
                async move {
                    Ok::<_, Rejection>(
                        serve(
                            &dist,
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

async fn serve(
    dist: &Path,
    method: &warp::http::Method,
    raw_path: &str,
    query: &str,
    accept_encoding: Option<&str>,
    if_none_match: Option<&str>,
) -> Response {
    let head = method == warp::http::Method::HEAD;
    let Some(rel) = safe_relative_path(raw_path) else {
        return not_found(dist, None, head).await;
    };
    // One URL per page: `/contact/` redirects to `/contact`.
    if raw_path.len() > 1 && raw_path.ends_with('/') {
        let target = raw_path.trim_end_matches('/');
        let target = if target.is_empty() { "/" } else { target };
        let location = if query.is_empty() {
            target.to_owned()
        } else {
            format!("{target}?{query}")
        };
        return redirect(&location);
    }
    match resolve(dist, &rel).await {
        Some(file) => {
            send(
                &file,
                &rel_of(dist, &file),
                accept_encoding,
                if_none_match,
                head,
                StatusCode::OK,
            )
            .await
        }
        None => not_found(dist, Some(&rel), head).await,
    }
}

/// Decodes the URL path and refuses anything that could leave `dist` or reach hidden files.
fn safe_relative_path(raw: &str) -> Option<PathBuf> {
    let decoded = percent_decode_str(raw).decode_utf8().ok()?;
    if decoded.contains('\0') || decoded.contains('\\') {
        return None;
    }
    let mut rel = PathBuf::new();
    for part in decoded.split('/').filter(|p| !p.is_empty()) {
        if part.starts_with('.') {
            return None;
        }
        rel.push(part);
    }
    rel.components()
        .all(|c| matches!(c, Component::Normal(_)))
        .then_some(rel)
}

/// The file for a path: the file itself, or the folder's `index.html`.
async fn resolve(dist: &Path, rel: &Path) -> Option<PathBuf> {
    let candidate = dist.join(rel);
    match tokio::fs::metadata(&candidate).await {
        Ok(m) if m.is_file() => Some(candidate),
        Ok(m) if m.is_dir() => {
            let index = candidate.join("index.html");
            tokio::fs::metadata(&index)
                .await
                .ok()
                .filter(|m| m.is_file())
                .map(|_| index)
        }
        _ => None,
    }
}

fn rel_of(dist: &Path, file: &Path) -> String {
    file.strip_prefix(dist)
        .unwrap_or(file)
        .to_string_lossy()
        .replace('\\', "/")
}

/// The 404 page: a section's own (`blog/404.html` for `/blog/…`) when it has one, else
/// the site's.
async fn not_found(dist: &Path, rel: Option<&Path>, head: bool) -> Response {
    let section = rel
        .and_then(|r| r.components().next())
        .map(|first| Path::new(first.as_os_str()).join("404.html"))
        .filter(|page| page != Path::new("404.html"));
    for candidate in section.into_iter().chain([PathBuf::from("404.html")]) {
        let page = dist.join(&candidate);
        if tokio::fs::metadata(&page).await.is_ok_and(|m| m.is_file()) {
            let name = candidate.to_string_lossy().replace('\\', "/");
            return send(&page, &name, None, None, head, StatusCode::NOT_FOUND).await;
        }
    }
    let mut res = Response::new("Page Not Found".into());
    *res.status_mut() = StatusCode::NOT_FOUND;
    res
}

/// A file from `dist` by its relative path, hidden ones included, compressed when the
/// browser accepts it: for answers the server gives from a file of its choosing.
pub(crate) async fn file(
    dist: &Path,
    rel: &str,
    accept_encoding: Option<&str>,
    head: bool,
) -> Response {
    send(
        &dist.join(rel),
        rel,
        accept_encoding,
        None,
        head,
        StatusCode::OK,
    )
    .await
}

fn redirect(location: &str) -> Response {
    let mut res = Response::new(warp::hyper::body::Bytes::new().into());
    *res.status_mut() = StatusCode::PERMANENT_REDIRECT;
    if let Ok(value) = HeaderValue::from_str(location) {
        res.headers_mut().insert(header::LOCATION, value);
    }
    res
}

async fn send(
    file: &Path,
    rel: &str,
    accept_encoding: Option<&str>,
    if_none_match: Option<&str>,
    head: bool,
    status: StatusCode,
) -> Response {
    let mime = mime_guess::from_path(file).first_or_octet_stream();
    let content_type =
        if mime.type_() == "text" || mime.subtype() == "javascript" || mime.subtype() == "json" {
            format!("{mime}; charset=utf-8")
        } else {
            mime.to_string()
        };

    let accepts = |coding: &str| {
        accept_encoding.is_some_and(|a| {
            a.split(',').any(|part| {
                let mut bits = part.split(';');
                let name = bits.next().unwrap_or("").trim();
                let refused = bits.any(|q| q.trim().replace(' ', "") == "q=0");
                name.eq_ignore_ascii_case(coding) && !refused
            })
        })
    };
    let mut chosen = (file.to_path_buf(), None);
    let mut has_variants = false;
    for (ext, coding) in [("br", "br"), ("gz", "gzip")] {
        let mut sibling = file.as_os_str().to_owned();
        sibling.push(".");
        sibling.push(ext);
        let sibling = PathBuf::from(sibling);
        if tokio::fs::metadata(&sibling).await.is_ok() {
            has_variants = true;
            if chosen.1.is_none() && accepts(coding) {
                chosen = (sibling, Some(coding));
            }
        }
    }

    let (path, coding) = chosen;
    let meta = match tokio::fs::metadata(&path).await {
        Ok(m) => m,
        Err(e) => {
            tracing::error!(file = %path.display(), error = %e, "failed to stat a static file");
            return server_error();
        }
    };
    let mtime = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos());
    let etag = format!(
        "\"{:x}-{:x}{}\"",
        meta.len(),
        mtime,
        coding.map(|c| format!("-{c}")).unwrap_or_default()
    );
    let cache = if status == StatusCode::OK && IMMUTABLE_PREFIXES.iter().any(|p| rel.starts_with(p))
    {
        "public, max-age=31536000, immutable"
    } else {
        "no-cache"
    };

    let not_modified = status == StatusCode::OK
        && if_none_match.is_some_and(|v| v.split(',').any(|t| t.trim() == etag || t.trim() == "*"));
    let body = if head || not_modified {
        Bytes::new()
    } else {
        match tokio::fs::read(&path).await {
            Ok(bytes) => Bytes::from(bytes),
            Err(e) => {
                tracing::error!(file = %path.display(), error = %e, "failed to read a static file");
                return server_error();
            }
        }
    };

    let mut builder = HttpResponse::builder()
        .status(if not_modified {
            StatusCode::NOT_MODIFIED
        } else {
            status
        })
        .header(header::CONTENT_TYPE, content_type)
        .header(header::CACHE_CONTROL, cache)
        .header(header::ETAG, etag);
    if head && !not_modified {
        builder = builder.header(header::CONTENT_LENGTH, meta.len());
    }
    if let Some(coding) = coding {
        builder = builder.header(header::CONTENT_ENCODING, coding);
    }
    if has_variants {
        builder = builder.header(header::VARY, "Accept-Encoding");
    }
    builder.body(body.into()).unwrap_or_else(|_| server_error())
}

fn server_error() -> Response {
    let mut res = Response::new("Internal Server Error".into());
    *res.status_mut() = StatusCode::INTERNAL_SERVER_ERROR;
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_traversal_and_hidden_files() {
        assert_eq!(
            safe_relative_path("/contact").unwrap(),
            PathBuf::from("contact")
        );
        assert_eq!(safe_relative_path("/").unwrap(), PathBuf::new());
        for bad in [
            "/../etc/passwd",
            "/%2e%2e/etc/passwd",
            "/.vite/manifest.json",
            "/a/%00",
            "/a\\..\\b",
            "/%ff",
        ] {
            assert!(safe_relative_path(bad).is_none(), "{bad}");
        }
    }
}
