use crate::common::TestApp;

#[tokio::test]
async fn pages_are_served_by_route_with_revalidation_and_security_headers() {
    let app = TestApp::new();
    let res = app.get("/contact").await;
    assert_eq!(res.status(), 200);
    assert_eq!(res.body().as_ref(), b"<h1>Contact</h1>");
    assert_eq!(res.headers()["content-type"], "text/html; charset=utf-8");
    assert_eq!(res.headers()["cache-control"], "no-cache");
    assert!(
        res.headers()["content-security-policy"]
            .to_str()
            .unwrap()
            .contains("frame-ancestors 'none'")
    );
    assert_eq!(res.headers()["x-content-type-options"], "nosniff");
    assert_eq!(app.get("/").await.body().as_ref(), b"<h1>Home</h1>");
}

#[tokio::test]
async fn a_matching_etag_gets_304() {
    let app = TestApp::new();
    let etag = app.get("/contact").await.headers()["etag"]
        .to_str()
        .unwrap()
        .to_owned();
    let res = warp::test::request()
        .path("/contact")
        .header("if-none-match", &etag)
        .reply(&app.app)
        .await;
    assert_eq!(res.status(), 304);
    assert!(res.body().is_empty());
}

#[tokio::test]
async fn trailing_slashes_redirect_to_the_canonical_path() {
    let app = TestApp::new();
    let res = app.get("/contact/?ref=x").await;
    assert_eq!(res.status(), 308);
    assert_eq!(res.headers()["location"], "/contact?ref=x");
}

#[tokio::test]
async fn unknown_paths_get_the_404_page() {
    let app = TestApp::new();
    for path in ["/nope", "/blog/not-a-post", "/contact/deeper"] {
        let res = app.get(path).await;
        assert_eq!(res.status(), 404, "{path}");
        assert_eq!(res.body().as_ref(), b"<h1>Page Not Found</h1>");
    }
}

#[tokio::test]
async fn traversal_and_hidden_files_are_404() {
    let app = TestApp::new();
    for path in [
        "/../Cargo.toml",
        "/%2e%2e/site.db",
        "/.vite/manifest.json",
        "/assets/%2e%2e/%2e%2e/site.db",
    ] {
        assert_eq!(app.get(path).await.status(), 404, "{path}");
    }
}

#[tokio::test]
async fn fingerprinted_assets_are_immutable_and_precompressed() {
    let app = TestApp::new();
    let res = warp::test::request()
        .path("/assets/main-abc.js")
        .header("accept-encoding", "gzip, deflate, br")
        .reply(&app.app)
        .await;
    assert_eq!(res.status(), 200);
    assert_eq!(
        res.headers()["cache-control"],
        "public, max-age=31536000, immutable"
    );
    assert_eq!(res.headers()["content-encoding"], "br");
    assert_eq!(res.headers()["vary"], "Accept-Encoding");
    assert_eq!(res.body().as_ref(), b"BROTLI");
    let res = warp::test::request()
        .path("/assets/main-abc.js")
        .header("accept-encoding", "gzip")
        .reply(&app.app)
        .await;
    assert_eq!(res.headers()["content-encoding"], "gzip");
    let res = warp::test::request()
        .path("/assets/main-abc.js")
        .header("accept-encoding", "br;q=0, gzip")
        .reply(&app.app)
        .await;
    assert_eq!(res.headers()["content-encoding"], "gzip");
    let res = app.get("/assets/main-abc.js").await;
    assert!(res.headers().get("content-encoding").is_none());
    assert_eq!(res.body().as_ref(), b"console.log(1)");
    assert_eq!(
        res.headers()["content-type"],
        "text/javascript; charset=utf-8"
    );
}

#[tokio::test]
async fn head_requests_get_headers_without_a_body() {
    let app = TestApp::new();
    let res = warp::test::request()
        .method("HEAD")
        .path("/contact")
        .reply(&app.app)
        .await;
    assert_eq!(res.status(), 200);
    assert!(res.body().is_empty());
    assert_eq!(res.headers()["content-length"], "16");
}
