//! The SMTP client: lettre's protocol engine on connections we open ourselves, kept open
//! between messages.
//!
//! Why not lettre's own pooled transport: it opens its sockets with Nagle's algorithm on,
//! and it writes a message's body and the `.` that ends it as two writes. The second,
//! small write then waits for the server to acknowledge the first, which a server delays by
//! up to 40 ms (it has nothing to say until the `.` arrives): each connection carried about
//! 22 messages a second whatever the machine. Our sockets set `TCP_NODELAY`, so a message
//! costs its round trips alone.

use std::sync::Arc;
use std::time::{Duration, Instant};

use lettre::address::Envelope;
use lettre::transport::smtp::authentication::{Credentials, Mechanism};
use lettre::transport::smtp::client::{
    AsyncSmtpConnection, AsyncTokioStream, Certificate, TlsParameters,
};
use lettre::transport::smtp::extension::ClientId;
use tokio::net::TcpStream;

/// How long connecting, or one message's whole conversation, may take.
const TIMEOUT: Duration = Duration::from_secs(30);
/// A connection left unused this long is closed rather than reused: servers drop idle
/// clients (Postfix after 300 s), and a send on a dropped one would fail for no reason.
const IDLE: Duration = Duration::from_secs(60);
/// Connections kept open, at most: one per message the sender has in flight (its
/// `IN_FLIGHT` is this number, so the sender depends on this module and not back).
pub const KEEP: usize = 8;

/// How the connection is protected, from the URL's form.
enum Security {
    /// `smtp://host:port`: none (a relay on the same machine, and the tests).
    None,
    /// `smtp://…?tls=required`: STARTTLS, which must succeed.
    StartTls(TlsParameters),
    /// `smtps://`: TLS from the first byte.
    Wrapper(tokio_rustls::TlsConnector),
}

pub struct Smtp {
    host: String,
    port: u16,
    security: Security,
    credentials: Option<Credentials>,
    hello: ClientId,
    idle: std::sync::Mutex<Vec<(AsyncSmtpConnection, Instant)>>,
}

/// Why a message did not go, as the queue needs to know it.
pub enum Refusal {
    /// The server refused it for good (5xx).
    Permanent(String),
    /// Anything else: a 4xx, a lost connection, a timeout. Worth trying again later.
    Temporary(String),
}

impl Smtp {
    /// The client for `url`: `smtp://host:port`, `smtp://user:pass@host:587?tls=required`
    /// or `smtps://user:pass@host:465` (user and password percent-encoded; a path names
    /// the EHLO name). `ca` (PEM) is trusted besides the public roots. The error never
    /// repeats the URL, which holds a password.
    pub fn from_url(url: &str, ca: Option<&[u8]>) -> anyhow::Result<Smtp> {
        let bad = |why: &str| {
            anyhow::anyhow!("SMTP_URL is not a usable smtp:// or smtps:// address: {why}")
        };
        let parsed = url::Url::parse(url).map_err(|e| bad(&e.to_string()))?;
        let host = parsed
            .host_str()
            .ok_or_else(|| bad("it names no host"))?
            .to_owned();
        // `[::1]` in a URL; a socket wants the bare address.
        let host = host
            .trim_start_matches('[')
            .trim_end_matches(']')
            .to_owned();
        let tls = parsed
            .query_pairs()
            .find(|(k, _)| k == "tls")
            .map(|(_, v)| v.into_owned());
        let (security, default_port) = match (parsed.scheme(), tls.as_deref()) {
            ("smtp", None) => (Security::None, 25),
            ("smtp", Some("required")) => {
                let mut parameters = TlsParameters::builder(host.clone());
                if let Some(pem) = ca {
                    let certificate = Certificate::from_pem(pem)
                        .map_err(|_| anyhow::anyhow!("SMTP_CA_FILE holds no PEM certificate"))?;
                    parameters = parameters.add_root_certificate(certificate);
                }
                let parameters = parameters.build_rustls().map_err(|e| bad(&e.to_string()))?;
                (Security::StartTls(parameters), 587)
            }
            ("smtps", None) => (Security::Wrapper(tls_connector(ca)?), 465),
            _ => return Err(bad("use smtp://, smtp://…?tls=required or smtps://")),
        };
        let decode = |s: &str| {
            percent_encoding::percent_decode_str(s)
                .decode_utf8()
                .map(|s| s.into_owned())
                .map_err(|_| bad("its user or password is not percent-encoded UTF-8"))
        };
        let credentials = match parsed.password() {
            Some(password) => Some(Credentials::new(
                decode(parsed.username())?,
                decode(password)?,
            )),
            None => None,
        };
        let name = parsed.path().trim_matches('/');
        let hello = if name.is_empty() {
            ClientId::default()
        } else {
            ClientId::Domain(name.to_owned())
        };
        Ok(Smtp {
            port: parsed.port().unwrap_or(default_port),
            host,
            security,
            credentials,
            hello,
            idle: std::sync::Mutex::default(),
        })
    }

