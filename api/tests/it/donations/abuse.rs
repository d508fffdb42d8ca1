//! Card testers slowed by network and by declines, and hostile bodies refused cleanly.

use std::net::IpAddr;

use crate::common::{TestApp, message};
use fake_stripe::Outcome;
use serde_json::json;

use super::{donate_app, donor, this_year};

/// Card testers are slowed by what they cannot spread: the network they come from (an IPv4
/// address, an IPv6 /64) and the declines it caused. Never by the donor's e-mail, which
/// anyone can type: a stranger's set-ups in a donor's name use up nothing of the donor's.
#[tokio::test]
async fn card_testers_are_slowed_by_network_and_declines_never_by_a_donors_email() {
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
    // One IPv6 machine is one network, whichever address of its /64 it takes.
    let v6 = |net: u16, host: u16| IpAddr::from([0x2001, 0xdb8, 5, net, 0, 0, 0, host]);
    for host in 1..=3 {
        assert_eq!(
            d.give_from(json!(1), donor("v6@example.org"), v6(5, host))
                .await
                .status(),
            200
        );
    }
    assert_eq!(
        d.give_from(json!(1), donor("v6@example.org"), v6(5, 4))
            .await
            .status(),
        429
    );
    assert_eq!(
        d.give_from(json!(1), donor("v6@example.org"), v6(6, 1))
            .await
            .status(),
        200
    );
    // Five strangers' $1 set-ups in Wendy's name, from five addresses...
    for i in 0..5 {
        assert_eq!(
            d.give_from(json!(1), donor("wendy@example.org"), [10, 2, 0, i])
                .await
                .status(),
            200
        );
    }
    // ...leave Wendy's own gift, from her own address, alone.
    assert_eq!(
        d.give_from(json!(25), donor("wendy@example.org"), [10, 7, 7, 7])
            .await
            .status(),
        200
    );
    // A network whose payments were declined three times sets up no more.
    let tester = [10, 3, 0, 1];
    for i in 0..3 {
        let res = d
            .give_from(json!(1), donor(&format!("c{i}@example.org")), tester)
            .await;
        assert_eq!(res.status(), 200);
        let intent = TestApp::json(&res)["clientSecret"]
            .as_str()
            .unwrap()
            .split("_secret_")
            .next()
            .unwrap()
            .to_owned();
        d.settle(&intent, Outcome::Decline).await;
    }
    assert_eq!(
        d.give_from(json!(1), donor("c9@example.org"), tester)
            .await
            .status(),
        429
    );
    assert_eq!(
        d.give_from(json!(1), donor("c9@example.org"), [10, 3, 0, 2])
            .await
            .status(),
        200,
        "only that network"
    );
    // Lookups are limited by network too.
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
        d.summary(&format!("email=b%40example.org&year={year}"))
            .await
            .status(),
        429
    );
    // Refused set-ups never reach Stripe.
    assert_eq!(d.creates().len(), 3 + 3 + 1 + 5 + 1 + 3 + 1);
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
