//! The public RSVP: JSON and plain HTML posts, the same answer for a repeat, seats under a
//! race through the route, the never-cached seats left, hostile input, and erasure.

use serde_json::json;

use super::{ask, confirm_link, event, heading, published, rsvp};
use crate::common::{TestApp, location, message};

fn app() -> TestApp {
    TestApp::with(|c| c.form_rate_limit = 1000)
}

#[tokio::test]
async fn fifty_rsvps_at_once_for_twenty_seats_never_take_more_than_twenty() {
    let app = std::sync::Arc::new(app());
    let token = app.login().await;
    let e = published(&app, &token, event(&app, "Town hall", 72, Some(20))).await;
    let slug = e["slug"].as_str().unwrap().to_owned();
    // Fifty people ask, each from their own network, then all fifty press their links at
    // once.
    for i in 0..50u8 {
        let body = json!({
            "event": slug,
            "name": format!("P{i}"),
            "email": format!("p{i}@example.org"),
            "zipCode": "62701",
            "guests": (i % 3).to_string(),
        });
        let res = app
            .post_from("/api/events/rsvp", &body.to_string(), [10, 1, i, 1])
            .await;
        assert_eq!(res.status(), 201, "{:?}", res.body());
    }
    let mut tasks = Vec::new();
    for i in 0..50 {
        let app = app.clone();
        let link = confirm_link(&app, &format!("p{i}@example.org"))
            .await
            .unwrap();
        tasks.push(tokio::spawn(async move {
            let res = warp::test::request()
                .method("POST")
                .path(&link)
                .reply(&app.app)
                .await;
            (res.status().as_u16(), heading(res.body()))
        }));
    }
    let mut going = 0;
    let mut waiting = 0;
    for t in tasks {
        let (status, title) = t.await.unwrap();
        assert_eq!(status, 200, "{title}");
        match title.as_str() {
            "You're going!" => going += 1,
            "You're on the waitlist" => waiting += 1,
            other => panic!("{other}"),
        }
    }
    assert_eq!(going + waiting, 50, "nobody lost");
    let (seats, rows): (i64, i64) = app
        .db
        .read(|c| {
            c.query_row(
                "SELECT (SELECT SUM(1 + guests) FROM event_rsvps WHERE status = 'going'), COUNT(*) FROM event_rsvps",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
        })
        .await
        .unwrap();
    assert!(seats <= 20, "{seats} seats taken");
    assert!(seats >= 18, "the seats are used: {seats}");
    assert_eq!(rows, 50);
    assert_eq!(
        app.count("event_rsvp_requests").await,
        0,
        "each link used once"
    );
    // The seats left say so, and are never cached.
    let res = app.get(&format!("/api/events/{slug}/spots")).await;
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["cache-control"], "no-store");
    let spots = TestApp::json(&res);
    assert_eq!(spots["left"], 20 - seats);
    assert_eq!(spots["open"], true);
    assert_eq!(spots["waitlist"], true);
}

#[tokio::test]
async fn a_repeat_rsvp_changes_the_first_and_is_answered_as_anyone_would_be() {
    let app = app();
    let token = app.login().await;
    let e = published(&app, &token, event(&app, "Meeting", 72, Some(3))).await;
    let slug = e["slug"].as_str().unwrap().to_owned();
    assert_eq!(
        rsvp(&app, &slug, "Ann", "ann@example.org", 2).await.1,
        "You're going!"
    );
    // Full now: a newcomer and Ann herself get the same answer from the form.
    let newcomer = ask(&app, &slug, "Bo", "bo@example.org", 0).await;
    let again = ask(&app, &slug, "Ann Lee", "Ann@Example.org", 2).await;
    assert_eq!(newcomer, again, "no one learns who is going");
    // Each confirms from their own mailbox: Ann's RSVP changes in place, Bo waits.
    for who in ["bo@example.org", "ann@example.org"] {
        let link = confirm_link(&app, who).await.unwrap();
        let res = warp::test::request()
            .method("POST")
            .path(&link)
            .reply(&app.app)
            .await;
        assert_eq!(res.status(), 200);
    }
    let rows: Vec<(String, String, i64)> = app
        .db
        .read(|c| {
            c.prepare("SELECT name, status, guests FROM event_rsvps ORDER BY id")?
                .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
                .collect()
        })
        .await
        .unwrap();
    assert_eq!(
        rows,
        [
            ("Ann Lee".to_owned(), "going".to_owned(), 2),
            ("Bo".to_owned(), "waitlisted".to_owned(), 0)
        ],
        "one RSVP per address, changed in place, still going"
    );
    // Fewer guests free seats: Bo moves up.
    rsvp(&app, &slug, "Ann Lee", "ann@example.org", 0).await;
    let bo: String = app
        .db
        .read(|c| {
            c.query_row(
                "SELECT status FROM event_rsvps WHERE email = 'bo@example.org'",
                [],
                |r| r.get(0),
            )
        })
        .await
        .unwrap();
    assert_eq!(bo, "going");
}