    /// Sends one message, on an open connection when one is idle; returns the server's
    /// answer. A connection that failed
    /// is closed; one that is fine goes back for the next message.
    pub async fn send(&self, envelope: &Envelope, message: &[u8]) -> Result<String, Refusal> {
        if let Some(kept) = self.take_idle() {
            match self.send_on(kept, envelope, message).await {
                // The server had closed a kept connection before the message went (no
                // reply to it at all): one try on a fresh connection, now.
                Err(Failure::Lost(_)) => {}
                other => return other.map_err(Failure::into_refusal),
            }
        }
        let fresh = self.connect().await?;
        self.send_on(fresh, envelope, message)
            .await
            .map_err(Failure::into_refusal)
    }

    async fn send_on(
        &self,
        mut connection: AsyncSmtpConnection,
        envelope: &Envelope,
        message: &[u8],
    ) -> Result<String, Failure> {
        match tokio::time::timeout(TIMEOUT, connection.send(envelope, message)).await {
            Ok(Ok(response)) => {
                self.put_back(connection);
                let said = response.message().next().unwrap_or_default();
                Ok(format!("{} {said}", response.code()))
            }
            Ok(Err(e)) => {
                // A refusal with a code (4xx, 5xx) is about this message; lettre closes the
                // connection after one, and one that broke is closed too. Only a kept one
                // is worth trying afresh, and only when the server never answered.
                let answered = e.is_transient() || e.is_permanent();
                if connection.has_broken() {
                    connection.abort().await;
                } else {
                    self.put_back(connection);
                }
                Err(if answered {
                    Failure::Refused(refusal(&e))
                } else {
                    Failure::Lost(e.to_string())
                })
            }
            Err(_) => {
                connection.abort().await;
                Err(Failure::Refused(Refusal::Temporary(
                    "the SMTP server did not answer in time".into(),
                )))
            }
        }
    }

    fn take_idle(&self) -> Option<AsyncSmtpConnection> {
        let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
        // Newest last: the freshest is the likeliest still open; the stale are dropped
        // (closing their sockets without a QUIT: the server sees a client that left).
        idle.retain(|(_, since)| since.elapsed() < IDLE);
        idle.pop().map(|(connection, _)| connection)
    }

    fn put_back(&self, connection: AsyncSmtpConnection) {
        let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
        if idle.len() < KEEP {
            idle.push((connection, Instant::now()));
        }
    }

