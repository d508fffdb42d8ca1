//! What a donor's pass opens and a stranger learns: a set-up's answer depends only on what
//! it sends, a pass comes only from the link in the donor's own receipt (never from paying in
//! their name), every browser can be signed out from any receipt, and nobody's unpaid
//! set-ups take room from a donor; the year's limit is held when a payment succeeds.

use crate::common::{TestApp, message, text};
use fake_stripe::Outcome;
use serde_json::{Value, json};

use super::{Donate, donate_app, donor, itemized, this_year};

/// Status and message of a set-up from a browser without a pass (a success's secrets are
/// the gift's own, so only its shape is compared).
async fn answer(d: &Donate, amount: Value, info: Value) -> (u16, String) {
    let res = d.give(amount, info).await;
    let body = TestApp::json(&res);
    let shape = if res.status() == 200 {
        let mut keys: Vec<&String> = body.as_object().unwrap().keys().collect();
        keys.sort();
        format!("{keys:?}")
    } else {
        body["message"].as_str().unwrap_or_default().to_owned()
    };
    (res.status().as_u16(), shape)
}

/// Whether someone gave, and how much, is theirs to know: a set-up answers a browser without
/// their pass the same whether or not they gave, whatever it asks (the full limit, a dollar
/// without occupation, a step of a binary search).
#[tokio::test]
async fn a_set_up_answers_alike_for_a_donor_and_for_someone_who_never_gave() {
    let d = donate_app(|_| {}).await;
    d.paid(json!(3_210), itemized("gave@example.org")).await;
    for (amount, itemize) in [
        (json!(44_300), true),
        (json!(41_091), true),
        (json!(41_090), true),
        (json!(1), false),
        (json!(150), false),
        (json!(201), false),
        (json!(44_301), true),
    ] {
        let info = |email: &str| {
            if itemize {
                itemized(email)
            } else {
                donor(email)
            }
        };
        let gave = answer(&d, amount.clone(), info("gave@example.org")).await;
        let never = answer(&d, amount.clone(), info("never@example.org")).await;
        assert_eq!(gave, never, "${amount} with occupation: {itemize}");
    }
    // The summary answers a stranger nulls for both.
    let year = this_year();
    for email in ["gave%40example.org", "never%40example.org"] {
        let res = d.summary(&format!("email={email}&year={year}")).await;
        assert_eq!(
            TestApp::json(&res),
            json!({"completed": null, "pending": null, "remaining": null})
        );
    }
}

/// An unpaid set-up in a donor's name, for all they may give, takes nothing from them: their
/// own gift goes through at once, not ten minutes later.
#[tokio::test]
async fn a_strangers_unpaid_set_up_never_blocks_a_donor() {
    let d = donate_app(|_| {}).await;
    let mut planted = itemized("wendy@example.org");
    planted["donorFirstName"] = json!("Mallory");
    planted["donorAddress"] = json!("1 Nowhere Rd");
    d.reserved(json!(44_300), planted).await;
    let pass = d.paid_pass(json!(25), itemized("wendy@example.org")).await;
    // From Wendy's own browser too, and her allowance is untouched by the plant.
    let res = d
        .give_with_pass(json!(25), itemized("wendy@example.org"), Some(&pass))
        .await;
    assert_eq!(res.status(), 200, "{:?}", res.body());
    let summary = d
        .summary_with(
            &format!("email=wendy%40example.org&year={}", this_year()),
            &pass,
        )
        .await;
    assert_eq!(summary["completed"], 25.0);
    assert_eq!(summary["remaining"], 44_275.0);
}

