//! A real SMTP server on loopback (the `smtp-sink` crate), whose answer to each message the test
//! chooses: accept, a temporary refusal (451) or a permanent one (550).

use std::net::{SocketAddr, TcpListener};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use smtp_sink::{Handler, Open, Response, Tls, response};

/// How the server answers the end of a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    Accept,
    TryLater,
    Refuse,
}

/// One accepted message.
#[derive(Debug, Clone)]
pub struct Received {
    pub from: String,
    pub to: Vec<String>,
    pub data: String,
}

impl Received {
    /// The value of header `name` (unfolded), if present.
    pub fn header(&self, name: &str) -> Option<String> {
        let head = self.data.split("\r\n\r\n").next()?;
        let mut value: Option<String> = None;
        for line in head.split("\r\n") {
            if let Some(v) = value.as_mut() {
                if line.starts_with([' ', '\t']) {
                    v.push_str(line);
                    continue;
                }
                break;
            }
            if let Some((n, v)) = line.split_once(':')
                && n.eq_ignore_ascii_case(name)
            {
                value = Some(v.trim_start().to_owned());
            }
        }
        value
    }

    /// The plain-text part, quoted-printable decoded.
    pub fn text(&self) -> String {
        self.part("text/plain")
    }

    /// The HTML part, quoted-printable decoded.
    pub fn html(&self) -> String {
        self.part("text/html")
    }

    /// The part of type `content_type`, decoded (in a message of nested parts too: it ends
    /// at the first boundary of any of them).
    pub fn part(&self, content_type: &str) -> String {
        let start = self
            .data
            .find(&format!("Content-Type: {content_type}"))
            .expect("a part of that type");
        let part = &self.data[start..];
        let body_start = part.find("\r\n\r\n").unwrap() + 4;
        let boundaries: Vec<&str> = self
            .data
            .split("boundary=\"")
            .skip(1)
            .filter_map(|rest| rest.split('"').next())
            .collect();
        assert!(!boundaries.is_empty(), "a multipart message");
        let end = boundaries
            .iter()
            .filter_map(|b| part[body_start..].find(&format!("\r\n--{b}")))
            .min()
            .unwrap()
            + body_start;
        let raw = &part[body_start..end];
        if part[..body_start].contains("quoted-printable") {
            decode_qp(raw)
        } else if part[..body_start].contains("base64") {
            use base64::Engine as _;
            let joined: String = raw.split("\r\n").collect();
            String::from_utf8(
                base64::engine::general_purpose::STANDARD
                    .decode(joined)
                    .unwrap(),
            )
            .unwrap()
        } else {
            raw.to_owned()
        }
    }
}

