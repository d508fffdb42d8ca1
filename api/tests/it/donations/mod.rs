//! Donations against a real database and the fake Stripe on a real port: every rule the
//! donate page applies holds at the server, and more (the donor's yearly total, the race for
//! the last dollars of a limit, card testers); Stripe's events move a gift once and only
//! forward, and only when signed.
//!
//! This file holds the harness (an app wired to a fake Stripe, donors, the calls a browser and
//! Stripe make); the tests are by topic: `rules` (setting a gift up and the rules it must
//! meet), `events` (Stripe's webhook events), `privacy` (what a donor's pass opens and a
//! stranger learns), `abuse` (rate limits and hostile bodies), `csp` (which page may talk
//! to Stripe), and money going back: `refunds` (staff's refunds and what they refuse),
//! `stripe_money` (refunds and disputes that start at Stripe, replayed and out of order),
//! `net_totals` (the limit and the year after refunds, across a year boundary) and
//! `schedules` (the treasurer's Schedule A and B, in CSV and `.fec`); and monthly gifts:
//! `monthly` (sign-up, the charges the server makes, never twice), `monthly_rules` (declines,
//! a new card, the limit, itemisation) and `monthly_cancel` (the donor's link, staff); and
//! `erasure` (a person who did everything, erased from every table, the outbox, a backup
//! and Stripe).

mod abuse;
mod contributors;
mod csp;
mod erasure;
mod events;
mod monthly;
mod monthly_cancel;
mod monthly_rules;
mod net_totals;
mod people;
mod privacy;
mod receipts;
mod refunds;
mod rules;
mod schedules;
mod stripe_money;

use crate::common::TestApp;
use api::config::Config;
use api::domain::donations::stripe::StripeConfig;
use fake_stripe::{FakeStripe, Outcome};
use serde_json::{Value, json};

const WEBHOOK_SECRET: &str = "whsec_test_secret";

struct Donate {
    app: TestApp,
    fake: FakeStripe,
}

async fn donate_app(adjust: impl FnOnce(&mut Config)) -> Donate {
    let fake = FakeStripe::new();
    let addr = fake_stripe::spawn(fake.clone(), ([127, 0, 0, 1], 0).into())
        .await
        .unwrap();
    let app = TestApp::with(|c| {
        c.stripe = Some(StripeConfig {
            secret_key: "sk_test_fake".into(),
            publishable_key: "pk_test_fake".into(),
            webhook_secret: Some(WEBHOOK_SECRET.into()),
            api_base: Some(format!("http://{addr}/")),
        });
        c.donation_rate_limit = 1000;
        c.summary_rate_limit = 1000;
        adjust(c);
    });
    Donate { app, fake }
}

fn donor(email: &str) -> Value {
    json!({
        "donorFirstName": "Ada",
        "donorLastName": "Lovelace",
        "donorName": "Ada Lovelace",
        "donorEmail": email,
        "donorAddress": "12 Analytical Way",
        "donorCity": "Springfield",
        "donorState": "IL",
        "donorZipCode": "62701",
        "citizenshipConfirmed": "confirmed",
        "attestationsConfirmed": true,
    })
}

fn itemized(email: &str) -> Value {
    let mut d = donor(email);
    d["donorOccupation"] = json!("Engineer");
    d["donorEmployer"] = json!("Analytical Engines Ltd");
    d["contributionPurpose"] = json!("general_party_use");
    d
}

impl Donate {
    async fn give(&self, amount: Value, info: Value) -> warp::http::Response<bytes::Bytes> {
        self.give_from(amount, info, [10, 0, 0, 1]).await
    }

    async fn give_from(
        &self,
        amount: Value,
        info: Value,
        ip: impl Into<std::net::IpAddr>,
    ) -> warp::http::Response<bytes::Bytes> {
        let body = json!({ "amount": amount, "donorInfo": info }).to_string();
        self.app
            .post_from("/api/create-payment-intent", &body, ip)
            .await
    }

    /// Gives and returns the new row's id and its PaymentIntent.
    async fn reserved(&self, amount: Value, info: Value) -> (i64, String) {
        let res = self.give(amount, info).await;
        assert_eq!(res.status(), 200, "{:?}", res.body());
        let secret = TestApp::json(&res)["clientSecret"]
            .as_str()
            .unwrap()
            .to_owned();
        let intent = secret.split("_secret_").next().unwrap().to_owned();
        let id = self.row_of(&intent).await.0;
        (id, intent)
    }

