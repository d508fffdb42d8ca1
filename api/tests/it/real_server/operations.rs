//! What running the server looks like to whoever runs it: its log lines, a backup taken
//! while it serves, and what it refuses or points out at start.

use std::path::Path;
use std::time::Duration;

use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;
use tokio::process::Command;

use super::{
    OWNER, PASSWORD, Server, bare_site, blog_site, connect, env_refs, json_headers, request,
    sign_in, sign_up,
};

/// One line per request; a client that hangs up is not an error; no password, token or
/// full e-mail address in any line.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn logs_say_what_happened_and_nothing_secret() {
    let (dir, env) = blog_site(0);
    let mut server = Server::start(dir.path(), &env_refs(&env)).await;
    let mut stream = connect(&server.addr).await;
    let email = "private.person@example.org";
    sign_up(&mut stream, email).await;
    let wrong = "not-the-password-XYZ";
    let (status, _) = request(
        &mut stream,
        "POST",
        "/api/admin/login",
        &json_headers(),
        &format!(r#"{{"email":"{OWNER}","password":"{wrong}"}}"#),
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

/// `api backup DIR` while the server takes signups: a consistent copy that holds every
/// signup acknowledged before it started.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_while_serving_holds_what_was_acknowledged() {
    let (dir, env) = bare_site();
    let mut server = Server::start(dir.path(), &env_refs(&env)).await;
    let mut stream = connect(&server.addr).await;
    for n in 0..50 {
        sign_up(&mut stream, &format!("before{n}@example.org")).await;
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
    let folder = dir.path().join("backups/copy");
    let mut backup = Command::new(env!("CARGO_BIN_EXE_api"));
    backup
        .current_dir(dir.path())
        .arg("backup")
        .arg(&folder)
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

    // The keys links depend on are beside the database.
    assert!(folder.join("keys/mail-link-key").is_file());
    let copy = folder.join("site.db");
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
    sign_up(&mut stream, "private@example.org").await;
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

/// `api users reset-2fa EMAIL`: the way back in for the last Owner on a server without
/// mail. Their factors go, their sessions end, and their next sign-in needs only the
/// password (then they must enrol again); an unknown address fails clearly.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_command_line_resets_an_owners_second_factors() {
    let (dir, env) = bare_site();
    let mut server = Server::start(dir.path(), &env_refs(&env)).await;
    let mut stream = connect(&server.addr).await;
    let token = sign_in(&mut stream).await;
    // From a new browser (no cookie), the Owner now needs their app, and there is no mail.
    let login = format!(r#"{{"email":"{OWNER}","password":"{PASSWORD}"}}"#);
    let (status, body) = request(
        &mut stream,
        "POST",
        "/api/admin/login",
        &json_headers(),
        &login,
    )
    .await
    .unwrap();
    assert_eq!(status, 200);
    assert!(body.contains(r#""methods":["totp","recovery"]"#), "{body}");

    let reset = |email: &'static str| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_api"));
        command
            .current_dir(dir.path())
            .args(["users", "reset-2fa", email])
            .env("ADMIN_PASSWORD", PASSWORD)
            .env("RUST_LOG", "warn");
        for (name, value) in &env {
            command.env(name, value);
        }
        command
    };
    let out = reset("nobody@example.org").output().await.unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no staff account with that e-mail"));
    let out = reset(OWNER).output().await.unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("Its next sign-in needs only the password")
    );

    // The old session has ended; the password alone signs in, and the Owner must enrol.
    let auth = format!("Bearer {token}");
    let (status, _) = request(
        &mut stream,
        "GET",
        "/api/admin/me",
        &[("Authorization", auth.as_str())],
        "",
    )
    .await
    .unwrap();
    assert_eq!(status, 401);
    let (status, body) = request(
        &mut stream,
        "POST",
        "/api/admin/login",
        &json_headers(),
        &login,
    )
    .await
    .unwrap();
    assert_eq!(status, 200, "{body}");
    assert!(
        body.contains(r#""success":true"#) && body.contains(r#""mustEnrol":true"#),
        "{body}"
    );
    server.stop().await;
    let db = rusqlite::Connection::open(dir.path().join("data/site.db")).unwrap();
    let audited: i64 = db
        .query_row(
            "SELECT COUNT(*) FROM audit_log WHERE detail = 'factors reset from the command line'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(audited, 1);
}
