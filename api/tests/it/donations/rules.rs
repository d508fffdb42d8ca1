//! Setting a gift up: what reaches Stripe, every rule refused with its sentence, the yearly
//! limit and the occupation threshold (told of earlier gifts only to the donor's own
//! browser; unpaid ones take no room; fifty paid at once keep the limit), Stripe failing, no
//! Stripe keys at all, and the year a gift counts in.

use crate::common::{TestApp, message};
use fake_stripe::Outcome;
use serde_json::{Value, json};

use super::{donate_app, donor, itemized, this_year};

#[tokio::test]
async fn a_gift_is_reserved_then_set_up_at_stripe_with_everything_stripe_needs() {
    let d = donate_app(|_| {}).await;
    let res = d.give(json!(25), donor(" Ada@Example.org ")).await;
    assert_eq!(res.status(), 200, "{:?}", res.body());
    assert_eq!(res.headers()["cache-control"], "no-store");
    let secret = TestApp::json(&res)["clientSecret"]
        .as_str()
        .unwrap()
        .to_owned();

    let creates = d.creates();
    assert_eq!(creates.len(), 1);
    let sent = &creates[0];
    assert_eq!(sent.params["amount"], "2500");
    assert_eq!(sent.params["currency"], "usd");
    assert_eq!(sent.params["automatic_payment_methods[enabled]"], "true");
    // The site sends its own receipt; Stripe's would be a second one, without the law's lines.
    assert!(!sent.params.contains_key("receipt_email"));
    let intent = secret.split("_secret_").next().unwrap();
    let (id, status, cents) = d.row_of(intent).await;
    assert_eq!((status.as_str(), cents), ("pending", 2500));
    assert_eq!(sent.params["metadata[donation_id]"], id.to_string());
    let key = sent.idempotency_key.as_deref().expect("an idempotency key");
    assert!(key.starts_with(&format!("donation-{id}-")), "{key}");

    let stored: (String, String, String, String, i64, i64, i64) = d
        .app
        .db
        .read(move |c| {
            c.query_row(
                "SELECT donor_name, donor_first_name, donor_last_name, donor_email, \
                 citizenship_confirmed, attestations_confirmed, contribution_year FROM donations WHERE id = ?1",
                [id],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?, r.get(6)?)),
            )
        })
        .await
        .unwrap();
    assert_eq!(
        stored,
        (
            "Ada Lovelace".into(),
            "Ada".into(),
            "Lovelace".into(),
            "ada@example.org".into(),
            1,
            1,
            this_year() as i64
        )
    );
}

#[tokio::test]
async fn every_rule_is_refused_with_its_sentence_and_nothing_reaches_stripe() {
    let d = donate_app(|_| {}).await;
    let with = |key: &str, value: Value| {
        let mut info = donor("ada@example.org");
        info[key] = value;
        info
    };
    let cases: Vec<(Value, Value, &str, Option<&str>)> = vec![
        (
            json!(0.5),
            donor("a@example.org"),
            "Please select or enter a valid donation amount.",
            Some("amount"),
        ),
        (
            json!("ten"),
            donor("a@example.org"),
            "Please select or enter a valid donation amount.",
            Some("amount"),
        ),
        (
            json!(10.005),
            donor("a@example.org"),
            "Please select or enter a valid donation amount.",
            Some("amount"),
        ),
        (
            json!(25),
            with("donorCity", json!("")),
            "Please fill in all required donor information fields.",
            Some("donorCity"),
        ),
        (
            json!(25),
            with("donorLastName", Value::Null),
            "Please fill in all required donor information fields.",
            Some("donorLastName"),
        ),
        (
            json!(25),
            with("donorEmail", json!("ada@")),
            "Please enter a valid email address.",
            Some("donorEmail"),
        ),
        (
            json!(25),
            with("donorZipCode", json!("ABCDE")),
            "Please enter a valid ZIP code (5 digits, or ZIP+4).",
            Some("donorZipCode"),
        ),
        (
            json!(25),
            with("donorState", json!("XX")),
            "Please choose a state or territory from the list.",
            Some("donorState"),
        ),
        (
            json!(25),
            with("citizenshipConfirmed", json!(false)),
            "Please confirm your U.S. citizenship status as required by FEC regulations.",
            Some("citizenshipConfirmed"),
        ),
        (
            json!(25),
            with("attestationsConfirmed", json!(false)),
            "Please confirm the contribution statements above.",
            Some("attestationsConfirmed"),
        ),
        (
            json!(25),
            with("contributionPurpose", json!("<script>")),
            "Please choose a contribution purpose from the list.",
            Some("contributionPurpose"),
        ),
        (
            json!(250),
            donor("a@example.org"),
            "For donations over $200, FEC regulations require occupation, employer, and contribution purpose.",
            Some("donorOccupation"),
        ),
        (
            json!(50_000),
            itemized("a@example.org"),
            // A stranger's browser is not told what is left (see the pass tests).
            "This amount would exceed your annual limit.",
            Some("amount"),
        ),
    ];
    for (amount, info, expected, field) in cases {
        let res = d.give(amount.clone(), info).await;
        assert_eq!(res.status(), 400, "{amount}: {:?}", res.body());
        let body = TestApp::json(&res);
        assert_eq!(body["message"], expected, "{amount}");
        assert_eq!(body["field"].as_str(), field, "{amount}");
    }
    assert_eq!(d.app.count("donations").await, 0, "nothing is stored");
    assert!(d.creates().is_empty(), "nothing reached Stripe");

    // Not even a body in the wrong shape.
    for body in ["[]", "{}", "{\"amount\": 25}", "nonsense"] {
        let res = d.app.post_json("/api/create-payment-intent", body).await;
        assert_eq!(res.status(), 400, "{body}");
    }
    assert!(d.creates().is_empty());
}

