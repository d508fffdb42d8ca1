//! A local SMTP server for the browser tests: accepts every message and writes it whole to
//! `SINK_DIR/{n}.eml`, so a test can read the mail the site sent (the newsletter's
//! confirmation link, say). Prints `Listening on smtp://…` once it listens (PORT, default
//! any free one). Test use only: it takes mail from anyone on loopback.

use std::net::TcpListener;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use smtp_sink::{Handler, Response, response};

#[derive(Clone)]
struct Sink {
    dir: PathBuf,
    count: Arc<AtomicUsize>,
    data: Vec<u8>,
}

impl Handler for Sink {
    fn data_start(
        &mut self,
        _domain: &str,
        _from: &str,
        _is8bit: bool,
        _to: &[String],
    ) -> Response {
        self.data.clear();
        response::START_DATA
    }

    fn data(&mut self, buf: &[u8]) -> std::io::Result<()> {
        self.data.extend_from_slice(buf);
        Ok(())
    }

    fn data_end(&mut self) -> Response {
        let n = self.count.fetch_add(1, Ordering::SeqCst) + 1;
        // Written under another name, then renamed: a reader never sees half a message.
        let tmp = self.dir.join(format!(".{n}.tmp"));
        match std::fs::write(&tmp, &self.data)
            .and_then(|()| std::fs::rename(&tmp, self.dir.join(format!("{n}.eml"))))
        {
            Ok(()) => response::OK,
            Err(e) => {
                eprintln!("smtp-sink: {e}");
                response::INTERNAL_ERROR
            }
        }
    }
}

fn main() {
    let dir: PathBuf = std::env::var_os("SINK_DIR").expect("set SINK_DIR").into();
    std::fs::create_dir_all(&dir).expect("SINK_DIR can be created");
    let port = std::env::var("PORT").unwrap_or_else(|_| "0".into());
    let listener = TcpListener::bind(format!("127.0.0.1:{port}")).expect("a free port");
    println!("Listening on smtp://{}", listener.local_addr().unwrap());
    let sink = Sink {
        dir,
        count: Arc::default(),
        data: Vec::new(),
    };
    smtp_sink::serve(listener, "smtp-sink.test", sink);
}
