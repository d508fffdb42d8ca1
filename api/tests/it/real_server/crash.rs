//! SIGKILL under load and in the middle of a blog rebuild, then a restart on the same
//! DATA_DIR: nothing acknowledged is lost and every page left in `dist/` is whole.

use std::collections::HashSet;
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::{
    Server, bare_site, blog_site, connect, env_refs, json_headers, request, sign_in, sign_up,
};

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
    sign_up(&mut stream, "after@example.org").await;
    server.kill().await;
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

    // Restarted, it completes the blog; a staff change to the public site waits for that
    // first pass (a draft's save would not: it changes no page).
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
        r#"{"title":"After the restart","content":"<p>Back.</p>","status":"published"}"#,
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
