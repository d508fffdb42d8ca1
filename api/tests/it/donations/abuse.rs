//! Card testers slowed by address and by e-mail, and hostile bodies refused cleanly.

use crate::common::message;
use serde_json::json;

use super::{donate_app, donor, this_year};

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
