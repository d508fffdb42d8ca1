//! The HTTP server loop: hyper connections whose requests go first to the static files'
//! fast path (a file that exists, answered from memory without running the application's
//! routes) and otherwise to the warp application. It writes one log line per request, and
//! treats a client that drops its connection as the everyday event it is (debug), not an
//! error.
//!
//! Every connection is bounded in time and number: it must send its first byte within
//! [`FIRST_BYTE`], its headers within 30 s (which also ends a kept-alive HTTP/1 connection
//! idle that long), and a request body within [`BODY_DEADLINE`] (else `408`); HTTP/2
//! connections are pinged and hold at most [`H2_STREAMS`] streams; and the registry in
//! [`crate::http::connections`] keeps their count within the descriptors the process has.

use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::time::{Duration, Instant};

use hyper::body::Incoming;
use hyper::service::Service;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tracing::Instrument as _;
use warp::filters::BoxedFilter;
use warp::http::{Method, Request, StatusCode};
use warp::reply::Response;

use crate::http::connections::{Activity, Connections, FIRST_BYTE};
use crate::http::filters::PeerAddr;
use crate::http::security_headers::SecurityHeaders;
use crate::http::static_files::StaticFiles;

/// How long a request's body may take to arrive in full.
pub const BODY_DEADLINE: Duration = Duration::from_secs(30);
/// Streams one HTTP/2 connection may have open at once.
const H2_STREAMS: u32 = 64;

/// Serves `app` (with `files` in front of it) on `listener` until `shutdown` completes,
/// then lets the requests in flight finish. `connections` says how many may be open.
pub async fn run(
    listener: TcpListener,
    app: BoxedFilter<(Response,)>,
    files: Arc<StaticFiles>,
    security: Arc<SecurityHeaders>,
    connections: Arc<Connections>,
    shutdown: impl Future<Output = ()>,
) {
    let app = TowerToHyperService::new(warp::service(app));
    let graceful = GracefulShutdown::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(pair) => pair,
                Err(e) => {
                    accept_failed(e).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let Some(admitted) = connections.admit(peer.ip()) else {
            tracing::debug!(%peer, "no room for another connection: refused");
            continue;
        };
        // Responses go out whole; waiting to fill a packet only adds latency.
        let _ = stream.set_nodelay(true);
        let handler = Handler {
            app: app.clone(),
            files: files.clone(),
            security: security.clone(),
            peer,
            activity: admitted.activity.clone(),
        };
        let mut builder = auto::Builder::new(TokioExecutor::new());
        builder
            .http1()
            .timer(TokioTimer::new())
            .header_read_timeout(Duration::from_secs(30));
        builder
            .http2()
            .timer(TokioTimer::new())
            .max_concurrent_streams(H2_STREAMS)
            .keep_alive_interval(Duration::from_secs(20))
            .keep_alive_timeout(Duration::from_secs(10));
        let watcher = graceful.watcher();
        tokio::spawn(async move {
            // The protocol is sniffed from the first bytes, which hyper waits for forever:
            // a client that sends nothing is let go here.
            let mut first = [0u8; 1];
            let spoke = tokio::select! {
                read = tokio::time::timeout(FIRST_BYTE, stream.peek(&mut first)) => {
                    matches!(read, Ok(Ok(n)) if n > 0)
                }
                () = admitted.activity.closed() => false,
            };
            if !spoke {
                return;
            }
            let conn = builder
                .serve_connection(TokioIo::new(stream), handler)
                .into_owned();
            let conn = watcher.watch(conn);
            tokio::select! {
                result = conn => {
                    if let Err(e) = result {
                        // Clients that go away mid-request (a closed tab, a load test
                        // stopping) are not the server's problem.
                        tracing::debug!(error = %e, "connection ended with an error");
                    }
                }
                () = admitted.activity.closed() => {
                    tracing::debug!(%peer, "idle connection closed to make room");
                }
            }
            drop(admitted);
        });
    }
    drop(listener);
    // Requests in flight finish (their writes are committed and answered); give up on
    // idle keep-alive connections after a few seconds.
    tokio::select! {
        () = graceful.shutdown() => {}
        () = tokio::time::sleep(Duration::from_secs(10)) => {
            tracing::warn!("some connections were still open after 10 seconds; closing them");
        }
    }
}

/// Out of file descriptors and the like: say so, and give the system a moment.
async fn accept_failed(e: std::io::Error) {
    use std::io::ErrorKind::*;
    if matches!(
        e.kind(),
        ConnectionRefused | ConnectionAborted | ConnectionReset
    ) {
        return;
    }
    tracing::error!(error = %e, "could not accept a connection");
    tokio::time::sleep(Duration::from_secs(1)).await;
}

