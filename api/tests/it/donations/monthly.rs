//! Monthly gifts: one-time unless the donor chooses otherwise; the first gift saves the card
//! with Stripe; the server makes each later charge itself when it falls due (on the movable
//! clock), each its own gift with its own receipt; a charge is never made twice, not by two
//! passes at once, not after a crash mid-charge, not for months the server was down.
//!
//! The harness for the other monthly files is here too: `monthly_rules` (declines, a new
//! card, the annual limit, itemisation) and `monthly_cancel` (the donor's link, staff).

use std::time::Duration;

use api::domain::donations::monthly::charge::Outcome as Charge;
use fake_stripe::Outcome;
use serde_json::{Value, json};

use super::{Donate, donate_app, donor, itemized};
use crate::common::TestApp;
use crate::mail::smtp::{Received, Smtp};

pub(super) const MONTH: u64 = 31 * 24 * 3600;
pub(super) const DAY: u64 = 24 * 3600;

/// A donate app mailing through `smtp`, with staff alerts on.
pub(super) async fn monthly_app(smtp: &Smtp) -> Donate {
    let url = smtp.url();
    let d = donate_app(move |c| {
        c.mail.smtp_url = Some(url);
        c.mail.staff_email = Some("Staff <staff@example.org>".into());
    })
    .await;
    // These tests pass months on the clock, and what a plan will give in a year depends on
    // the months left in it (a $25 plan started in January passes $200 by December, one
    // started in September does not): they start on the next September 1, whatever today's
    // date, so the same months pass in one year every run.
    let now = d.app.state.clock.now();
    let today = now.to_zoned_datetime(jiff::tz::TimeZone::UTC).date();
    let year = if today.month() < 9 {
        today.year()
    } else {
        today.year() + 1
    };
    let september: jiff::Timestamp = format!("{year}-09-01T12:00:00Z").parse().unwrap();
    d.advance(september.duration_since(now).as_secs());
    d
}

impl Donate {
    /// POST /api/create-payment-intent as the page sends a monthly gift.
    pub(super) async fn give_monthly(
        &self,
        amount: Value,
        info: Value,
    ) -> warp::http::Response<bytes::Bytes> {
        let body =
            json!({ "amount": amount, "donorInfo": info, "frequency": "monthly" }).to_string();
        self.app
            .post_from("/api/create-payment-intent", &body, [10, 0, 0, 1])
            .await
    }

    /// [`Donate::give_monthly`] from the donor's own browser, showing its `pass`.
    pub(super) async fn give_monthly_as(
        &self,
        amount: Value,
        info: Value,
        pass: &str,
    ) -> warp::http::Response<bytes::Bytes> {
        warp::test::request()
            .method("POST")
            .path("/api/create-payment-intent")
            .remote_addr(([10, 0, 0, 1], 40000).into())
            .header("content-type", "application/json")
            .header("x-donor-pass", pass)
            .body(
                json!({ "amount": amount, "donorInfo": info, "frequency": "monthly" }).to_string(),
            )
            .reply(&self.app.app)
            .await
    }

    /// Signs `info` up for `amount` a month and pays the first gift on the page (the
    /// webhook delivered): (plan, first gift).
    pub(super) async fn sign_up(&self, amount: Value, info: Value) -> (i64, i64) {
        let res = self.give_monthly(amount, info).await;
        assert_eq!(res.status(), 200, "{:?}", res.body());
        let intent = TestApp::json(&res)["clientSecret"]
            .as_str()
            .unwrap()
            .split("_secret_")
            .next()
            .unwrap()
            .to_owned();
        self.settle(&intent, Outcome::Succeed).await;
        let (gift, status, _) = self.row_of(&intent).await;
        assert_eq!(status, "completed");
        let plan = self
            .app
            .db
            .read(move |c| {
                c.query_row("SELECT plan_id FROM donations WHERE id = ?1", [gift], |r| {
                    r.get(0)
                })
            })
            .await
            .unwrap();
        (plan, gift)
    }

    /// (status, next charge, failures, saved card) of plan `id`.
    pub(super) async fn plan(&self, id: i64) -> (String, i64, i64, Option<String>) {
        self.app
            .db
            .read(move |c| {
                c.query_row(
                    "SELECT status, next_charge, failures, payment_method FROM donation_plans WHERE id = ?1",
                    [id],
                    |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
                )
            })
            .await
            .unwrap()
    }

