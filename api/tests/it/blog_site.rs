//! Staff change posts through the admin API and the static blog follows: every trigger
//! (create, update, rename, publish, unpublish, delete) rewrites the affected pages before
//! the reply; renamed posts redirect; the public JSON routes; REBUILD_HOOK; a failed rebuild.

use crate::common::{TestApp, message, text};
use serde_json::{Value, json};

async fn save(app: &TestApp, token: &str, method: &str, path: &str, body: Value) -> Value {
    let res = app.admin(method, path, token, Some(body)).await;
    assert!(
        res.status().is_success(),
        "{method} {path}: {} {:?}",
        res.status(),
        res.body()
    );
    TestApp::json(&res)
}

#[tokio::test]
async fn every_change_to_a_post_is_on_the_site_when_the_reply_comes() {
    let app = TestApp::with_site(|_| {}).await;
    let token = app.login().await;
    assert!(text(&app.get("/blog").await).contains("No Blog Posts Yet"));

    // A draft shows nowhere.
    let post = save(&app, &token, "POST", "/api/admin/blogs", json!({ "title": "Hello World", "content": "<p>First words.</p>", "excerpt": "Our first post." })).await;
    assert!(post.get("warning").is_none(), "{post}");
    assert_eq!(app.get("/blog/hello-world").await.status(), 404);
    assert!(!text(&app.get("/blog").await).contains("Hello World"));

    // Published: its page, the list, the feed and the sitemap, all at once.
    let id = post["id"].clone();
    let published = save(
        &app,
        &token,
        "POST",
        &format!("/api/admin/blogs/{id}/publish"),
        json!(null),
    )
    .await;
    assert!(published.get("warning").is_none());
    let page = app.get("/blog/hello-world").await;
    assert_eq!(page.status(), 200);
    assert!(text(&page).contains("<title>Hello World - Fixture Party</title>"));
    assert!(text(&page).contains("<p>First words.</p>"));
    // Written without compressed copies, sent compressed all the same.
    let (coding, body) = app.get_brotli("/blog/hello-world").await;
    assert_eq!((coding.as_deref(), body), (Some("br"), text(&page)));
    assert!(text(&app.get("/blog").await).contains("Our first post."));
    assert!(text(&app.get("/blog/feed.xml").await).contains("<title>Hello World</title>"));
    assert!(
        text(&app.get("/blog/sitemap-1.xml").await)
            .contains("https://example.org/blog/hello-world</loc><lastmod>")
    );

    // Edited.
    save(
        &app,
        &token,
        "PATCH",
        &format!("/api/admin/blogs/{id}"),
        json!({ "content": "<p>Better words.</p>" }),
    )
    .await;
    assert!(text(&app.get("/blog/hello-world").await).contains("<p>Better words.</p>"));
    let (coding, body) = app.get_brotli("/blog/hello-world").await;
    assert_eq!(coding.as_deref(), Some("br"));
    assert!(
        body.contains("<p>Better words.</p>"),
        "not the old compressed page"
    );

    // Renamed: the new address serves it, the old one redirects there for good.
    save(
        &app,
        &token,
        "PATCH",
        &format!("/api/admin/blogs/{id}"),
        json!({ "slug": "hello-again" }),
    )
    .await;
    assert_eq!(app.get("/blog/hello-again").await.status(), 200);
    let old = app.get("/blog/hello-world").await;
    assert_eq!(old.status(), 308);
    assert_eq!(old.headers()["location"], "/blog/hello-again");
    assert!(
        !app.dist().join("blog/hello-world").exists(),
        "the old page is gone from dist"
    );

    // Unpublished: gone from every public place, with the blog's own 404 page.
    save(
        &app,
        &token,
        "PATCH",
        &format!("/api/admin/blogs/{id}"),
        json!({ "status": "draft" }),
    )
    .await;
    let gone = app.get("/blog/hello-again").await;
    assert_eq!(gone.status(), 404);
    assert!(text(&gone).contains("Blog Post Not Found"));
    assert!(text(&gone).contains("Back to Blog"));
    assert_eq!(
        app.get("/blog/hello-world").await.status(),
        404,
        "no redirect to an unpublished post"
    );
    assert!(text(&app.get("/blog").await).contains("No Blog Posts Yet"));
    assert!(!text(&app.get("/blog/feed.xml").await).contains("Hello World"));

    // Published again, then deleted.
    save(
        &app,
        &token,
        "POST",
        &format!("/api/admin/blogs/{id}/publish"),
        json!(null),
    )
    .await;
    assert_eq!(app.get("/blog/hello-again").await.status(), 200);
    let res = app
        .admin("DELETE", &format!("/api/admin/blogs/{id}"), &token, None)
        .await;
    assert_eq!(TestApp::json(&res), json!({ "success": true }));
    assert_eq!(app.get("/blog/hello-again").await.status(), 404);
    assert!(!app.dist().join("blog/hello-again/index.html").exists());
    assert!(!app.dist().join("blog/hello-again/index.html.br").exists());
}

