//! What a donor's pass opens and a stranger learns: tickets become passes once paid, the
//! summary of the year, and planted gifts that hold nothing for long.

use crate::common::{TestApp, message};
use fake_stripe::Outcome;
use serde_json::json;

use super::{donate_app, donor, itemized, this_year};

#[tokio::test]
async fn a_stranger_learns_nothing_of_a_donors_giving_and_cannot_block_it_for_long() {
    let d = donate_app(|_| {}).await;
    let year = this_year();
    // X gave; Y never did: a stranger's look-ups answer both alike.
    d.paid_pass(json!(250), itemized("x@example.org")).await;
    for email in ["x%40example.org", "y%40example.org"] {
        let res = d.summary(&format!("email={email}&year={year}")).await;
        assert_eq!(res.status(), 200);
        assert_eq!(
            TestApp::json(&res),
            json!({"completed": null, "pending": null, "remaining": null})
        );
    }
    // A pass for someone else opens nothing.
    let other = d.paid_pass(json!(5), donor("z@example.org")).await;
    assert_eq!(
        d.summary_with(&format!("email=x%40example.org&year={year}"), &other)
            .await,
        json!({"completed": null, "pending": null, "remaining": null})
    );
    // A stranger plants an unpaid gift for all X has left, under invented details.
    let mut planted = itemized("x@example.org");
    planted["donorFirstName"] = json!("Mallory");
    planted["donorAddress"] = json!("1 Nowhere Rd");
    d.reserved(json!(44_050), planted).await;
    let refused = d.give(json!(25), donor("x@example.org")).await;
    assert_eq!(refused.status(), 400);
    assert_eq!(
        message(&refused),
        "This amount would exceed your annual limit."
    );
    // Ten minutes later the plant holds nothing, and X's own $25 goes through.
    d.app
        .state
        .clock
        .advance(std::time::Duration::from_secs(10 * 60));
    d.reserved(json!(25), itemized("x@example.org")).await;
    d.app.state.expire_donations().await;
    let statuses: Vec<String> = d
        .app
        .db
        .read(|c| {
            let mut stmt = c.prepare(
                "SELECT status FROM donations WHERE donor_email = 'x@example.org' ORDER BY id",
            )?;
            stmt.query_map([], |r| r.get(0))?.collect()
        })
        .await
        .unwrap();
    assert_eq!(statuses, ["completed", "expired", "pending"]);
}

#[tokio::test]
async fn a_ticket_becomes_a_pass_only_once_its_gift_is_paid() {
    let d = donate_app(|_| {}).await;
    let res = d.give(json!(30), donor("pa@example.org")).await;
    let reply = TestApp::json(&res);
    let ticket = reply["ticket"].clone();
    let intent = reply["clientSecret"]
        .as_str()
        .unwrap()
        .split("_secret_")
        .next()
        .unwrap()
        .to_owned();
    // Not paid yet.
    let res = d.exchange(&ticket).await;
    assert_eq!(res.status(), 409);
    assert_eq!(message(&res), "The payment has not gone through yet.");
    // Paid at Stripe, before its event arrives: Stripe is asked.
    d.fake.settle(&intent, Outcome::Succeed).await.unwrap();
    let res = d.exchange(&ticket).await;
    assert_eq!(res.status(), 200, "{:?}", res.body());
    let pass = TestApp::json(&res)["pass"].as_str().unwrap().to_owned();
    assert_eq!(
        d.summary_with(
            &format!("email=PA%40example.org&year={}", this_year()),
            &pass
        )
        .await,
        // Stripe said it succeeded, so the return completed it (and queued its receipt).
        json!({"completed": 30.0, "pending": 0.0, "remaining": 44270.0})
    );
    // A declined gift's ticket stays a ticket.
    let res = d.give(json!(31), donor("pb@example.org")).await;
    let reply = TestApp::json(&res);
    let declined = reply["clientSecret"]
        .as_str()
        .unwrap()
        .split("_secret_")
        .next()
        .unwrap()
        .to_owned();
    d.settle(&declined, Outcome::Decline).await;
    assert_eq!(d.exchange(&reply["ticket"]).await.status(), 409);
    // Forged, foreign and hostile tickets.
    for ticket in [
        json!(null),
        json!(42),
        json!("garbage"),
        json!(pass),
        json!(
            "eyJhbGciOiJub25lIn0.eyJzdWIiOiJ0aWNrZXQiLCJlbWFpbCI6InhAZXhhbXBsZS5vcmciLCJnaWZ0IjoxLCJleHAiOjk5OTk5OTk5OTl9."
        ),
    ] {
        let res = d.exchange(&ticket).await;
        assert_eq!(res.status(), 400, "{ticket}");
        assert_eq!(message(&res), "This receipt is not valid.");
    }
    let res = d.app.post_json("/api/donations/pass", "[]").await;
    assert_eq!(res.status(), 400);
    // A day later a ticket has run out.
    d.app
        .state
        .clock
        .advance(std::time::Duration::from_secs(25 * 3600));
    assert_eq!(d.exchange(&ticket).await.status(), 400);
}

#[tokio::test]
async fn the_summary_tells_a_donor_what_is_left_this_year() {
    let d = donate_app(|_| {}).await;
    let pass = d.paid_pass(json!(100.5), donor("io@example.org")).await;
    d.reserved(json!(20), donor("io@example.org")).await;
    let year = this_year();
    let res = warp::test::request()
        .path(&format!(
            "/api/donations/summary?email=IO%40example.org&year={year}"
        ))
        .header("x-donor-pass", &pass)
        .reply(&d.app.app)
        .await;
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["cache-control"], "no-store");
    assert_eq!(
        TestApp::json(&res),
        json!({"completed": 100.5, "pending": 20.0, "remaining": 44179.5})
    );
    let earlier = d
        .summary_with("email=io%40example.org&year=2024", &pass)
        .await;
    assert_eq!(earlier["remaining"], 41300.0, "2024's limit");

    for (query, expected) in [
        (
            format!("email=nobody&year={year}"),
            "Please enter a valid email address.",
        ),
        (
            format!("year={year}"),
            "Please enter a valid email address.",
        ),
        ("email=io%40example.org".to_owned(), "The year must be"),
        (
            "email=io%40example.org&year=1999".to_owned(),
            "The year must be",
        ),
        (
            "email=io%40example.org&year=3000".to_owned(),
            "The year must be",
        ),
        (
            "email=io%40example.org&year=20x6".to_owned(),
            "The year must be",
        ),
    ] {
        let res = d.summary(&query).await;
        assert_eq!(res.status(), 400, "{query}");
        assert!(
            message(&res).starts_with(expected),
            "{query}: {}",
            message(&res)
        );
    }
}