/// Paying in someone's name shows nothing of their year: the ticket a set-up gives only says
/// when its gift is paid. The pass comes from the link in the receipt, which goes to the
/// donor's mailbox alone.
#[tokio::test]
async fn a_pass_proves_the_mailbox_not_a_payment() {
    let d = donate_app(|_| {}).await;
    let year = this_year();
    d.paid(json!(250), itemized("pa@example.org")).await;
    // A stranger pays $1 in PA's name and returns from Stripe with its ticket.
    let res = d.give(json!(1), donor("pa@example.org")).await;
    let reply = TestApp::json(&res);
    let intent = reply["clientSecret"]
        .as_str()
        .unwrap()
        .split("_secret_")
        .next()
        .unwrap()
        .to_owned();
    let res = d.exchange(&reply["ticket"]).await;
    assert_eq!(res.status(), 409, "not paid yet");
    assert_eq!(message(&res), "The payment has not gone through yet.");
    // Still processing (a bank debit): not paid, and nothing earned.
    d.fake.start_processing(&intent);
    assert_eq!(d.exchange(&reply["ticket"]).await.status(), 409);
    d.fake.settle(&intent, Outcome::Succeed).await.unwrap();
    let res = d.exchange(&reply["ticket"]).await;
    assert_eq!(res.status(), 200, "{:?}", res.body());
    assert_eq!(
        TestApp::json(&res),
        json!({ "paid": true }),
        "no pass in it"
    );
    // Stripe said it succeeded, so the return completed it and queued its receipt.
    assert_eq!(d.status(d.row_of(&intent).await.0).await, "completed");
    // The receipt's link, opened by PA, shows PA's year.
    let pass = d.pass_from_receipt("pa@example.org").await;
    assert_eq!(
        d.summary_with(&format!("email=PA%40example.org&year={year}"), &pass)
            .await,
        json!({"completed": 251.0, "pending": 0.0, "remaining": 44049.0})
    );
    // Forged, foreign and hostile links and tickets.
    for body in [
        json!({ "link": null }),
        json!({ "link": 42 }),
        json!({ "link": "garbage" }),
        json!({ "link": pass }),
        json!({ "link": "x".repeat(5000) }),
    ] {
        let res = d
            .app
            .post_json("/api/donations/pass", &body.to_string())
            .await;
        assert_eq!(res.status(), 400, "{body}");
        assert!(
            message(&res).starts_with("This link has expired or was signed out."),
            "{body}"
        );
    }
    for ticket in [
        json!(null),
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
    assert_eq!(
        d.app.post_json("/api/donations/pass", "[]").await.status(),
        400
    );
    // A history link runs out after 30 days.
    let link = d.history_link("pa@example.org").await;
    d.advance(31 * 24 * 3600);
    let res = d
        .app
        .post_json("/api/donations/pass", &json!({ "link": link }).to_string())
        .await;
    assert_eq!(res.status(), 400);
}

/// Every receipt has a link that signs all of the donor's browsers out: passes made before
/// it, and history links mailed before it, show nothing more; the next receipt's link works.
#[tokio::test]
async fn a_receipts_link_signs_every_browser_out() {
    let d = donate_app(|_| {}).await;
    let year = this_year();
    let query = format!("email=so%40example.org&year={year}");
    let pass = d.paid_pass(json!(40), donor("so@example.org")).await;
    assert_eq!(d.summary_with(&query, &pass).await["completed"], 40.0);
    let old_link = d.history_link("so@example.org").await;
    let receipt = d.newest_mail("receipt", "so@example.org").await.unwrap();
    let sign_out = receipt
        .split("/donate/history/sign-out/")
        .nth(1)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap()
        .to_owned();
    let path = format!("/donate/history/sign-out/{sign_out}");
    // Opening it (or a mail scanner fetching it) changes nothing.
    let page = d.app.get(&path).await;
    assert_eq!(page.status(), 200);
    assert!(text(&page).contains("Stop showing my giving"));
    assert_eq!(d.summary_with(&query, &pass).await["completed"], 40.0);
    let res = warp::test::request()
        .method("POST")
        .path(&path)
        .reply(&d.app.app)
        .await;
    assert_eq!(res.status(), 200);
    assert!(text(&res).contains("Your giving is no longer shown"));
    assert_eq!(
        d.summary_with(&query, &pass).await,
        json!({"completed": null, "pending": null, "remaining": null})
    );
    let res = d
        .app
        .post_json(
            "/api/donations/pass",
            &json!({ "link": old_link }).to_string(),
        )
        .await;
    assert_eq!(res.status(), 400, "a link mailed before is signed out too");
    // The next receipt's link works again.
    let pass = d.paid_pass(json!(10), donor("so@example.org")).await;
    assert_eq!(d.summary_with(&query, &pass).await["completed"], 50.0);
    // A forged sign-out link is not found, and signs nobody out.
    let forged = format!(
        "/donate/history/sign-out/{}x",
        &sign_out[..sign_out.len() - 1]
    );
    assert_eq!(d.app.get(&forged).await.status(), 404);
    let res = warp::test::request()
        .method("POST")
        .path(&forged)
        .reply(&d.app.app)
        .await;
    assert_eq!(res.status(), 404);
    assert_eq!(d.summary_with(&query, &pass).await["completed"], 50.0);
}

/// The limit is held when a payment succeeds: of two gifts set up in one name and both paid,
/// the second gives back what the first left no room for, through Stripe, with a notice to
/// the donor and a row the treasurer reports; never more than the limit is kept.
#[tokio::test]
async fn two_gifts_paid_past_the_limit_keep_the_limit_and_refund_the_rest() {
    let d = donate_app(|_| {}).await;
    let email = "ann@example.org";
    let (first, first_intent) = d.reserved(json!(44_000), itemized(email)).await;
    let (second, second_intent) = d.reserved(json!(500), itemized(email)).await;
    d.settle(&first_intent, Outcome::Succeed).await;
    d.settle(&second_intent, Outcome::Succeed).await;
    assert_eq!(
        (d.status(first).await, d.status(second).await),
        ("completed".into(), "completed".into())
    );
    assert_eq!(d.app.state.limit_refunder.run().await, 1);
    assert_eq!(d.fake.refunds_of_intent(&first_intent), Vec::<i64>::new());
    assert_eq!(
        d.fake.refunds_of_intent(&second_intent),
        vec![20_000],
        "$200 back of the $500"
    );
    // Nothing left to do: a second pass makes no second refund.
    assert_eq!(d.app.state.limit_refunder.run().await, 0);
    let (origin, status, reason): (String, String, String) = d
        .app
        .db
        .read(move |c| {
            c.query_row(
                "SELECT origin, status, reason FROM donation_refunds WHERE donation_id = ?1",
                [second],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
        })
        .await
        .unwrap();
    assert_eq!((origin.as_str(), status.as_str()), ("limit", "succeeded"));
    assert!(reason.starts_with("Over the "), "{reason}");
    let notice = d
        .newest_mail("refund_notice", email)
        .await
        .expect("the donor is told");
    assert!(
        notice.contains("Federal law limits what one person may give"),
        "{notice}"
    );
    assert!(
        notice.contains("we have returned $200.00 of it"),
        "{notice}"
    );
    assert!(notice.contains("after this refund: $44,300.00"), "{notice}");
    // Nobody is left over the limit.
    let token = d.app.login().await;
    let over = d
        .app
        .admin("GET", "/api/admin/donations/attention", &token, None)
        .await;
    assert_eq!(TestApp::json(&over), json!([]), "{:?}", over.body());
}

#[tokio::test]
async fn the_summary_tells_a_donor_what_is_left_this_year() {
    let d = donate_app(|_| {}).await;
    let pass = d.paid_pass(json!(100.5), donor("io@example.org")).await;
    // An unpaid set-up is told to the donor, and takes nothing from what is left.
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
        json!({"completed": 100.5, "pending": 20.0, "remaining": 44199.5})
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
