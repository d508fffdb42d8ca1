//! Scheduled posts: invisible everywhere public until their time, then published by the
//! server's task with exactly the effects of Publish; once only, also across a restart;
//! rescheduling, unscheduling and deleting leave nothing behind; bad times are refused.
//! Time moves with the app's clock: no test waits for it.

use std::time::Duration;

use crate::common::{TestApp, message, text};
use serde_json::{Value, json};

/// A time `minutes` from the app's now, as the party's clock reads it (America/Chicago in
/// the fixture), the way the editor sends it.
fn local_in(app: &TestApp, minutes: i64) -> String {
    let at = app
        .state
        .clock
        .now()
        .checked_add(jiff::SignedDuration::from_mins(minutes))
        .unwrap();
    at.to_zoned_datetime(app.state.site.tz())
        .strftime("%Y-%m-%dT%H:%M")
        .to_string()
}

async fn draft(app: &TestApp, token: &str, title: &str) -> Value {
    let res = app
        .admin(
            "POST",
            "/api/admin/blogs",
            token,
            Some(json!({ "title": title, "content": "<p>Soon.</p>", "excerpt": "Coming up." })),
        )
        .await;
    assert_eq!(res.status(), 201);
    TestApp::json(&res)
}

async fn schedule(
    app: &TestApp,
    token: &str,
    id: &Value,
    at: &str,
) -> warp::http::Response<bytes::Bytes> {
    app.admin(
        "POST",
        &format!("/api/admin/blogs/{id}/schedule"),
        token,
        Some(json!({ "publishDate": at })),
    )
    .await
}

/// Whether the post `slug` shows anywhere public.
async fn public_anywhere(app: &TestApp, slug: &str, title: &str) -> bool {
    app.get(&format!("/blog/{slug}")).await.status() == 200
        || text(&app.get("/blog").await).contains(title)
        || text(&app.get("/blog/feed.xml").await).contains(title)
        || text(&app.get("/blog/sitemap-1.xml").await).contains(&format!("/blog/{slug}<"))
        || text(&app.get("/api/blogs").await).contains(title)
        || app.get(&format!("/api/blogs/{slug}")).await.status() == 200
}

async fn audit_rows(app: &TestApp, action: &'static str) -> i64 {
    app.db
        .read(move |c| {
            c.query_row(
                "SELECT COUNT(*) FROM audit_log WHERE action = ?1 AND ip IS NULL",
                [action],
                |r| r.get(0),
            )
        })
        .await
        .unwrap()
}

fn advance(app: &TestApp, minutes: u64) {
    app.state.clock.advance(Duration::from_secs(minutes * 60));
}

