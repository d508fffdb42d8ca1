//! Stripe's webhook events: signed ones move a gift once and only forward; unsigned, forged,
//! stale or mismatched ones change nothing; unpaid gifts expire.

use crate::common::message;
use fake_stripe::Outcome;
use serde_json::json;

use super::{WEBHOOK_SECRET, donate_app, donor, itemized};

#[tokio::test]
async fn signed_events_complete_fail_or_cancel_a_gift_once() {
    let d = donate_app(|_| {}).await;
    let (id, intent) = d.reserved(json!(25), donor("ed@example.org")).await;

    // A decline fails it; the donor tries another card, which succeeds.
    let declined = d.settle(&intent, Outcome::Decline).await;
    assert_eq!(d.status(id).await, "failed");
    let succeeded = d.settle(&intent, Outcome::Succeed).await;
    assert_eq!(d.status(id).await, "completed");

    // Replays change nothing, in any order.
    for event in [&declined, &succeeded, &declined] {
        let res = d.webhook(event, WEBHOOK_SECRET, fake_stripe::now()).await;
        assert_eq!(res.status(), 200);
        assert_eq!(d.status(id).await, "completed");
    }
    assert_eq!(d.app.count("stripe_events").await, 2);

    // A cancellation after a success changes nothing either.
    let mut canceled =
        fake_stripe::event_for("payment_intent.canceled", &succeeded["data"]["object"]);
    canceled["data"]["object"]["status"] = json!("canceled");
    assert_eq!(
        d.webhook(&canceled, WEBHOOK_SECRET, fake_stripe::now())
            .await
            .status(),
        200
    );
    assert_eq!(d.status(id).await, "completed");

    // Another gift, canceled.
    let (other, other_intent) = d.reserved(json!(30), donor("ed@example.org")).await;
    d.settle(&other_intent, Outcome::Cancel).await;
    assert_eq!(d.status(other).await, "canceled");
}

#[tokio::test]
async fn a_payment_of_another_amount_does_not_complete_the_gift() {
    let d = donate_app(|_| {}).await;
    let (id, intent) = d.reserved(json!(25), donor("fa@example.org")).await;
    let mut paid = d.fake.settle(&intent, Outcome::Succeed).await.unwrap();
    paid["amount"] = json!(100);
    let event = fake_stripe::event_for("payment_intent.succeeded", &paid);
    assert_eq!(
        d.webhook(&event, WEBHOOK_SECRET, fake_stripe::now())
            .await
            .status(),
        200
    );
    assert_eq!(d.status(id).await, "pending");
}

#[tokio::test]
async fn unsigned_forged_or_stale_events_change_nothing() {
    let d = donate_app(|_| {}).await;
    let (id, intent) = d.reserved(json!(25), donor("gi@example.org")).await;
    let paid = d.fake.settle(&intent, Outcome::Succeed).await.unwrap();
    let event = fake_stripe::event_for("payment_intent.succeeded", &paid);

    let forged = d
        .webhook(&event, "whsec_someone_else", fake_stripe::now())
        .await;
    assert_eq!(forged.status(), 400);
    assert_eq!(message(&forged), "The event's signature is not valid.");
    let stale = d
        .webhook(&event, WEBHOOK_SECRET, fake_stripe::now() - 301)
        .await;
    assert_eq!(stale.status(), 400);
    let unsigned = warp::test::request()
        .method("POST")
        .path("/api/stripe/webhook")
        .body(event.to_string())
        .reply(&d.app.app)
        .await;
    assert_eq!(unsigned.status(), 400);
    assert_eq!(
        message(&unsigned),
        "The Stripe-Signature header is missing."
    );
    // Signed, but altered after signing.
    let payload = event.to_string();
    let signature = fake_stripe::sign(&payload, WEBHOOK_SECRET, fake_stripe::now());
    let altered = warp::test::request()
        .method("POST")
        .path("/api/stripe/webhook")
        .header("stripe-signature", signature)
        .body(payload.replace("\"amount\":2500", "\"amount\":1"))
        .reply(&d.app.app)
        .await;
    assert_eq!(altered.status(), 400);
    let garbage = d
        .webhook(
            &json!({"hello": "world"}),
            WEBHOOK_SECRET,
            fake_stripe::now(),
        )
        .await;
    assert_eq!(garbage.status(), 400);

    assert_eq!(d.status(id).await, "pending");
    assert_eq!(d.app.count("stripe_events").await, 0);

    // Events we have no use for are acknowledged, so Stripe stops sending them.
    let other = json!({
        "id": "evt_other", "object": "event", "api_version": "2026-09-30.endive", "created": fake_stripe::now(),
        "data": {"object": {"id": "rc_1", "object": "treasury.received_credit"}}, "livemode": false,
        "pending_webhooks": 1, "request": null, "type": "treasury.received_credit.created"
    });
    assert_eq!(
        d.webhook(&other, WEBHOOK_SECRET, fake_stripe::now())
            .await
            .status(),
        200
    );
    assert_eq!(d.status(id).await, "pending");
}