    /// Gives with the donor's pass (or none) and returns the answer.
    async fn give_with_pass(
        &self,
        amount: Value,
        info: Value,
        pass: Option<&str>,
    ) -> warp::http::Response<bytes::Bytes> {
        let mut req = warp::test::request()
            .method("POST")
            .path("/api/create-payment-intent")
            .remote_addr(([10, 0, 0, 1], 40000).into())
            .header("content-type", "application/json")
            .body(json!({ "amount": amount, "donorInfo": info }).to_string());
        if let Some(pass) = pass {
            req = req.header("x-donor-pass", pass);
        }
        req.reply(&self.app.app).await
    }

    /// Gives, has Stripe take the money, and returns the pass the donor's browser gets from
    /// the link in the receipt.
    async fn paid_pass(&self, amount: Value, info: Value) -> String {
        let email = info["donorEmail"].as_str().unwrap().to_owned();
        self.paid(amount, info).await;
        self.pass_from_receipt(&email).await
    }

    /// The plain text of the newest message of `kind` queued for `email`.
    async fn newest_mail(&self, kind: &'static str, email: &str) -> Option<String> {
        let email = email.to_lowercase();
        let data: Option<Vec<u8>> = self
            .app
            .db
            .read(move |c| {
                use rusqlite::OptionalExtension as _;
                c.query_row(
                    "SELECT message FROM mail_queue WHERE kind = ?1 AND about = ?2 ORDER BY id DESC LIMIT 1",
                    rusqlite::params![kind, email],
                    |r| r.get(0),
                )
                .optional()
            })
            .await
            .unwrap();
        data.map(|data| {
            crate::mail::smtp::Received {
                from: String::new(),
                to: Vec::new(),
                data: String::from_utf8(data).unwrap(),
            }
            .text()
        })
    }

    /// The history link's token in the newest receipt to `email` (after `#history=`).
    async fn history_link(&self, email: &str) -> String {
        let text = self
            .newest_mail("receipt", email)
            .await
            .expect("a receipt for the donor");
        let link = text
            .split("/donate#history=")
            .nth(1)
            .expect("the receipt has a history link")
            .split_whitespace()
            .next()
            .unwrap();
        link.to_owned()
    }

    /// The pass a browser gets by opening the history link in `email`'s newest receipt.
    async fn pass_from_receipt(&self, email: &str) -> String {
        let link = self.history_link(email).await;
        let res = self
            .app
            .post_json("/api/donations/pass", &json!({ "link": link }).to_string())
            .await;
        assert_eq!(res.status(), 200, "{:?}", res.body());
        let body = TestApp::json(&res);
        assert_eq!(body["email"], email.to_lowercase());
        body["pass"].as_str().unwrap().to_owned()
    }

    /// POST /api/donations/pass with `ticket`.
    async fn exchange(&self, ticket: &Value) -> warp::http::Response<bytes::Bytes> {
        self.app
            .post_json(
                "/api/donations/pass",
                &json!({ "ticket": ticket }).to_string(),
            )
            .await
    }

    async fn summary_with(&self, query: &str, pass: &str) -> Value {
        let res = warp::test::request()
            .path(&format!("/api/donations/summary?{query}"))
            .header("x-donor-pass", pass)
            .reply(&self.app.app)
            .await;
        assert_eq!(res.status(), 200, "{:?}", res.body());
        TestApp::json(&res)
    }

    async fn row_of(&self, intent: &str) -> (i64, String, i64) {
        let intent = intent.to_owned();
        self.app
            .db
            .read(move |c| {
                c.query_row(
                    "SELECT id, status, amount_cents FROM donations WHERE payment_intent_id = ?1",
                    [&intent],
                    |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
                )
            })
            .await
            .unwrap()
    }

    /// The PaymentIntent of gift `id`.
    async fn intent_of(&self, id: i64) -> String {
        self.app
            .db
            .read(move |c| {
                c.query_row(
                    "SELECT payment_intent_id FROM donations WHERE id = ?1",
                    [id],
                    |r| r.get(0),
                )
            })
            .await
            .unwrap()
    }

