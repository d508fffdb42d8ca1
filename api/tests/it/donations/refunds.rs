//! Staff's refunds: in part and in full through the fake Stripe's refunds API (idempotency
//! key, our row in its metadata), once each however often their own event comes back, with
//! the donor's notice over real SMTP and an audit row naming amount and reason; and every
//! bad request refused with a clear 4xx, changing nothing.

use serde_json::{Value, json};

use super::{Donate, donate_app, donor, itemized, this_year};
use crate::common::{TestApp, message};
use crate::mail::smtp::Smtp;

async fn mail_donate(smtp: &Smtp) -> Donate {
    let url = smtp.url();
    donate_app(move |c| {
        c.mail.smtp_url = Some(url);
        c.mail.staff_email = Some(crate::mail::STAFF.into());
    })
    .await
}

async fn audit_rows(d: &Donate) -> Vec<(String, Option<String>, Option<String>, Option<String>)> {
    d.app
        .db
        .read(|c| {
            let mut s = c.prepare(
                "SELECT action, target, ip, detail FROM audit_log WHERE action IN ('refund', 'dispute') ORDER BY id",
            )?;
            s.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
                .collect()
        })
        .await
        .unwrap()
}

#[tokio::test]
async fn staff_refund_part_then_the_rest_each_once_with_a_notice_and_an_audit_row() {
    let smtp = Smtp::start();
    let d = mail_donate(&smtp).await;
    let token = d.app.login().await;
    let (id, intent) = d.paid(json!(250), itemized("ada@example.org")).await;
    let year = this_year() as i16;
    assert_eq!(d.net("ada@example.org", year).await, 25_000);

    let before = d.fake.events().len();
    let res = d
        .refund(
            &token,
            id,
            json!({ "amount": "100.00", "reason": "Donor asked for part back" }),
        )
        .await;
    assert_eq!(res.status(), 200, "{:?}", res.body());
    let row = TestApp::json(&res);
    assert_eq!(row["refunded"], "100.00");
    assert_eq!(row["refundable"], "150.00");
    assert_eq!(row["status"], "completed");
    assert!(row["refundedAt"].is_string());
    assert_eq!(
        d.net("ada@example.org", year).await,
        15_000,
        "the year's total drops"
    );

    // Stripe was asked once, with a key that makes a retry harmless and our row named.
    let asked: Vec<_> = d
        .fake
        .requests()
        .into_iter()
        .filter(|r| r.method == "POST" && r.path == "/v1/refunds")
        .collect();
    assert_eq!(asked.len(), 1);
    assert!(
        asked[0]
            .idempotency_key
            .as_deref()
            .is_some_and(|k| k.starts_with("refund-"))
    );
    assert_eq!(asked[0].params["payment_intent"], intent);
    assert_eq!(asked[0].params["amount"], "10000");
    assert!(asked[0].params.contains_key("metadata[refund_request]"));
    assert!(
        !asked[0].params.values().any(|v| v.contains("Donor asked")),
        "the reason stays with us"
    );

    // The refund's own event, then a replay of it: still one refund.
    let own = d.events_after(before);
    assert_eq!(own.len(), 1);
    assert_eq!(own[0]["type"], "charge.refunded");
    assert!(
        own[0]["data"]["object"].get("refunds").is_none(),
        "no list embedded in the charge"
    );
    d.deliver(&own[0]).await;
    d.deliver(&own[0]).await;
    assert_eq!(d.app.count("donation_refunds").await, 1);
    assert_eq!(d.net("ada@example.org", year).await, 15_000);

    // The rest.
    let res = d
        .refund(
            &token,
            id,
            json!({ "amount": 150, "reason": "Duplicate gift" }),
        )
        .await;
    assert_eq!(res.status(), 200, "{:?}", res.body());
    let row = TestApp::json(&res);
    assert_eq!(
        (row["refunded"].as_str(), row["refundable"].as_str()),
        (Some("250.00"), Some("0.00"))
    );
    assert_eq!(d.net("ada@example.org", year).await, 0);
    let res = d
        .refund(&token, id, json!({ "amount": 1, "reason": "Once more" }))
        .await;
    assert_eq!(res.status(), 400);
    assert_eq!(message(&res), "Nothing is left to refund of this gift.");

    // One notice per refund, saying what went back and what the year now comes to.
    d.app.state.mail.deliver_due().await;
    let notices: Vec<_> = smtp
        .received()
        .into_iter()
        .filter(|m| m.header("Subject").is_some_and(|s| s.contains("refunded")))
        .collect();
    assert_eq!(notices.len(), 2, "one notice per refund");
    let first = notices
        .iter()
        .find(|m| m.text().contains("refunded $100.00"))
        .unwrap();
    assert_eq!(first.to, ["ada@example.org"]);
    let text = first.text();
    assert!(text.contains("of your contribution of $250.00"), "{text}");
    assert!(
        text.contains(&format!(
            "Your contributions for {year}, after this refund: $150.00"
        )),
        "{text}"
    );

    // The audit log names amount and reason, and who (the staff address).
    let audit = audit_rows(&d).await;
    assert_eq!(audit.len(), 2, "{audit:?}");
    let target = format!("donation:{id}");
    assert_eq!(audit[0].1.as_deref(), Some(target.as_str()));
    assert_eq!(audit[0].2.as_deref(), Some("10.9.9.9"));
    let detail = audit[0].3.as_deref().unwrap();
    assert!(
        detail.starts_with("100.00 refunded (re_fake_")
            && detail.ends_with("): Donor asked for part back"),
        "{detail}"
    );
}