/// What a donor gave before makes a small gift need occupation, employer and purpose. Only
/// the donor's own browser is told so at set-up (anyone can type their address); a gift from
/// any other is taken, and once it is paid the donor is sent the law's best-efforts request.
#[tokio::test]
async fn earlier_gifts_ask_for_occupation_at_set_up_of_the_donor_and_after_payment_of_anyone() {
    let d = donate_app(|_| {}).await;
    let pass = d.paid_pass(json!(150), donor("bo@example.org")).await;
    let res = d
        .give_with_pass(json!(60), donor("BO@example.org"), Some(&pass))
        .await;
    assert_eq!(res.status(), 400);
    assert_eq!(
        message(&res),
        "For donations over $200, FEC regulations require occupation, employer, and contribution purpose. \
         This gift brings your total for {year} above $200."
            .replace("{year}", &this_year().to_string())
    );
    // $50 keeps the year at $200 exactly: not above the threshold.
    d.reserved(json!(50), donor("bo@example.org")).await;
    // With the answers, anything up to the limit.
    d.reserved(json!(60), itemized("bo@example.org")).await;
    // Another browser is not told what Bo gave: $60 without the answers is taken...
    assert!(
        d.newest_mail("info_request", "bo@example.org")
            .await
            .is_none()
    );
    let (gift, _) = d.paid(json!(60), donor("bo@example.org")).await;
    // ...and paid, it takes Bo past $200: the gift is marked asked, and Bo is asked once.
    let request = d
        .newest_mail("info_request", "bo@example.org")
        .await
        .expect("the best-efforts request");
    assert!(request.contains("have now passed $200.00"), "{request}");
    let asked: Option<String> = d
        .app
        .db
        .read(move |c| {
            c.query_row(
                "SELECT info_requested_at FROM donations WHERE id = ?1",
                [gift],
                |r| r.get(0),
            )
        })
        .await
        .unwrap();
    assert!(asked.is_some());
    d.paid(json!(5), donor("bo@example.org")).await;
    let requests: i64 = d
        .app
        .db
        .read(|c| {
            c.query_row(
                "SELECT COUNT(*) FROM mail_queue WHERE kind = 'info_request' AND about = 'bo@example.org'",
                [],
                |r| r.get(0),
            )
        })
        .await
        .unwrap();
    assert_eq!(requests, 1, "once a year");
}

