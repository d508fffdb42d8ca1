//! What the blog editor asks of the server besides saving: the slug a save would give, and
//! one-time previews of unsaved posts rendered exactly as the public page will be.

use crate::common::{TestApp, message, text};
use serde_json::{Value, json};

async fn create(app: &TestApp, token: &str, body: Value) -> Value {
    let res = app
        .admin("POST", "/api/admin/blogs", token, Some(body))
        .await;
    assert_eq!(res.status(), 201, "{:?}", res.body());
    TestApp::json(&res)
}

async fn slug(app: &TestApp, token: &str, query: &str) -> String {
    let res = app
        .admin("GET", &format!("/api/admin/blogs/slug{query}"), token, None)
        .await;
    assert_eq!(res.status(), 200, "{query}: {:?}", res.body());
    assert_eq!(res.headers()["cache-control"], "no-store");
    let body = TestApp::json(&res);
    assert_eq!(body.as_object().unwrap().len(), 1, "{body}");
    body["slug"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn the_slug_is_the_one_a_save_would_give() {
    let app = TestApp::new();
    let token = app.login().await;
    // Normalised as a save normalises it.
    assert_eq!(
        slug(
            &app,
            &token,
            "?title=Caf%C3%A9%20Society%3A%20%C3%91and%C3%BA%20%26%20%C5%92uvre"
        )
        .await,
        "cafe-society-nandu-oeuvre"
    );
    assert_eq!(slug(&app, &token, "?title=&slug=").await, "untitled");
    assert_eq!(slug(&app, &token, "").await, "untitled");
    assert_eq!(
        slug(&app, &token, "?title=Ignored&slug=My%20Own%20Slug!").await,
        "my-own-slug"
    );
    assert_eq!(slug(&app, &token, "?title=!!!").await, "post");

    // Numbered when taken, as a save numbers it; a post's own slug is not "taken".
    let first = create(&app, &token, json!({ "title": "Why We March" })).await;
    assert_eq!(first["slug"], "why-we-march");
    assert_eq!(
        slug(&app, &token, "?title=Why%20We%20March").await,
        "why-we-march-2"
    );
    let second = create(&app, &token, json!({ "title": "Why We March" })).await;
    assert_eq!(
        second["slug"], "why-we-march-2",
        "the save agrees with the answer"
    );
    assert_eq!(
        slug(&app, &token, "?title=Why%20We%20March").await,
        "why-we-march-3"
    );
    let id = &first["id"];
    assert_eq!(
        slug(&app, &token, &format!("?title=Why%20We%20March&id={id}")).await,
        "why-we-march"
    );
    // A saved post keeps its slug when none is sent, whatever the title…
    assert_eq!(
        slug(&app, &token, &format!("?title=Something%20Else&id={id}")).await,
        "why-we-march"
    );
    // …and gets one from the title when an empty one is sent, as a save does.
    assert_eq!(
        slug(
            &app,
            &token,
            &format!("?title=Something%20Else&slug=&id={id}")
        )
        .await,
        "something-else"
    );
    let res = app
        .admin(
            "PATCH",
            &format!("/api/admin/blogs/{id}"),
            &token,
            Some(json!({ "title": "Something Else", "slug": "" })),
        )
        .await;
    assert_eq!(TestApp::json(&res)["slug"], "something-else");
    // Nothing was saved by asking.
    assert_eq!(app.count("blog_posts").await, 2);
}

#[tokio::test]
async fn the_slug_refuses_what_a_save_refuses() {
    let app = TestApp::new();
    let token = app.login().await;
    let long = "x".repeat(201);
    for (query, status, expected) in [
        (
            format!("?title={long}"),
            400,
            "title must be at most 200 characters.",
        ),
        (
            format!("?slug={long}"),
            400,
            "slug must be at most 200 characters.",
        ),
        (
            "?id=abc".into(),
            400,
            "The id must be a positive whole number.",
        ),
        (
            "?id=0".into(),
            400,
            "The id must be a positive whole number.",
        ),
        ("?id=999".into(), 404, "There is no blog post 999."),
        ("?id=1&id=2".into(), 400, "The query string is not valid."),
    ] {
        let res = app
            .admin(
                "GET",
                &format!("/api/admin/blogs/slug{query}"),
                &token,
                None,
            )
            .await;
        assert_eq!(res.status(), status, "{query}");
        assert_eq!(message(&res), expected, "{query}");
        assert_eq!(res.headers()["cache-control"], "no-store");
    }
    // Hostile text is just text to slugify.
    assert_eq!(
        slug(&app, &token, "?title=%3Cscript%3Ealert(1)%3C%2Fscript%3E").await,
        "script-alert-1-script"
    );
    assert_eq!(
        slug(
            &app,
            &token,
            "?title=%27%3B%20DROP%20TABLE%20blog_posts%3B--"
        )
        .await,
        "drop-table-blog-posts"
    );
    assert_eq!(app.count("blog_posts").await, 0);
}

/// Asks for a preview and returns its address.
async fn preview(app: &TestApp, token: &str, path: &str, body: Value) -> String {
    let res = app.admin("POST", path, token, Some(body)).await;
    assert_eq!(res.status(), 200, "{:?}", res.body());
    assert_eq!(res.headers()["cache-control"], "no-store");
    let url = TestApp::json(&res)["url"].as_str().unwrap().to_owned();
    let name = url
        .strip_prefix("/admin/preview/")
        .expect("a preview address");
    assert!(
        name.len() == 32 && name.chars().all(|c| c.is_ascii_hexdigit()),
        "{url}"
    );
    url
}

/// Opens a preview the way the new tab does: no token, just the address.
async fn open(app: &TestApp, url: &str) -> (u16, String) {
    let res = app.get(url).await;
    assert_eq!(res.headers()["cache-control"], "no-store", "{url}");
    assert_eq!(res.headers()["x-robots-tag"], "noindex", "{url}");
    assert_eq!(
        res.headers()["content-type"],
        "text/html; charset=utf-8",
        "{url}"
    );
    (res.status().as_u16(), text(&res))
}

#[tokio::test]
async fn a_preview_shows_the_unsaved_post_for_a_while_and_saves_nothing() {
    let app = TestApp::with_site(|_| {}).await;
    let token = app.login().await;
    let url = preview(
        &app,
        &token,
        "/api/admin/blogs/preview",
        json!({
            "title": "A Draft Not Yet Saved",
            "content": "<h2>Unsaved words</h2><p>Hello <strong>there</strong><script>alert(1)</script><img src=x onerror=alert(2)></p>",
            "excerpt": "What the draft says.",
            "authorName": "Marian Hale",
            "status": "draft"
        }),
    )
    .await;
    let (status, html) = open(&app, &url).await;
    assert_eq!(status, 200);
    assert!(
        html.contains("<h2>Unsaved words</h2><p>Hello <strong>there</strong>"),
        "{html}"
    );
    assert!(html.contains("A Draft Not Yet Saved"), "{html}");
    assert!(html.contains("Marian Hale"), "{html}");
    assert!(html.contains(r#"<meta name="robots" content="noindex">"#));
    assert!(!html.contains("rel=\"canonical\""));
    assert!(!html.contains("alert("), "cleaned as the public page is");
    // A reload (or a second device) within its 10 minutes sees it again; nothing was saved
    // or published.
    let (status, again) = open(&app, &url).await;
    assert_eq!(status, 200);
    assert_eq!(again, html);
    assert_eq!(app.count("blog_posts").await, 0);
    assert!(
        !app.dist()
            .join("blog/a-draft-not-yet-saved/index.html")
            .exists()
    );
    // Unknown or malformed names are simply not there.
    for bad in [
        "/admin/preview/00000000000000000000000000000000",
        "/admin/preview/not-a-name",
        "/admin/preview/..%2F..%2Fsite.db",
    ] {
        assert_eq!(open(&app, bad).await.0, 404, "{bad}");
    }
}

/// `html` with the lines that differ between a post's preview and its public page made
/// equal: the robots meta (for the canonical link) and when it was last modified.
fn comparable(html: &str) -> String {
    html.lines()
        .filter(|line| {
            !line.contains("rel=\"canonical\"")
                && !line.contains("property=\"og:url\"")
                && !line.contains("name=\"robots\"")
                && !line.contains("article:modified_time")
        })
        .map(|line| match line.find("\"dateModified\":\"") {
            Some(at) => {
                let end = at + 16 + line[at + 16..].find('"').unwrap();
                format!("{}{}", &line[..at], &line[end..])
            }
            None => line.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[tokio::test]
async fn a_preview_is_the_public_page_to_the_byte() {
    let app = TestApp::with_site(|_| {}).await;
    let token = app.login().await;
    let post = create(
        &app,
        &token,
        json!({
            "title": "Conscience Over Party",
            "content": "<h2>Why</h2><ul><li>One</li><li><a href=\"https://example.org/\">Two</a></li></ul><blockquote><p>Quote</p></blockquote>",
            "excerpt": "Our reasons.",
            "keywords": "conscience, party",
            "status": "published"
        }),
    )
    .await;
    let public = std::fs::read_to_string(app.dist().join("blog/conscience-over-party/index.html"))
        .expect("the published page");
    let url = preview(
        &app,
        &token,
        &format!("/api/admin/blogs/{}/preview", post["id"]),
        json!({}),
    )
    .await;
    let (status, html) = open(&app, &url).await;
    assert_eq!(status, 200);
    assert_eq!(comparable(&html), comparable(&public));
    assert_ne!(html, public, "the preview is noindex, the page is not");

    // Unsaved changes to a saved post show; what is not sent stays as saved.
    let url = preview(
        &app,
        &token,
        &format!("/api/admin/blogs/{}/preview", post["id"]),
        json!({ "title": "A Better Title" }),
    )
    .await;
    let (_, html) = open(&app, &url).await;
    assert!(html.contains("A Better Title"));
    assert!(html.contains("<h2>Why</h2>"));
    let saved = TestApp::json(
        &app.admin(
            "GET",
            &format!("/api/admin/blogs/{}", post["id"]),
            &token,
            None,
        )
        .await,
    );
    assert_eq!(saved["title"], "Conscience Over Party");
}

#[tokio::test]
async fn a_preview_refuses_what_a_save_refuses() {
    // Refused before anything is rendered: no site needed.
    let app = TestApp::new();
    let token = app.login().await;
    let long = "x".repeat(201);
    for (path, body, status, expected) in [
        (
            "/api/admin/blogs/preview",
            json!({ "title": long }),
            400,
            "title must be at most 200 characters.",
        ),
        (
            "/api/admin/blogs/preview",
            json!({ "status": "secret" }),
            400,
            "status must be draft, published or scheduled.",
        ),
        (
            "/api/admin/blogs/preview",
            json!({ "featuredImage": "javascript:alert(1)" }),
            400,
            "featuredImage must be an uploaded image (/uploads/…), or an https image from a host the site allows.",
        ),
        (
            "/api/admin/blogs/preview",
            json!({ "content": "x".repeat(1024 * 1024 + 1) }),
            400,
            "content must be at most 1 MB.",
        ),
        (
            "/api/admin/blogs/999/preview",
            json!({}),
            404,
            "There is no blog post 999.",
        ),
        (
            "/api/admin/blogs/abc/preview",
            json!({}),
            400,
            "The id must be a positive whole number.",
        ),
    ] {
        let res = app.admin("POST", path, &token, Some(body)).await;
        assert_eq!(res.status(), status, "{path}");
        assert_eq!(message(&res), expected, "{path}");
    }
    // Not JSON, bad JSON, too big.
    let raw = |content_type: &'static str, body: Vec<u8>| {
        warp::test::request()
            .method("POST")
            .path("/api/admin/blogs/preview")
            .header("authorization", format!("Bearer {token}"))
            .header("content-type", content_type)
            .body(body)
    };
    let res = raw("text/plain", b"{}".to_vec()).reply(&app.app).await;
    assert_eq!(res.status(), 415);
    let res = raw("application/json", b"{\"title\": ".to_vec())
        .reply(&app.app)
        .await;
    assert_eq!(res.status(), 400);
    let res = raw("application/json", vec![b' '; 3 * 1024 * 1024 + 1])
        .reply(&app.app)
        .await;
    assert_eq!(res.status(), 413);
    assert_eq!(app.count("blog_posts").await, 0);
}