#[tokio::test]
async fn bad_refunds_are_refused_clearly_and_change_nothing() {
    let d = donate_app(|_| {}).await;
    let token = d.app.login().await;
    let (paid, _) = d.paid(json!(50), donor("bo@example.org")).await;
    let (pending, _) = d.reserved(json!(25), donor("bo@example.org")).await;

    let cases: Vec<(i64, Value, u16, &str)> = vec![
        (
            paid,
            json!({ "amount": 60, "reason": "Too much" }),
            400,
            "At most $50.00 of this gift can be refunded.",
        ),
        (
            pending,
            json!({ "amount": 5, "reason": "Not paid yet" }),
            409,
            "Only a completed gift can be refunded; this one is pending.",
        ),
        (
            paid,
            json!({ "amount": 0, "reason": "Zero" }),
            400,
            "The amount must be more than zero.",
        ),
        (
            paid,
            json!({ "amount": -5, "reason": "Negative" }),
            400,
            "The amount must be more than zero.",
        ),
        (
            paid,
            json!({ "amount": "ten", "reason": "Words" }),
            400,
            "The amount must be dollars and cents, such as 25 or 12.50.",
        ),
        (
            paid,
            json!({ "amount": 1.005, "reason": "Fractions" }),
            400,
            "The amount must be dollars and cents, such as 25 or 12.50.",
        ),
        (
            paid,
            json!({ "amount": 5 }),
            400,
            "Give the reason for the refund.",
        ),
        (
            paid,
            json!({ "amount": 5, "reason": "   " }),
            400,
            "Give the reason for the refund.",
        ),
        (
            paid,
            json!({ "amount": 5, "reason": "x", "to": "elsewhere" }),
            400,
            "Unknown field \"to\".",
        ),
        (
            999_999,
            json!({ "amount": 5, "reason": "Nobody" }),
            404,
            "There is no donation 999999.",
        ),
    ];
    for (id, body, status, said) in cases {
        let res = d.refund(&token, id, body.clone()).await;
        assert_eq!(res.status(), status, "{body}: {:?}", res.body());
        assert_eq!(message(&res), said, "{body}");
    }
    // Without a session, and with a path that is not a gift.
    let anonymous = warp::test::request()
        .method("POST")
        .path(&format!("/api/admin/donations/{paid}/refund"))
        .json(&json!({ "amount": 5, "reason": "No one signed in" }))
        .reply(&d.app.app)
        .await;
    assert_eq!(anonymous.status(), 401);
    let res = d
        .refund(&token, 0, json!({ "amount": 5, "reason": "Zero id" }))
        .await;
    assert_eq!(res.status(), 404);

    assert_eq!(d.app.count("donation_refunds").await, 0, "nothing stored");
    assert!(
        d.fake.requests().iter().all(|r| r.path != "/v1/refunds"),
        "Stripe never asked"
    );
    assert!(audit_rows(&d).await.is_empty());
    assert_eq!(d.status(paid).await, "completed");
    assert_eq!(d.net("bo@example.org", this_year() as i16).await, 5_000);
}

#[tokio::test]
async fn when_stripe_refuses_nothing_counts_and_the_amount_is_free_again() {
    let d = donate_app(|_| {}).await;
    let token = d.app.login().await;
    let (id, intent) = d.paid(json!(40), donor("cy@example.org")).await;
    // Someone refunded it all in Stripe's dashboard; its event has not arrived yet.
    let before = d.fake.events().len();
    d.fake.refund_from_dashboard(&intent, None).await.unwrap();
    let res = d
        .refund(&token, id, json!({ "amount": 10, "reason": "Asked" }))
        .await;
    assert_eq!(res.status(), 502);
    assert!(
        message(&res).starts_with("Stripe did not make the refund: Charge"),
        "{}",
        message(&res)
    );
    let status: String = d
        .app
        .db
        .read(|c| c.query_row("SELECT status FROM donation_refunds", [], |r| r.get(0)))
        .await
        .unwrap();
    assert_eq!(status, "error");
    assert_eq!(d.net("cy@example.org", this_year() as i16).await, 4_000);

    // The dashboard's event arrives: that refund counts, made in Stripe.
    for event in d.events_after(before) {
        d.deliver(&event).await;
    }
    assert_eq!(d.net("cy@example.org", this_year() as i16).await, 0);
    let res = d
        .app
        .admin("GET", "/api/admin/donations", &token, None)
        .await;
    let list = TestApp::json(&res);
    let row = list
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == id)
        .unwrap();
    assert_eq!(
        (row["refunded"].as_str(), row["refundable"].as_str()),
        (Some("40.00"), Some("0.00"))
    );
}

