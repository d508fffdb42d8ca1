//! Donations against a real database and the fake Stripe on a real port: every rule the
//! donate page applies holds at the server, and more (the donor's yearly total, the race for
//! the last dollars of a limit, card testers); Stripe's events move a gift once and only
//! forward, and only when signed.

use crate::common::{TestApp, message};
use api::config::Config;
use api::domain::payments::StripeConfig;
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
        ip: [u8; 4],
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

    /// Gives, has Stripe take the money, and returns the pass the donor's browser gets.
    async fn paid_pass(&self, amount: Value, info: Value) -> String {
        let res = self.give(amount, info).await;
        assert_eq!(res.status(), 200, "{:?}", res.body());
        let reply = TestApp::json(&res);
        let intent = reply["clientSecret"]
            .as_str()
            .unwrap()
            .split("_secret_")
            .next()
            .unwrap()
            .to_owned();
        self.settle(&intent, Outcome::Succeed).await;
        let res = self.exchange(&reply["ticket"]).await;
        assert_eq!(res.status(), 200, "{:?}", res.body());
        TestApp::json(&res)["pass"].as_str().unwrap().to_owned()
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
    assert_eq!(sent.params["receipt_email"], "ada@example.org");
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

#[tokio::test]
async fn earlier_gifts_make_a_small_one_need_occupation_employer_and_purpose() {
    let d = donate_app(|_| {}).await;
    let pass = d.paid_pass(json!(150), donor("bo@example.org")).await;
    // Said without the reason to a stranger, whom earlier gifts are no business of…
    let res = d.give(json!(60), donor("BO@example.org")).await;
    assert_eq!(res.status(), 400);
    assert_eq!(
        message(&res),
        "For donations over $200, FEC regulations require occupation, employer, and contribution purpose."
    );
    // …and with it to the donor's own browser.
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
}

#[tokio::test]
async fn pending_gifts_hold_their_place_and_failed_ones_free_it() {
    let d = donate_app(|_| {}).await;
    let pass = d.paid_pass(json!(1), donor("cy@example.org")).await;
    let (_, big) = d.reserved(json!(44_000), itemized("cy@example.org")).await;
    // The donor's own browser hears how much is left; anyone else only that it is too much.
    let over = d
        .give_with_pass(json!(300), itemized("cy@example.org"), Some(&pass))
        .await;
    assert_eq!(
        message(&over),
        "This amount would exceed your annual limit. You can donate up to $299 more this year."
    );
    let over = d.give(json!(300), itemized("cy@example.org")).await;
    assert_eq!(
        message(&over),
        "This amount would exceed your annual limit."
    );
    let query = format!("email=cy%40example.org&year={}", this_year());
    assert_eq!(
        d.summary_with(&query, &pass).await,
        json!({"completed": 1.0, "pending": 44000.0, "remaining": 299.0})
    );
    d.settle(&big, Outcome::Cancel).await;
    d.reserved(json!(300), itemized("cy@example.org")).await;
}

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
        json!({"completed": 0.0, "pending": 30.0, "remaining": 44270.0})
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
async fn fifty_concurrent_gifts_for_one_donor_never_pass_the_limit() {
    let d = donate_app(|_| {}).await;
    let gifts = (0..50).map(|i| {
        d.give_from(
            json!(1000),
            itemized("race@example.org"),
            [10, 1, 0, i as u8],
        )
    });
    let results = futures_util::future::join_all(gifts).await;
    let accepted = results.iter().filter(|r| r.status() == 200).count();
    let refused = results.iter().filter(|r| r.status() == 400).count();
    assert_eq!(
        (accepted, refused),
        (44, 6),
        "44 × $1,000 fit under $44,300"
    );
    let total: i64 = d
        .app
        .db
        .read(|c| {
            c.query_row(
                "SELECT SUM(amount_cents) FROM donations WHERE donor_email = 'race@example.org' AND status = 'pending'",
                [],
                |r| r.get(0),
            )
        })
        .await
        .unwrap();
    assert!(total <= 4_430_000, "{total}");
    assert_eq!(d.creates().len(), 44);
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

#[tokio::test]
async fn card_testers_are_slowed_by_address_and_by_email() {
    let d = donate_app(|c| {
        c.donation_rate_limit = 3;
        c.summary_rate_limit = 2;
    })
    .await;
    for i in 0..3 {
        d.reserved(json!(1), donor(&format!("t{i}@example.org")))
            .await;
    }
    let res = d.give(json!(1), donor("t9@example.org")).await;
    assert_eq!(res.status(), 429);
    assert_eq!(res.headers()["retry-after"], "600");
    assert_eq!(
        message(&res),
        "Too many payment attempts. Please wait a few minutes and try again."
    );
    // One e-mail from many addresses.
    for i in 0..3 {
        assert_eq!(
            d.give_from(json!(1), donor("same@example.org"), [10, 2, 0, i])
                .await
                .status(),
            200
        );
    }
    assert_eq!(
        d.give_from(json!(1), donor("same@example.org"), [10, 2, 0, 9])
            .await
            .status(),
        429
    );
    // Refused gifts never reach Stripe and do not use the allowance.
    let year = this_year();
    for _ in 0..2 {
        assert_eq!(
            d.summary(&format!("email=a%40example.org&year={year}"))
                .await
                .status(),
            200
        );
    }
    assert_eq!(
        d.summary(&format!("email=a%40example.org&year={year}"))
            .await
            .status(),
        429
    );
    assert_eq!(d.creates().len(), 6);
}

#[tokio::test]
async fn hostile_bodies_are_refused_cleanly() {
    let d = donate_app(|_| {}).await;
    let huge =
        json!({ "amount": 25, "donorInfo": donor(&format!("{}@example.org", "a".repeat(20_000))) })
            .to_string();
    assert_eq!(
        d.app
            .post_json("/api/create-payment-intent", &huge)
            .await
            .status(),
        413
    );
    let form = warp::test::request()
        .method("POST")
        .path("/api/create-payment-intent")
        .header("content-type", "application/x-www-form-urlencoded")
        .body("amount=25")
        .reply(&d.app.app)
        .await;
    assert_eq!(form.status(), 415);
    let cross_site = warp::test::request()
        .method("POST")
        .path("/api/create-payment-intent")
        .header("content-type", "application/json")
        .header("sec-fetch-site", "cross-site")
        .body(json!({ "amount": 25, "donorInfo": donor("x@example.org") }).to_string())
        .reply(&d.app.app)
        .await;
    assert_eq!(cross_site.status(), 403);
    // Quotes, markup and other scripts are data, stored as typed.
    let mut info = donor("o'brien@example.org");
    info["donorAddress"] = json!("1 Main St'); DROP TABLE donations; --");
    info["donorCity"] = json!("<img src=x onerror=alert(1)>");
    info["donorLastName"] = json!("Ó Briain");
    let (id, _) = d.reserved(json!(25), info).await;
    let (address, city, last): (String, String, String) = d
        .app
        .db
        .read(move |c| {
            c.query_row(
                "SELECT donor_address, donor_city, donor_last_name FROM donations WHERE id = ?1",
                [id],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
        })
        .await
        .unwrap();
    assert_eq!(address, "1 Main St'); DROP TABLE donations; --");
    assert_eq!(city, "<img src=x onerror=alert(1)>");
    assert_eq!(last, "Ó Briain");
    assert_eq!(d.creates().len(), 1);
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

#[tokio::test]
async fn only_the_donate_page_may_load_and_frame_stripe() {
    let app = TestApp::new();
    let donate = app.get("/donate").await;
    let csp = donate.headers()["content-security-policy"]
        .to_str()
        .unwrap();
    assert!(
        csp.contains("script-src 'self' https://js.stripe.com;"),
        "{csp}"
    );
    assert!(
        csp.contains("frame-src https://js.stripe.com https://hooks.stripe.com;"),
        "{csp}"
    );
    assert!(
        csp.contains("connect-src 'self' https://api.stripe.com;"),
        "{csp}"
    );
    assert!(
        donate.headers()["permissions-policy"]
            .to_str()
            .unwrap()
            .contains("payment=(self \"https://js.stripe.com\")")
    );
    for path in [
        "/",
        "/contact",
        "/donate/",
        "/donatex",
        "/api/donations/config",
        "/admin",
    ] {
        let res = app.get(path).await;
        let csp = res.headers()["content-security-policy"].to_str().unwrap();
        assert!(!csp.contains("stripe"), "{path}: {csp}");
        assert!(csp.contains("frame-src 'none'"), "{path}");
    }
}
