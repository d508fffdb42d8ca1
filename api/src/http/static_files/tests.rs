use super::*;

#[test]
fn refuses_traversal_and_hidden_files() {
    assert_eq!(safe_relative_path("/contact").unwrap(), "contact");
    assert_eq!(safe_relative_path("/").unwrap(), "");
    assert_eq!(safe_relative_path("/a//b/").unwrap(), "a/b");
    for bad in [
        "/../etc/passwd",
        "/%2e%2e/etc/passwd",
        "/.vite/manifest.json",
        "/a/%00",
        "/a\\..\\b",
        "/%ff",
    ] {
        assert!(safe_relative_path(bad).is_none(), "{bad}");
    }
}

#[test]
fn accept_encoding_is_read_with_its_weights() {
    assert!(accepts(Some("gzip, deflate, br"), "br"));
    assert!(accepts(Some("GZIP"), "gzip"));
    assert!(!accepts(Some("br;q=0, gzip"), "br"));
    assert!(!accepts(Some("br; q=0.0"), "br"));
    assert!(accepts(Some("br;q=0.5"), "br"));
    assert!(!accepts(Some("gzip"), "br"));
    assert!(!accepts(None, "gzip"));
}

fn site() -> (tempfile::TempDir, Arc<StaticFiles>) {
    let dir = tempfile::tempdir().unwrap();
    let dist = dir.path().to_owned();
    std::fs::create_dir_all(dist.join("blog/a")).unwrap();
    std::fs::write(dist.join("index.html"), "home").unwrap();
    std::fs::write(dist.join("blog/a/index.html"), "post a").unwrap();
    std::fs::write(dist.join("blog/a/index.html.gz"), "gz a").unwrap();
    let files = StaticFiles::open(dist, 1 << 20);
    (dir, files)
}

async fn get(files: &Arc<StaticFiles>, path: &str, accept: Option<&str>) -> (u16, String) {
    let mut req = warp::test::request().path(path);
    if let Some(accept) = accept {
        req = req.header("accept-encoding", accept);
    }
    let res = req.reply(&routes(files.clone())).await;
    let body = String::from_utf8(res.body().to_vec()).unwrap();
    (res.status().as_u16(), body)
}

/// A file changed on disk is not seen until the index is told (so requests never stat
/// the disk), and is seen at once after a refresh or reload.
#[tokio::test]
async fn changes_show_after_a_refresh_or_a_reload() {
    let (dir, files) = site();
    assert_eq!(get(&files, "/blog/a", None).await, (200, "post a".into()));
    assert_eq!(
        get(&files, "/blog/a", Some("gzip")).await,
        (200, "gz a".into())
    );

    std::fs::create_dir_all(dir.path().join("blog/b")).unwrap();
    std::fs::write(dir.path().join("blog/b/index.html"), "post b").unwrap();
    std::fs::write(dir.path().join("blog/a/index.html"), "post a, edited").unwrap();
    std::fs::remove_file(dir.path().join("blog/a/index.html.gz")).unwrap();
    assert_eq!(get(&files, "/blog/b", None).await.0, 404);
    assert_eq!(
        get(&files, "/blog/a", None).await,
        (200, "post a".into()),
        "cached"
    );

    files
        .refresh(vec!["blog/a/index.html".into(), "blog/b/index.html".into()])
        .await;
    assert_eq!(get(&files, "/blog/b", None).await, (200, "post b".into()));
    assert_eq!(
        get(&files, "/blog/a", Some("gzip")).await,
        (200, "post a, edited".into())
    );

    std::fs::remove_dir_all(dir.path().join("blog/b")).unwrap();
    std::fs::write(dir.path().join("new.txt"), "outside build").unwrap();
    assert_eq!(files.reload().await, 3);
    assert_eq!(get(&files, "/blog/b", None).await.0, 404);
    assert_eq!(
        get(&files, "/new.txt", None).await,
        (200, "outside build".into())
    );
}

