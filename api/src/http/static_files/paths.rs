//! Request paths and file paths: decoding and refusing what could leave `dist/`, the one
//! URL per page, and content types.

use std::path::{Component, Path};

use percent_encoding::percent_decode_str;
use warp::http::{HeaderValue, StatusCode, header};
use warp::hyper::body::Bytes;
use warp::reply::Response;

/// A path the generator reports, checked like a request's.
pub(super) fn clean_rel(rel: &str) -> Option<String> {
    safe_relative_path(&format!("/{rel}")).filter(|r| !r.is_empty())
}

/// Decodes the URL path into `a/b/c` and refuses anything that could leave `dist` or reach
/// hidden files.
pub(super) fn safe_relative_path(raw: &str) -> Option<String> {
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
pub(super) fn normalised(raw: &str) -> String {
    raw.split('/')
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join("/")
}

pub(super) fn content_type(rel: &str) -> HeaderValue {
    let mime = mime_guess::from_path(rel).first_or_octet_stream();
    let value =
        if mime.type_() == "text" || mime.subtype() == "javascript" || mime.subtype() == "json" {
            format!("{mime}; charset=utf-8")
        } else {
            mime.to_string()
        };
    HeaderValue::from_str(&value).unwrap_or(HeaderValue::from_static("application/octet-stream"))
}

pub(super) fn redirect(location: &str) -> Response {
    let mut res = Response::new(Bytes::new().into());
    *res.status_mut() = StatusCode::PERMANENT_REDIRECT;
    if let Ok(value) = HeaderValue::from_str(location) {
        res.headers_mut().insert(header::LOCATION, value);
    }
    res
}

pub(super) fn server_error() -> Response {
    let mut res = Response::new("Internal Server Error".into());
    *res.status_mut() = StatusCode::INTERNAL_SERVER_ERROR;
    res
}

/// Paths the application's own routes answer even where `dist/` might have a file; the
/// static files' fast path leaves them alone.
pub(super) fn is_server_route(path: &str) -> bool {
    ["/api", "/uploads"].iter().any(|prefix| {
        path.strip_prefix(prefix)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
    })
}
