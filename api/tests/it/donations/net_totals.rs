//! The limit and the donor's totals after money goes back: net of refunds made in the gift's
//! own year, across a year boundary on the movable clock (the api's and the fake's); and
//! the "needs attention" list of donors over the limit, with the days left of the 60.

use jiff::Timestamp;
use jiff::tz::TimeZone;
use serde_json::json;

use super::{donate_app, itemized, this_year};
use crate::common::TestApp;

/// Seconds from now to noon on January 2 next year, in the fixture party's time zone.
fn to_next_year() -> i64 {
    let tz = TimeZone::get("America/Chicago").unwrap();
    let now = Timestamp::now();
    let year = now.to_zoned_datetime(tz.clone()).year();
    let target = jiff::civil::date(year + 1, 1, 2)
        .at(12, 0, 0, 0)
        .to_zoned_datetime(tz)
        .unwrap()
        .timestamp();
    target.duration_since(now).as_secs()
}

#[tokio::test]
async fn refunds_lower_their_gifts_year_and_a_prior_years_refund_changes_neither_year() {
    let d = donate_app(|_| {}).await;
    let token = d.app.login().await;
    let email = "hy@example.org";
    let year = this_year() as i16;
    let (gift, _) = d.paid(json!(300), itemized(email)).await;
    let res = d
        .refund(
            &token,
            gift,
            json!({ "amount": 100, "reason": "Part back" }),
        )
        .await;
    assert_eq!(res.status(), 200);
    assert_eq!(d.net(email, year).await, 20_000);

    d.advance(to_next_year());
    // In the new year, $50 more of last year's gift goes back.
    let res = d
        .refund(&token, gift, json!({ "amount": 50, "reason": "More back" }))
        .await;
    assert_eq!(res.status(), 200, "{:?}", res.body());
    assert_eq!(
        d.net(email, year).await,
        20_000,
        "last year stays as reported"
    );
    assert_eq!(
        d.net(email, year + 1).await,
        0,
        "and it takes nothing off this year"
    );
    let refund_years: Vec<i16> = d
        .app
        .db
        .read(|c| {
            let mut s = c.prepare("SELECT refund_year FROM donation_refunds ORDER BY id")?;
            s.query_map([], |r| r.get(0))?.collect()
        })
        .await
        .unwrap();
    assert_eq!(refund_years, [year, year + 1]);

    // This year's gifts and the donor's own view of both years.
    let pass = d.paid_pass(json!(44_000), itemized(email)).await;
    let this = d
        .summary_with(&format!("email={email}&year={}", year + 1), &pass)
        .await;
    assert_eq!(
        (this["completed"].as_f64(), this["remaining"].as_f64()),
        (Some(44_000.0), Some(300.0))
    );
    let last = d
        .summary_with(&format!("email={email}&year={year}"), &pass)
        .await;
    assert_eq!(last["completed"].as_f64(), Some(200.0));

    // The limit counts net: $301 more is refused until $1,000 of this year's gift goes back.
    let refused = d
        .give_with_pass(json!(301), itemized(email), Some(&pass))
        .await;
    assert_eq!(refused.status(), 400);
    let this_years: i64 = d
        .app
        .db
        .read(|c| {
            c.query_row(
                "SELECT id FROM donations WHERE amount_cents = 4400000",
                [],
                |r| r.get(0),
            )
        })
        .await
        .unwrap();
    let res = d
        .refund(
            &token,
            this_years,
            json!({ "amount": 1000, "reason": "Over a cap" }),
        )
        .await;
    assert_eq!(res.status(), 200);
    let accepted = d
        .give_with_pass(json!(301), itemized(email), Some(&pass))
        .await;
    assert_eq!(accepted.status(), 200, "{:?}", accepted.body());
}

/// A payment that passes the limit (here one Stripe took after its gift expired, as it
/// allows) has the excess refunded at once. Until Stripe has made that refund the donor is
/// on the "Needs attention" list with the days left of the 60 the law gives; a refund whose
/// answer was lost is asked again with its key, and made once.
#[tokio::test]
async fn a_payment_past_the_limit_is_refunded_and_needs_attention_until_it_is() {
    let d = donate_app(|_| {}).await;
    let token = d.app.login().await;
    let email = "iz@example.org";
    let (late, late_intent) = d.reserved(json!(44_000), itemized(email)).await;
    d.advance(11 * 60);
    d.app.state.expire_donations().await;
    let (second, second_intent) = d.paid(json!(44_000), itemized(email)).await;
    d.settle(&late_intent, fake_stripe::Outcome::Succeed).await;
    assert_eq!(d.status(late).await, "completed");

    let attention = |token: String| {
        let app = &d.app;
        async move {
            let res = app
                .admin("GET", "/api/admin/donations/attention", &token, None)
                .await;
            assert_eq!(res.status(), 200, "{:?}", res.body());
            TestApp::json(&res)
        }
    };
    let list = attention(token.clone()).await;
    assert_eq!(list.as_array().unwrap().len(), 1, "{list}");
    let over = &list[0];
    assert_eq!(over["donorEmail"], email);
    assert_eq!(over["total"], "88000.00");
    assert_eq!(over["excess"], "43700.00");
    assert_eq!(over["daysLeft"], 60);
    // Stripe makes the refund but its answer is lost: still over, and asked again...
    d.fake.lose_next_refund_answer();
    assert_eq!(d.app.state.limit_refunder.run().await, 0);
    assert_eq!(attention(token.clone()).await[0]["excess"], "43700.00");
    d.advance(10 * 24 * 3600);
    assert_eq!(attention(token.clone()).await[0]["daysLeft"], 50);
    // ...with the same key: Stripe answers with the refund it made, and there is one.
    assert_eq!(d.app.state.limit_refunder.run().await, 1);
    assert_eq!(d.fake.refunds_of_intent(&late_intent), vec![4_370_000]);
    assert!(d.fake.refunds_of_intent(&second_intent).is_empty());
    assert_eq!(attention(token.clone()).await, json!([]));
    // The excess is gone back: the later gift keeps $300 of its $44,000.
    let left = d
        .app
        .db
        .read(move |c| api::domain::donations::refunds::refundable(c, late))
        .await
        .unwrap();
    assert_eq!(left, 30_000);
    let _ = second;
    let anonymous = d.app.get("/api/admin/donations/attention").await;
    assert_eq!(anonymous.status(), 401);
}
