//! The admin app's addresses answer the shell the generator wrote, uncached and unindexed.

use crate::common::{TestApp, text};

fn header<'a>(res: &'a warp::http::Response<warp::hyper::body::Bytes>, name: &str) -> &'a str {
    res.headers()
        .get(name)
        .unwrap_or_else(|| panic!("no {name} header"))
        .to_str()
        .unwrap()
}

#[tokio::test]
async fn every_admin_route_answers_the_shell_never_stored_nor_indexed() {
    let app = TestApp::with_site(|_| {}).await;
    for path in [
        "/admin",
        "/admin/dashboard",
        "/admin/blog/new",
        "/admin/blog/12",
        "/admin/person/3",
        "/admin/events/new",
        "/admin/events/7",
        "/admin/events/7/attendees",
        "/admin/blog/12/mail",
        "/admin/broadcasts/4",
        "/admin/suppressions",
        "/admin/security",
        "/admin/invite",
        "/admin/reset",
    ] {
        let res = app.get(path).await;
        assert_eq!(res.status(), 200, "{path}");
        let html = text(&res);
        assert!(
            html.contains(r#"<div id="admin-root""#) && html.contains("/assets/admin-9.js"),
            "{path} is the admin shell"
        );
        assert!(html.contains(r#"<meta name="robots" content="noindex">"#));
        assert!(html.contains("<title>Admin | FXP</title>"));
        assert_eq!(header(&res, "content-type"), "text/html; charset=utf-8");
        assert_eq!(header(&res, "cache-control"), "no-store", "{path}");
        assert_eq!(header(&res, "x-robots-tag"), "noindex", "{path}");
        assert!(res.headers().get("etag").is_none(), "nothing to revalidate");
        // The site's CSP holds here without exceptions.
        assert!(header(&res, "content-security-policy").contains("script-src 'self';"));
        assert!(!header(&res, "content-security-policy").contains("unsafe-eval"));
    }
}

#[tokio::test]
async fn the_shell_is_compressed_and_answers_head() {
    let app = TestApp::with_site(|_| {}).await;
    let res = warp::test::request()
        .path("/admin/dashboard")
        .header("accept-encoding", "gzip, br")
        .reply(&app.app)
        .await;
    assert_eq!(res.status(), 200);
    assert_eq!(header(&res, "content-encoding"), "br");
    assert_eq!(header(&res, "cache-control"), "no-store");

    let res = warp::test::request()
        .method("HEAD")
        .path("/admin")
        .reply(&app.app)
        .await;
    assert_eq!(res.status(), 200);
    assert!(res.body().is_empty());
    assert_eq!(header(&res, "x-robots-tag"), "noindex");
}

#[tokio::test]
async fn other_admin_paths_and_the_shell_file_itself_are_not_found() {
    let app = TestApp::with_site(|_| {}).await;
    for path in [
        "/admin/other",
        "/admin/blog",
        "/admin/blog/1/extra",
        "/.admin/index.html",
        "/.admin",
    ] {
        let res = app.get(path).await;
        assert_eq!(res.status(), 404, "{path}");
        assert!(!text(&res).contains("admin-root"), "{path}");
    }
}
