//! The real api binary as a process: killed with SIGKILL under load and in the middle of a
//! blog rebuild, restarted on the same DATA_DIR; its log lines; a backup taken while it
//! serves. (SIGKILL keeps what the kernel already has; that acknowledged writes also
//! survive a power cut rests on `synchronous=FULL`, which `db`'s own tests hold.)
//!
//! This file holds the harness (the process, a raw HTTP/1.1 client, the sites it serves);
//! the tests are by topic: `crash` (SIGKILL and restart), `operations` (logs, backups, start-up
//! checks), `static_files` (files from memory, redirects, a new post's images), `hostile`
//! (login floods, large answers, silent connections), `mail` (a kill mid-send) and `monthly`
//! (a kill between a monthly charge and its record).

mod backfill;
mod broadcast;
mod crash;
mod hostile;
mod mail;
mod monthly;
mod offsite;
mod operations;
mod static_files;

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;
use tokio::process::{Child, Command};

const PASSWORD: &str = "a test password for the real server";

/// A running api process and everything it has printed so far.
struct Server {
    child: Child,
    addr: String,
    output: Arc<Mutex<String>>,
}

/// Starts `command` with umask 0, the loosest an operator's shell could have: whatever the
/// server writes under DATA_DIR must be private by its own doing.
pub(super) fn loose_umask(command: &mut Command) {
    // SAFETY: umask is async-signal-safe and changes only the child being made.
    unsafe {
        command.pre_exec(|| {
            libc::umask(0);
            Ok(())
        });
    }
}

impl Server {
    /// Starts the binary with `env` (and cwd `dir`) and waits until it listens.
    async fn start(dir: &Path, env: &[(&str, &Path)]) -> Server {
        Server::start_command(Command::new(env!("CARGO_BIN_EXE_api")), dir, env).await
    }

    /// [`Server::start`] with at most `files` open file descriptors (`ulimit -n`, soft and
    /// hard: the server cannot raise it).
    async fn start_with_fd_limit(dir: &Path, env: &[(&str, &Path)], files: u32) -> Server {
        let mut command = Command::new("sh");
        command
            .arg("-c")
            .arg(format!("ulimit -n {files} && exec \"$0\""))
            .arg(env!("CARGO_BIN_EXE_api"));
        Server::start_command(command, dir, env).await
    }

    async fn start_command(mut command: Command, dir: &Path, env: &[(&str, &Path)]) -> Server {
        command
            .current_dir(dir)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("PORT", "0")
            .env("FORM_RATE_LIMIT", "1000000")
            .env("ADMIN_PASSWORD", PASSWORD)
            .env(
                "JWT_SECRET",
                "a secret for the real server tests, 32+ bytes",
            )
            .env("RUST_LOG", "info")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        for (name, value) in env {
            command.env(name, value);
        }
        loose_umask(&mut command);
        let mut child = command.spawn().expect("the api binary starts");
        let output = Arc::new(Mutex::new(String::new()));
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<String>();
        for stream in [
            Box::new(child.stdout.take().unwrap()) as Box<dyn tokio::io::AsyncRead + Unpin + Send>,
            Box::new(child.stderr.take().unwrap()),
        ] {
            let output = output.clone();
            let tx = tx.clone();
            tokio::spawn(async move {
                let mut lines = BufReader::new(stream).lines();
                while let Ok(Some(line)) = lines.next_line().await {
                    output.lock().unwrap().push_str(&format!("{line}\n"));
                    let _ = tx.send(line);
                }
            });
        }
        let addr = tokio::time::timeout(Duration::from_secs(20), async {
            while let Some(line) = rx.recv().await {
                if let Some(addr) = line.strip_prefix("Listening on http://") {
                    return addr.trim().to_owned();
                }
            }
            panic!("the api exited before listening");
        })
        .await
        .unwrap_or_else(|_| panic!("the api did not start: {}", output.lock().unwrap()));
        Server {
            child,
            addr,
            output,
        }
    }

    async fn kill(&mut self) {
        self.child.kill().await.unwrap();
    }

    /// SIGTERM, then wait for a clean exit.
    async fn stop(&mut self) {
        let pid = self.child.id().unwrap();
        std::process::Command::new("kill")
            .args(["-TERM", &pid.to_string()])
            .status()
            .unwrap();
        let status = tokio::time::timeout(Duration::from_secs(15), self.child.wait())
            .await
            .expect("the api stops on SIGTERM")
            .unwrap();
        assert!(status.success(), "{status}");
    }

    fn output(&self) -> String {
        self.output.lock().unwrap().clone()
    }
}

