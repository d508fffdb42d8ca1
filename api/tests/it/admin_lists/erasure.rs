//! Deleting and erasing people's details leaves no trace in the database's files; the audit
//! log says who saw, exported, erased or redacted what.

use crate::common::TestApp;
use serde_json::json;

/// Whether `needle` is anywhere in the file at `path` (a missing file holds nothing).
fn file_holds(path: &std::path::Path, needle: &str) -> bool {
    std::fs::read(path)
        .is_ok_and(|bytes| bytes.windows(needle.len()).any(|w| w == needle.as_bytes()))
}

/// A deleted message is gone from the database file, its log and a backup taken after,
/// not only from the table.
#[tokio::test]
async fn a_deleted_message_leaves_no_trace_in_the_files_or_a_backup() {
    let app = TestApp::new();
    let secret = "My neighbour Alma Reyes-7Q9 needs help with her benefits";
    let res = app
        .post_json(
            "/api/contact",
            &json!({"name": "Alma Reyes", "email": "alma@example.org", "subject": "Benefits", "message": secret}).to_string(),
        )
        .await;
    assert_eq!(res.status(), 201);
    let db = app.data_dir.join("site.db");
    let wal = app.data_dir.join("site.db-wal");
    assert!(
        file_holds(&db, secret) || file_holds(&wal, secret),
        "the test can see stored text"
    );
    let token = app.login().await;
    let res = app
        .admin("DELETE", "/api/admin/contacts/1", &token, None)
        .await;
    assert_eq!(res.status(), 200);
    for file in [&db, &wal] {
        assert!(
            !file_holds(file, secret),
            "{} still holds it",
            file.display()
        );
    }
    let backup = app.data_dir.join("after-delete.db");
    api::store::backup::backup(&db, &backup).unwrap();
    assert!(!file_holds(&backup, secret), "the backup holds it");
}