#[tokio::test]
async fn without_javascript_the_form_lands_on_check_your_email_or_its_problem() {
    let app = app();
    let token = app.login().await;
    let e = published(&app, &token, event(&app, "Shift", 72, Some(1))).await;
    let slug = e["slug"].as_str().unwrap().to_owned();
    let from = format!("/events/{slug}");
    let res = app
        .post_form(
            "/api/events/rsvp",
            &format!("event={slug}&name=Ann&email=ann%40example.org&zipCode=62701&phone=&guests=0&website="),
            &from,
        )
        .await;
    assert_eq!(res.status(), 303);
    assert_eq!(location(&res), "/events/check-email");
    let res = app
        .post_form(
            "/api/events/rsvp",
            &format!("event={slug}&name=Bo&email=bo%40example.org&zipCode=62701&guests=0"),
            &from,
        )
        .await;
    assert_eq!(location(&res), "/events/check-email");
    // A refusal keeps what was typed, and the event.
    let res = app
        .post_form(
            "/api/events/rsvp",
            &format!("event={slug}&name=Cy&email=cy%40example.org&zipCode=123&guests=0"),
            &from,
        )
        .await;
    assert_eq!(res.status(), 303);
    let problem = location(&res);
    assert!(problem.starts_with("/forms/rsvp/problem/"), "{problem}");
    let page = String::from_utf8(app.get(&problem).await.body().to_vec()).unwrap();
    assert!(page.contains("Please enter a valid ZIP code"), "{page}");
    assert!(
        page.contains(&format!(
            r#"<input type="hidden" name="event" value="{slug}">"#
        )),
        "{page}"
    );
    assert!(page.contains(r#"value="cy@example.org""#), "{page}");
    assert!(
        page.contains(r#"<select id="problem-guests" name="guests""#),
        "{page}"
    );
}

#[tokio::test]
async fn hostile_and_mistaken_rsvps_are_refused_with_a_reason_and_store_nothing() {
    let app = app();
    let token = app.login().await;
    let e = published(&app, &token, event(&app, "Shift", 72, None)).await;
    let slug = e["slug"].as_str().unwrap().to_owned();
    let draft = app
        .admin(
            "POST",
            "/api/admin/events",
            &token,
            Some(event(&app, "Draft", 72, None)),
        )
        .await;
    let draft_slug = TestApp::json(&draft)["event"]["slug"]
        .as_str()
        .unwrap()
        .to_owned();
    let post = |body: serde_json::Value| {
        let app = &app;
        async move { app.post_json("/api/events/rsvp", &body.to_string()).await }
    };
    let base =
        json!({"event": slug, "name": "Ann", "email": "ann@example.org", "zipCode": "62701"});
    let with = |k: &str, v: serde_json::Value| {
        let mut b = base.clone();
        b[k] = v;
        b
    };
    let res = post(with("guests", json!("5"))).await;
    assert_eq!(res.status(), 400);
    assert_eq!(message(&res), "Guests must be a whole number from 0 to 4.");
    assert_eq!(post(with("guests", json!("-1"))).await.status(), 400);
    assert_eq!(
        post(with("guests", json!(2.5))).await.status(),
        400,
        "a whole number"
    );
    assert_eq!(post(with("guests", json!(9))).await.status(), 400);
    assert_eq!(
        post(with("guests", json!(true))).await.status(),
        400,
        "text or a number"
    );
    // A whole number is taken as a form's text would be (it waits for the mailbox).
    assert_eq!(post(with("guests", json!(2))).await.status(), 201);
    assert_eq!(
        post(with("email", json!("not an address"))).await.status(),
        400
    );
    assert_eq!(
        post(with("name", json!("Ann\r\nBcc: x@example.org")))
            .await
            .status(),
        400
    );
    assert_eq!(
        post(with("capacity", json!("1"))).await.status(),
        400,
        "no such field"
    );
    let res = post(with("event", json!("no-such-event"))).await;
    assert_eq!(res.status(), 404);
    assert_eq!(message(&res), "There is no such event.");
    assert_eq!(
        post(with("event", json!(draft_slug))).await.status(),
        404,
        "a draft is not public"
    );
    assert_eq!(
        post(with("event", json!("x".repeat(201)))).await.status(),
        400
    );
    assert_eq!(
        app.get(&format!("/api/events/{draft_slug}/spots"))
            .await
            .status(),
        404
    );
    assert_eq!(app.count("event_rsvps").await, 0);
    // Closed once it starts.
    app.state
        .clock
        .advance(std::time::Duration::from_secs(73 * 3600));
    let res = post(base.clone()).await;
    assert_eq!(res.status(), 409);
    assert_eq!(message(&res), "RSVPs for this event are closed.");
    assert_eq!(
        TestApp::json(&app.get(&format!("/api/events/{slug}/spots")).await)["open"],
        false
    );
}

#[tokio::test]
async fn erasing_a_person_removes_their_rsvps_and_gives_their_seat_to_whoever_waits() {
    let app = app();
    let token = app.login().await;
    let e = published(&app, &token, event(&app, "Shift", 72, Some(1))).await;
    let slug = e["slug"].as_str().unwrap().to_owned();
    let body = json!({"event": slug, "name": "Ann", "email": "ann@example.org", "zipCode": "62701", "phone": "555-123-4567", "smsConsent": true});
    assert_eq!(
        app.post_json("/api/events/rsvp", &body.to_string())
            .await
            .status(),
        201
    );
    let link = confirm_link(&app, "ann@example.org").await.unwrap();
    let res = warp::test::request()
        .method("POST")
        .path(&link)
        .reply(&app.app)
        .await;
    assert_eq!(heading(res.body()), "You're going!");
    assert_eq!(
        rsvp(&app, &slug, "Bo", "bo@example.org", 0).await.1,
        "You're on the waitlist"
    );
    // A third, who never confirmed, holds nothing but is erased too.
    ask(&app, &slug, "Ann again", "Ann@example.org", 0).await;
    let res = app
        .admin(
            "POST",
            "/api/admin/erase",
            &token,
            Some(json!({"email": "ANN@example.org"})),
        )
        .await;
    assert_eq!(res.status(), 200, "{:?}", res.body());
    assert_eq!(
        TestApp::json(&res)["rsvps"],
        2,
        "her RSVP and the one waiting"
    );
    assert_eq!(app.count("event_rsvp_requests").await, 0);
    let rows: Vec<(String, String)> = app
        .db
        .read(|c| {
            c.prepare("SELECT email, status FROM event_rsvps")?
                .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect()
        })
        .await
        .unwrap();
    assert_eq!(rows, [("bo@example.org".to_owned(), "going".to_owned())]);
    let consents: i64 = app
        .db
        .read(|c| {
            c.query_row(
                "SELECT COUNT(*) FROM sms_consents WHERE email = 'ann@example.org'",
                [],
                |r| r.get(0),
            )
        })
        .await
        .unwrap();
    assert_eq!(consents, 0, "the number's consent goes with her");
}