    /// (charge, status, amount) of each of plan `id`'s gifts, in order.
    pub(super) async fn gifts_of(&self, id: i64) -> Vec<(i64, String, i64)> {
        self.app
            .db
            .read(move |c| {
                c.prepare("SELECT plan_charge, status, amount_cents FROM donations WHERE plan_id = ?1 ORDER BY plan_charge")?
                    .query_map([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
                    .collect()
            })
            .await
            .unwrap()
    }

    /// Moves both clocks on by `secs` and runs one charging pass.
    pub(super) async fn pass_after(&self, secs: u64) -> Vec<(i64, Charge)> {
        self.advance(secs as i64);
        self.app.state.charger.run_due().await
    }

    /// The off-session charges the api asked Stripe for.
    pub(super) fn off_session_charges(&self) -> Vec<fake_stripe::Recorded> {
        self.creates()
            .into_iter()
            .filter(|r| r.params.get("off_session").is_some_and(|v| v == "true"))
            .collect()
    }

    /// Every message sent so far (the queue delivered first).
    pub(super) async fn mail(&self, smtp: &Smtp) -> Vec<Received> {
        self.app.state.mail.deliver_due().await;
        smtp.received()
    }
}

/// Messages to `to` whose subject starts with `subject`.
pub(super) fn to<'a>(mail: &'a [Received], to: &str, subject: &str) -> Vec<&'a Received> {
    mail.iter()
        .filter(|m| {
            m.to.iter().any(|t| t == to)
                && m.header("Subject").is_some_and(|s| s.starts_with(subject))
        })
        .collect()
}

/// The link in `text` that starts with `prefix`.
pub(super) fn link(text: &str, prefix: &str) -> String {
    let start = text
        .find(prefix)
        .unwrap_or_else(|| panic!("no {prefix} in:\n{text}"));
    text[start..]
        .split(|c: char| c.is_whitespace())
        .next()
        .unwrap()
        .to_owned()
}

#[tokio::test]
async fn a_gift_is_one_time_unless_the_donor_chose_monthly() {
    let smtp = Smtp::start();
    let d = monthly_app(&smtp).await;
    for body in [
        json!({ "amount": 25, "donorInfo": donor("once@example.org") }),
        json!({ "amount": 25, "donorInfo": donor("once@example.org"), "frequency": "once" }),
        json!({ "amount": 25, "donorInfo": donor("once@example.org"), "frequency": null }),
    ] {
        let res = d
            .app
            .post_from(
                "/api/create-payment-intent",
                &body.to_string(),
                [10, 0, 0, 1],
            )
            .await;
        assert_eq!(res.status(), 200, "{:?}", res.body());
    }
    assert_eq!(
        d.app.count("donation_plans").await,
        0,
        "no plan without the choice"
    );
    for create in d.creates() {
        assert!(
            !create.params.contains_key("setup_future_usage"),
            "no card saved: {:?}",
            create.params
        );
        assert!(!create.params.contains_key("customer"));
    }
    assert!(d.fake.requests().iter().all(|r| r.path != "/v1/customers"));

    // Anything but the two choices is refused, naming the field; nothing reaches Stripe.
    let before = d.fake.requests().len();
    for frequency in [json!("weekly"), json!(true), json!("MONTHLY"), json!(12)] {
        let body =
            json!({ "amount": 25, "donorInfo": donor("odd@example.org"), "frequency": frequency });
        let res = d
            .app
            .post_from(
                "/api/create-payment-intent",
                &body.to_string(),
                [10, 0, 0, 1],
            )
            .await;
        assert_eq!(res.status(), 400, "{frequency}");
        assert_eq!(TestApp::json(&res)["field"], "frequency");
    }
    // Monthly under $1 is refused like any gift under $1.
    for amount in [json!(0.5), json!(0), json!(-5)] {
        let res = d
            .give_monthly(amount.clone(), donor("small@example.org"))
            .await;
        assert_eq!(res.status(), 400, "{amount}");
        assert_eq!(TestApp::json(&res)["field"], "amount");
    }
    assert_eq!(
        d.fake.requests().len(),
        before,
        "no refused gift reached Stripe"
    );
    assert_eq!(d.app.count("donation_plans").await, 0);
}

