//! The real api binary as a process: killed with SIGKILL under load and in the middle of a
//! blog rebuild, restarted on the same DATA_DIR; its log lines; a backup taken while it
//! serves. (SIGKILL keeps what the kernel already has; that acknowledged writes also
//! survive a power cut rests on `synchronous=FULL`, which `db`'s own tests hold.)

use std::collections::HashSet;
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

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

/// Signs in with the test password and returns the bearer token.
async fn sign_in(stream: &mut BufReader<TcpStream>) -> String {
    let (status, body) = request(
        stream,
        "POST",
        "/api/admin/login",
        &json_headers(),
        &format!(r#"{{"password":"{PASSWORD}"}}"#),
    )
    .await
    .unwrap();
    assert_eq!(status, 200, "{body}");
    serde_json::from_str::<serde_json::Value>(&body).unwrap()["token"]
        .as_str()
        .unwrap()
        .to_owned()
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

/// Signups from 16 clients at once; SIGKILL after some hundreds are acknowledged; on
/// restart every acknowledged signup is there and the database is intact.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn acknowledged_signups_survive_a_kill() {
    let (dir, env) = bare_site();
    let mut server = Server::start(dir.path(), &env_refs(&env)).await;
    let acknowledged = Arc::new(Mutex::new(Vec::<String>::new()));
    let clients: Vec<_> = (0..16)
        .map(|client| {
            let addr = server.addr.clone();
            let acknowledged = acknowledged.clone();
            tokio::spawn(async move {
                let mut stream = connect(&addr).await;
                for n in 0.. {
                    let email = format!("c{client}-{n}@example.org");
                    let body = format!(r#"{{"email":"{email}","zipCode":"12345"}}"#);
                    match request(
                        &mut stream,
                        "POST",
                        "/api/newsletter-signup",
                        &json_headers(),
                        &body,
                    )
                    .await
                    {
                        Ok((status, _)) if (200..300).contains(&status) => {
                            acknowledged.lock().unwrap().push(email)
                        }
                        Ok((status, body)) => panic!("{status} {body}"),
                        // The server is gone.
                        Err(_) => return,
                    }
                }
            })
        })
        .collect();
    let started = Instant::now();
    while acknowledged.lock().unwrap().len() < 500 {
        assert!(started.elapsed() < Duration::from_secs(30), "too slow");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    server.kill().await;
    for client in clients {
        client.await.unwrap();
    }
    let acknowledged = acknowledged.lock().unwrap().clone();

    let mut server = Server::start(dir.path(), &env_refs(&env)).await;
    let db = rusqlite::Connection::open_with_flags(
        dir.path().join("data/site.db"),
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
    )
    .unwrap();
    let check: String = db
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(check, "ok");
    let stored: HashSet<String> = db
        .prepare("SELECT email FROM newsletter_signups")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let lost: Vec<&String> = acknowledged
        .iter()
        .filter(|e| !stored.contains(*e))
        .collect();
    assert!(
        lost.is_empty(),
        "{} of {} acknowledged signups lost: {lost:?}",
        lost.len(),
        acknowledged.len()
    );
    // And the restarted server takes writes.
    let mut stream = connect(&server.addr).await;
    let (status, _) = request(
        &mut stream,
        "POST",
        "/api/newsletter-signup",
        &json_headers(),
        r#"{"email":"after@example.org","zipCode":"12345"}"#,
    )
    .await
    .unwrap();
    assert_eq!(status, 201);
    server.kill().await;
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

/// Temporary files anywhere under `dir`.
fn temp_files(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            found.extend(temp_files(&path));
        } else if entry.file_name().to_string_lossy().starts_with(".tmp") {
            found.push(path);
        }
    }
    found
}

fn post_pages(dist: &Path) -> usize {
    std::fs::read_dir(dist.join("blog"))
        .map(|d| {
            d.flatten()
                .filter(|e| e.file_name().to_string_lossy().starts_with("crash-"))
                .filter(|e| e.path().join("index.html").is_file())
                .count()
        })
        .unwrap_or(0)
}

/// Every page, feed and sitemap in `dist` (and each compressed copy) is a whole document;
/// returns the pages whose copies hold another version than the page (a kill between
/// writing the copies and the page).
fn assert_every_page_whole(dist: &Path) -> Vec<PathBuf> {
    let mut mismatched = Vec::new();
    let mut stack = vec![dist.to_owned()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let name = path.to_string_lossy().into_owned();
            let Some(end) = [(".html", "</html>"), (".xml", ">")]
                .iter()
                .find(|(ext, _)| name.ends_with(ext))
                .map(|(_, end)| *end)
            else {
                continue;
            };
            let page = std::fs::read_to_string(&path).unwrap();
            assert!(page.trim_end().ends_with(end), "{name} is cut short");
            for (ext, decoded) in [
                ("br", read_br(&sibling(&path, "br"))),
                ("gz", read_gz(&sibling(&path, "gz"))),
            ] {
                if let Some(decoded) = decoded {
                    assert!(
                        decoded.trim_end().ends_with(end),
                        "{name}.{ext} is cut short"
                    );
                    if decoded != page {
                        mismatched.push(path.clone());
                    }
                }
            }
        }
    }
    mismatched
}

fn sibling(path: &Path, ext: &str) -> PathBuf {
    PathBuf::from(format!("{}.{ext}", path.display()))
}

fn read_br(path: &Path) -> Option<String> {
    let file = std::fs::File::open(path).ok()?;
    let mut out = String::new();
    brotli::Decompressor::new(file, 4096)
        .read_to_string(&mut out)
        .unwrap_or_else(|e| panic!("{} is not whole: {e}", path.display()));
    Some(out)
}

fn read_gz(path: &Path) -> Option<String> {
    let file = std::fs::File::open(path).ok()?;
    let mut out = String::new();
    flate2::read::GzDecoder::new(file)
        .read_to_string(&mut out)
        .unwrap_or_else(|e| panic!("{} is not whole: {e}", path.display()));
    Some(out)
}

/// The server's first task is to bring the blog in step with the database: 300 posts
/// that no page shows yet. Killed while it writes them, it leaves every file in `dist/`
/// whole, and once restarted it finishes the job.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_kill_mid_rebuild_leaves_every_page_whole() {
    const POSTS: usize = 300;
    let (dir, env) = blog_site(POSTS);
    let dist = env[1].1.clone();
    let mut server = Server::start(dir.path(), &env_refs(&env)).await;
    let started = Instant::now();
    while post_pages(&dist) < 20 {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no pages written"
        );
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    server.kill().await;
    let written = post_pages(&dist);
    assert!(
        written < POSTS,
        "the rebuild had finished before the kill ({written} pages)"
    );
    assert_every_page_whole(&dist);
    // What a write cut short leaves (the kill may have left some of its own).
    std::fs::write(dist.join("blog/.tmpAbC123"), b"<!doctype html><p>half").unwrap();

    // Restarted, it completes the blog; a staff change waits for that first pass.
    let mut server = Server::start(dir.path(), &env_refs(&env)).await;
    assert_eq!(
        temp_files(&dist),
        Vec::<PathBuf>::new(),
        "leftovers removed at start"
    );
    let mut stream = connect(&server.addr).await;
    let token = sign_in(&mut stream).await;
    let auth = format!("Bearer {token}");
    let (status, body) = request(
        &mut stream,
        "POST",
        "/api/admin/blogs",
        &[
            ("Content-Type", "application/json"),
            ("Authorization", &auth),
        ],
        r#"{"title":"A draft","content":"<p>Draft.</p>"}"#,
    )
    .await
    .unwrap();
    assert!((200..300).contains(&status), "{status} {body}");
    assert!(!body.contains("warning"), "{body}");
    assert_eq!(post_pages(&dist), POSTS);
    let mismatched = assert_every_page_whole(&dist);
    assert!(mismatched.is_empty(), "copies out of step: {mismatched:?}");
    // And it serves them.
    let (status, page) = request(&mut stream, "GET", "/blog/crash-7", &[], "")
        .await
        .unwrap();
    assert_eq!(status, 200);
    assert!(page.contains("Crash test post 7"));
    server.kill().await;
}

