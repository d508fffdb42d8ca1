//! Small filters the routes share.

use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};

use bytes::{Buf, Bytes, BytesMut};
use futures_util::{Stream, StreamExt};
use serde::de::DeserializeOwned;
use warp::{Filter, Rejection};

use crate::http::error::ApiError;
use crate::http::proxy::ProxyTrust;

/// Largest body a public form may send. The longest form (contact: a 5,000-character
/// message) fits in JSON even in four-byte characters, and in a URL-encoded post, where
/// every such byte becomes three.
pub const FORM_BODY_LIMIT: u64 = 64 * 1024;

/// The request body, read up to `limit` bytes whether its length is declared
/// (`Content-Length`) or not (`Transfer-Encoding: chunked`). Over the limit it is
/// `Err(PayloadTooLarge)`, found without reading more than `limit` bytes; the route decides
/// how to answer.
pub fn limited_body(
    limit: u64,
) -> impl Filter<Extract = (Result<Bytes, ApiError>,), Error = Rejection> + Clone {
    warp::header::optional::<u64>("content-length")
        .and(warp::body::stream())
        .then(move |declared: Option<u64>, body| read_limited(declared, body, limit))
}

async fn read_limited<S, B>(declared: Option<u64>, body: S, limit: u64) -> Result<Bytes, ApiError>
where
    S: Stream<Item = Result<B, warp::Error>>,
    B: Buf,
{
    if declared.is_some_and(|n| n > limit) {
        return Err(ApiError::PayloadTooLarge);
    }
    let mut body = std::pin::pin!(body);
    let mut out = BytesMut::new();
    while let Some(chunk) = body.next().await {
        let mut chunk = chunk.map_err(|e| {
            tracing::debug!(error = %e, "request body read failed");
            ApiError::BadRequest("The request body could not be read.".into())
        })?;
        if (out.len() + chunk.remaining()) as u64 > limit {
            return Err(ApiError::PayloadTooLarge);
        }
        while chunk.has_remaining() {
            let part = chunk.chunk();
            out.extend_from_slice(part);
            let n = part.len();
            chunk.advance(n);
        }
    }
    Ok(out.freeze())
}

/// A JSON object of at most `limit` bytes (declared or chunked) read into `T`: `415` for
/// another content type, `413` over the limit, `400` for anything but an object or naming
/// what is wrong with the JSON (types with `deny_unknown_fields` refuse keys they do not take).
pub fn json_body<T: DeserializeOwned + Send>(
    limit: u64,
) -> impl Filter<Extract = (T,), Error = Rejection> + Clone {
    warp::header::optional::<String>("content-type")
        .and(limited_body(limit))
        .and_then(
            |content_type: Option<String>, body: Result<Bytes, ApiError>| async move {
                let is_json = content_type
                    .as_deref()
                    .and_then(|c| c.split(';').next())
                    .is_some_and(|m| m.trim().eq_ignore_ascii_case("application/json"));
                if !is_json {
                    return Err(Rejection::from(ApiError::UnsupportedMediaType(
                        "Send the request body as JSON (Content-Type: application/json).".into(),
                    )));
                }
                let body = body?;
                // Every body this API takes is an object; serde would read a struct from an
                // array too (`[]` would be an empty post).
                if body.trim_ascii_start().first() != Some(&b'{') {
                    return Err(Rejection::from(ApiError::BadRequest(
                        "The request body must be a JSON object.".into(),
                    )));
                }
                serde_json::from_slice::<T>(&body).map_err(|e| {
                    Rejection::from(ApiError::BadRequest(format!(
                        "The request body is not valid: {}.",
                        json_problem(&e)
                    )))
                })
            },
        )
}

/// serde_json's description of a bad body, without its line and column noise.
fn json_problem(e: &serde_json::Error) -> String {
    let text = e.to_string();
    match text.find(" at line ") {
        Some(at) => text[..at].to_owned(),
        None => text,
    }
}

/// A record's id from the path: `400` for anything but a positive whole number
/// (`/contacts/abc`). Routes take the segment as text and check it only once the path,
/// method and session have matched, so a bad token is a 401 whatever the id.
pub fn parse_id(raw: &str) -> Result<i64, ApiError> {
    raw.parse::<i64>()
        .ok()
        .filter(|id| *id > 0)
        .ok_or_else(|| ApiError::BadRequest("The id must be a positive whole number.".into()))
}