/// A fake Stripe for a server of these tests: started, and its settings added to `env`
/// (the webhook is pointed at the server once it listens: [`FakeStripe::set_webhook`]).
async fn stripe_for(env: &mut Vec<(&'static str, PathBuf)>) -> fake_stripe::FakeStripe {
    let fake = fake_stripe::FakeStripe::new();
    let stripe = fake_stripe::spawn(fake.clone(), ([127, 0, 0, 1], 0).into())
        .await
        .unwrap();
    for (name, value) in [
        ("STRIPE_SECRET_KEY", "sk_test_real".to_owned()),
        ("STRIPE_PUBLISHABLE_KEY", "pk_test_real".to_owned()),
        ("STRIPE_WEBHOOK_SECRET", "whsec_real".to_owned()),
        ("STRIPE_API_BASE", format!("http://{stripe}/")),
        ("DONATION_RATE_LIMIT", "1000".to_owned()),
    ] {
        env.push((name, PathBuf::from(value)));
    }
    fake
}

/// Ada gives `amount` dollars (`frequency`: `once` or `monthly`) through the donate page's
/// API, and the fake Stripe settles the payment as paid.
async fn give(
    stream: &mut BufReader<TcpStream>,
    fake: &fake_stripe::FakeStripe,
    amount: u32,
    frequency: &str,
) {
    let gift = serde_json::json!({
        "amount": amount,
        "frequency": frequency,
        "donorInfo": {
            "donorFirstName": "Ada", "donorLastName": "Lovelace", "donorEmail": "ada@example.org",
            "donorAddress": "1 Main St", "donorCity": "Springfield", "donorState": "IL",
            "donorZipCode": "62701", "citizenshipConfirmed": "confirmed", "attestationsConfirmed": true,
        },
    });
    let (status, body) = request(
        stream,
        "POST",
        "/api/create-payment-intent",
        &json_headers(),
        gift.to_string(),
    )
    .await
    .unwrap();
    assert_eq!(status, 200, "{body}");
    let secret: serde_json::Value = serde_json::from_str(&body).unwrap();
    let intent = secret["clientSecret"]
        .as_str()
        .unwrap()
        .split("_secret_")
        .next()
        .unwrap()
        .to_owned();
    fake.settle(&intent, fake_stripe::Outcome::Succeed)
        .await
        .unwrap();
}

/// Signs in with the test password and returns the bearer token.
/// Signs `email` up for the newsletter over `stream`, expecting it stored (201).
async fn sign_up(stream: &mut BufReader<TcpStream>, email: &str) {
    let body = format!(r#"{{"email":"{email}","zipCode":"12345"}}"#);
    let (status, _) = request(
        stream,
        "POST",
        "/api/newsletter-signup",
        &json_headers(),
        &body,
    )
    .await
    .unwrap();
    assert_eq!(status, 201, "signing up {email}");
}

/// The Owner the servers make from the admin password (no `ADMIN_EMAIL` is set).
const OWNER: &str = "admin@localhost";

/// Signs the Owner in: the account's first sign-in, which then enrols an authenticator app
/// (the Owner's role needs one before any list or money route answers).
async fn sign_in(stream: &mut BufReader<TcpStream>) -> String {
    let (status, body) = request(
        stream,
        "POST",
        "/api/admin/login",
        &json_headers(),
        &format!(r#"{{"email":"{OWNER}","password":"{PASSWORD}"}}"#),
    )
    .await
    .unwrap();
    assert_eq!(status, 200, "{body}");
    let body: serde_json::Value = serde_json::from_str(&body).unwrap();
    let token = body["token"].as_str().expect("a first sign-in").to_owned();
    if body["user"]["mustEnrol"] == true {
        let auth = format!("Bearer {token}");
        let headers = [
            ("Content-Type", "application/json"),
            ("Authorization", auth.as_str()),
        ];
        let (status, enrol) = request(stream, "POST", "/api/admin/security/totp", &headers, "")
            .await
            .unwrap();
        assert_eq!(status, 200, "{enrol}");
        let enrol: serde_json::Value = serde_json::from_str(&enrol).unwrap();
        let secret = totp_rs::Secret::Encoded(enrol["secret"].as_str().unwrap().to_owned())
            .to_bytes()
            .unwrap();
        let code = crate::common::totp_code(&secret, jiff::Timestamp::now());
        let (status, body) = request(
            stream,
            "POST",
            "/api/admin/security/totp/confirm",
            &headers,
            format!(r#"{{"code":"{code}"}}"#),
        )
        .await
        .unwrap();
        assert_eq!(status, 200, "{body}");
    }
    token
}

/// One HTTP/1.1 request on a kept-alive connection; returns the status and body.
async fn request(
    stream: &mut BufReader<TcpStream>,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: impl AsRef<[u8]>,
) -> std::io::Result<(u16, String)> {
    let (status, _, body) = exchange(stream, method, path, headers, body).await?;
    Ok((status, body))
}

/// [`request`], with the response's headers (names in lower case).
async fn exchange(
    stream: &mut BufReader<TcpStream>,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: impl AsRef<[u8]>,
) -> std::io::Result<(u16, Vec<(String, String)>, String)> {
    let body = body.as_ref();
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: localhost\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    let mut message = head.into_bytes();
    message.extend_from_slice(body);
    stream.get_mut().write_all(&message).await?;
    let mut status_line = String::new();
    if stream.read_line(&mut status_line).await? == 0 {
        return Err(std::io::ErrorKind::UnexpectedEof.into());
    }
    let status: u16 = status_line
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or(std::io::ErrorKind::InvalidData)?;
    let mut response_headers = Vec::new();
    loop {
        let mut line = String::new();
        if stream.read_line(&mut line).await? == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        if line == "\r\n" {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            response_headers.push((name.to_ascii_lowercase(), value.trim().to_owned()));
        }
    }
    let length = response_headers
        .iter()
        .find(|(name, _)| name == "content-length")
        .and_then(|(_, v)| v.parse().ok())
        .filter(|_| method != "HEAD" && status != 304)
        .unwrap_or(0);
    let mut body = vec![0; length];
    stream.read_exact(&mut body).await?;
    Ok((
        status,
        response_headers,
        String::from_utf8_lossy(&body).into_owned(),
    ))
}

async fn connect(addr: &str) -> BufReader<TcpStream> {
    BufReader::new(TcpStream::connect(addr).await.unwrap())
}

fn json_headers() -> [(&'static str, &'static str); 1] {
    [("Content-Type", "application/json")]
}

/// A folder with DATA_DIR, an empty DIST_DIR and the fixture content (site.yaml).
fn bare_site() -> (tempfile::TempDir, Vec<(&'static str, PathBuf)>) {
    let dir = tempfile::tempdir().unwrap();
    let dist = dir.path().join("dist");
    std::fs::create_dir_all(&dist).unwrap();
    let content =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../generator/tests/fixtures/site/content");
    let env = vec![
        ("DATA_DIR", dir.path().join("data")),
        ("DIST_DIR", dist),
        ("CONTENT_DIR", content),
    ];
    (dir, env)
}

fn env_refs<'a>(env: &'a [(&'static str, PathBuf)]) -> Vec<(&'static str, &'a Path)> {
    env.iter().map(|(k, v)| (*k, v.as_path())).collect()
}

/// The fixture project with `posts` published posts in its database, laid out as the api
/// expects to find it from its working folder. Its site is not built (that takes a while):
/// the server's first pass writes the blog's pages into the empty DIST_DIR.
fn blog_site(posts: usize) -> (tempfile::TempDir, Vec<(&'static str, PathBuf)>) {
    let (dir, opts) = generator::fixture::project();
    drop(api::store::db::Db::open(&opts.database()).unwrap());
    std::fs::create_dir_all(&opts.out_dir).unwrap();
    let conn = rusqlite::Connection::open(opts.database()).unwrap();
    for i in 0..posts {
        conn.execute(
            "INSERT INTO blog_posts (title, slug, excerpt, content, author_name, status, publish_date, created_at, updated_at)
             VALUES (?1, ?2, NULL, ?3, 'Fixture Party Team', 'published', ?4, ?4, ?4)",
            rusqlite::params![
                format!("Crash test post {i}"),
                format!("crash-{i}"),
                format!("<h2>Section {i}</h2>{}", "<p>Words of the post, at some length.</p>".repeat(40)),
                format!("2025-03-{:02}T{:02}:{:02}:00.000Z", 1 + i / 1440, i / 60 % 24, i % 60),
            ],
        )
        .unwrap();
    }
    drop(conn);
    // The api renders from ./site/templates and ./build/client.
    std::fs::create_dir_all(dir.path().join("site")).unwrap();
    std::fs::create_dir_all(dir.path().join("build")).unwrap();
    std::os::unix::fs::symlink(&opts.templates_dir, dir.path().join("site/templates")).unwrap();
    std::os::unix::fs::symlink(&opts.client_dir, dir.path().join("build/client")).unwrap();
    let env = vec![
        ("DATA_DIR", opts.data_dir.clone()),
        ("DIST_DIR", opts.out_dir.clone()),
        ("CONTENT_DIR", opts.content_dir.clone()),
    ];
    (dir, env)
}

fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}
