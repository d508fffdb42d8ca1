//! Money going back that starts at Stripe: refunds made in its dashboard, a refund failing
//! later, disputes opened, lost and won. The fake makes the signed events; the test
//! delivers them out of order and more than once, and each refund and dispute counts once.

use serde_json::{Value, json};

use super::{Donate, donate_app, donor, this_year};
use crate::common::{TestApp, message};

async fn staff_donate() -> Donate {
    donate_app(|c| c.mail.staff_email = Some(crate::mail::STAFF.into())).await
}

/// Mail queued for `event_key` prefix (`refund:`, `dispute:`, `refund-failed:`).
async fn queued(d: &Donate, prefix: &'static str) -> i64 {
    d.app
        .db
        .read(move |c| {
            c.query_row(
                "SELECT COUNT(*) FROM mail_queue WHERE event_key LIKE ?1 || '%'",
                [prefix],
                |r| r.get(0),
            )
        })
        .await
        .unwrap()
}

async fn row(d: &Donate, token: &str, id: i64) -> Value {
    let res = d
        .app
        .admin("GET", "/api/admin/donations", token, None)
        .await;
    assert_eq!(res.status(), 200);
    TestApp::json(&res)
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == id)
        .cloned()
        .unwrap()
}

#[tokio::test]
async fn dashboard_refunds_count_once_however_their_events_come() {
    let d = staff_donate().await;
    let year = this_year() as i16;
    let (_, intent) = d.paid(json!(100), donor("di@example.org")).await;
    let before = d.fake.events().len();
    let (first, _) = d
        .fake
        .refund_from_dashboard(&intent, Some(3000))
        .await
        .unwrap();
    d.fake
        .refund_from_dashboard(&intent, Some(2000))
        .await
        .unwrap();
    let events = d.events_after(before);
    assert_eq!(events.len(), 2);
    // The second event first: it reads both refunds from Stripe's list.
    d.deliver(&events[1]).await;
    assert_eq!(d.net("di@example.org", year).await, 5_000);
    // The first, then both again: nothing more.
    for event in [&events[0], &events[1], &events[0]] {
        d.deliver(event).await;
    }
    assert_eq!(d.app.count("donation_refunds").await, 2);
    assert_eq!(d.net("di@example.org", year).await, 5_000);
    assert_eq!(queued(&d, "refund:").await, 2, "one notice per refund");
    let reasons: Vec<String> = d
        .app
        .db
        .read(|c| {
            let mut s = c.prepare("SELECT reason FROM donation_refunds WHERE origin = 'stripe'")?;
            s.query_map([], |r| r.get(0))?.collect()
        })
        .await
        .unwrap();
    assert_eq!(reasons, ["Refunded in Stripe (requested by customer)"; 2]);

    // One of them fails later (the card was closed): the $30 counts again, staff hear once.
    let failed = d
        .fake
        .fail_refund(first["id"].as_str().unwrap())
        .await
        .unwrap();
    assert_eq!(failed["type"], "refund.updated");
    d.deliver(&failed).await;
    d.deliver(&failed).await;
    assert_eq!(d.net("di@example.org", year).await, 8_000);
    assert_eq!(queued(&d, "refund-failed:").await, 1);
    // An old charge.refunded replayed under a new id cannot bring the failed one back.
    let mut stale = events[0].clone();
    stale["id"] = json!("evt_replayed_under_a_new_id");
    d.deliver(&stale).await;
    assert_eq!(d.net("di@example.org", year).await, 8_000);
}

#[tokio::test]
async fn a_dispute_alerts_staff_once_and_a_lost_one_counts_as_a_refund() {
    let d = staff_donate().await;
    let token = d.app.login().await;
    let (id, intent) = d.paid(json!(100), donor("el@example.org")).await;
    let before = d.fake.events().len();
    let (dispute, _) = d.fake.dispute(&intent, "fraudulent").await.unwrap();
    let dispute_id = dispute["id"].as_str().unwrap();
    d.fake.close_dispute(dispute_id, false).await.unwrap();
    let events = d.events_after(before);
    assert_eq!(
        events
            .iter()
            .map(|e| e["type"].as_str().unwrap())
            .collect::<Vec<_>>(),
        ["charge.dispute.created", "charge.dispute.closed"]
    );
    // Closed (lost) before created, then created, then closed again.
    for event in [&events[1], &events[0], &events[1]] {
        d.deliver(event).await;
    }
    assert_eq!(d.net("el@example.org", this_year() as i16).await, 0);
    assert_eq!(queued(&d, "dispute:").await, 1, "staff alerted once");
    assert_eq!(
        queued(&d, "refund:").await,
        0,
        "the donor's bank told them; we send nothing"
    );
    let r = row(&d, &token, id).await;
    assert_eq!(r["disputeStatus"], "lost");
    assert_eq!(r["refunded"], "100.00");
    assert_eq!(r["refundable"], "0.00");
    let res = d
        .refund(
            &token,
            id,
            json!({ "amount": 1, "reason": "After a lost dispute" }),
        )
        .await;
    assert_eq!(res.status(), 400);
    assert_eq!(message(&res), "Nothing is left to refund of this gift.");
}