/// Refuses requests that another site's page made the browser send, such as a form on a
/// stranger's page posting here in the visitor's name (CSRF). Browsers say where a request
/// comes from in `Sec-Fetch-Site`; older ones only in `Origin`, which must then name this
/// host. A request with neither did not come from another site's page.
pub fn same_origin(
    trust_proxy: ProxyTrust,
) -> impl Filter<Extract = (), Error = Rejection> + Clone {
    warp::header::optional::<String>("sec-fetch-site")
        .and(warp::header::optional::<String>("origin"))
        .and(request_host(trust_proxy))
        .and_then(
            |site: Option<String>, origin: Option<String>, host: Option<String>| async move {
                if is_cross_site(site.as_deref(), origin.as_deref(), host.as_deref()) {
                    tracing::warn!(?site, ?origin, ?host, "cross-site post refused");
                    Err(Rejection::from(ApiError::Forbidden(
                        "Forms can only be sent from this website's own pages.".into(),
                    )))
                } else {
                    Ok(())
                }
            },
        )
        .untuple_one()
}

/// The host the visitor asked for: `Host`, or from our own proxy `X-Forwarded-Host`.
pub fn request_host(
    trust_proxy: ProxyTrust,
) -> impl Filter<Extract = (Option<String>,), Error = Rejection> + Clone {
    peer()
        .and(warp::header::optional::<String>("host"))
        .and(warp::header::optional::<String>("x-forwarded-host"))
        .map(
            move |peer: Option<SocketAddr>, host: Option<String>, forwarded: Option<String>| {
                forwarded
                    .filter(|_| trust_proxy.trusts(peer.map(|p| p.ip())))
                    .or(host)
            },
        )
}

/// The connection's peer: from our server loop, or warp's (tests).
fn peer() -> impl Filter<Extract = (Option<SocketAddr>,), Error = Infallible> + Clone {
    warp::ext::optional::<PeerAddr>()
        .and(warp::addr::remote())
        .map(|peer: Option<PeerAddr>, warp_peer: Option<SocketAddr>| {
            peer.map(|p| p.0).or(warp_peer)
        })
}

fn is_cross_site(fetch_site: Option<&str>, origin: Option<&str>, host: Option<&str>) -> bool {
    if let Some(site) = fetch_site {
        return !(site.eq_ignore_ascii_case("same-origin") || site.eq_ignore_ascii_case("none"));
    }
    let Some(origin) = origin else {
        return false;
    };
    // "null" (a sandboxed frame, a data: URL) has no "://" and is refused like any stranger.
    match (origin.split_once("://"), host) {
        (Some((_, origin_host)), Some(host)) => !origin_host.eq_ignore_ascii_case(host),
        _ => true,
    }
}

/// The connection's peer, put in each request's extensions by our server loop
/// ([`crate::http::server`]); warp's own `addr::remote()` is only filled by warp's server (and
/// by `warp::test`).
#[derive(Debug, Clone, Copy)]
pub struct PeerAddr(pub SocketAddr);

/// The client's address: the socket's peer, or, when the peer is one of our trusted
/// proxies, the last `X-Forwarded-For` entry (the one our proxy appended; earlier ones can
/// be forged).
pub fn client_ip(
    trust_proxy: ProxyTrust,
) -> impl Filter<Extract = (IpAddr,), Error = Infallible> + Clone {
    peer().and(warp::header::headers_cloned()).map(
        move |remote: Option<SocketAddr>, headers: warp::http::HeaderMap| {
            let from_proxy = headers
                .get("x-forwarded-for")
                .filter(|_| trust_proxy.trusts(remote.map(|r| r.ip())))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cross_site_requests_are_told_apart() {
        let host = Some("party.example");
        // Modern browsers say so themselves.
        assert!(!is_cross_site(Some("same-origin"), None, host));
        assert!(!is_cross_site(Some("none"), None, host));
        assert!(is_cross_site(
            Some("cross-site"),
            Some("https://party.example"),
            host
        ));
        assert!(
            is_cross_site(Some("same-site"), None, host),
            "a sibling subdomain is another site"
        );
        // Older ones only send Origin.
        assert!(!is_cross_site(None, Some("https://party.example"), host));
        assert!(!is_cross_site(None, Some("http://PARTY.example"), host));
        assert!(is_cross_site(None, Some("https://evil.example"), host));
        assert!(is_cross_site(None, Some("null"), host));
        assert!(is_cross_site(None, Some("https://party.example"), None));
        // No browser page: curl, a server, a test.
        assert!(!is_cross_site(None, None, host));
    }
}