#[tokio::test]
async fn the_first_gift_saves_the_card_and_each_month_is_its_own_gift_with_its_own_receipt() {
    let smtp = Smtp::start();
    let d = monthly_app(&smtp).await;
    let res = d.give_monthly(json!(25), donor("ada@example.org")).await;
    assert_eq!(res.status(), 200, "{:?}", res.body());
    // A customer for the plan, and the first intent saves the card to it for later charges.
    let customers: Vec<_> = d
        .fake
        .requests()
        .into_iter()
        .filter(|r| r.path == "/v1/customers")
        .collect();
    assert_eq!(customers.len(), 1);
    assert_eq!(customers[0].params["email"], "ada@example.org");
    let first = &d.creates()[0];
    assert_eq!(first.params["setup_future_usage"], "off_session");
    assert!(first.params["customer"].starts_with("cus_fake_"));
    assert!(first.params.contains_key("metadata[plan_id]"));
    let intent = TestApp::json(&res)["clientSecret"]
        .as_str()
        .unwrap()
        .split("_secret_")
        .next()
        .unwrap()
        .to_owned();
    let (gift, _, _) = d.row_of(&intent).await;
    let plan: i64 = d
        .app
        .db
        .read(move |c| {
            c.query_row("SELECT plan_id FROM donations WHERE id = ?1", [gift], |r| {
                r.get(0)
            })
        })
        .await
        .unwrap();
    assert_eq!(
        d.plan(plan).await.0,
        "pending",
        "nothing starts before the first gift is paid"
    );
    assert!(d.app.state.charger.run_due().await.is_empty());

    d.settle(&intent, Outcome::Succeed).await;
    let (status, next, _, card) = d.plan(plan).await;
    assert_eq!((status.as_str(), next), ("active", 1));
    let card = card.expect("the card that paid is kept");
    assert_eq!(
        d.fake.saved_to(&card).as_deref(),
        Some(first.params["customer"].as_str())
    );

    // The first receipt says when the next gift comes and how to stop them.
    let mail = d.mail(&smtp).await;
    let receipts = to(&mail, "ada@example.org", "Your contribution receipt");
    assert_eq!(receipts.len(), 1);
    let text = receipts[0].text();
    let next_at: String = d
        .app
        .db
        .read(move |c| {
            c.query_row(
                "SELECT next_attempt_at FROM donation_plans WHERE id = ?1",
                [plan],
                |r| r.get(0),
            )
        })
        .await
        .unwrap();
    let tz = jiff::tz::TimeZone::get("America/Chicago").unwrap();
    let next_day = api::domain::donations::monthly::day(next_at.parse().unwrap(), &tz);
    assert!(
        text.contains(&format!("This is your monthly gift of $25.00. The next one is on {next_day}, then every month until you cancel.")),
        "{text}"
    );
    link(&text, "https://example.org/donate/monthly/cancel/");

    // Not due yet: nothing happens.
    assert!(d.pass_after(DAY).await.is_empty());
    // A month on, the server charges the saved card itself.
    let done = d.pass_after(MONTH).await;
    assert!(
        matches!(done.as_slice(), [(p, Charge::Paid { .. })] if *p == plan),
        "{done:?}"
    );
    let charges = d.off_session_charges();
    assert_eq!(charges.len(), 1);
    assert_eq!(charges[0].params["payment_method"], card);
    assert_eq!(charges[0].params["confirm"], "true");
    assert_eq!(charges[0].params["amount"], "2500");
    assert!(
        charges[0]
            .idempotency_key
            .as_deref()
            .unwrap()
            .starts_with(&format!("plan-{plan}-"))
    );
    assert_eq!(
        d.gifts_of(plan).await,
        [
            (0, "completed".to_owned(), 2500),
            (1, "completed".to_owned(), 2500)
        ],
        "each charge its own dated gift"
    );
    let (_, next, _, _) = d.plan(plan).await;
    assert_eq!(next, 2);
    let mail = d.mail(&smtp).await;
    let receipts = to(&mail, "ada@example.org", "Your contribution receipt");
    assert_eq!(receipts.len(), 2, "a receipt for every charge");
    let second = receipts
        .iter()
        .find(|r| r.text().contains("this one included: $50.00"))
        .expect("the second receipt counts both gifts");
    assert!(second.text().contains("The next one is on"));
    link(&second.text(), "https://example.org/donate/monthly/cancel/");

    // Passes that find nothing due charge nothing.
    assert!(d.app.state.charger.run_due().await.is_empty());
    assert_eq!(d.off_session_charges().len(), 1);
}