#[tokio::test]
async fn without_stripe_a_gift_cannot_be_refunded_and_an_unknown_one_is_not_found() {
    let app = TestApp::new();
    app.exec(
        "INSERT INTO donations (id, amount_cents, donor_name, donor_email, donor_address, donor_city, \
             donor_state, donor_zip_code, status, payment_intent_id) \
         VALUES (7, 2500, 'Di Fox', 'di@example.org', '3 Elm', 'Troy', 'NY', '12180', 'completed', 'pi_7');",
    )
    .await;
    let token = app.login().await;
    let body = json!({ "amount": 5, "reason": "No Stripe" });
    let res = app
        .admin(
            "POST",
            "/api/admin/donations/7/refund",
            &token,
            Some(body.clone()),
        )
        .await;
    assert_eq!(res.status(), 503);
    assert_eq!(
        message(&res),
        "Payments are not set up, so nothing can be refunded."
    );
    let res = app
        .admin("POST", "/api/admin/donations/8/refund", &token, Some(body))
        .await;
    assert_eq!(res.status(), 404);
    assert_eq!(app.count("donation_refunds").await, 0);
}

#[tokio::test]
async fn a_refund_whose_answer_was_lost_is_retried_without_refunding_twice() {
    let d = donate_app(|_| {}).await;
    let token = d.app.login().await;
    let (id, intent) = d.paid(json!(40), donor("di@example.org")).await;
    // Stripe makes the refund, but its answer never reaches the server (a timeout).
    d.fake.lose_next_refund_answer();
    let res = d
        .refund(&token, id, json!({ "amount": 10, "reason": "Asked" }))
        .await;
    assert_eq!(res.status(), 502);
    assert_eq!(
        message(&res),
        "Stripe did not confirm the refund. Please press Refund again with the same amount: it will not refund twice."
    );
    // Staff press Refund again, as the message says: the same request, the same key.
    let res = d
        .refund(
            &token,
            id,
            json!({ "amount": 10, "reason": "Asked, again" }),
        )
        .await;
    assert_eq!(res.status(), 200, "{:?}", res.body());
    assert_eq!(TestApp::json(&res)["refunded"], "10.00");
    let keys: Vec<Option<String>> = d
        .fake
        .requests()
        .into_iter()
        .filter(|r| r.path == "/v1/refunds" && r.method == "POST")
        .map(|r| r.idempotency_key)
        .collect();
    assert_eq!(keys.len(), 2);
    assert_eq!(keys[0], keys[1], "the retry reused the first request's key");
    // So Stripe answered with the refund it had made: the charge has one.
    let charge = d.fake.intent(&intent).unwrap()["latest_charge"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(d.fake.refunds_of(&charge), 1);
    assert_eq!(
        d.net("di@example.org", this_year() as i16).await,
        3_000,
        "$10 back, once"
    );
    let rows: i64 = d
        .app
        .db
        .read(|c| c.query_row("SELECT COUNT(*) FROM donation_refunds", [], |r| r.get(0)))
        .await
        .unwrap();
    assert_eq!(rows, 1, "one refund row");
}

/// Two staff refunding the last dollars of a gift at once: the first holds its amount while
/// Stripe is asked, so the second is told what is left, and Stripe never hears of it.
#[tokio::test]
async fn two_refunds_at_once_never_give_back_more_than_was_paid() {
    let smtp = Smtp::start();
    let d = mail_donate(&smtp).await;
    let token = d.app.login().await;
    let (id, _) = d.paid(json!(100), itemized("ji@example.org")).await;
    let body = json!({ "amount": 60, "reason": "Asked twice" });
    let (a, b) = tokio::join!(
        d.refund(&token, id, body.clone()),
        d.refund(&token, id, body.clone())
    );
    let mut statuses = [a.status().as_u16(), b.status().as_u16()];
    statuses.sort();
    assert_eq!(statuses, [200, 400]);
    let refused = if a.status() == 400 { &a } else { &b };
    assert_eq!(
        message(refused),
        "At most $40.00 of this gift can be refunded."
    );
    let asked = d
        .fake
        .requests()
        .into_iter()
        .filter(|r| r.method == "POST" && r.path == "/v1/refunds")
        .count();
    assert_eq!(asked, 1);
}