/// One line per request; a client that hangs up is not an error; no password, token or
/// full e-mail address in any line.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn logs_say_what_happened_and_nothing_secret() {
    let (dir, env) = blog_site(0);
    let mut server = Server::start(dir.path(), &env_refs(&env)).await;
    let mut stream = connect(&server.addr).await;
    let email = "private.person@example.org";
    let (status, _) = request(
        &mut stream,
        "POST",
        "/api/newsletter-signup",
        &json_headers(),
        &format!(r#"{{"email":"{email}","zipCode":"12345"}}"#),
    )
    .await
    .unwrap();
    assert_eq!(status, 201);
    let wrong = "not-the-password-XYZ";
    let (status, _) = request(
        &mut stream,
        "POST",
        "/api/admin/login",
        &json_headers(),
        &format!(r#"{{"password":"{wrong}"}}"#),
    )
    .await
    .unwrap();
    assert_eq!(status, 401);
    let token = sign_in(&mut stream).await;
    let (status, _) = request(
        &mut stream,
        "GET",
        "/api/admin/newsletters",
        &[("Authorization", &format!("Bearer {token}"))],
        "",
    )
    .await
    .unwrap();
    assert_eq!(status, 200);
    let (status, _) = request(
        &mut stream,
        "GET",
        &format!("/people/{email}?token=QUERYSECRET"),
        &[],
        "",
    )
    .await
    .unwrap();
    assert_eq!(status, 404);
    // Clients that give up halfway through a request's headers, or its body.
    for cut in [
        &b"POST /api/contact HTTP/1.1\r\nHost: x\r\nContent-Le"[..],
        b"POST /api/contact HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{\"na",
    ] {
        let mut half = TcpStream::connect(&server.addr).await.unwrap();
        half.write_all(cut).await.unwrap();
        drop(half);
    }
    // A request after those makes sure they have been dealt with.
    let (status, _) = request(&mut stream, "GET", "/api/blogs", &[], "")
        .await
        .unwrap();
    assert_eq!(status, 200);
    server.stop().await;

    let log = server.output();
    assert!(log.contains("POST /api/newsletter-signup 201"), "{log}");
    assert!(log.contains("POST /api/admin/login 401"), "{log}");
    assert!(log.contains("GET /api/admin/newsletters 200"), "{log}");
    assert!(log.contains("p…@example.org"), "{log}");
    for secret in [email, wrong, PASSWORD, token.as_str(), "QUERYSECRET"] {
        assert!(!log.contains(secret), "the log shows {secret:?}:\n{log}");
    }
    assert!(!log.contains("ERROR"), "{log}");
}

/// `api backup FILE` while the server takes signups: a consistent copy that holds every
/// signup acknowledged before it started.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_while_serving_holds_what_was_acknowledged() {
    let (dir, env) = bare_site();
    let mut server = Server::start(dir.path(), &env_refs(&env)).await;
    let mut stream = connect(&server.addr).await;
    for n in 0..50 {
        let body = format!(r#"{{"email":"before{n}@example.org","zipCode":"12345"}}"#);
        let (status, _) = request(
            &mut stream,
            "POST",
            "/api/newsletter-signup",
            &json_headers(),
            &body,
        )
        .await
        .unwrap();
        assert_eq!(status, 201);
    }
    // Writes keep coming while the backup runs.
    let addr = server.addr.clone();
    let busy = tokio::spawn(async move {
        let mut stream = connect(&addr).await;
        for n in 0..300 {
            let body = format!(r#"{{"email":"during{n}@example.org","zipCode":"12345"}}"#);
            let _ = request(
                &mut stream,
                "POST",
                "/api/newsletter-signup",
                &json_headers(),
                &body,
            )
            .await;
        }
    });
    let copy = dir.path().join("backups/copy.db");
    let mut backup = Command::new(env!("CARGO_BIN_EXE_api"));
    backup
        .current_dir(dir.path())
        .arg("backup")
        .arg(&copy)
        .env("RUST_LOG", "warn");
    for (name, value) in &env {
        backup.env(name, value);
    }
    let out = backup.output().await.unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("integrity ok"));
    busy.await.unwrap();
    server.stop().await;

    let db =
        rusqlite::Connection::open_with_flags(&copy, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .unwrap();
    let before: i64 = db
        .query_row(
            "SELECT COUNT(*) FROM newsletter_signups WHERE email LIKE 'before%'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(before, 50);
    let mode: String = db
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "delete", "one self-contained file");
}

fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

/// Files answered from memory ahead of the routes keep everything the routes would send:
/// every security header, the compressed copy, revalidation, HEAD; a file written from
/// outside shows once the server is sent SIGHUP.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn static_files_from_memory_behave_like_the_routes() {
    // A site whose blog rebuilds work, so nothing re-indexes the files but the SIGHUP below.
    let (dir, env) = blog_site(0);
    let dist = env[1].1.clone();
    let page = format!(
        "<html><h1>Contact</h1>{}</html>",
        "<p>Write to us.</p>".repeat(100)
    );
    std::fs::create_dir_all(dist.join("contact")).unwrap();
    std::fs::create_dir_all(dist.join("assets")).unwrap();
    std::fs::write(dist.join("contact/index.html"), &page).unwrap();
    std::fs::write(dist.join("contact/index.html.br"), b"brotli bytes").unwrap();
    std::fs::write(dist.join("contact/index.html.gz"), b"gzip bytes").unwrap();
    std::fs::write(dist.join("assets/site-0a1b2c.css"), "body{}").unwrap();
    let server = Server::start(dir.path(), &env_refs(&env)).await;
    let mut stream = connect(&server.addr).await;
    // The api's own answer (through the routes) shows the headers every answer needs.
    let (_, api_headers, _) = exchange(&mut stream, "GET", "/api/blogs", &[], "")
        .await
        .unwrap();
    let security: Vec<&(String, String)> = api_headers
        .iter()
        .filter(|(name, _)| {
            name.starts_with("content-security")
                || name.starts_with("x-")
                || name.ends_with("-policy")
        })
        .collect();
    assert!(security.len() >= 6, "{api_headers:?}");

    let (status, headers, body) = exchange(
        &mut stream,
        "GET",
        "/contact",
        &[("Accept-Encoding", "gzip, br")],
        "",
    )
    .await
    .unwrap();
    assert_eq!(status, 200);
    for (name, value) in &security {
        assert_eq!(
            header(&headers, name),
            Some(value.as_str()),
            "{name} on a static page"
        );
    }
    assert_eq!(header(&headers, "content-encoding"), Some("br"));
    assert_eq!(header(&headers, "vary"), Some("Accept-Encoding"));
    assert_eq!(
        header(&headers, "content-type"),
        Some("text/html; charset=utf-8")
    );
    assert_eq!(header(&headers, "cache-control"), Some("no-cache"));
    let br = std::fs::metadata(dist.join("contact/index.html.br"))
        .unwrap()
        .len();
    assert_eq!(
        header(&headers, "content-length"),
        Some(br.to_string().as_str())
    );
    assert!(!body.is_empty());
    let etag = header(&headers, "etag").unwrap().to_owned();
    let (status, headers, body) = exchange(
        &mut stream,
        "GET",
        "/contact",
        &[("Accept-Encoding", "gzip, br"), ("If-None-Match", &etag)],
        "",
    )
    .await
    .unwrap();
    assert_eq!((status, body.as_str()), (304, ""));
    assert!(header(&headers, "content-security-policy").is_some());
    let (status, headers, body) = exchange(&mut stream, "HEAD", "/contact", &[], "")
        .await
        .unwrap();
    assert_eq!((status, body.as_str()), (200, ""));
    let plain = std::fs::metadata(dist.join("contact/index.html"))
        .unwrap()
        .len();
    assert_eq!(
        header(&headers, "content-length"),
        Some(plain.to_string().as_str())
    );

    // A fingerprinted asset is cached for good.
    let asset = std::fs::read_dir(dist.join("assets"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .find(|n| n.ends_with(".css"))
        .unwrap();
    let (status, headers, _) = exchange(&mut stream, "GET", &format!("/assets/{asset}"), &[], "")
        .await
        .unwrap();
    assert_eq!(status, 200);
    assert_eq!(
        header(&headers, "cache-control"),
        Some("public, max-age=31536000, immutable")
    );
    assert!(header(&headers, "x-frame-options").is_some());

    // Written from outside: unseen until SIGHUP, then served.
    std::fs::create_dir_all(dist.join("fresh")).unwrap();
    std::fs::write(dist.join("fresh/index.html"), "<html>fresh</html>").unwrap();
    let (status, _) = request(&mut stream, "GET", "/fresh", &[], "")
        .await
        .unwrap();
    assert_eq!(status, 404);
    std::process::Command::new("kill")
        .args(["-HUP", &server.child.id().unwrap().to_string()])
        .status()
        .unwrap();
    let started = Instant::now();
    loop {
        let (status, body) = request(&mut stream, "GET", "/fresh", &[], "")
            .await
            .unwrap();
        if status == 200 {
            assert_eq!(body, "<html>fresh</html>");
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "SIGHUP did not re-index"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Every same-origin URL a page or feed names: links, images (each `srcset` candidate),
/// scripts, social-card and canonical tags, as paths to ask the server for.
fn referenced_paths(body: &str, origin: &str) -> Vec<String> {
    // The feed carries each post's HTML escaped.
    let body = &body
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">");
    let mut found = std::collections::BTreeSet::new();
    for attr in [
        "href=\"",
        "src=\"",
        "srcset=\"",
        "content=\"",
        "<loc>",
        "<id>",
    ] {
        let close = if attr.starts_with('<') { "</" } else { "\"" };
        for (i, _) in body.match_indices(attr) {
            let rest = &body[i + attr.len()..];
            let Some(end) = rest.find(close) else {
                continue;
            };
            let value = rest[..end].replace("&amp;", "&");
            for candidate in value.split(", ") {
                let url = candidate.split(' ').next().unwrap_or("");
                let path = url.strip_prefix(origin).unwrap_or(url);
                if path.starts_with('/') && !path.starts_with("//") {
                    found.insert(path.split('#').next().unwrap().to_owned());
                }
            }
        }
    }
    found.into_iter().collect()
}

fn multipart_image(bytes: &[u8]) -> (String, Vec<u8>) {
    let boundary = "----real-server-boundary";
    let mut body = format!(
        "--{boundary}\r\nContent-Disposition: form-data; name=\"image\"; filename=\"photo.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n"
    )
    .into_bytes();
    body.extend_from_slice(bytes);
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

fn jpeg(w: u32, h: u32) -> Vec<u8> {
    let img = image::RgbImage::from_fn(w, h, |x, y| {
        image::Rgb([(x % 251) as u8, (y % 241) as u8, 90])
    });
    let mut out = std::io::Cursor::new(Vec::new());
    img.write_to(&mut out, image::ImageFormat::Jpeg).unwrap();
    out.into_inner()
}

/// A post published through the admin API with a new featured image and a new image in its
/// text: the moment the admin is answered, every URL its page, the list, the feed and the
/// social-card tags name answers 200 (the images' variants went live with the pages).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_posts_images_are_live_with_its_pages() {
    let (dir, env) = blog_site(0);
    let opts = {
        let mut o = generator::BuildOptions::for_project(dir.path());
        o.content_dir = env[2].1.clone();
        o.data_dir = env[0].1.clone();
        o.out_dir = env[1].1.clone();
        o.templates_dir = dir.path().join("site/templates");
        o.client_dir = dir.path().join("build/client");
        o
    };
    generator::build(&opts, &generator::fixture::EchoRenderer).unwrap();
    let server = Server::start(dir.path(), &env_refs(&env)).await;
    let mut stream = connect(&server.addr).await;
    let auth = format!("Bearer {}", sign_in(&mut stream).await);

    let mut urls = Vec::new();
    for (w, h) in [(800, 600), (640, 480)] {
        let (content_type, body) = multipart_image(&jpeg(w, h));
        let (status, body) = request(
            &mut stream,
            "POST",
            "/api/admin/blogs/upload-image",
            &[("Content-Type", &content_type), ("Authorization", &auth)],
            body,
        )
        .await
        .unwrap();
        assert_eq!(status, 200, "{body}");
        let body: serde_json::Value = serde_json::from_str(&body).unwrap();
        urls.push(body["url"].as_str().unwrap().to_owned());
    }
    let post = serde_json::json!({
        "title": "Pictures from the convention",
        "excerpt": "What we saw.",
        "content": format!("<p>Here is the hall.</p><img src=\"{}\" alt=\"The hall\"><p>More.</p>", urls[1]),
        "featuredImage": urls[0],
        "featuredImageAlt": "Delegates",
        "status": "published",
    });
    let (status, body) = request(
        &mut stream,
        "POST",
        "/api/admin/blogs",
        &[
            ("Content-Type", "application/json"),
            ("Authorization", &auth),
        ],
        post.to_string(),
    )
    .await
    .unwrap();
    assert!((200..300).contains(&status), "{status} {body}");
    assert!(!body.contains("warning"), "{body}");
    let slug = serde_json::from_str::<serde_json::Value>(&body).unwrap()["slug"]
        .as_str()
        .unwrap()
        .to_owned();

    // At once: no waiting, no SIGHUP.
    let mut checked = HashSet::new();
    let mut variants = 0;
    for page in [
        "/blog".to_owned(),
        format!("/blog/{slug}"),
        "/blog/feed.xml".into(),
    ] {
        let (status, body) = request(&mut stream, "GET", &page, &[], "").await.unwrap();
        assert_eq!(status, 200, "{page}");
        let paths = referenced_paths(&body, "https://example.org");
        assert!(
            paths.iter().any(|p| p.starts_with("/media/uploads/")),
            "{page} shows the new images: {paths:?}"
        );
        for path in paths {
            if !checked.insert(path.clone()) {
                continue;
            }
            variants += usize::from(path.starts_with("/media/uploads/"));
            let (status, _) = request(&mut stream, "GET", &path, &[], "").await.unwrap();
            assert!(
                status == 200 || (status == 308 && path.ends_with('/')),
                "{path} (named by {page}) answered {status}"
            );
        }
    }
    // Both images at several widths, in WebP and JPEG, and the social card.
    assert!(
        variants >= 8,
        "{variants} image variants checked: {checked:?}"
    );
}

/// Resident memory of a process, in MB.
fn rss_mb(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let kb: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap();
    kb / 1024.0
}

/// 200 wrong passwords sent at once from one address: at most ten are checked (401), the
/// rest are refused unchecked (429); memory stays bounded, and readers are served meanwhile.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_logins_is_counted_before_it_is_checked() {
    let (dir, env) = blog_site(3);
    let server = Server::start(dir.path(), &env_refs(&env)).await;
    let pid = server.child.id().unwrap();
    let addr = server.addr.clone();
    // Readers, before and during the burst.
    let reader = {
        let addr = addr.clone();
        tokio::spawn(async move {
            let mut stream = connect(&addr).await;
            let mut times = Vec::new();
            let started = Instant::now();
            while started.elapsed() < Duration::from_secs(4) {
                let t = Instant::now();
                let (status, _) = request(&mut stream, "GET", "/api/blogs", &[], "")
                    .await
                    .unwrap();
                assert_eq!(status, 200);
                times.push(t.elapsed());
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
            times
        })
    };
    let peak = Arc::new(Mutex::new(0f64));
    let watcher = {
        let peak = peak.clone();
        tokio::spawn(async move {
            loop {
                let now = rss_mb(pid);
                {
                    let mut p = peak.lock().unwrap();
                    *p = p.max(now);
                }
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
        })
    };
    let attempts: Vec<_> = (0..200)
        .map(|i| {
            let addr = addr.clone();
            tokio::spawn(async move {
                let mut stream = connect(&addr).await;
                let body = format!(r#"{{"password":"guess number {i}"}}"#);
                request(
                    &mut stream,
                    "POST",
                    "/api/admin/login",
                    &json_headers(),
                    &body,
                )
                .await
                .unwrap()
                .0
            })
        })
        .collect();
    let mut statuses = std::collections::BTreeMap::new();
    for attempt in attempts {
        *statuses.entry(attempt.await.unwrap()).or_insert(0) += 1;
    }
    let mut times = reader.await.unwrap();
    watcher.abort();
    assert!(
        statuses.get(&401).copied().unwrap_or(0) <= 10,
        "{statuses:?}"
    );
    assert_eq!(
        statuses.get(&401).copied().unwrap_or(0) + statuses.get(&429).copied().unwrap_or(0),
        200,
        "{statuses:?}"
    );
    let peak = *peak.lock().unwrap();
    assert!(peak < 300.0, "resident memory peaked at {peak:.0} MB");
    times.sort();
    let p99 = times[times.len() * 99 / 100];
    assert!(
        // A stall, not a figure: the other tests of this binary share the two cores, so the
        // bound tells starved readers (seconds, before the fix) from a busy machine. The
        // figures themselves are measured by `just bench` (bench/hostile.mjs).
        p99 < Duration::from_secs(1),
        "GET /api/blogs p99 {p99:?} during the burst"
    );
}

/// A weak `ADMIN_PASSWORD` stops the server at start, saying why.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_weak_admin_password_is_refused_at_start() {
    let (dir, env) = bare_site();
    let output = tokio::time::timeout(
        Duration::from_secs(20),
        Command::new(env!("CARGO_BIN_EXE_api"))
            .current_dir(dir.path())
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("PORT", "0")
            .env("ADMIN_PASSWORD", "password1234")
            .envs(env.iter().map(|(k, v)| (k, v)))
            .output(),
    )
    .await
    .expect("it stops at once")
    .unwrap();
    assert!(!output.status.success());
    let log = String::from_utf8_lossy(&output.stdout) + String::from_utf8_lossy(&output.stderr);
    assert!(log.contains("ADMIN_PASSWORD is too weak"), "{log}");
    assert!(!log.contains("Listening on"), "{log}");
}

/// Eight clients asking at once for a page of 50 posts of about 1 MB each: the answer is
/// built off the request threads, once, so the static files are served as quickly as ever.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn large_blog_answers_leave_the_static_files_quick() {
    let (dir, env) = blog_site(0);
    let dist = env
        .iter()
        .find(|(k, _)| *k == "DIST_DIR")
        .unwrap()
        .1
        .clone();
    std::fs::write(dist.join("robots.txt"), "User-agent: *\nAllow: /\n").unwrap();
    let data = env
        .iter()
        .find(|(k, _)| *k == "DATA_DIR")
        .unwrap()
        .1
        .clone();
    let server = Server::start(dir.path(), &env_refs(&env)).await;
    // Written behind the server's back, so no page is rendered: only the JSON is at stake.
    let conn = rusqlite::Connection::open(data.join("site.db")).unwrap();
    let paragraph = "<p>A long paragraph of the post, written out at length.</p>";
    let content = paragraph.repeat(1_000_000 / paragraph.len());
    for i in 0..50 {
        conn.execute(
            "INSERT INTO blog_posts (title, slug, content, author_name, status, publish_date, created_at, updated_at)
             VALUES (?1, ?2, ?3, 'Fixture Party Team', 'published', ?4, ?4, ?4)",
            rusqlite::params![
                format!("Large post {i}"),
                format!("large-{i}"),
                content,
                format!("2025-04-{:02}T10:00:00.000Z", 1 + i % 28),
            ],
        )
        .unwrap();
    }
    drop(conn);
    let addr = server.addr.clone();
    let readers: Vec<_> = (0..8)
        .map(|i| {
            let addr = addr.clone();
            tokio::spawn(async move {
                let mut stream = connect(&addr).await;
                let coding = ["br", "gzip", "identity"][i % 3];
                for _ in 0..2 {
                    let (status, headers, body) = exchange(
                        &mut stream,
                        "GET",
                        "/api/blogs?limit=50",
                        &[("Accept-Encoding", coding)],
                        "",
                    )
                    .await
                    .unwrap();
                    assert_eq!(status, 200);
                    if coding == "identity" {
                        let v: serde_json::Value = serde_json::from_str(&body).unwrap();
                        assert_eq!(v["blogs"].as_array().unwrap().len(), 50);
                        assert_eq!(v["total"], 50);
                    } else {
                        assert_eq!(header(&headers, "content-encoding"), Some(coding));
                    }
                }
            })
        })
        .collect();
    let mut stream = connect(&addr).await;
    let mut times = Vec::new();
    while readers.iter().any(|r| !r.is_finished()) {
        let t = Instant::now();
        let (status, _) = request(&mut stream, "GET", "/robots.txt", &[], "")
            .await
            .unwrap();
        assert_eq!(status, 200);
        times.push(t.elapsed());
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    for r in readers {
        r.await.unwrap();
    }
    assert!(times.len() > 10, "the readers finished too soon to measure");
    times.sort();
    let p99 = times[times.len() * 99 / 100];
    assert!(
        // A stall, not a figure (see the flood test above): before the fix, eight such
        // answers held every request thread for seconds.
        p99 < Duration::from_secs(1),
        "GET /robots.txt p99 {p99:?} while large blog answers were built"
    );
}

/// The trailing-slash redirect never points at another site: `//evil.example/` is a path on
/// this site, and its `Location` starts with exactly one slash.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_redirect_never_leaves_the_site() {
    let (dir, env) = bare_site();
    let dist = &env[1].1;
    std::fs::create_dir_all(dist.join("contact")).unwrap();
    std::fs::write(dist.join("contact/index.html"), "<h1>Contact</h1>").unwrap();
    let server = Server::start(dir.path(), &env_refs(&env)).await;
    let mut stream = connect(&server.addr).await;
    for (path, expected) in [
        ("//evil.example/", Some("/evil.example")),
        ("///evil.example/", Some("/evil.example")),
        ("//evil.example//x/", Some("/evil.example/x")),
        ("/%2F%2Fevil.example/", Some("/%2F%2Fevil.example")),
        ("/contact/?a=1", Some("/contact?a=1")),
        ("/%5Cevil.example/", None),
        ("/%5C%5Cevil.example/", None),
    ] {
        let (status, headers, _) = exchange(&mut stream, "GET", path, &[], "").await.unwrap();
        let location = header(&headers, "location");
        assert_eq!(location, expected, "{path} answered {status}");
        if let Some(location) = location {
            assert_eq!(status, 308, "{path}");
            assert!(
                !location.starts_with("//") && !location.starts_with("/\\"),
                "{path}"
            );
        }
    }
}

/// With 256 file descriptors, 300 connections that send nothing do not keep a visitor out:
/// the oldest silent ones make room, and the page is answered at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn silent_connections_cannot_use_up_the_servers_files() {
    let (dir, env) = bare_site();
    std::fs::write(env[1].1.join("index.html"), "<h1>Home</h1>").unwrap();
    let server = Server::start_with_fd_limit(dir.path(), &env_refs(&env), 256).await;
    let mut silent = Vec::new();
    for _ in 0..300 {
        silent.push(TcpStream::connect(&server.addr).await.unwrap());
    }
    let asked = Instant::now();
    let mut visitor = connect(&server.addr).await;
    let (status, _) = tokio::time::timeout(
        Duration::from_secs(5),
        request(&mut visitor, "GET", "/", &[], ""),
    )
    .await
    .expect("answered without waiting for the silent ones to time out")
    .unwrap();
    assert_eq!(status, 200);
    assert!(asked.elapsed() < Duration::from_secs(5));
    drop(silent);
}

/// The database holds supporters' details: a new DATA_DIR and its database are the server
/// user's alone, and a shared one is pointed out at start.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_data_folder_and_database_are_private() {
    use std::os::unix::fs::PermissionsExt as _;
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    let (dir, env) = bare_site();
    let data = env[0].1.clone();
    let mut server = Server::start(dir.path(), &env_refs(&env)).await;
    let mut stream = connect(&server.addr).await;
    let (status, _) = request(
        &mut stream,
        "POST",
        "/api/newsletter-signup",
        &json_headers(),
        r#"{"email":"private@example.org","zipCode":"12345"}"#,
    )
    .await
    .unwrap();
    assert_eq!(status, 201);
    assert_eq!(mode(&data), 0o700);
    for file in ["site.db", "site.db-wal", "site.db-shm"] {
        assert_eq!(mode(&data.join(file)), 0o600, "{file}");
    }
    assert!(!server.output().contains("other users of this machine"));
    server.stop().await;

    // Opened up by hand: the next start says so, naming the file.
    std::fs::set_permissions(&data, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::set_permissions(data.join("site.db"), std::fs::Permissions::from_mode(0o644)).unwrap();
    let mut server = Server::start(dir.path(), &env_refs(&env)).await;
    let log = server.output();
    assert!(
        log.contains("other users of this machine can open this file"),
        "{log}"
    );
    assert!(
        log.contains("chmod 700") && log.contains("chmod 600"),
        "{log}"
    );
    server.stop().await;
}
