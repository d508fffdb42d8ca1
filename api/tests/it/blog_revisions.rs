//! A post's history: which changes keep a revision, the newest 50 kept, reading one,
//! restoring one (a new save, itself a revision), and saves from an older version refused
//! with 409 instead of overwriting. Bad ids: clear 4xx, nothing changed.

use crate::common::{TestApp, message};
use serde_json::{Value, json};

async fn call(app: &TestApp, token: &str, method: &str, path: &str, body: Option<Value>) -> Value {
    let res = app.admin(method, path, token, body).await;
    assert!(
        res.status().is_success(),
        "{method} {path}: {} {:?}",
        res.status(),
        res.body()
    );
    TestApp::json(&res)
}

async fn history(app: &TestApp, token: &str, id: &Value) -> Vec<(String, String)> {
    let body = call(
        app,
        token,
        "GET",
        &format!("/api/admin/blogs/{id}/revisions"),
        None,
    )
    .await;
    body["revisions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["reason"].as_str().unwrap().to_owned(),
                r["title"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
        .collect()
}

#[tokio::test]
async fn text_changes_publishes_and_unpublishes_keep_revisions_newest_first() {
    let app = TestApp::new();
    let token = app.login().await;
    let post = call(
        &app,
        &token,
        "POST",
        "/api/admin/blogs",
        Some(json!({ "title": "One", "content": "<p>a</p>" })),
    )
    .await;
    let id = post["id"].clone();
    let path = format!("/api/admin/blogs/{id}");
    call(
        &app,
        &token,
        "PATCH",
        &path,
        Some(json!({ "title": "Two" })),
    )
    .await;
    // Keywords, author and slug are not what a revision keeps: no revision.
    call(
        &app,
        &token,
        "PATCH",
        &path,
        Some(json!({ "keywords": "k", "authorName": "Ann" })),
    )
    .await;
    call(&app, &token, "POST", &format!("{path}/publish"), None).await;
    call(
        &app,
        &token,
        "PATCH",
        &path,
        Some(json!({ "featuredImageAlt": "A crowd" })),
    )
    .await;
    call(
        &app,
        &token,
        "PATCH",
        &path,
        Some(json!({ "status": "draft" })),
    )
    .await;
    assert_eq!(
        history(&app, &token, &id).await,
        pairs(&[
            ("unpublished", "Two"),
            ("saved", "Two"),
            ("published", "Two"),
            ("saved", "Two"),
            ("saved", "One"),
        ])
    );

    // One, whole.
    let list = call(&app, &token, "GET", &format!("{path}/revisions"), None).await;
    let oldest = list["revisions"][4]["id"].clone();
    let first = call(
        &app,
        &token,
        "GET",
        &format!("{path}/revisions/{oldest}"),
        None,
    )
    .await;
    assert_eq!(
        (first["title"].as_str(), first["content"].as_str()),
        (Some("One"), Some("<p>a</p>"))
    );
    assert_eq!(first["postId"], id);

    // The newest 50 are kept.
    for n in 0..60 {
        call(
            &app,
            &token,
            "PATCH",
            &path,
            Some(json!({ "content": format!("<p>{n}</p>") })),
        )
        .await;
    }
    let list = call(&app, &token, "GET", &format!("{path}/revisions"), None).await;
    let list = list["revisions"].as_array().unwrap();
    assert_eq!(list.len(), 50);
    let newest = call(
        &app,
        &token,
        "GET",
        &format!("{path}/revisions/{}", list[0]["id"]),
        None,
    )
    .await;
    assert_eq!(newest["content"], "<p>59</p>");
    assert_eq!(app.count("blog_revisions").await, 50);

    // Deleting the post deletes its history.
    call(&app, &token, "DELETE", &path, None).await;
    assert_eq!(app.count("blog_revisions").await, 0);
}

#[tokio::test]
async fn a_restore_is_a_new_save_and_bad_revisions_change_nothing() {
    let app = TestApp::new();
    let token = app.login().await;
    let post = call(
        &app,
        &token,
        "POST",
        "/api/admin/blogs",
        Some(json!({ "title": "First words", "content": "<p>Good.</p>", "excerpt": "E1" })),
    )
    .await;
    let id = post["id"].clone();
    let path = format!("/api/admin/blogs/{id}");
    call(
        &app,
        &token,
        "PATCH",
        &path,
        Some(json!({ "title": "Bad paste", "content": "<p>Oops.</p>", "excerpt": null })),
    )
    .await;
    let list = call(&app, &token, "GET", &format!("{path}/revisions"), None).await;
    let good = list["revisions"][1]["id"].clone();
    let other = call(
        &app,
        &token,
        "POST",
        "/api/admin/blogs",
        Some(json!({ "title": "Another post" })),
    )
    .await;
    let others_rev = call(
        &app,
        &token,
        "GET",
        &format!("/api/admin/blogs/{}/revisions", other["id"]),
        None,
    )
    .await["revisions"][0]["id"]
        .clone();
    let before = call(&app, &token, "GET", &path, None).await;

    // Another post's revision, one that does not exist, ids that are not ids.
    for (rev, status) in [
        (others_rev.to_string(), 404),
        ("999999".to_owned(), 404),
        ("x".to_owned(), 400),
    ] {
        let res = app
            .admin(
                "POST",
                &format!("{path}/revisions/{rev}/restore"),
                &token,
                Some(json!({})),
            )
            .await;
        assert_eq!(res.status(), status, "{rev}");
        assert!(!message(&res).is_empty());
        let res = app
            .admin("GET", &format!("{path}/revisions/{rev}"), &token, None)
            .await;
        assert_eq!(res.status(), status, "{rev}");
    }
    let res = app
        .admin(
            "POST",
            "/api/admin/blogs/999999/revisions/1/restore",
            &token,
            Some(json!({})),
        )
        .await;
    assert_eq!(res.status(), 404);
    assert_eq!(
        call(&app, &token, "GET", &path, None).await,
        before,
        "nothing changed"
    );

    // From an older version: refused.
    let res = app
        .admin(
            "POST",
            &format!("{path}/revisions/{good}/restore"),
            &token,
            Some(json!({ "version": 1 })),
        )
        .await;
    assert_eq!(res.status(), 409);
    let restored = call(
        &app,
        &token,
        "POST",
        &format!("{path}/revisions/{good}/restore"),
        Some(json!({ "version": before["version"] })),
    )
    .await;
    assert_eq!(
        (
            restored["title"].as_str(),
            restored["content"].as_str(),
            restored["excerpt"].as_str()
        ),
        (Some("First words"), Some("<p>Good.</p>"), Some("E1"))
    );
    assert_eq!(restored["status"], "draft");
    assert_eq!(restored["version"], before["version"].as_i64().unwrap() + 1);
    assert_eq!(
        history(&app, &token, &id).await,
        pairs(&[
            ("restored", "First words"),
            ("saved", "Bad paste"),
            ("saved", "First words")
        ])
    );
}

#[tokio::test]
async fn a_save_from_an_older_version_is_refused_and_changes_nothing() {
    let app = TestApp::new();
    let token = app.login().await;
    let post = call(
        &app,
        &token,
        "POST",
        "/api/admin/blogs",
        Some(json!({ "title": "Shared" })),
    )
    .await;
    let id = post["id"].clone();
    let path = format!("/api/admin/blogs/{id}");
    let opened = post["version"].clone();
    // Tab one saves.
    let saved = call(
        &app,
        &token,
        "PATCH",
        &path,
        Some(json!({ "content": "<p>Tab one.</p>", "version": opened })),
    )
    .await;
    assert_eq!(saved["version"], opened.as_i64().unwrap() + 1);
    // Tab two, opened at the same version, does not overwrite it.
    let res = app
        .admin(
            "PATCH",
            &path,
            &token,
            Some(json!({ "content": "<p>Tab two.</p>", "version": opened })),
        )
        .await;
    assert_eq!(res.status(), 409);
    assert!(
        message(&res).starts_with("This post was changed elsewhere"),
        "{}",
        message(&res)
    );
    assert_eq!(call(&app, &token, "GET", &path, None).await, saved);
    // Reloaded (the new version), tab two keeps its text: both are in the history.
    call(
        &app,
        &token,
        "PATCH",
        &path,
        Some(json!({ "content": "<p>Tab two.</p>", "version": saved["version"] })),
    )
    .await;
    let list = history(&app, &token, &id).await;
    assert_eq!(list.len(), 3);
}

/// A restore is held to the rules of a save today: a version from when a host was allowed
/// (or from before the rules) brings back no image from a host the site no longer allows.
#[tokio::test]
async fn a_restore_passes_the_rules_of_a_save() {
    let app = TestApp::new();
    let token = app.login().await;
    let post = call(
        &app,
        &token,
        "POST",
        "/api/admin/blogs",
        Some(json!({ "title": "Now", "content": "<p>Now.</p>" })),
    )
    .await;
    let id = post["id"].as_i64().unwrap();
    let path = format!("/api/admin/blogs/{id}");
    // Two old versions, as the table kept them.
    let (pixel, cover) = app
        .db
        .write(move |tx| {
            let add = |content: &str, image: Option<&str>| {
                tx.query_row(
                    "INSERT INTO blog_revisions (post_id, reason, title, content, featured_image) \
                     VALUES (?1, 'saved', 'Then', ?2, ?3) RETURNING id",
                    rusqlite::params![id, content, image],
                    |r| r.get::<_, i64>(0),
                )
            };
            Ok((
                add(
                    "<p>Then.</p><img src=\"https://tracker.example/p.gif\" alt=\"\">",
                    None,
                )?,
                add("<p>Then.</p>", Some("https://tracker.example/cover.jpg"))?,
            ))
        })
        .await
        .unwrap();
    // A featured image from a host the site does not allow: the restore is refused, as a
    // save would be, and nothing changes.
    let res = app
        .admin(
            "POST",
            &format!("{path}/revisions/{cover}/restore"),
            &token,
            Some(json!({})),
        )
        .await;
    assert_eq!(res.status(), 400);
    assert!(
        message(&res).contains("featuredImage must be an uploaded image"),
        "{}",
        message(&res)
    );
    assert_eq!(call(&app, &token, "GET", &path, None).await["title"], "Now");
    // An image in the text from such a host is dropped, as a save drops it.
    let restored = call(
        &app,
        &token,
        "POST",
        &format!("{path}/revisions/{pixel}/restore"),
        Some(json!({})),
    )
    .await;
    assert_eq!(restored["title"], "Then");
    assert!(
        !restored["content"]
            .as_str()
            .unwrap()
            .contains("tracker.example"),
        "{restored}"
    );
}