#[tokio::test]
async fn months_missed_while_the_server_was_down_are_charged_once_not_once_a_month() {
    let smtp = Smtp::start();
    let d = monthly_app(&smtp).await;
    let (plan, _) = d.sign_up(json!(10), donor("bo@example.org")).await;
    // The server "comes back" three and a half months later.
    let done = d.pass_after(3 * MONTH + 15 * DAY).await;
    assert_eq!(done.len(), 1, "{done:?}");
    assert_eq!(d.off_session_charges().len(), 1);
    assert_eq!(d.gifts_of(plan).await.len(), 2);
    // It goes on from the next date to come: charge 4 (or 5, as the months fall).
    let (status, next, _, _) = d.plan(plan).await;
    assert_eq!(status, "active");
    assert!(next >= 4, "{next}");
    assert!(d.app.state.charger.run_due().await.is_empty());
}

#[tokio::test]
async fn two_passes_at_once_and_a_crash_mid_charge_charge_once() {
    let smtp = Smtp::start();
    let d = monthly_app(&smtp).await;
    let (plan, _) = d.sign_up(json!(25), donor("cy@example.org")).await;
    d.advance(MONTH as i64);
    let charger = d.app.state.charger.clone();
    let (a, b) = tokio::join!(charger.run_due(), d.app.state.charger.run_due());
    assert_eq!(
        a.len() + b.len(),
        1,
        "one pass charged, the other found nothing due: {a:?} {b:?}"
    );
    assert_eq!(d.off_session_charges().len(), 1);

    // Next month Stripe charges, but the server dies before it hears (the pass is dropped
    // while Stripe holds its answer).
    d.fake.hold_charges(true);
    d.advance(MONTH as i64);
    let charger = d.app.state.charger.clone();
    let pass = tokio::spawn(async move { charger.run_due().await });
    for _ in 0..200 {
        if d.fake.held_charges() == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(d.fake.held_charges(), 1, "the charge reached Stripe");
    pass.abort();
    let _ = pass.await;
    d.fake.hold_charges(false);
    assert_eq!(
        d.gifts_of(plan).await[2].1,
        "pending",
        "its gift was stored before Stripe was asked"
    );

    // The next pass asks again with the same key; Stripe answers with the charge it made.
    let done = d.app.state.charger.run_due().await;
    assert!(
        matches!(done.as_slice(), [(_, Charge::Paid { .. })]),
        "{done:?}"
    );
    let charges = d.off_session_charges();
    assert_eq!(charges.len(), 3, "asked twice for this month...");
    assert_eq!(
        charges[1].idempotency_key, charges[2].idempotency_key,
        "...with the same key"
    );
    assert_eq!(
        d.fake.paid_intents(),
        3,
        "three payments in all: the first gift and two months"
    );
    assert_eq!(
        d.gifts_of(plan)
            .await
            .iter()
            .map(|g| g.1.as_str())
            .collect::<Vec<_>>(),
        ["completed", "completed", "completed"]
    );
    let mail = d.mail(&smtp).await;
    assert_eq!(
        to(&mail, "cy@example.org", "Your contribution receipt").len(),
        3
    );
}

#[tokio::test]
async fn an_itemized_monthly_donor_is_charged_like_anyone() {
    let smtp = Smtp::start();
    let d = monthly_app(&smtp).await;
    let (plan, _) = d.sign_up(json!(150), itemized("dee@example.org")).await;
    assert!(matches!(
        d.pass_after(MONTH).await.as_slice(),
        [(_, Charge::Paid { .. })]
    ));
    let occupation: Option<String> = d
        .app
        .db
        .read(move |c| {
            c.query_row(
                "SELECT donor_occupation FROM donations WHERE plan_id = ?1 AND plan_charge = 1",
                [plan],
                |r| r.get(0),
            )
        })
        .await
        .unwrap();
    assert_eq!(
        occupation.as_deref(),
        Some("Engineer"),
        "each gift carries the donor's details"
    );
}