/// The `n` of "Page X of n" that `blog/pages.css` gives every list page.
async fn list_pages(app: &TestApp) -> usize {
    let css = app.get("/blog/pages.css").await;
    assert_eq!(css.status(), 200);
    assert_eq!(css.headers()["content-type"], "text/css; charset=utf-8");
    let css = text(&css);
    let at = css.find("blog-pages ").expect("the count") + "blog-pages ".len();
    css[at..].split('}').next().unwrap().parse().unwrap()
}

/// The post titles on a list page, in order.
fn titles(html: &str) -> Vec<String> {
    html.split("Read More<span class=\"sr-only\"> about ")
        .skip(1)
        .map(|rest| rest[..rest.find('<').unwrap()].to_owned())
        .collect()
}

#[tokio::test]
async fn archive_pages_follow_and_the_old_list_addresses_lead_to_them() {
    let app = TestApp::with_site(|_| {}).await;
    let token = app.login().await;
    let mut ids = Vec::new();
    let mut publish = async |i: usize| {
        let post = save(
            &app,
            &token,
            "POST",
            "/api/admin/blogs",
            json!({ "title": format!("Post {i}"), "status": "published" }),
        )
        .await;
        ids.push(post["id"].clone());
    };
    for i in 1..=10 {
        publish(i).await;
    }
    // Ten posts: /blog holds the five newest, the one archive page the five before them.
    assert!(text(&app.get("/blog").await).contains(r#"href="/blog/archive/1""#));
    let full = app.get("/blog/archive/1").await;
    assert_eq!(full.status(), 200);
    assert_eq!(
        titles(&text(&full)),
        ["Post 5", "Post 4", "Post 3", "Post 2", "Post 1"]
    );
    assert_eq!(list_pages(&app).await, 2);
    assert!(text(&full).contains(r#"<a href="/blog" class="btn btn-outline" rel="prev""#));
    // Publishing past a full page starts a new one, between /blog and the full page, and
    // the count grows; the full page keeps its posts and now leads back to the new one.
    publish(11).await;
    let newest = app.get("/blog/archive/2").await;
    assert_eq!(newest.status(), 200);
    assert_eq!(titles(&text(&newest)), ["Post 6"]);
    assert!(text(&app.get("/blog").await).contains(r#"href="/blog/archive/2""#));
    assert_eq!(list_pages(&app).await, 3);
    let full = text(&app.get("/blog/archive/1").await);
    assert_eq!(
        titles(&full),
        ["Post 5", "Post 4", "Post 3", "Post 2", "Post 1"]
    );
    assert!(full.contains(r#"<a href="/blog/archive/2" class="btn btn-outline" rel="prev""#));
    // Publishing into a page that is not full: it grows; the count does not, and the full
    // page keeps its bytes.
    publish(12).await;
    assert_eq!(
        titles(&text(&app.get("/blog/archive/2").await)),
        ["Post 7", "Post 6"]
    );
    assert_eq!(list_pages(&app).await, 3);
    assert_eq!(text(&app.get("/blog/archive/1").await), full);

    // The old addresses, counted from the newest post, lead to the page that says
    // "Page n" today.
    let first = app.get("/blog/page/1").await;
    assert_eq!(first.status(), 308);
    assert_eq!(first.headers()["location"], "/blog");
    for (n, to) in [(2, "/blog/archive/2"), (3, "/blog/archive/1")] {
        let old = app.get(&format!("/blog/page/{n}")).await;
        assert_eq!(old.status(), 302, "the answer moves as posts are published");
        assert_eq!(old.headers()["location"], to);
    }
    for gone in [
        "/blog/page/4",
        "/blog/page/99999999999999999999",
        "/blog/page/18446744073709551615",
        "/blog/page/x",
        "/blog/archive/0",
        "/blog/archive/x",
        "/blog/archive/99999999999999999999",
        "/blog/archive/1/extra",
    ] {
        assert_eq!(app.get(gone).await.status(), 404, "{gone}");
    }
    // An archive page beyond the newest held, when the archive counted every post, posts
    // that /blog shows now.
    let newer = app.get("/blog/archive/3").await;
    assert_eq!(newer.status(), 302);
    assert_eq!(newer.headers()["location"], "/blog");

    // Down to six posts: one archive page, with the oldest post.
    for id in ids.drain(6..) {
        app.admin("DELETE", &format!("/api/admin/blogs/{id}"), &token, None)
            .await;
    }
    assert_eq!(titles(&text(&app.get("/blog/archive/1").await)), ["Post 1"]);
    assert!(!app.dist().join("blog/archive/2/index.html").exists());
    assert_eq!(
        app.get("/blog/archive/2").await.headers()["location"],
        "/blog"
    );
    assert_eq!(list_pages(&app).await, 2);
    // Five: one page, no pager.
    app.admin(
        "DELETE",
        &format!("/api/admin/blogs/{}", ids[0]),
        &token,
        None,
    )
    .await;
    assert!(!text(&app.get("/blog").await).contains("Blog pages"));
    assert_eq!(app.get("/blog/page/2").await.status(), 404);
    assert_eq!(list_pages(&app).await, 1);
}

#[tokio::test]
async fn the_public_json_lists_published_posts_a_page_at_a_time() {
    let app = TestApp::with_site(|_| {}).await;
    let token = app.login().await;
    for i in 1..=7 {
        save(&app, &token, "POST", "/api/admin/blogs", json!({ "title": format!("Post {i}"), "status": "published", "content": "<p onclick=\"x()\">Hi</p>" })).await;
    }
    save(
        &app,
        &token,
        "POST",
        "/api/admin/blogs",
        json!({ "title": "Secret", "status": "draft" }),
    )
    .await;

    let page = TestApp::json(&app.get("/api/blogs").await);
    assert_eq!(page["total"], 7);
    assert_eq!(page["hasMore"], true);
    assert_eq!(
        page["blogs"].as_array().unwrap().len(),
        5,
        "five by default"
    );
    assert_eq!(page["blogs"][0]["title"], "Post 7", "newest first");
    assert_eq!(page["blogs"][0]["content"], "<p>Hi</p>");
    let last = TestApp::json(&app.get("/api/blogs?limit=5&offset=5").await);
    assert_eq!(last["blogs"].as_array().unwrap().len(), 2);
    assert_eq!(last["hasMore"], false);
    let beyond = TestApp::json(&app.get("/api/blogs?offset=100").await);
    assert_eq!(beyond["blogs"], json!([]));
    for bad in ["limit=0", "limit=51", "limit=x", "offset=-1", "offset=1.5"] {
        let res = app.get(&format!("/api/blogs?{bad}")).await;
        assert_eq!(res.status(), 400, "{bad}");
        assert!(message(&res).contains("must be a whole number"), "{bad}");
    }

    let one = app.get("/api/blogs/post-3").await;
    assert_eq!(one.status(), 200);
    assert_eq!(TestApp::json(&one)["title"], "Post 3");
    for missing in ["/api/blogs/secret", "/api/blogs/nothing-here"] {
        let res = app.get(missing).await;
        assert_eq!(res.status(), 404, "{missing}");
        assert_eq!(message(&res), "Blog Post Not Found");
    }
}

#[tokio::test]
async fn the_rebuild_hook_gets_the_changed_paths() {
    let app = TestApp::with_site(|c| c.rebuild_hook = Some("cat >> ../hook.txt".into())).await;
    let token = app.login().await;
    save(
        &app,
        &token,
        "POST",
        "/api/admin/blogs",
        json!({ "title": "Hooked", "status": "published" }),
    )
    .await;
    let log = app.dist().join("../hook.txt");
    let mut seen = String::new();
    for _ in 0..100 {
        seen = std::fs::read_to_string(&log).unwrap_or_default();
        if seen.contains("blog/hooked/index.html") {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let lines: Vec<&str> = seen.lines().collect();
    for path in [
        "blog/hooked/index.html",
        "blog/index.html",
        "blog/feed.xml",
        "sitemap.xml",
        "blog/sitemap-1.xml",
    ] {
        assert!(lines.contains(&path), "{path} in {seen:?}");
    }
}

/// A draft's saves, schedules and unschedules change nothing the public sees, so their
/// answers wait for no rebuild; a publish, and then an edit of the published post, do.
#[tokio::test]
async fn changes_the_public_cannot_see_wait_for_no_rebuild() {
    let app = TestApp::with_site(|_| {}).await;
    let token = app.login().await;
    let passes = || app.state.rebuilder.passes();
    let before = passes();
    let post = save(
        &app,
        &token,
        "POST",
        "/api/admin/blogs",
        json!({ "title": "Quiet" }),
    )
    .await;
    let path = format!("/api/admin/blogs/{}", post["id"]);
    save(
        &app,
        &token,
        "PATCH",
        &path,
        json!({ "content": "<p>More.</p>" }),
    )
    .await;
    let at = (app.state.clock.now() + jiff::SignedDuration::from_hours(48)).to_string();
    save(
        &app,
        &token,
        "POST",
        &format!("{path}/schedule"),
        json!({ "publishDate": at }),
    )
    .await;
    save(
        &app,
        &token,
        "POST",
        &format!("{path}/unschedule"),
        json!(null),
    )
    .await;
    assert_eq!(passes(), before, "no rebuild for a draft");
    save(
        &app,
        &token,
        "POST",
        &format!("{path}/publish"),
        json!(null),
    )
    .await;
    assert_eq!(passes(), before + 1);
    assert_eq!(app.get("/blog/quiet").await.status(), 200);
    save(&app, &token, "PATCH", &path, json!({ "status": "draft" })).await;
    assert_eq!(passes(), before + 2, "unpublishing is a public change");
    assert_eq!(app.get("/blog/quiet").await.status(), 404);
    app.admin("DELETE", &path, &token, None).await;
    assert_eq!(passes(), before + 2, "nor does deleting a draft");
}

#[tokio::test]
async fn a_failed_rebuild_keeps_the_post_and_says_the_site_is_behind() {
    let app = TestApp::with_site(|_| {}).await;
    let token = app.login().await;
    // The blog's folder cannot be written into: a file stands where it should be.
    let blog = app.dist().join("blog");
    std::fs::remove_dir_all(&blog).unwrap();
    std::fs::write(&blog, "in the way").unwrap();
    let res = app
        .admin(
            "POST",
            "/api/admin/blogs",
            &token,
            Some(json!({ "title": "Stubborn", "status": "published" })),
        )
        .await;
    assert_eq!(res.status(), 201);
    let body = TestApp::json(&res);
    assert_eq!(body["slug"], "stubborn");
    assert!(
        body["warning"]
            .as_str()
            .unwrap()
            .starts_with("Saved, but the public website could not be updated")
    );
    assert_eq!(app.count("blog_posts").await, 1, "the post is saved");

    // Once the folder can be written again, the next change brings everything up to date.
    std::fs::remove_file(&blog).unwrap();
    let res = app
        .admin(
            "POST",
            "/api/admin/blogs",
            &token,
            Some(json!({ "title": "Next", "status": "published" })),
        )
        .await;
    assert!(TestApp::json(&res).get("warning").is_none());
    assert_eq!(app.get("/blog/stubborn").await.status(), 200);
    assert_eq!(app.get("/blog/next").await.status(), 200);
}

/// With the site's bundles missing, a publish is saved but its page cannot be written: the
/// answer says so, and the dashboard's status says so until a rebuild succeeds.
#[tokio::test]
async fn a_publish_that_did_not_go_live_says_so_until_a_rebuild_succeeds() {
    let (dir, opts) = generator::fixture::project();
    generator::build(&opts, &generator::fixture::EchoRenderer).unwrap();
    let manifest = opts.client_dir.join(".vite/manifest.json");
    let kept = std::fs::read(&manifest).unwrap();
    std::fs::remove_file(&manifest).unwrap();
    let app = TestApp::start_site_for_test(dir, opts, |_| {}).await;
    let token = app.login().await;
    let res = app
        .admin(
            "POST",
            "/api/admin/blogs",
            &token,
            Some(json!({ "title": "Not live", "status": "published" })),
        )
        .await;
    assert_eq!(res.status(), 201, "{:?}", res.body());
    let body = TestApp::json(&res);
    assert!(
        body["warning"]
            .as_str()
            .is_some_and(|w| w.contains("could not be updated")),
        "{body}"
    );
    assert_eq!(app.get("/blog/not-live").await.status(), 404);
    let status = TestApp::json(
        &app.admin("GET", "/api/admin/site-status", &token, None)
            .await,
    );
    assert!(
        status["failure"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("manifest")),
        "{status}"
    );
    assert!(status["failure"]["since"].is_string());
    // The bundles back: the next change brings the site up to date, and the warning goes.
    std::fs::write(&manifest, kept).unwrap();
    let res = app
        .admin(
            "POST",
            "/api/admin/blogs",
            &token,
            Some(json!({ "title": "Live now", "status": "published" })),
        )
        .await;
    assert!(TestApp::json(&res).get("warning").is_none());
    assert_eq!(app.get("/blog/not-live").await.status(), 200);
    let status = TestApp::json(
        &app.admin("GET", "/api/admin/site-status", &token, None)
            .await,
    );
    assert!(status["failure"].is_null(), "{status}");
}
