//! The donor's receipt, over a real SMTP conversation: exactly one per paid gift, whether
//! Stripe's webhook or the donor's return page comes first (or both, and replays), with
//! every line the issue lists, numbered per year.

use fake_stripe::Outcome;
use serde_json::json;

use super::{Donate, donate_app, donor, itemized, this_year};
use crate::common::TestApp;
use crate::mail::smtp::{Received, Smtp};

async fn mail_donate(smtp: &Smtp) -> Donate {
    let url = smtp.url();
    donate_app(move |c| {
        c.mail.smtp_url = Some(url);
        c.mail.committee_name = Some("Fixture Party National Committee".into());
    })
    .await
}

/// Sets a gift up and returns its intent and ticket.
async fn set_up(
    d: &Donate,
    amount: serde_json::Value,
    info: serde_json::Value,
) -> (String, serde_json::Value) {
    let res = d.give(amount, info).await;
    assert_eq!(res.status(), 200, "{:?}", res.body());
    let reply = TestApp::json(&res);
    let intent = reply["clientSecret"]
        .as_str()
        .unwrap()
        .split("_secret_")
        .next()
        .unwrap()
        .to_owned();
    (intent, reply["ticket"].clone())
}

async fn receipts(d: &Donate, smtp: &Smtp) -> Vec<Received> {
    d.app.state.mail.deliver_due().await;
    smtp.received()
}

#[tokio::test]
async fn the_webhook_then_the_return_page_send_one_receipt_with_every_line() {
    let smtp = Smtp::start();
    let d = mail_donate(&smtp).await;
    let (intent, ticket) = set_up(&d, json!(250), itemized("ada@example.org")).await;
    let event = d.settle(&intent, Outcome::Succeed).await;
    // The donor's page comes back, and Stripe replays its event.
    assert_eq!(d.exchange(&ticket).await.status(), 200);
    let replay = d
        .webhook(&event, super::WEBHOOK_SECRET, fake_stripe::now())
        .await;
    assert_eq!(replay.status(), 200);

    let got = receipts(&d, &smtp).await;
    assert_eq!(got.len(), 1, "exactly one receipt");
    let r = &got[0];
    assert_eq!(r.to, ["ada@example.org"]);
    let year = this_year();
    let number = format!("{year}-000001");
    assert_eq!(
        r.header("Subject").unwrap(),
        format!("Your contribution receipt {number}")
    );
    let text = r.text();
    for line in [
        "Dear Ada Lovelace,".to_owned(),
        format!("Receipt number: {number}"),
        "Received by: Fixture Party National Committee".to_owned(),
        "Amount: $250.00".to_owned(),
        "Purpose: General party use".to_owned(),
        "Ada Lovelace\n12 Analytical Way\nSpringfield, IL 62701".to_owned(),
        "Your contributions this calendar year, this one included: $250.00".to_owned(),
        "Contributions or gifts to Fixture Party are not tax deductible for federal income tax purposes.".to_owned(),
        "Paid for by Fixture Party National Committee.".to_owned(),
    ] {
        assert!(text.contains(&line), "missing {line:?} in:\n{text}");
    }
    // The date, in the party's time zone.
    let today = jiff::Timestamp::now()
        .to_zoned_datetime(jiff::tz::TimeZone::get("America/Chicago").unwrap())
        .strftime("%B %-d, %Y")
        .to_string();
    assert!(text.contains(&format!("Date: {today}")), "{text}");
    assert!(
        r.data.contains("Content-Type: text/html"),
        "an HTML alternative"
    );
}

#[tokio::test]
async fn the_return_page_first_completes_the_gift_and_the_webhook_adds_no_second_receipt() {
    let smtp = Smtp::start();
    let d = mail_donate(&smtp).await;
    let (intent, ticket) = set_up(&d, json!(25), donor("bea@example.org")).await;
    // Stripe took the money, but its webhook is late.
    let paid = d.fake.settle(&intent, Outcome::Succeed).await.unwrap();
    assert_eq!(d.exchange(&ticket).await.status(), 200);
    assert_eq!(
        d.row_of(&intent).await.1,
        "completed",
        "completed on the donor's return"
    );
    assert_eq!(receipts(&d, &smtp).await.len(), 1);

    let event = fake_stripe::event_for("payment_intent.succeeded", &paid);
    assert_eq!(
        d.webhook(&event, super::WEBHOOK_SECRET, fake_stripe::now())
            .await
            .status(),
        200
    );
    assert_eq!(d.row_of(&intent).await.1, "completed");
    assert_eq!(receipts(&d, &smtp).await.len(), 1, "still one");
}

#[tokio::test]
async fn receipt_numbers_follow_each_other_and_the_year_total_adds_up() {
    let smtp = Smtp::start();
    let d = mail_donate(&smtp).await;
    for amount in [25, 50] {
        let (intent, _) = set_up(&d, json!(amount), donor("cy@example.org")).await;
        d.settle(&intent, Outcome::Succeed).await;
    }
    // An unpaid gift gets no receipt.
    let (declined, _) = set_up(&d, json!(10), donor("cy@example.org")).await;
    d.settle(&declined, Outcome::Decline).await;

    let got = receipts(&d, &smtp).await;
    assert_eq!(got.len(), 2);
    let year = this_year();
    let mut numbers: Vec<String> = got.iter().map(|r| r.header("Subject").unwrap()).collect();
    numbers.sort();
    assert_eq!(
        numbers,
        [
            format!("Your contribution receipt {year}-000001"),
            format!("Your contribution receipt {year}-000002"),
        ]
    );
    let second = got
        .iter()
        .find(|r| r.text().contains("Amount: $50.00"))
        .unwrap();
    assert!(
        second.text().contains("this one included: $75.00"),
        "{}",
        second.text()
    );
    assert!(second.text().contains("Purpose: Not stated"));
}
