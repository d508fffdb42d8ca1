//! A real SMTP server for the tests, on loopback: the SMTP conversation is `mailin`'s (a
//! protocol engine from crates.io); this crate only accepts connections and feeds it lines,
//! one thread per connection. The api's tests run it in-process (`serve`), the browser tests
//! as the `smtp-sink` binary, which keeps every message as a file.
//!
//! No TLS, deliberately: `mailin-embedded`, which wraps the same engine, always compiles
//! rustls with the aws-lc-rs provider, a C build of a minute or two in every fresh test build,
//! and it would put a second crypto provider next to the server's ring.

use std::io::{BufRead, BufReader, BufWriter, Write};
use std::net::{IpAddr, Ipv4Addr, TcpListener, TcpStream};
use std::time::Duration;

pub use mailin::{Action, Handler, Response, response};

/// Answers SMTP on `listener` with a clone of `handler` per connection, until the process
/// ends. `name` is the host name the server greets with.
pub fn serve<H>(listener: TcpListener, name: &str, handler: H)
where
    H: Handler + Clone + Send + 'static,
{
    let builder = mailin::SessionBuilder::new(name);
    for stream in listener.incoming().flatten() {
        let builder = builder.clone();
        let handler = handler.clone();
        std::thread::spawn(move || {
            // A client that vanished ends only its own conversation.
            let _ = converse(stream, &builder, handler);
        });
    }
}

fn converse<H: Handler>(
    stream: TcpStream,
    builder: &mailin::SessionBuilder,
    handler: H,
) -> std::io::Result<()> {
    let remote = stream
        .peer_addr()
        .map(|a| a.ip())
        .unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST));
    // A client that stops talking must not hold its thread for ever.
    stream.set_read_timeout(Some(Duration::from_secs(60)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut writer = BufWriter::new(stream);
    let mut session = builder.build(remote, handler);
    reply(&mut writer, &session.greeting())?;
    let mut line = Vec::with_capacity(128);
    loop {
        line.clear();
        if reader.read_until(b'\n', &mut line)? == 0 {
            return Ok(());
        }
        let res = session.process(&line);
        match res.action {
            Action::NoReply => {}
            Action::Reply => reply(&mut writer, &res)?,
            // This server offers no STARTTLS, so an upgrade is never asked for; close either way.
            Action::Close | Action::UpgradeTls => return reply(&mut writer, &res),
        }
    }
}

fn reply(writer: &mut BufWriter<TcpStream>, res: &Response) -> std::io::Result<()> {
    res.write_to(writer)?;
    writer.flush()
}