/// Many refreshes, past the point where the index folds its changes into its base: every
/// file reads as it is on disk, removed ones are gone, and a changed file's old body is
/// never served again.
#[tokio::test]
async fn refreshes_past_the_fold_keep_every_file_right() {
    let (dir, files) = site();
    let page = |n: usize| format!("blog/p{n}/index.html");
    for n in 0..(MAX_CHANGES + 40) {
        std::fs::create_dir_all(dir.path().join(format!("blog/p{n}"))).unwrap();
        std::fs::write(dir.path().join(page(n)), format!("post {n}")).unwrap();
        files.refresh(vec![page(n)]).await;
        if n % 100 == 0 {
            // Read once, so its body is cached, then change it.
            assert_eq!(
                get(&files, &format!("/blog/p{n}"), None).await,
                (200, format!("post {n}"))
            );
            std::fs::write(
                dir.path().join(page(n)),
                format!("post {n}, edited twice over"),
            )
            .unwrap();
            files.refresh(vec![page(n)]).await;
        }
    }
    std::fs::remove_dir_all(dir.path().join("blog/p7")).unwrap();
    files.refresh(vec![page(7)]).await;
    assert!(files.index.load().changes.len() <= MAX_CHANGES, "folded");
    for n in 0..(MAX_CHANGES + 40) {
        let want = match n {
            7 => (404, None),
            n if n % 100 == 0 => (200, Some(format!("post {n}, edited twice over"))),
            n => (200, Some(format!("post {n}"))),
        };
        let (status, body) = get(&files, &format!("/blog/p{n}"), None).await;
        assert_eq!(status, want.0, "p{n}");
        if let Some(want) = want.1 {
            assert_eq!(body, want, "p{n}");
        }
    }
    assert_eq!(
        get(&files, "/blog/a", None).await,
        (200, "post a".into()),
        "untouched"
    );
}

/// Bodies stay within the cache's bound; larger files are still served, from disk.
#[tokio::test]
async fn the_cache_is_bounded() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..100 {
        std::fs::write(dir.path().join(format!("{i}.bin")), vec![b'x'; 4096]).unwrap();
    }
    std::fs::write(dir.path().join("big.bin"), vec![b'y'; 64 * 1024]).unwrap();
    let files = StaticFiles::open(dir.path().to_owned(), 256 * 1024);
    for i in 0..100 {
        assert_eq!(get(&files, &format!("/{i}.bin"), None).await.1.len(), 4096);
    }
    assert_eq!(get(&files, "/big.bin", None).await.1.len(), 64 * 1024);
    let cache = files.cache.as_ref().unwrap();
    assert!(
        cache.weight() <= 256 * 1024,
        "{} bytes cached",
        cache.weight()
    );
    assert!(!cache.is_empty());
}

/// A request with headers, answered by the routes: status, headers, raw body.
async fn fetch(
    files: &Arc<StaticFiles>,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
) -> warp::http::Response<Bytes> {
    let mut req = warp::test::request().method(method).path(path);
    for (name, value) in headers {
        req = req.header(*name, *value);
    }
    req.reply(&routes(files.clone())).await
}

fn header<'a>(res: &'a warp::http::Response<Bytes>, name: &str) -> Option<&'a str> {
    res.headers().get(name).map(|v| v.to_str().unwrap())
}

fn unbrotli(bytes: &[u8]) -> String {
    let mut out = Vec::new();
    brotli::BrotliDecompress(&mut &bytes[..], &mut out).expect("a whole brotli body");
    String::from_utf8(out).unwrap()
}

fn ungzip(bytes: &[u8]) -> String {
    let mut out = String::new();
    std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(bytes), &mut out)
        .expect("a whole gzip body");
    out
}

