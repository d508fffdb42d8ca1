//! The lists staff see, newest first; deleting one row; sorting the donations.

use crate::common::{TestApp, message};
use serde_json::json;

use super::seed;

#[tokio::test]
async fn lists_are_newest_first_with_ids_and_camel_case_fields() {
    let app = TestApp::new();
    seed(&app).await;
    let token = app.login().await;

    let contacts = TestApp::json(&app.admin("GET", "/api/admin/contacts", &token, None).await);
    assert_eq!(contacts.as_array().unwrap().len(), 2);
    assert_eq!(contacts[0]["subject"], "+1 call me", "newest first");
    assert_eq!(
        contacts[1],
        json!({"id": 1, "name": "Ruth Alvarez", "email": "ruth@example.org", "subject": "Town hall",
               "message": "Tuesdays work.", "createdAt": "2025-01-05T14:03:00.000Z"})
    );

    let volunteers = TestApp::json(
        &app.admin("GET", "/api/admin/volunteers", &token, None)
            .await,
    );
    assert_eq!(
        volunteers[0],
        json!({"id": 2, "name": "Zoë Ng", "email": "zoe@example.org", "phone": null, "zipCode": "10001",
               "interests": null, "createdAt": "2025-02-11T18:30:00.000Z"})
    );

    let newsletters = TestApp::json(
        &app.admin("GET", "/api/admin/newsletters", &token, None)
            .await,
    );
    assert_eq!(newsletters[0]["email"], "-1@example.org");
    assert_eq!(newsletters[1]["zipCode"], "20001");
    assert_eq!(newsletters[1]["updatedAt"], "2025-01-01T05:00:00.000Z");

    let empty = TestApp::new();
    let token = empty.login().await;
    for kind in ["contacts", "volunteers", "newsletters", "donations"] {
        let res = empty
            .admin("GET", &format!("/api/admin/{kind}"), &token, None)
            .await;
        assert_eq!(TestApp::json(&res), json!([]), "{kind}");
    }
}

#[tokio::test]
async fn deletes_remove_one_row_say_so_and_are_audited() {
    let app = TestApp::new();
    seed(&app).await;
    let token = app.login().await;
    for (kind, table) in [
        ("contacts", "contact_messages"),
        ("volunteers", "volunteer_signups"),
        ("newsletters", "newsletter_signups"),
    ] {
        let res = app
            .admin("DELETE", &format!("/api/admin/{kind}/1"), &token, None)
            .await;
        assert_eq!(res.status(), 200, "{kind}");
        assert_eq!(TestApp::json(&res), json!({ "success": true }));
        assert_eq!(app.count(table).await, 1, "{kind}");
        let again = app
            .admin("DELETE", &format!("/api/admin/{kind}/1"), &token, None)
            .await;
        assert_eq!(again.status(), 404, "{kind}");
        assert!(
            message(&again).starts_with("There is no "),
            "{}",
            message(&again)
        );
        for bad in [
            "abc",
            "-1",
            "0",
            "1.5",
            "99999999999999999999",
            "1%20OR%201=1",
        ] {
            let res = app
                .admin("DELETE", &format!("/api/admin/{kind}/{bad}"), &token, None)
                .await;
            assert_eq!(res.status(), 400, "{kind}/{bad}");
            assert_eq!(message(&res), "The id must be a positive whole number.");
        }
        assert_eq!(app.count(table).await, 1, "{kind}: nothing else went");
    }
    let targets: Vec<String> = app
        .db
        .read(|c| {
            let mut stmt =
                c.prepare("SELECT target FROM audit_log WHERE action = 'delete' ORDER BY id")?;
            stmt.query_map([], |r| r.get(0))?.collect()
        })
        .await
        .unwrap();
    assert_eq!(targets, ["contact:1", "volunteer:1", "newsletter:1"]);
}

#[tokio::test]
async fn donations_sort_by_name_amount_or_date_and_refuse_anything_else() {
    let app = TestApp::new();
    seed(&app).await;
    let token = app.login().await;
    let names = |res: &warp::http::Response<bytes::Bytes>| -> Vec<String> {
        TestApp::json(res)
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["donorName"].as_str().unwrap().to_owned())
            .collect()
    };
    let default = app.admin("GET", "/api/admin/donations", &token, None).await;
    assert_eq!(
        names(&default),
        ["Cy Park", "Bea Cruz", "al Diaz"],
        "date, newest first"
    );
    let by = |q: &'static str| app.admin("GET", q, &token, None);
    assert_eq!(
        names(&by("/api/admin/donations?sortBy=name&sortOrder=asc").await),
        ["al Diaz", "Bea Cruz", "Cy Park"]
    );
    assert_eq!(
        names(&by("/api/admin/donations?sortBy=amount&sortOrder=desc").await),
        ["al Diaz", "Cy Park", "Bea Cruz"]
    );
    assert_eq!(
        names(&by("/api/admin/donations?sortBy=date&sortOrder=asc").await),
        ["al Diaz", "Bea Cruz", "Cy Park"]
    );

    let first = TestApp::json(&default)[1].clone();
    assert_eq!(
        first,
        json!({"id": 1, "amount": "25.00", "donorName": "Bea Cruz", "donorEmail": "bea@example.org",
               "donorAddress": "1 Main St", "donorCity": "Austin", "donorState": "TX", "donorZipCode": "73301",
               "donorOccupation": null, "donorEmployer": null, "contributionPurpose": null,
               "citizenshipConfirmed": true, "status": "completed", "paymentIntentId": "pi_1",
               "createdAt": "2025-04-01T15:00:00.000Z", "updatedAt": "2025-04-01T15:01:00.000Z", "redactedAt": null,
               "refunded": "0.00", "refundedAt": null, "refundedBy": null, "refundable": "25.00", "disputeStatus": null,
               "planId": null})
    );
    assert_eq!(TestApp::json(&default)[0]["amount"], "123.45");

    for (query, words) in [
        ("sortBy=price", "sortBy must be name, amount or date"),
        (
            "sortBy=name%3B%20DROP%20TABLE%20donations",
            "sortBy must be name, amount or date",
        ),
        ("sortOrder=sideways", "sortOrder must be asc or desc"),
    ] {
        let res = app
            .admin(
                "GET",
                &format!("/api/admin/donations?{query}"),
                &token,
                None,
            )
            .await;
        assert_eq!(res.status(), 400, "{query}");
        assert!(message(&res).starts_with(words), "{}", message(&res));
    }
    assert_eq!(app.count("donations").await, 3);
}
