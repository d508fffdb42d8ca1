//! Ending a monthly gift: the donor's link in every receipt (no sign-in; GET shows one
//! button, its POST cancels at once, mails a confirmation and writes an audit row whose actor
//! is the donor), staff's Cancel with a reason, and erasure on request. After any of them,
//! nothing is ever charged again.

use serde_json::json;

use super::monthly::{MONTH, link, monthly_app, to};
use super::{Donate, donor};
use crate::common::{TestApp, message, text};
use crate::mail::smtp::Smtp;

/// The path of plan `plan`'s cancel link, as its first receipt gives it.
async fn cancel_path(d: &Donate, smtp: &Smtp, email: &str) -> String {
    let mail = d.mail(smtp).await;
    let receipt = to(&mail, email, "Your contribution receipt");
    let url = link(
        &receipt[0].text(),
        "https://example.org/donate/monthly/cancel/",
    );
    url.trim_start_matches("https://example.org").to_owned()
}

async fn post(d: &Donate, path: &str) -> warp::http::Response<bytes::Bytes> {
    warp::test::request()
        .method("POST")
        .path(path)
        .remote_addr(([10, 0, 0, 7], 40000).into())
        .reply(&d.app.app)
        .await
}

#[tokio::test]
async fn the_donor_cancels_from_the_link_in_the_receipt_without_signing_in() {
    let smtp = Smtp::start();
    let d = monthly_app(&smtp).await;
    let email = "lee@example.org";
    let (plan, _) = d.sign_up(json!(30), donor(email)).await;
    let path = cancel_path(&d, &smtp, email).await;

    // Opening the link (a mail scanner does) changes nothing; it shows one button.
    for _ in 0..2 {
        let page = d.app.get(&path).await;
        assert_eq!(page.status(), 200);
        let html = text(&page);
        assert!(html.contains("Cancel your monthly gift"), "{html}");
        assert!(
            html.contains("You give $30.00 to Fixture Party every month."),
            "{html}"
        );
        assert!(html.contains(&format!(r#"action="{path}""#)), "{html}");
        assert!(html.contains("Cancel my monthly gift"));
        assert_eq!(page.headers()["cache-control"], "no-store");
    }
    assert_eq!(d.plan(plan).await.0, "active");

    let done = post(&d, &path).await;
    assert_eq!(done.status(), 200);
    assert!(text(&done).contains("Your monthly gift is canceled"));
    assert_eq!(d.plan(plan).await.0, "canceled");
    let (by, actor, detail): (String, Option<String>, Option<String>) = d
        .app
        .db
        .read(move |c| {
            c.query_row(
                "SELECT p.canceled_by, a.actor, a.detail FROM donation_plans p, audit_log a \
                 WHERE p.id = ?1 AND a.action = 'cancel_plan' AND a.target = 'plan:' || p.id",
                [plan],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
        })
        .await
        .unwrap();
    assert_eq!(
        (by.as_str(), actor.as_deref(), detail.as_deref()),
        ("donor", Some("donor"), Some("by donor"))
    );
    let mail = d.mail(&smtp).await;
    let confirmation = to(
        &mail,
        email,
        "Your monthly gift to Fixture Party is canceled",
    );
    assert_eq!(confirmation.len(), 1);
    assert!(
        confirmation[0]
            .text()
            .contains("No further gifts will be charged.")
    );

    // Stopped at once: no charge, ever.
    for _ in 0..3 {
        assert!(d.pass_after(MONTH).await.is_empty());
    }
    assert!(d.off_session_charges().is_empty());

    // The link has done its work: it says so, and pressing again changes nothing.
    assert_eq!(d.app.get(&path).await.status(), 410);
    let again = post(&d, &path).await;
    assert_eq!(again.status(), 410);
    assert!(text(&again).contains("This monthly gift has ended"));
    assert_eq!(
        to(
            &d.mail(&smtp).await,
            email,
            "Your monthly gift to Fixture Party is canceled"
        )
        .len(),
        1
    );
}

#[tokio::test]
async fn forged_and_foreign_cancel_links_cancel_nothing() {
    let smtp = Smtp::start();
    let d = monthly_app(&smtp).await;
    let (mine, _) = d.sign_up(json!(30), donor("mia@example.org")).await;
    let (theirs, _) = d.sign_up(json!(30), donor("ned@example.org")).await;
    let path = cancel_path(&d, &smtp, "mia@example.org").await;
    let token = path.rsplit('/').next().unwrap().to_owned();
    let (id, mac) = token.split_once('-').unwrap();
    let flipped = format!(
        "{id}-{}{}",
        if mac.starts_with('0') { '1' } else { '0' },
        &mac[1..]
    );
    for bad in [
        format!("/donate/monthly/cancel/{flipped}"),
        format!("/donate/monthly/cancel/{theirs}-{mac}"),
        format!("/donate/monthly/cancel/{mine}"),
        "/donate/monthly/cancel/x".to_owned(),
        format!("/donate/monthly/cancel/{}", "9".repeat(300)),
    ] {
        assert_eq!(d.app.get(&bad).await.status(), 404, "{bad}");
        let res = post(&d, &bad).await;
        assert_eq!(res.status(), 404, "{bad}");
        assert!(text(&res).contains("This link is not valid"), "{bad}");
    }
    assert_eq!(d.plan(mine).await.0, "active");
    assert_eq!(d.plan(theirs).await.0, "active");
}

#[tokio::test]
async fn staff_see_every_plan_cancel_one_with_a_reason_and_export_them() {
    let smtp = Smtp::start();
    let d = monthly_app(&smtp).await;
    let (plan, _) = d.sign_up(json!(15), donor("ola@example.org")).await;
    d.pass_after(MONTH).await;
    // A plan whose first gift was never paid is not listed.
    assert_eq!(
        d.give_monthly(json!(40), donor("unpaid@example.org"))
            .await
            .status(),
        200
    );

    assert_eq!(d.app.get("/api/admin/plans").await.status(), 401);
    let token = d.app.login().await;
    let res = d.app.admin("GET", "/api/admin/plans", &token, None).await;
    assert_eq!(res.status(), 200);
    let list = TestApp::json(&res);
    assert_eq!(list.as_array().unwrap().len(), 1, "{list}");
    let row = &list[0];
    assert_eq!(row["id"], plan);
    assert_eq!(row["donorName"], "Ada Lovelace");
    assert_eq!(row["amount"], "15.00");
    assert_eq!(row["status"], "active");
    assert_eq!(row["totalGiven"], "30.00");
    assert_eq!(row["gifts"], 2);
    assert!(row["nextChargeAt"].is_string());

    // The donations list marks the plan's gifts.
    let gifts = TestApp::json(
        &d.app
            .admin("GET", "/api/admin/donations", &token, None)
            .await,
    );
    let marked: Vec<_> = gifts
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["planId"] == plan)
        .collect();
    assert_eq!(marked.len(), 2);

    let path = format!("/api/admin/plans/{plan}/cancel");
    let cancel = |body| d.app.admin("POST", &path, &token, Some(body));
    for (body, field) in [
        (json!({}), "reason"),
        (json!({ "reason": "  " }), "reason"),
        (json!({ "reason": "x".repeat(501) }), "reason"),
    ] {
        let res = cancel(body).await;
        assert_eq!(res.status(), 400);
        assert_eq!(TestApp::json(&res)["field"], field);
    }
    assert_eq!(
        cancel(json!({ "reason": "ok", "extra": 1 })).await.status(),
        400
    );
    assert_eq!(
        d.app
            .admin(
                "POST",
                "/api/admin/plans/9999/cancel",
                &token,
                Some(json!({ "reason": "x" }))
            )
            .await
            .status(),
        404
    );
    assert_eq!(
        d.plan(plan).await.0,
        "active",
        "nothing changed by a refused cancel"
    );
    let res = cancel(json!({ "reason": "Donor called the office" })).await;
    assert_eq!(res.status(), 200, "{:?}", res.body());
    let row = TestApp::json(&res);
    assert_eq!(row["status"], "canceled");
    assert_eq!(row["canceledBy"], "staff");
    assert_eq!(row["cancelReason"], "Donor called the office");
    assert_eq!(cancel(json!({ "reason": "again" })).await.status(), 409);
    let detail: String = d
        .app
        .db
        .read(|c| {
            c.query_row(
                "SELECT detail FROM audit_log WHERE action = 'cancel_plan'",
                [],
                |r| r.get(0),
            )
        })
        .await
        .unwrap();
    assert_eq!(detail, "by staff: Donor called the office");
    assert!(d.pass_after(MONTH).await.is_empty());
    assert_eq!(
        to(
            &d.mail(&smtp).await,
            "ola@example.org",
            "Your monthly gift to Fixture Party is canceled"
        )
        .len(),
        1
    );

    let csv = d
        .app
        .admin("GET", "/api/admin/plans/export", &token, None)
        .await;
    assert_eq!(csv.status(), 200);
    let body = text(&csv);
    assert!(body.starts_with("\u{feff}Plan ID,Donor Name,Email,Amount,Status,Next Charge,Total Given,Gifts,Started,Canceled At,Canceled By,Cancel Reason,Last Error\r\n"), "{body}");
    assert!(body.contains(",ola@example.org,15.00,canceled,"), "{body}");
    assert!(body.contains(",staff,Donor called the office,"), "{body}");
}

#[tokio::test]
async fn erasing_a_donor_cancels_their_monthly_gifts() {
    let smtp = Smtp::start();
    let d = monthly_app(&smtp).await;
    let (plan, _) = d.sign_up(json!(15), donor("pat@example.org")).await;
    let token = d.app.login().await;
    let res = d
        .app
        .admin(
            "POST",
            "/api/admin/erase",
            &token,
            Some(json!({ "email": "PAT@example.org" })),
        )
        .await;
    assert_eq!(res.status(), 200, "{:?}", res.body());
    assert_eq!(d.plan(plan).await.0, "canceled");
    assert!(d.pass_after(MONTH).await.is_empty());
}

#[tokio::test]
async fn the_card_page_judges_its_link_before_saying_payments_are_down() {
    // No Stripe keys: a stranger's made-up link is refused as a link (404), the same answer
    // as with payments up, and a body that is not JSON gets its own 415.
    let app = TestApp::new();
    for path in ["/api/monthly/card", "/api/monthly/card/saved"] {
        let body = if path.ends_with("saved") {
            json!({ "token": "1-00", "setupIntent": "seti_1" })
        } else {
            json!({ "token": "1-00" })
        };
        let res = app.post_json(path, &body.to_string()).await;
        assert_eq!(res.status(), 404, "{path}: {:?}", res.body());
        assert_eq!(message(&res), "This link is not valid.");
        let res = app.post_form(path, "token=1-00", "/donate/card").await;
        assert_eq!(res.status(), 415, "{path}: {:?}", res.body());
    }
}
