//! The HTTP server loop: hyper connections whose requests go first to the static files'
//! fast path (a file that exists, answered from memory without running the application's
//! routes) and otherwise to the warp application. It writes one log line per request, and
//! treats a client that drops its connection as the everyday event it is (debug), not an
//! error.

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

use crate::filters::PeerAddr;
use crate::static_files::StaticFiles;

/// Serves `app` (with `files` in front of it) on `listener` until `shutdown` completes,
/// then lets the requests in flight finish.
pub async fn run(
    listener: TcpListener,
    app: BoxedFilter<(Response,)>,
    files: Arc<StaticFiles>,
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
        // Responses go out whole; waiting to fill a packet only adds latency.
        let _ = stream.set_nodelay(true);
        let handler = Handler {
            app: app.clone(),
            files: files.clone(),
            peer,
        };
        let mut builder = auto::Builder::new(TokioExecutor::new());
        builder
            .http1()
            .timer(TokioTimer::new())
            .header_read_timeout(Duration::from_secs(30));
        let conn = builder
            .serve_connection(TokioIo::new(stream), handler)
            .into_owned();
        let conn = graceful.watch(conn);
        tokio::spawn(async move {
            if let Err(e) = conn.await {
                // Clients that go away mid-request (a closed tab, a load test stopping)
                // are not the server's problem.
                tracing::debug!(error = %e, "connection ended with an error");
            }
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
    peer: SocketAddr,
}

impl<A> Service<Request<Incoming>> for Handler<A>
where
    A: Service<Request<Incoming>, Response = Response, Error = Infallible>
        + Clone
        + Send
        + Sync
        + 'static,
    A::Future: Send,
{
    type Response = Response;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Response, Infallible>> + Send>>;

    fn call(&self, mut req: Request<Incoming>) -> Self::Future {
        let handler = self.clone();
        Box::pin(async move {
            let started = Instant::now();
            let logged = tracing::enabled!(target: "api::request", tracing::Level::INFO)
                .then(|| (req.method().clone(), req.uri().path().to_owned()));
            let fast = handler
                .files
                .serve_existing(req.method(), req.uri().path(), req.headers())
                .await;
            let res = match fast {
                Some(mut res) => {
                    crate::add_security_headers(req.uri().path(), res.headers_mut());
                    res
                }
                None => {
                    req.extensions_mut().insert(PeerAddr(handler.peer));
                    let span = tracing::info_span!(
                        "request",
                        method = %req.method(),
                        path = %crate::redact::path(req.uri().path())
                    );
                    match handler.app.call(req).instrument(span).await {
                        Ok(res) => res,
                        Err(never) => match never {},
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
        crate::redact::path(path),
        status.as_u16(),
        took.as_secs_f64() * 1000.0
    );
}