/// Unpaid gifts take no room (anyone can set one up in anyone's name); paid ones do.
#[tokio::test]
async fn unpaid_gifts_take_no_room_and_paid_ones_do() {
    let d = donate_app(|_| {}).await;
    let pass = d.paid_pass(json!(1), donor("cy@example.org")).await;
    let (_, big) = d.reserved(json!(44_000), itemized("cy@example.org")).await;
    let res = d
        .give_with_pass(json!(44_299), itemized("cy@example.org"), Some(&pass))
        .await;
    assert_eq!(res.status(), 200, "an unpaid $44,000 takes nothing");
    let query = format!("email=cy%40example.org&year={}", this_year());
    assert_eq!(
        d.summary_with(&query, &pass).await,
        json!({"completed": 1.0, "pending": 88299.0, "remaining": 44299.0})
    );
    d.settle(&big, Outcome::Succeed).await;
    // The donor's own browser hears how much is left; anyone else only that it is too much
    // when the gift alone is.
    let over = d
        .give_with_pass(json!(300), itemized("cy@example.org"), Some(&pass))
        .await;
    assert_eq!(
        message(&over),
        "This amount would exceed your annual limit. You can donate up to $299 more this year."
    );
    let over = d.give(json!(44_301), itemized("cy@example.org")).await;
    assert_eq!(
        message(&over),
        "This amount would exceed your annual limit."
    );
}

/// Fifty gifts of $1,000 in one name, set up and paid at once: every set-up is taken (the
/// set-up cannot know), and when they are paid exactly the limit is kept, the rest refunded.
#[tokio::test]
async fn fifty_concurrent_gifts_for_one_donor_never_keep_more_than_the_limit() {
    let d = donate_app(|_| {}).await;
    let gifts = (0..50).map(|i| {
        d.give_from(
            json!(1000),
            itemized("race@example.org"),
            [10, 1, 0, i as u8],
        )
    });
    let results = futures_util::future::join_all(gifts).await;
    assert!(results.iter().all(|r| r.status() == 200));
    assert_eq!(d.creates().len(), 50);
    let intents: Vec<String> = results
        .iter()
        .map(|r| {
            TestApp::json(r)["clientSecret"]
                .as_str()
                .unwrap()
                .split("_secret_")
                .next()
                .unwrap()
                .to_owned()
        })
        .collect();
    futures_util::future::join_all(intents.iter().map(|i| d.settle(i, Outcome::Succeed))).await;
    d.app.state.limit_refunder.run().await;
    let refunded: i64 = intents
        .iter()
        .flat_map(|i| d.fake.refunds_of_intent(i))
        .sum();
    assert_eq!(refunded, 570_000, "$50,000 paid, $44,300 kept");
    assert_eq!(
        d.net("race@example.org", this_year() as i16).await,
        4_430_000
    );
}

#[tokio::test]
async fn a_stripe_failure_fails_the_gift_and_frees_its_place() {
    let d = donate_app(|_| {}).await;
    d.fake
        .fail_next_create(500, "Something went wrong on Stripe's end.");
    let res = d.give(json!(44_300), itemized("di@example.org")).await;
    assert_eq!(res.status(), 502);
    assert_eq!(message(&res), "Failed to set up payment. Please try again.");
    let status: String = d
        .app
        .db
        .read(|c| c.query_row("SELECT status FROM donations", [], |r| r.get(0)))
        .await
        .unwrap();
    assert_eq!(status, "failed");
    d.reserved(json!(44_300), itemized("di@example.org")).await;
}

#[tokio::test]
async fn without_stripe_keys_the_page_hears_payments_are_not_available() {
    let app = TestApp::new();
    let config = TestApp::json(&app.get("/api/donations/config").await);
    assert_eq!(config, json!({"publishableKey": null}));
    let body = json!({ "amount": 25, "donorInfo": donor("a@example.org") }).to_string();
    let res = app.post_json("/api/create-payment-intent", &body).await;
    assert_eq!(res.status(), 503);
    assert_eq!(
        message(&res),
        "Payment system is not available. Please check back later."
    );
    assert_eq!(app.count("donations").await, 0);

    let d = donate_app(|_| {}).await;
    let res = d.app.get("/api/donations/config").await;
    assert_eq!(res.headers()["cache-control"], "no-store");
    assert_eq!(
        TestApp::json(&res),
        json!({"publishableKey": "pk_test_fake"})
    );
}

#[test]
fn the_year_of_a_gift_is_the_year_in_the_party_time_zone() {
    let site: generator::config::SiteConfig = generator::content::read_yaml(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../generator/tests/fixtures/site/content/site.yaml"),
    )
    .unwrap();
    let at = |s: &str| s.parse::<jiff::Timestamp>().unwrap();
    // 11 p.m. on New Year's Eve in Chicago is already January 1 in UTC.
    assert_eq!(
        api::domain::donations::year_at(&site, at("2026-01-01T05:30:00Z")),
        2025
    );
    assert_eq!(
        api::domain::donations::year_at(&site, at("2026-01-01T06:00:00Z")),
        2026
    );
}
