//! Small filters the routes share.

use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};

use bytes::{Buf, Bytes, BytesMut};
use futures_util::{Stream, StreamExt};
use warp::{Filter, Rejection};

use crate::error::ApiError;

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

/// Refuses requests that another site's page made the browser send, such as a form on a
/// stranger's page posting here in the visitor's name (CSRF). Browsers say where a request
/// comes from in `Sec-Fetch-Site`; older ones only in `Origin`, which must then name this
/// host. A request with neither did not come from another site's page.
pub fn same_origin(trust_proxy: bool) -> impl Filter<Extract = (), Error = Rejection> + Clone {
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

/// The host the visitor asked for: `Host`, or behind our own proxy `X-Forwarded-Host`.
pub fn request_host(
    trust_proxy: bool,
) -> impl Filter<Extract = (Option<String>,), Error = Rejection> + Clone {
    warp::header::optional::<String>("host")
        .and(warp::header::optional::<String>("x-forwarded-host"))
        .map(move |host: Option<String>, forwarded: Option<String>| {
            forwarded.filter(|_| trust_proxy).or(host)
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