#[tokio::test]
async fn a_disputed_gift_cannot_be_refunded_and_a_won_dispute_restores_it() {
    let d = staff_donate().await;
    let token = d.app.login().await;
    let (id, intent) = d.paid(json!(80), donor("fi@example.org")).await;
    let before = d.fake.events().len();
    let (dispute, created) = d
        .fake
        .dispute(&intent, "product_not_received")
        .await
        .unwrap();
    d.deliver(&created).await;
    let r = row(&d, &token, id).await;
    assert_eq!(r["disputeStatus"], "needs_response");
    assert_eq!(r["refundable"], "0.00");
    let res = d
        .refund(
            &token,
            id,
            json!({ "amount": 5, "reason": "While disputed" }),
        )
        .await;
    assert_eq!(res.status(), 409);
    assert!(message(&res).starts_with("This gift is disputed"));

    let closed = d
        .fake
        .close_dispute(dispute["id"].as_str().unwrap(), true)
        .await
        .unwrap();
    d.deliver(&closed).await;
    // The created event again (a replay under its id, and a stale copy under another).
    d.deliver(&created).await;
    let mut stale = created.clone();
    stale["id"] = json!("evt_stale_created");
    d.deliver(&stale).await;
    let r = row(&d, &token, id).await;
    assert_eq!(r["disputeStatus"], "won");
    assert_eq!(r["refundable"], "80.00");
    assert_eq!(r["refunded"], "0.00");
    assert_eq!(d.net("fi@example.org", this_year() as i16).await, 8_000);
    assert_eq!(queued(&d, "dispute:").await, 1);
    assert_eq!(d.events_after(before).len(), 2);
    let audit: Vec<String> = d
        .app
        .db
        .read(|c| {
            let mut s =
                c.prepare("SELECT detail FROM audit_log WHERE action = 'dispute' ORDER BY id")?;
            s.query_map([], |r| r.get(0))?.collect()
        })
        .await
        .unwrap();
    assert_eq!(audit.len(), 2, "{audit:?}");
    assert!(audit[1].ends_with("closed: won"));
}

#[tokio::test]
async fn money_events_of_payments_we_do_not_know_change_nothing() {
    let d = staff_donate().await;
    let (_, intent) = d.paid(json!(30), donor("gi@example.org")).await;
    let (_, created) = d.fake.dispute(&intent, "fraudulent").await.unwrap();
    let mut foreign = created.clone();
    foreign["id"] = json!("evt_foreign_dispute");
    foreign["data"]["object"]["payment_intent"] = json!("pi_of_another_shop");
    d.deliver(&foreign).await;
    assert_eq!(d.app.count("donation_disputes").await, 0);
    assert_eq!(queued(&d, "dispute:").await, 0);
    // Unsigned, the same event is refused.
    let res = d.webhook(&created, "whsec_wrong", fake_stripe::now()).await;
    assert_eq!(res.status(), 400);
    assert_eq!(d.app.count("donation_disputes").await, 0);
}

/// A lost dispute counts as a refund of what was left of the gift: an issuer disputing the
/// whole $100 after $30 of it went back takes $70, making $100 gone back in all, not $130.
#[tokio::test]
async fn a_lost_dispute_takes_back_only_what_earlier_refunds_left() {
    let d = staff_donate().await;
    let token = d.app.login().await;
    let (id, intent) = d.paid(json!(100), donor("gi@example.org")).await;
    let before = d.fake.events().len();
    d.fake
        .refund_from_dashboard(&intent, Some(3000))
        .await
        .unwrap();
    let (dispute, _) = d.fake.dispute(&intent, "fraudulent").await.unwrap();
    d.fake
        .close_dispute(dispute["id"].as_str().unwrap(), false)
        .await
        .unwrap();
    for mut event in d.events_after(before) {
        // The issuer disputes the whole charge, not what is left of it.
        if event["type"]
            .as_str()
            .unwrap()
            .starts_with("charge.dispute")
        {
            event["data"]["object"]["amount"] = json!(10_000);
        }
        d.deliver(&event).await;
    }
    let r = row(&d, &token, id).await;
    assert_eq!(r["refunded"], "100.00");
    assert_eq!(d.net("gi@example.org", this_year() as i16).await, 0);
}

/// A refund Stripe reports twice (`charge.refunded`, then `refund.updated` with the same
/// status) is news once: one notice to the donor, one audit row.
#[tokio::test]
async fn a_refund_reported_again_is_not_news() {
    let d = staff_donate().await;
    let (_, intent) = d.paid(json!(100), donor("ha@example.org")).await;
    let before = d.fake.events().len();
    let (refund, _) = d
        .fake
        .refund_from_dashboard(&intent, Some(4000))
        .await
        .unwrap();
    for event in d.events_after(before) {
        d.deliver(&event).await;
    }
    let updated = fake_stripe::event_for("refund.updated", &refund);
    d.deliver(&updated).await;
    assert_eq!(queued(&d, "refund:").await, 1, "one notice");
    let audited: i64 = d
        .app
        .db
        .read(|c| {
            c.query_row(
                "SELECT COUNT(*) FROM audit_log WHERE action = 'refund' AND detail LIKE '%refunded in Stripe%'",
                [],
                |r| r.get(0),
            )
        })
        .await
        .unwrap();
    assert_eq!(audited, 1, "one audit row");
    assert_eq!(d.net("ha@example.org", this_year() as i16).await, 6_000);
}