/// Erasing a person by e-mail: their messages and signups go, their unpaid gifts lose their
/// details, their completed gifts stay whole; the audit log says it happened without naming
/// them in full, and nothing of them is left in the database's files.
#[tokio::test]
async fn a_person_is_erased_on_request() {
    let app = TestApp::new();
    let secret = "Please forget Brook Ambrose-4K2 and her address";
    for (path, body) in [
        (
            "/api/contact",
            json!({"name": "Brook Ambrose", "email": "brook@example.org", "subject": "Erase me", "message": secret}),
        ),
        (
            "/api/volunteer",
            json!({"name": "Brook Ambrose", "email": "Brook@Example.org", "zipCode": "12345"}),
        ),
        (
            "/api/newsletter-signup",
            json!({"email": "brook@example.org", "zipCode": "12345"}),
        ),
        (
            "/api/contact",
            json!({"name": "Cy", "email": "cy@example.org", "subject": "Stay", "message": "Keep me"}),
        ),
    ] {
        assert_eq!(
            app.post_json(path, &body.to_string()).await.status(),
            201,
            "{path}"
        );
    }
    app.exec(
        "INSERT INTO donations (amount_cents, donor_name, donor_email, donor_address, donor_city, donor_state, donor_zip_code, status)
         VALUES (2500, 'Brook Ambrose', 'brook@example.org', '9 Quiet Lane-4K2', 'Springfield', 'IL', '62701', 'completed'),
                (9900, 'Brook Ambrose', 'brook@example.org', '9 Quiet Lane-4K2', 'Springfield', 'IL', '62701', 'expired')",
    )
    .await;
    let token = app.login().await;
    // Who may, and with what.
    let anonymous = app
        .post_json("/api/admin/erase", r#"{"email":"brook@example.org"}"#)
        .await;
    assert_eq!(anonymous.status(), 401);
    for body in [
        json!({"email": "not an address"}),
        json!({"email": "a@b.org", "also": 1}),
        json!([]),
    ] {
        let res = app
            .admin("POST", "/api/admin/erase", &token, Some(body.clone()))
            .await;
        assert_eq!(res.status(), 400, "{body}");
    }
    let res = app
        .admin(
            "POST",
            "/api/admin/erase",
            &token,
            Some(json!({"email": " BROOK@example.org "})),
        )
        .await;
    assert_eq!(res.status(), 200, "{:?}", res.body());
    assert_eq!(
        TestApp::json(&res),
        json!({"contacts": 1, "volunteers": 1, "newsletters": 1, "rsvps": 0, "donationsRedacted": 1, "donationsKept": 1, "donationsInProgress": 0, "mailInFlight": 0})
    );
    assert_eq!(app.count("contact_messages").await, 1, "Cy's message stays");
    assert_eq!(app.count("volunteer_signups").await, 0);
    assert_eq!(app.count("newsletter_signups").await, 0);
    let donations: Vec<(String, String)> = app
        .db
        .read(|c| {
            let mut stmt =
                c.prepare("SELECT donor_name, donor_address FROM donations ORDER BY id")?;
            stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect()
        })
        .await
        .unwrap();
    assert_eq!(
        donations,
        [
            ("Brook Ambrose".to_owned(), "9 Quiet Lane-4K2".to_owned()),
            ("Erased".to_owned(), String::new())
        ]
    );
    let audit: Vec<(String, String)> = app
        .db
        .read(|c| {
            let mut stmt =
                c.prepare("SELECT action, target FROM audit_log WHERE action = 'erase'")?;
            stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect()
        })
        .await
        .unwrap();
    assert_eq!(
        audit,
        [("erase".to_owned(), "person:b…@example.org".to_owned())]
    );
    // Nothing of the message is left in the files.
    for file in ["site.db", "site.db-wal"] {
        assert!(
            !file_holds(&app.data_dir.join(file), secret),
            "{file} still holds it"
        );
    }
}

/// Every time staff see or download people's details, the audit log says so.
#[tokio::test]
async fn views_and_exports_of_personal_data_are_audited() {
    let app = TestApp::new();
    let token = app.login().await;
    for path in [
        "/api/admin/contacts",
        "/api/admin/volunteers",
        "/api/admin/newsletters",
        "/api/admin/donations",
        "/api/admin/contacts/export",
        "/api/admin/donations/export",
    ] {
        assert_eq!(
            app.admin("GET", path, &token, None).await.status(),
            200,
            "{path}"
        );
    }
    let audit: Vec<(String, String, String)> = app
        .db
        .read(|c| {
            let mut stmt = c.prepare(
                "SELECT action, target, ip FROM audit_log WHERE action IN ('view', 'export') ORDER BY id",
            )?;
            stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?.collect()
        })
        .await
        .unwrap();
    let pairs: Vec<(&str, &str)> = audit
        .iter()
        .map(|(a, t, _)| (a.as_str(), t.as_str()))
        .collect();
    assert_eq!(
        pairs,
        [
            ("view", "contacts"),
            ("view", "volunteers"),
            ("view", "newsletters"),
            ("view", "donations"),
            ("export", "contacts"),
            ("export", "donations"),
        ]
    );
    assert!(audit.iter().all(|(_, _, ip)| ip == "10.9.9.9"));
}

/// Unpaid gifts keep their donor's details for 30 days after they end, then lose them on
/// the server's own round; completed gifts are kept whole.
#[tokio::test]
async fn unpaid_gifts_lose_their_details_after_thirty_days() {
    let app = TestApp::new();
    app.exec(
        "INSERT INTO donations (amount_cents, donor_name, donor_email, donor_address, donor_city, donor_state, donor_zip_code, status)
         VALUES (2500, 'Dee Paid', 'dee@example.org', '1 Kept St', 'Springfield', 'IL', '62701', 'completed'),
                (9900, 'Dee Unpaid', 'dee@example.org', '1 Gone St', 'Springfield', 'IL', '62701', 'failed')",
    )
    .await;
    app.state.redact_unpaid_donations().await;
    assert_eq!(app.count("audit_log").await, 0, "nothing is due yet");
    app.state
        .clock
        .advance(std::time::Duration::from_secs(30 * 24 * 3600));
    app.state.redact_unpaid_donations().await;
    let names: Vec<String> = app
        .db
        .read(|c| {
            let mut stmt = c.prepare("SELECT donor_name FROM donations ORDER BY id")?;
            stmt.query_map([], |r| r.get(0))?.collect()
        })
        .await
        .unwrap();
    assert_eq!(names, ["Dee Paid", "Erased"]);
    let audit: (String, String, Option<String>) = app
        .db
        .read(|c| {
            c.query_row("SELECT action, target, ip FROM audit_log", [], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })
        })
        .await
        .unwrap();
    assert_eq!(audit, ("redact".to_owned(), "donations:1".to_owned(), None));
}