fn decode_qp(raw: &str) -> String {
    let mut bytes = Vec::new();
    let raw = raw.replace("=\r\n", "");
    let b = raw.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'=' && i + 2 < b.len() {
            let hex = std::str::from_utf8(&b[i + 1..i + 3]).unwrap();
            bytes.push(u8::from_str_radix(hex, 16).unwrap());
            i += 3;
        } else {
            bytes.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(bytes).unwrap().replace("\r\n", "\n")
}

#[derive(Default)]
struct Shared {
    received: Vec<Received>,
    answer: Option<Answer>,
    /// Answers for one recipient each (lower-case), before `answer`.
    answers_for: std::collections::HashMap<String, Answer>,
    /// Messages the server refused (either way).
    refused: usize,
    /// Recipients whose messages are held once their data is in, before the server's
    /// answer, until `release` (a slow server mid-transaction), and how many are held now.
    held_for: std::collections::HashSet<String>,
    holding: usize,
}

#[derive(Clone)]
struct Session {
    shared: Arc<Mutex<Shared>>,
    released: Arc<std::sync::Condvar>,
    from: String,
    to: Vec<String>,
    data: Vec<u8>,
}

impl Handler for Session {
    // Refusals come at RCPT, as a real server's usually do (mailin stays in its DATA state
    // after refusing at the end of a message, and would read the client's next command as
    // more data).
    fn rcpt(&mut self, to: &str) -> Response {
        let mut shared = self.shared.lock().unwrap();
        let answer = shared
            .answers_for
            .get(&to.trim_matches(['<', '>']).to_lowercase())
            .copied()
            .or(shared.answer);
        match answer.unwrap_or(Answer::Accept) {
            Answer::Accept => response::OK,
            Answer::TryLater => {
                shared.refused += 1;
                response::INTERNAL_ERROR
            }
            Answer::Refuse => {
                shared.refused += 1;
                response::NO_MAILBOX
            }
        }
    }

    fn data_start(&mut self, _domain: &str, from: &str, _is8bit: bool, to: &[String]) -> Response {
        self.from = from.to_owned();
        self.to = to.to_vec();
        self.data.clear();
        response::START_DATA
    }

    fn data(&mut self, buf: &[u8]) -> std::io::Result<()> {
        self.data.extend_from_slice(buf);
        Ok(())
    }

    fn data_end(&mut self) -> Response {
        let data = String::from_utf8_lossy(&self.data).into_owned();
        let held = |s: &Shared| {
            self.to.iter().any(|t| {
                s.held_for
                    .contains(&t.trim_matches(['<', '>']).to_lowercase())
            })
        };
        let mut shared = self.shared.lock().unwrap();
        if held(&shared) {
            shared.holding += 1;
            while held(&shared) {
                shared = self.released.wait(shared).unwrap();
            }
            shared.holding -= 1;
        }
        drop(shared);
        self.shared.lock().unwrap().received.push(Received {
            from: self.from.clone(),
            to: self.to.clone(),
            data,
        });
        response::OK
    }
}

/// The server; it runs until the test process ends.
#[derive(Clone)]
pub struct Smtp {
    pub addr: SocketAddr,
    shared: Arc<Mutex<Shared>>,
    released: Arc<std::sync::Condvar>,
    open: Open,
}

impl Smtp {
    pub fn start() -> Smtp {
        Smtp::on(TcpListener::bind("127.0.0.1:0").unwrap())
    }

    /// On a port chosen before (to bring a server "back" where one was down).
    pub fn on(listener: TcpListener) -> Smtp {
        Smtp::speaking(listener, Tls::None)
    }

    /// A server on loopback that speaks TLS as `tls` says.
    pub fn start_tls(tls: Tls) -> Smtp {
        Smtp::speaking(TcpListener::bind("127.0.0.1:0").unwrap(), tls)
    }

    /// Closes every connection clients hold open, as a server that drops idle clients does.
    pub fn hang_up(&self) {
        self.open.hang_up();
    }

    fn speaking(listener: TcpListener, tls: Tls) -> Smtp {
        let addr = listener.local_addr().unwrap();
        let shared = Arc::new(Mutex::new(Shared::default()));
        let released = Arc::new(std::sync::Condvar::new());
        let handler = Session {
            shared: shared.clone(),
            released: released.clone(),
            from: String::new(),
            to: Vec::new(),
            data: Vec::new(),
        };
        let open = Open::default();
        let theirs = open.clone();
        std::thread::spawn(move || {
            smtp_sink::serve_tls(listener, "smtp.test", handler, tls, theirs);
        });
        Smtp {
            addr,
            shared,
            released,
            open,
        }
    }

    pub fn url(&self) -> String {
        format!("smtp://{}", self.addr)
    }

    pub fn answer(&self, answer: Answer) {
        self.shared.lock().unwrap().answer = Some(answer);
    }

    /// How the server answers mail to `to` from now on (whatever `answer` says).
    pub fn answer_for(&self, to: &str, answer: Answer) {
        self.shared
            .lock()
            .unwrap()
            .answers_for
            .insert(to.to_lowercase(), answer);
    }

    /// Holds every message to `to` once its data is in, before answering, until
    /// [`Smtp::release`]: the client waits mid-transaction, as with a slow server.
    pub fn hold_for(&self, to: &str) {
        self.shared
            .lock()
            .unwrap()
            .held_for
            .insert(to.to_lowercase());
    }

    /// Answers (accepts) every held message.
    pub fn release(&self) {
        self.shared.lock().unwrap().held_for.clear();
        self.released.notify_all();
    }

    /// Messages held now.
    pub fn holding(&self) -> usize {
        self.shared.lock().unwrap().holding
    }

    pub fn received(&self) -> Vec<Received> {
        self.shared.lock().unwrap().received.clone()
    }

    pub fn refused(&self) -> usize {
        self.shared.lock().unwrap().refused
    }

    /// Waits (up to 20 s) until `n` messages arrived, and returns them.
    pub async fn wait_for(&self, n: usize) -> Vec<Received> {
        for _ in 0..400 {
            let got = self.received();
            if got.len() >= n {
                return got;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("{} messages arrived, not {n}", self.received().len());
    }
}

/// A loopback address where nothing listens (yet): bind it again to start a server there.
pub fn closed_port() -> SocketAddr {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
}