    async fn status(&self, id: i64) -> String {
        self.app
            .db
            .read(move |c| {
                c.query_row("SELECT status FROM donations WHERE id = ?1", [id], |r| {
                    r.get(0)
                })
            })
            .await
            .unwrap()
    }

    /// Settles the intent at the fake, then delivers the event it made, signed, to the api
    /// (the fake has no webhook address here: the app is not listening on a port).
    async fn settle(&self, intent: &str, outcome: Outcome) -> Value {
        let settled = self.fake.settle(intent, outcome).await.unwrap();
        let kind = match outcome {
            Outcome::Succeed => "payment_intent.succeeded",
            Outcome::Decline => "payment_intent.payment_failed",
            Outcome::Cancel => "payment_intent.canceled",
        };
        let event = fake_stripe::event_for(kind, &settled);
        let res = self
            .webhook(&event, WEBHOOK_SECRET, fake_stripe::now())
            .await;
        assert_eq!(res.status(), 200, "{:?}", res.body());
        event
    }

    async fn webhook(
        &self,
        event: &Value,
        secret: &str,
        at: i64,
    ) -> warp::http::Response<bytes::Bytes> {
        let payload = event.to_string();
        warp::test::request()
            .method("POST")
            .path("/api/stripe/webhook")
            .header("content-type", "application/json")
            .header("stripe-signature", fake_stripe::sign(&payload, secret, at))
            .body(payload)
            .reply(&self.app.app)
            .await
    }

    async fn summary(&self, query: &str) -> warp::http::Response<bytes::Bytes> {
        self.app
            .get(&format!("/api/donations/summary?{query}"))
            .await
    }

    /// Sets a gift up and has Stripe take the money (its event delivered): (row, intent).
    async fn paid(&self, amount: Value, info: Value) -> (i64, String) {
        let (id, intent) = self.reserved(amount, info).await;
        self.settle(&intent, Outcome::Succeed).await;
        assert_eq!(self.status(id).await, "completed");
        (id, intent)
    }

    /// The events the fake made after the first `after` (with no webhook address here, the
    /// test delivers them, in the order it chooses).
    fn events_after(&self, after: usize) -> Vec<Value> {
        self.fake
            .events()
            .into_iter()
            .skip(after)
            .map(|e| e.payload)
            .collect()
    }

    /// Delivers `event`, signed, and expects it taken.
    async fn deliver(&self, event: &Value) {
        let res = self
            .webhook(event, WEBHOOK_SECRET, fake_stripe::now())
            .await;
        assert_eq!(res.status(), 200, "{:?}", res.body());
    }

    /// POST /api/admin/donations/{id}/refund with `body`.
    async fn refund(
        &self,
        token: &str,
        id: i64,
        body: Value,
    ) -> warp::http::Response<bytes::Bytes> {
        self.app
            .admin(
                "POST",
                &format!("/api/admin/donations/{id}/refund"),
                token,
                Some(body),
            )
            .await
    }

    /// The donor's completed total in `year`, as the limit sees it.
    async fn net(&self, email: &str, year: i16) -> i64 {
        let (email, now) = (email.to_owned(), self.app.state.clock.now());
        self.app
            .db
            .read(move |c| {
                api::domain::donations::totals(
                    c,
                    api::domain::donations::Whose::Address(&email),
                    year,
                    now,
                )
            })
            .await
            .unwrap()
            .completed
    }

    /// Moves the api's clock and the fake's together.
    fn advance(&self, secs: i64) {
        self.app
            .state
            .clock
            .advance(std::time::Duration::from_secs(secs as u64));
        self.fake.advance(secs);
    }

    fn creates(&self) -> Vec<fake_stripe::Recorded> {
        self.fake
            .requests()
            .into_iter()
            .filter(|r| r.method == "POST" && r.path == "/v1/payment_intents")
            .collect()
    }
}

fn this_year() -> i32 {
    // The fixture party is in America/Chicago; the tests do not run at midnight on New Year's Eve.
    jiff::Timestamp::now()
        .to_zoned_datetime(jiff::tz::TimeZone::get("America/Chicago").unwrap())
        .year() as i32
}