    async fn connect(&self) -> Result<AsyncSmtpConnection, Refusal> {
        let opened = async {
            let tcp = TcpStream::connect((self.host.as_str(), self.port))
                .await
                .map_err(|e| format!("could not connect to the SMTP server: {e}"))?;
            tcp.set_nodelay(true)
                .map_err(|e| format!("could not set up the SMTP connection: {e}"))?;
            let stream: Box<dyn AsyncTokioStream> = match &self.security {
                Security::Wrapper(tls) => {
                    let name = rustls::pki_types::ServerName::try_from(self.host.clone())
                        .map_err(|e| format!("the SMTP host is not a usable TLS name: {e}"))?;
                    Box::new(Tls(tls
                        .connect(name, tcp)
                        .await
                        .map_err(|e| format!("TLS with the SMTP server failed: {e}"))?))
                }
                _ => Box::new(tcp),
            };
            let mut connection = AsyncSmtpConnection::connect_with_transport(stream, &self.hello)
                .await
                .map_err(|e| e.to_string())?;
            if let Security::StartTls(parameters) = &self.security {
                connection
                    .starttls(parameters.clone(), &self.hello)
                    .await
                    .map_err(|e| format!("STARTTLS failed: {e}"))?;
            }
            if let Some(credentials) = &self.credentials {
                connection
                    .auth(&[Mechanism::Plain, Mechanism::Login], credentials)
                    .await
                    .map_err(|e| format!("the SMTP server refused the sign-in: {e}"))?;
            }
            Ok::<_, String>(connection)
        };
        match tokio::time::timeout(TIMEOUT, opened).await {
            Ok(Ok(connection)) => Ok(connection),
            // Not being able to connect or sign in is never the message's fault.
            Ok(Err(why)) => Err(Refusal::Temporary(why)),
            Err(_) => Err(Refusal::Temporary(
                "connecting to the SMTP server timed out".into(),
            )),
        }
    }
}

/// How one try on one connection ended badly.
enum Failure {
    /// The server answered with a refusal (or did not answer in time).
    Refused(Refusal),
    /// The connection broke without an answer.
    Lost(String),
}

impl Failure {
    fn into_refusal(self) -> Refusal {
        match self {
            Failure::Refused(refusal) => refusal,
            Failure::Lost(why) => Refusal::Temporary(why),
        }
    }
}

fn refusal(e: &lettre::transport::smtp::Error) -> Refusal {
    if e.is_permanent() {
        Refusal::Permanent(e.to_string())
    } else {
        Refusal::Temporary(e.to_string())
    }
}

/// TLS for `smtps://`: rustls with ring and Mozilla's roots, as lettre's STARTTLS uses,
/// and the certificates of `ca` (PEM) besides.
fn tls_connector(ca: Option<&[u8]>) -> anyhow::Result<tokio_rustls::TlsConnector> {
    use rustls::pki_types::{CertificateDer, pem::PemObject as _};
    let mut roots = rustls::RootCertStore {
        roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
    };
    if let Some(pem) = ca {
        let mut added = 0;
        for certificate in CertificateDer::pem_slice_iter(pem) {
            let certificate = certificate
                .map_err(|e| anyhow::anyhow!("SMTP_CA_FILE is not readable PEM: {e}"))?;
            roots
                .add(certificate)
                .map_err(|e| anyhow::anyhow!("SMTP_CA_FILE holds an unusable certificate: {e}"))?;
            added += 1;
        }
        anyhow::ensure!(added > 0, "SMTP_CA_FILE holds no PEM certificate");
    }
    let config = rustls::ClientConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()?
    .with_root_certificates(roots)
    .with_no_client_auth();
    Ok(tokio_rustls::TlsConnector::from(Arc::new(config)))
}

/// A TLS connection as lettre takes one (its trait for streams it did not open).
#[derive(Debug)]
struct Tls(tokio_rustls::client::TlsStream<TcpStream>);

impl AsyncTokioStream for Tls {
    fn peer_addr(&self) -> std::io::Result<std::net::SocketAddr> {
        self.0.get_ref().0.peer_addr()
    }
}

impl tokio::io::AsyncRead for Tls {
    fn poll_read(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.0).poll_read(cx, buf)
    }
}

impl tokio::io::AsyncWrite for Tls {
    fn poll_write(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &[u8],
    ) -> std::task::Poll<std::io::Result<usize>> {
        std::pin::Pin::new(&mut self.0).poll_write(cx, buf)
    }

    fn poll_flush(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.0).poll_flush(cx)
    }

    fn poll_shutdown(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.0).poll_shutdown(cx)
    }
}
