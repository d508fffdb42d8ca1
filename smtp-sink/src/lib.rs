//! A real SMTP server for the tests, on loopback: the SMTP conversation is `mailin`'s (a
//! protocol engine from crates.io); this crate only accepts connections and feeds it lines,
//! one thread per connection. The api's tests run it in-process (`serve`, or `serve_tls`
//! for the api's `smtps://` and STARTTLS paths), the browser tests as the `smtp-sink`
//! binary, which keeps every message as a file.
//!
//! TLS is rustls with ring, the provider the api already builds, not `mailin-embedded`'s
//! (which always compiles rustls with aws-lc-rs, a C build of a minute or two in every fresh
//! test build, and would put a second crypto provider next to the server's).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{IpAddr, Ipv4Addr, Shutdown, TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub use mailin::{Action, Handler, Response, response};

/// How a listener speaks TLS.
#[derive(Clone)]
pub enum Tls {
    /// Plain text only.
    None,
    /// TLS from the first byte (`smtps://`, port 465).
    Implicit(Arc<rustls::ServerConfig>),
    /// Plain text that offers STARTTLS (port 587).
    StartTls(Arc<rustls::ServerConfig>),
}

/// Answers SMTP on `listener` with a clone of `handler` per connection, until the process
/// ends. `name` is the host name the server greets with.
pub fn serve<H>(listener: TcpListener, name: &str, handler: H)
where
    H: Handler + Clone + Send + 'static,
{
    serve_tls(listener, name, handler, Tls::None, Open::default());
}

/// The connections a server has open, for a test to hang up on them all at once, as a
/// server that drops idle clients does.
#[derive(Clone, Default)]
pub struct Open(Arc<Mutex<Vec<TcpStream>>>);

impl Open {
    /// Closes every connection the server has taken so far.
    pub fn hang_up(&self) {
        let mut open = self.0.lock().unwrap_or_else(|e| e.into_inner());
        for stream in open.drain(..) {
            let _ = stream.shutdown(Shutdown::Both);
        }
    }
}

/// [`serve`], speaking TLS as `tls` says, with its connections in `open`.
pub fn serve_tls<H>(listener: TcpListener, name: &str, handler: H, tls: Tls, open: Open)
where
    H: Handler + Clone + Send + 'static,
{
    let mut builder = mailin::SessionBuilder::new(name);
    if matches!(tls, Tls::StartTls(_)) {
        builder.enable_start_tls();
    }
    for stream in listener.incoming().flatten() {
        if let Ok(clone) = stream.try_clone() {
            open.0.lock().unwrap_or_else(|e| e.into_inner()).push(clone);
        }
        let builder = builder.clone();
        let handler = handler.clone();
        let tls = tls.clone();
        std::thread::spawn(move || {
            // A client that vanished (or failed its handshake) ends only its own conversation.
            let _ = converse(stream, &builder, handler, tls);
        });
    }
}

fn converse<H: Handler>(
    stream: TcpStream,
    builder: &mailin::SessionBuilder,
    handler: H,
    tls: Tls,
) -> std::io::Result<()> {
    let remote = stream
        .peer_addr()
        .map(|a| a.ip())
        .unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST));
    // A client that stops talking must not hold its thread for ever.
    stream.set_read_timeout(Some(Duration::from_secs(60)))?;
    let mut session = builder.build(remote, handler);
    let greeting = session.greeting();
    match tls {
        Tls::None => {
            talk(stream, &mut session, Some(&greeting))?;
        }
        Tls::Implicit(config) => {
            talk(encrypted(stream, config)?, &mut session, Some(&greeting))?;
        }
        Tls::StartTls(config) => {
            if let Some(stream) = talk(stream, &mut session, Some(&greeting))? {
                session.tls_active();
                talk(encrypted(stream, config)?, &mut session, None)?;
            }
        }
    }
    Ok(())
}

fn encrypted(
    stream: TcpStream,
    config: Arc<rustls::ServerConfig>,
) -> std::io::Result<rustls::StreamOwned<rustls::ServerConnection, TcpStream>> {
    let connection = rustls::ServerConnection::new(config).map_err(std::io::Error::other)?;
    Ok(rustls::StreamOwned::new(connection, stream))
}

/// Feeds `stream`'s lines to `session` until the client leaves; returns the stream when
/// the client asked for STARTTLS (after the server's go-ahead), for the handshake.
fn talk<S: Read + Write, H: Handler>(
    stream: S,
    session: &mut mailin::Session<H>,
    greeting: Option<&Response>,
) -> std::io::Result<Option<S>> {
    let mut reader = BufReader::new(stream);
    if let Some(greeting) = greeting {
        reply(reader.get_mut(), greeting)?;
    }
    let mut line = Vec::with_capacity(128);
    loop {
        line.clear();
        if reader.read_until(b'\n', &mut line)? == 0 {
            return Ok(None);
        }
        let res = session.process(&line);
        match res.action {
            Action::NoReply => {}
            Action::Reply => reply(reader.get_mut(), &res)?,
            Action::Close => return reply(reader.get_mut(), &res).map(|()| None),
            // A client waits for the go-ahead before its handshake, so nothing is buffered.
            Action::UpgradeTls => {
                reply(reader.get_mut(), &res)?;
                return Ok(Some(reader.into_inner()));
            }
        }
    }
}

fn reply(writer: &mut impl Write, res: &Response) -> std::io::Result<()> {
    writer.write_all(&res.buffer()?)?;
    writer.flush()
}