#[derive(Clone)]
struct Handler<A> {
    /// The warp application as a hyper service.
    app: A,
    files: Arc<StaticFiles>,
    security: Arc<SecurityHeaders>,
    peer: SocketAddr,
    /// The connection's place in the registry: busy while a request is answered.
    activity: Arc<Activity>,
}

impl<A> Service<Request<Incoming>> for Handler<A>
where
    A: Service<Request<DeadlineBody>, Response = Response, Error = Infallible>
        + Clone
        + Send
        + Sync
        + 'static,
    A::Future: Send,
{
    type Response = Response;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Response, Infallible>> + Send>>;

    fn call(&self, req: Request<Incoming>) -> Self::Future {
        let handler = self.clone();
        Box::pin(async move {
            let _busy = handler.activity.busy();
            let started = Instant::now();
            let logged = tracing::enabled!(target: "api::request", tracing::Level::INFO)
                .then(|| (req.method().clone(), req.uri().path().to_owned()));
            let fast = handler
                .files
                .serve_existing(req.method(), req.uri().path(), req.headers())
                .await;
            let res = match fast {
                Some(mut res) => {
                    handler.security.add(req.uri().path(), res.headers_mut());
                    res
                }
                None => {
                    let (mut req, received) = DeadlineBody::wrap(req);
                    req.extensions_mut().insert(PeerAddr(handler.peer));
                    let span = tracing::info_span!(
                        "request",
                        method = %req.method(),
                        path = %crate::http::redact::path(req.uri().path())
                    );
                    let answer = handler.app.call(req).instrument(span);
                    tokio::select! {
                        res = answer => match res {
                            Ok(res) => res,
                            Err(never) => match never {},
                        },
                        () = body_overdue(started, received) => {
                            tracing::info!(peer = %handler.peer, "request body not received in time");
                            request_timeout()
                        }
                    }
                }
            };
            if let Some((method, path)) = logged {
                log_request(&method, &path, res.status(), started.elapsed());
            }
            Ok(res)
        })
    }
}

/// One line per request: method, path (no query string; e-mail addresses masked),
/// status and time taken.
fn log_request(method: &Method, path: &str, status: StatusCode, took: Duration) {
    tracing::info!(
        target: "api::request",
        "{method} {} {} {:.2}ms",
        crate::http::redact::path(path),
        status.as_u16(),
        took.as_secs_f64() * 1000.0
    );
}

/// A request body that says when it has been read to its end, so the server can give a
/// slow upload a deadline ([`BODY_DEADLINE`]) without limiting how long the answer takes.
pub struct DeadlineBody {
    inner: Incoming,
    received: Arc<std::sync::atomic::AtomicBool>,
}

impl DeadlineBody {
    fn wrap(req: Request<Incoming>) -> (Request<DeadlineBody>, Arc<std::sync::atomic::AtomicBool>) {
        use http_body::Body as _;
        let received = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let flag = received.clone();
        let req = req.map(|inner| {
            // A body that is empty from the start has nothing to wait for.
            flag.store(inner.is_end_stream(), std::sync::atomic::Ordering::SeqCst);
            DeadlineBody {
                inner,
                received: flag,
            }
        });
        (req, received)
    }
}

impl http_body::Body for DeadlineBody {
    type Data = bytes::Bytes;
    type Error = hyper::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<http_body::Frame<Self::Data>, Self::Error>>> {
        let polled = Pin::new(&mut self.inner).poll_frame(cx);
        if matches!(polled, std::task::Poll::Ready(None | Some(Err(_))))
            || self.inner.is_end_stream()
        {
            self.received
                .store(true, std::sync::atomic::Ordering::SeqCst);
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.inner.size_hint()
    }
}

/// Resolves if the body has not been read in full by `started` + [`BODY_DEADLINE`]; never
/// otherwise (a route that does not read its body, or reads it in time, is not hurried).
async fn body_overdue(started: Instant, received: Arc<std::sync::atomic::AtomicBool>) {
    tokio::time::sleep_until((started + BODY_DEADLINE).into()).await;
    if received.load(std::sync::atomic::Ordering::SeqCst) {
        std::future::pending::<()>().await;
    }
}

fn request_timeout() -> Response {
    let mut res = Response::new(
        serde_json::json!({ "message": "The request took too long to arrive. Please try again." })
            .to_string()
            .into(),
    );
    *res.status_mut() = StatusCode::REQUEST_TIMEOUT;
    res.headers_mut().insert(
        warp::http::header::CONTENT_TYPE,
        warp::http::HeaderValue::from_static("application/json"),
    );
    res.headers_mut().insert(
        warp::http::header::CONNECTION,
        warp::http::HeaderValue::from_static("close"),
    );
    res
}
