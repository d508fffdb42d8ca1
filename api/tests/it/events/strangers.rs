//! What a stranger can do to an event or to someone else's RSVP (issue 48): an RSVP waits
//! for its mailbox, so typing someone's address neither tells whether they are coming (the
//! seats left do not move for a known address any differently than for a new one), nor
//! changes their RSVP, nor lets one network fill an event with made-up names; and a mailbox
//! gets at most three links a day for one event.

use std::net::{IpAddr, Ipv6Addr};

use serde_json::{Value, json};

use super::{ask, confirm_link, event, heading, published, rsvp};
use crate::common::TestApp;

fn app() -> TestApp {
    TestApp::with(|c| c.form_rate_limit = 1000)
}

async fn left(app: &TestApp, slug: &str) -> i64 {
    TestApp::json(&app.get(&format!("/api/events/{slug}/spots")).await)["left"]
        .as_i64()
        .unwrap()
}

/// The form posted from network `ip`.
async fn ask_from(app: &TestApp, ip: IpAddr, slug: &str, email: &str, guests: i64) -> (u16, Value) {
    let body = json!({
        "event": slug,
        "name": "Mallory Stranger",
        "email": email,
        "zipCode": "10001",
        "guests": guests.to_string(),
    });
    let res = app
        .post_from("/api/events/rsvp", &body.to_string(), ip)
        .await;
    (
        res.status().as_u16(),
        serde_json::from_slice(res.body()).unwrap_or(Value::Null),
    )
}

async fn rows(app: &TestApp) -> Vec<(String, String, String, i64)> {
    app.db
        .read(|c| {
            c.prepare("SELECT email, name, status, guests FROM event_rsvps ORDER BY id")?
                .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
                .collect()
        })
        .await
        .unwrap()
}

#[tokio::test]
async fn the_seats_left_move_alike_for_an_address_that_rsvped_and_one_that_did_not() {
    let app = app();
    let token = app.login().await;
    let e = published(&app, &token, event(&app, "Town hall", 72, Some(15))).await;
    let slug = e["slug"].as_str().unwrap().to_owned();
    assert_eq!(
        rsvp(&app, &slug, "Vic Tim", "victim@example.org", 0)
            .await
            .1,
        "You're going!"
    );
    assert_eq!(left(&app, &slug).await, 14);
    let stranger: IpAddr = [203, 0, 113, 9].into();
    // In the victim's name, then in a name nobody used: the same answer, and no seat moves.
    let known = ask_from(&app, stranger, &slug, "victim@example.org", 0).await;
    let after_known = left(&app, &slug).await;
    let unknown = ask_from(&app, stranger, &slug, "nobody@example.org", 0).await;
    let after_unknown = left(&app, &slug).await;
    assert_eq!(known, unknown, "the answer tells nothing");
    assert_eq!(known.1["message"], "Check your e-mail to confirm");
    assert_eq!(
        (14 - after_known, after_known - after_unknown),
        (0, 0),
        "the count moves alike for both"
    );
}

#[tokio::test]
async fn one_network_cannot_fill_an_event_with_made_up_names() {
    let app = app();
    let token = app.login().await;
    let e = published(&app, &token, event(&app, "Town hall", 72, Some(20))).await;
    let slug = e["slug"].as_str().unwrap().to_owned();
    // A new address in the same /64 for every request, each bringing four guests.
    for n in 0..14u16 {
        let ip = IpAddr::V6(Ipv6Addr::new(0x2001, 0xdb8, 0, 7, n, 1, 2, 3));
        let (status, body) = ask_from(&app, ip, &slug, &format!("fake{n}@example.net"), 4).await;
        assert_eq!(status, 201, "{body}");
        assert_eq!(body["message"], "Check your e-mail to confirm");
    }
    assert_eq!(
        left(&app, &slug).await,
        20,
        "nothing is held for a mailbox that never answers"
    );
    assert_eq!(
        app.count("event_rsvp_requests").await,
        api::domain::events::requests::PER_NETWORK,
        "one network keeps at most ten waiting"
    );
    assert!(
        confirm_link(&app, "fake13@example.net").await.is_none(),
        "nor is mailed past them"
    );
    // The next real person gets a seat.
    assert_eq!(
        rsvp(&app, &slug, "Real Person", "real@example.org", 0)
            .await
            .1,
        "You're going!"
    );
    assert_eq!(left(&app, &slug).await, 19);
}

#[tokio::test]
async fn a_strangers_rsvp_in_someones_name_changes_theirs_only_if_their_mailbox_confirms() {
    let app = app();
    let token = app.login().await;
    let e = published(&app, &token, event(&app, "Town hall", 72, Some(10))).await;
    let slug = e["slug"].as_str().unwrap().to_owned();
    assert_eq!(
        rsvp(&app, &slug, "Ann Lee", "ann@example.org", 2).await.1,
        "You're going!"
    );
    let before = rows(&app).await;
    let (status, _) = ask_from(&app, [198, 51, 100, 4].into(), &slug, "ann@example.org", 0).await;
    assert_eq!(status, 201);
    assert_eq!(rows(&app).await, before, "Mallory replaced nothing");
    // Ann is asked, and told what confirming would do; opening the link changes nothing.
    let link = confirm_link(&app, "ann@example.org").await.unwrap();
    let page = app.get(&link).await;
    assert_eq!(page.status(), 200);
    let html = String::from_utf8_lossy(page.body()).into_owned();
    assert!(html.contains("Mallory Stranger"), "{html}");
    assert!(
        html.contains("You already have an RSVP for this event"),
        "{html}"
    );
    assert!(html.contains("Confirm my RSVP"), "{html}");
    assert_eq!(rows(&app).await, before);
    // Unused, the link runs out after a day: still nothing changed.
    app.state
        .clock
        .advance(std::time::Duration::from_secs(25 * 3600));
    let res = warp::test::request()
        .method("POST")
        .path(&link)
        .reply(&app.app)
        .await;
    assert_eq!(res.status(), 410);
    assert_eq!(heading(res.body()), "This link has expired");
    assert_eq!(rows(&app).await, before);
    // A forged link is refused.
    let forged = format!("{}0", &link[..link.len() - 1]);
    let res = warp::test::request()
        .method("POST")
        .path(&forged)
        .reply(&app.app)
        .await;
    assert!(
        res.status() == 404 || res.status() == 410,
        "{}",
        res.status()
    );
    assert_eq!(rows(&app).await, before);
}

#[tokio::test]
async fn a_mailbox_is_sent_three_links_a_day_for_one_event() {
    let app = app();
    let token = app.login().await;
    let e = published(&app, &token, event(&app, "Town hall", 72, None)).await;
    let slug = e["slug"].as_str().unwrap().to_owned();
    for _ in 0..6 {
        assert_eq!(ask(&app, &slug, "Ann", "ann@example.org", 0).await.0, 201);
    }
    let asked: i64 = app
        .db
        .read(|c| {
            c.query_row(
                "SELECT COUNT(*) FROM mail_queue WHERE event_key LIKE 'event-rsvp-ask:%'",
                [],
                |r| r.get(0),
            )
        })
        .await
        .unwrap();
    assert_eq!(asked, 3);
    assert_eq!(
        app.count("event_rsvp_requests").await,
        1,
        "one waiting RSVP per address"
    );
    // Any of the links confirms the latest details.
    let link = confirm_link(&app, "ann@example.org").await.unwrap();
    let res = warp::test::request()
        .method("POST")
        .path(&link)
        .reply(&app.app)
        .await;
    assert_eq!(heading(res.body()), "You're going!");
    assert_eq!(app.count("event_rsvp_requests").await, 0);
}