#[tokio::test]
async fn unpaid_gifts_expire_after_their_hold_and_are_canceled_at_stripe() {
    let d = donate_app(|_| {}).await;
    let (id, intent) = d.reserved(json!(44_300), itemized("ha@example.org")).await;
    d.app
        .state
        .clock
        .advance(std::time::Duration::from_secs(10 * 60));
    let (fresh, _) = d.reserved(json!(1), donor("hb@example.org")).await;
    // It stops counting at once, before any sweep.
    d.reserved(json!(10), donor("ha@example.org")).await;

    d.app.state.expire_donations().await;
    assert_eq!(d.status(id).await, "expired");
    assert_eq!(d.status(fresh).await, "pending");
    assert_eq!(d.fake.intent(&intent).unwrap()["status"], "canceled");
}

/// A payment in another currency than the gift's completes nothing, whatever its amount.
#[tokio::test]
async fn a_payment_in_another_currency_does_not_complete_the_gift() {
    let d = donate_app(|_| {}).await;
    let (id, intent) = d.reserved(json!(25), donor("fb@example.org")).await;
    let mut paid = d.fake.settle(&intent, Outcome::Succeed).await.unwrap();
    paid["currency"] = json!("eur");
    let event = fake_stripe::event_for("payment_intent.succeeded", &paid);
    assert_eq!(
        d.webhook(&event, WEBHOOK_SECRET, fake_stripe::now())
            .await
            .status(),
        200
    );
    assert_eq!(d.status(id).await, "pending");
}

/// The page that returns from Stripe asks Stripe whether the gift is paid; a payment of
/// another amount than the gift's does not complete it that way either.
#[tokio::test]
async fn a_payment_of_another_amount_does_not_complete_the_gift_on_the_donors_return() {
    let d = donate_app(|_| {}).await;
    let res = d.give(json!(25), donor("fc@example.org")).await;
    let reply = crate::common::TestApp::json(&res);
    let intent = reply["clientSecret"]
        .as_str()
        .unwrap()
        .split("_secret_")
        .next()
        .unwrap()
        .to_owned();
    let id = d.row_of(&intent).await.0;
    d.fake.set_amount(&intent, 2_000);
    // Paid at Stripe, its event not (yet) delivered.
    d.fake.settle(&intent, Outcome::Succeed).await.unwrap();
    let res = d.exchange(&reply["ticket"]).await;
    assert_eq!(res.status(), 409);
    assert_eq!(d.status(id).await, "pending");
}

/// A decline counts once against the network that set the gift up, however often Stripe
/// sends its event again: replays do not close the network to set-ups.
#[tokio::test]
async fn a_replayed_decline_is_counted_once() {
    let d = donate_app(|_| {}).await;
    let net = [10, 9, 8, 7];
    let res = d.give_from(json!(5), donor("fd@example.org"), net).await;
    let intent = crate::common::TestApp::json(&res)["clientSecret"]
        .as_str()
        .unwrap()
        .split("_secret_")
        .next()
        .unwrap()
        .to_owned();
    let declined = d.settle(&intent, Outcome::Decline).await;
    for _ in 0..3 {
        let res = d
            .webhook(&declined, WEBHOOK_SECRET, fake_stripe::now())
            .await;
        assert_eq!(res.status(), 200);
    }
    assert_eq!(
        d.give_from(json!(5), donor("fd@example.org"), net)
            .await
            .status(),
        200
    );
}