/// A page written without compressed copies (the blog's) is compressed by the server: in
/// the coding the browser prefers, with its own ETag, revalidated and re-made when the
/// page changes; tiny or binary files are sent as they are.
#[tokio::test]
async fn pages_without_copies_are_compressed_on_demand() {
    for cache_bytes in [1 << 20, 0] {
        let dir = tempfile::tempdir().unwrap();
        let page = |words: &str| format!("<!doctype html><p>{}</p>\n", words.repeat(200));
        std::fs::create_dir_all(dir.path().join("blog/post")).unwrap();
        std::fs::write(dir.path().join("blog/post/index.html"), page("vote ")).unwrap();
        std::fs::write(dir.path().join("small.html"), "<p>tiny</p>").unwrap();
        std::fs::write(dir.path().join("photo.jpg"), vec![7u8; 4096]).unwrap();
        let files = StaticFiles::open(dir.path().to_owned(), cache_bytes);

        let br = fetch(
            &files,
            "GET",
            "/blog/post",
            &[("accept-encoding", "gzip, br")],
        )
        .await;
        assert_eq!(br.status(), 200);
        assert_eq!(header(&br, "content-encoding"), Some("br"));
        assert_eq!(header(&br, "vary"), Some("Accept-Encoding"));
        assert_eq!(unbrotli(br.body()), page("vote "));
        assert!(br.body().len() < page("vote ").len() / 10, "compressed");
        let br_etag = header(&br, "etag").unwrap().to_owned();
        assert!(
            br_etag.starts_with('"') && br_etag.ends_with("-br\""),
            "{br_etag}"
        );

        let gz = fetch(&files, "GET", "/blog/post", &[("accept-encoding", "gzip")]).await;
        assert_eq!(header(&gz, "content-encoding"), Some("gzip"));
        assert_eq!(ungzip(gz.body()), page("vote "));
        let plain = fetch(&files, "GET", "/blog/post", &[]).await;
        assert_eq!(header(&plain, "content-encoding"), None);
        assert_eq!(plain.body().as_ref(), page("vote ").as_bytes());
        let etags = [
            &br_etag,
            header(&gz, "etag").unwrap(),
            header(&plain, "etag").unwrap(),
        ];
        assert!(etags[0] != etags[1] && etags[1] != etags[2] && etags[0] != etags[2]);

        // Revalidation answers 304 without a body; HEAD gives the compressed length.
        let again = fetch(
            &files,
            "GET",
            "/blog/post",
            &[("accept-encoding", "br"), ("if-none-match", &br_etag)],
        )
        .await;
        assert_eq!(again.status(), 304);
        assert!(again.body().is_empty());
        let head = fetch(&files, "HEAD", "/blog/post", &[("accept-encoding", "br")]).await;
        assert_eq!(head.status(), 200);
        assert!(head.body().is_empty());
        assert_eq!(
            header(&head, "content-length"),
            Some(br.body().len().to_string().as_str())
        );

        // The page changes: the next answer is made from the new version.
        std::fs::write(dir.path().join("blog/post/index.html"), page("elect ")).unwrap();
        files.refresh(vec!["blog/post/index.html".into()]).await;
        let changed = fetch(&files, "GET", "/blog/post", &[("accept-encoding", "br")]).await;
        assert_eq!(unbrotli(changed.body()), page("elect "));
        assert_ne!(header(&changed, "etag"), Some(br_etag.as_str()));

        for path in ["/small.html", "/photo.jpg"] {
            let res = fetch(&files, "GET", path, &[("accept-encoding", "br, gzip")]).await;
            assert_eq!(res.status(), 200);
            assert_eq!(header(&res, "content-encoding"), None, "{path}");
            assert_eq!(header(&res, "vary"), None, "{path}");
        }
    }
}

/// The first visitors of a new page arrive together: it is compressed once, for all.
#[tokio::test]
async fn a_page_asked_for_at_once_is_compressed_once() {
    let dir = tempfile::tempdir().unwrap();
    let page = "<p>turnout</p>".repeat(500);
    std::fs::write(dir.path().join("post.html"), &page).unwrap();
    let files = StaticFiles::open(dir.path().to_owned(), 1 << 20);
    let answers = futures_util::future::join_all(
        (0..32).map(|_| fetch(&files, "GET", "/post.html", &[("accept-encoding", "br")])),
    )
    .await;
    for res in &answers {
        assert_eq!(header(res, "content-encoding"), Some("br"));
        assert_eq!(unbrotli(res.body()), page);
    }
    assert_eq!(files.compressed_on_demand.load(Ordering::Relaxed), 1);
}
