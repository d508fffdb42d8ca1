//! Small filters the routes share.

use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};

use bytes::Bytes;
use warp::{Filter, Rejection};

use crate::error::ApiError;
use crate::state::AppState;

/// Largest JSON body a public form may send. The longest form (contact) fits in ~6 KB.
pub const FORM_BODY_LIMIT: u64 = 16 * 1024;

pub fn with_state(
    state: AppState,
) -> impl Filter<Extract = (AppState,), Error = Infallible> + Clone {
    warp::any().map(move || state.clone())
}

/// A JSON body of at most `limit` bytes, parsed into a JSON value. Requires a JSON content
/// type, which also keeps other sites' plain HTML forms from posting here.
pub fn json_body(
    limit: u64,
) -> impl Filter<Extract = (serde_json::Value,), Error = Rejection> + Clone {
    warp::header::optional::<String>("content-type")
        .and_then(|content_type: Option<String>| async move {
            let is_json = content_type
                .as_deref()
                .and_then(|c| c.split(';').next())
                .is_some_and(|m| m.trim().eq_ignore_ascii_case("application/json"));
            if is_json {
                Ok(())
            } else {
                Err(Rejection::from(ApiError::UnsupportedMediaType(
                    "Send the request body as JSON (Content-Type: application/json).".into(),
                )))
            }
        })
        .untuple_one()
        .and(warp::body::content_length_limit(limit))
        .and(warp::body::bytes())
        .and_then(|bytes: Bytes| async move {
            serde_json::from_slice::<serde_json::Value>(&bytes).map_err(|_| {
                Rejection::from(ApiError::BadRequest(
                    "The request body is not valid JSON.".into(),
                ))
            })
        })
}

/// The client's address: the socket's peer, or with `trust_proxy` the last
/// `X-Forwarded-For` entry (the one our own proxy appended; earlier ones can be forged).
pub fn client_ip(
    trust_proxy: bool,
) -> impl Filter<Extract = (IpAddr,), Error = Infallible> + Clone {
    warp::addr::remote()
        .and(warp::header::headers_cloned())
        .map(
            move |remote: Option<SocketAddr>, headers: warp::http::HeaderMap| {
                let from_proxy = headers
                    .get("x-forwarded-for")
                    .filter(|_| trust_proxy)
                    .and_then(|f| f.to_str().ok())
                    .and_then(|f| {
                        f.rsplit(',')
                            .next()
                            .and_then(|ip| ip.trim().parse::<IpAddr>().ok())
                    });
                from_proxy
                    .or(remote.map(|r| r.ip()))
                    .unwrap_or(IpAddr::from([0, 0, 0, 0]))
            },
        )
}