#[tokio::test]
async fn a_scheduled_post_is_hidden_until_its_time_then_published_like_publish() {
    let app = TestApp::with_site(|c| c.rebuild_hook = Some("cat >> ../hook.txt".into())).await;
    let token = app.login().await;
    let post = draft(&app, &token, "Town Hall Tonight").await;
    let id = post["id"].clone();
    let res = schedule(&app, &token, &id, &local_in(&app, 90)).await;
    assert_eq!(res.status(), 200, "{:?}", res.body());
    let scheduled = TestApp::json(&res);
    assert_eq!(scheduled["status"], "scheduled");
    let when = scheduled["publishDate"].as_str().unwrap().to_owned();
    assert!(when.ends_with(":00.000Z"), "{when}");
    assert!(!public_anywhere(&app, "town-hall-tonight", "Town Hall Tonight").await);

    // Not before its time...
    advance(&app, 88);
    assert!(app.state.scheduler.publish_due().await.is_empty());
    assert!(!public_anywhere(&app, "town-hall-tonight", "Town Hall Tonight").await);
    // ...and at the pass after it.
    advance(&app, 2);
    assert_eq!(
        app.state.scheduler.publish_due().await,
        vec![id.as_i64().unwrap()]
    );
    let page = app.get("/blog/town-hall-tonight").await;
    assert_eq!(page.status(), 200);
    assert!(text(&app.get("/blog").await).contains("Town Hall Tonight"));
    assert!(text(&app.get("/blog/feed.xml").await).contains("<title>Town Hall Tonight</title>"));
    assert!(text(&app.get("/blog/sitemap-1.xml").await).contains("/blog/town-hall-tonight</loc>"));
    assert!(text(&app.get("/api/blogs").await).contains("Town Hall Tonight"));
    let stored = TestApp::json(
        &app.admin("GET", &format!("/api/admin/blogs/{id}"), &token, None)
            .await,
    );
    assert_eq!(stored["status"], "published");
    assert_eq!(
        stored["publishDate"],
        when.as_str(),
        "published with the date it was scheduled for"
    );
    assert_eq!(audit_rows(&app, "published by schedule").await, 1);
    // The hook hears of it, as after Publish (it runs in the background).
    let log = app.dist().join("../hook.txt");
    let mut seen = String::new();
    for _ in 0..200 {
        seen = std::fs::read_to_string(&log).unwrap_or_default();
        if seen.contains("blog/town-hall-tonight/index.html") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    for path in [
        "blog/town-hall-tonight/index.html",
        "blog/index.html",
        "blog/feed.xml",
        "sitemap.xml",
        "blog/sitemap-1.xml",
    ] {
        assert!(seen.lines().any(|l| l == path), "{path} in {seen:?}");
    }

    // Once only.
    advance(&app, 60);
    assert!(app.state.scheduler.publish_due().await.is_empty());
    assert_eq!(audit_rows(&app, "published by schedule").await, 1);
}

#[tokio::test]
async fn a_post_due_while_the_server_was_down_is_published_once_at_the_next_start() {
    let app = TestApp::with_site(|_| {}).await;
    let token = app.login().await;
    let post = draft(&app, &token, "While You Slept").await;
    let id = post["id"].as_i64().unwrap();
    let res = schedule(&app, &token, &post["id"], &local_in(&app, 30)).await;
    assert_eq!(res.status(), 200);

    // Stopped before its time; started again two hours later.
    let app = app
        .restart(|state| state.clock.advance(Duration::from_secs(2 * 3600)))
        .await;
    assert!(!public_anywhere(&app, "while-you-slept", "While You Slept").await);
    // The task's first pass runs as the server starts (`Scheduler::start`).
    assert_eq!(app.state.scheduler.publish_due().await, vec![id]);
    assert_eq!(app.get("/blog/while-you-slept").await.status(), 200);
    assert!(text(&app.get("/blog").await).contains("While You Slept"));

    // And a second restart publishes nothing again.
    let app = app
        .restart(|state| state.clock.advance(Duration::from_secs(3 * 3600)))
        .await;
    assert!(app.state.scheduler.publish_due().await.is_empty());
    assert_eq!(audit_rows(&app, "published by schedule").await, 1);
    assert_eq!(app.get("/blog/while-you-slept").await.status(), 200);
}

#[tokio::test]
async fn rescheduling_unscheduling_and_deleting_leave_nothing_behind() {
    let app = TestApp::with_site(|_| {}).await;
    let token = app.login().await;

    // Rescheduled later: the first time passes without a publish.
    let a = draft(&app, &token, "Moved Later").await;
    assert_eq!(
        schedule(&app, &token, &a["id"], &local_in(&app, 10))
            .await
            .status(),
        200
    );
    let res = schedule(&app, &token, &a["id"], &local_in(&app, 120)).await;
    assert_eq!(res.status(), 200);
    // Unscheduled: a draft again, with no date.
    let b = draft(&app, &token, "Called Off").await;
    assert_eq!(
        schedule(&app, &token, &b["id"], &local_in(&app, 10))
            .await
            .status(),
        200
    );
    let res = app
        .admin(
            "POST",
            &format!("/api/admin/blogs/{}/unschedule", b["id"]),
            &token,
            None,
        )
        .await;
    assert_eq!(res.status(), 200);
    let unscheduled = TestApp::json(&res);
    assert_eq!(
        (unscheduled["status"].as_str(), &unscheduled["publishDate"]),
        (Some("draft"), &Value::Null)
    );
    // Deleted.
    let c = draft(&app, &token, "Thrown Away").await;
    assert_eq!(
        schedule(&app, &token, &c["id"], &local_in(&app, 10))
            .await
            .status(),
        200
    );
    let res = app
        .admin(
            "DELETE",
            &format!("/api/admin/blogs/{}", c["id"]),
            &token,
            None,
        )
        .await;
    assert_eq!(res.status(), 200);
    // Saving a scheduled post keeps its schedule.
    let d = draft(&app, &token, "Edited Meanwhile").await;
    assert_eq!(
        schedule(&app, &token, &d["id"], &local_in(&app, 200))
            .await
            .status(),
        200
    );
    let res = app
        .admin(
            "PATCH",
            &format!("/api/admin/blogs/{}", d["id"]),
            &token,
            Some(json!({ "content": "<p>Better.</p>", "status": "scheduled" })),
        )
        .await;
    assert_eq!(TestApp::json(&res)["status"], "scheduled");

    advance(&app, 30);
    assert!(app.state.scheduler.publish_due().await.is_empty());
    for (slug, title) in [
        ("moved-later", "Moved Later"),
        ("called-off", "Called Off"),
        ("thrown-away", "Thrown Away"),
    ] {
        assert!(!public_anywhere(&app, slug, title).await, "{title}");
    }
    advance(&app, 100);
    assert_eq!(
        app.state.scheduler.publish_due().await,
        vec![a["id"].as_i64().unwrap()]
    );
    advance(&app, 100);
    assert_eq!(
        app.state.scheduler.publish_due().await,
        vec![d["id"].as_i64().unwrap()]
    );
    assert!(text(&app.get("/blog/edited-meanwhile").await).contains("Better."));
    assert!(!public_anywhere(&app, "called-off", "Called Off").await);
}

#[tokio::test]
async fn bad_times_are_refused_and_change_nothing() {
    let app = TestApp::with_site(|_| {}).await;
    let token = app.login().await;
    let post = draft(&app, &token, "Not Like That").await;
    let id = post["id"].clone();
    let cases = [
        (local_in(&app, -3), "already passed"),
        ("next tuesday".to_owned(), "is not a date and time"),
        ("2026-02-30T10:00".to_owned(), "is not a date and time"),
    ];
    for (at, says) in cases {
        let res = schedule(&app, &token, &id, &at).await;
        assert_eq!(res.status(), 400, "{at}");
        assert!(message(&res).contains(says), "{at}: {}", message(&res));
    }
    // A minute ago is taken (a slow form): it publishes at the next pass.
    let ok = schedule(&app, &token, &id, &local_in(&app, -1)).await;
    assert_eq!(ok.status(), 200);
    let unscheduled = app
        .admin(
            "POST",
            &format!("/api/admin/blogs/{id}/unschedule"),
            &token,
            None,
        )
        .await;
    assert_eq!(unscheduled.status(), 200);
    let stored = TestApp::json(
        &app.admin("GET", &format!("/api/admin/blogs/{id}"), &token, None)
            .await,
    );
    assert_eq!(
        (stored["status"].as_str(), &stored["publishDate"]),
        (Some("draft"), &Value::Null)
    );

    // A published post is not scheduled; a draft is not unscheduled; nothing is made
    // scheduled by a save without a time.
    let res = app
        .admin(
            "POST",
            &format!("/api/admin/blogs/{id}/publish"),
            &token,
            None,
        )
        .await;
    assert_eq!(res.status(), 200);
    assert_eq!(
        schedule(&app, &token, &id, &local_in(&app, 60))
            .await
            .status(),
        409
    );
    let other = draft(&app, &token, "Plain Draft").await;
    let res = app
        .admin(
            "POST",
            &format!("/api/admin/blogs/{}/unschedule", other["id"]),
            &token,
            None,
        )
        .await;
    assert_eq!(res.status(), 409);
    let res = app
        .admin(
            "PATCH",
            &format!("/api/admin/blogs/{}", other["id"]),
            &token,
            Some(json!({ "status": "scheduled" })),
        )
        .await;
    assert_eq!(res.status(), 400);
    assert!(message(&res).contains("Schedule"));
    let res = schedule(&app, &token, &json!(999), &local_in(&app, 60)).await;
    assert_eq!(res.status(), 404);
    assert_eq!(audit_rows(&app, "published by schedule").await, 0);
}
