//! What staff see of visitors' submissions and donations: lists, deletes, sorting and the
//! CSV exports, each compared with the database.

use crate::common::{TestApp, message};
use serde_json::{Value, json};

/// Arranges a few rows of every kind, some with values a spreadsheet would run.
async fn seed(app: &TestApp) {
    app.exec(
        "INSERT INTO contact_messages (name, email, subject, message, created_at) VALUES
           ('Ruth Alvarez', 'ruth@example.org', 'Town hall', 'Tuesdays work.', '2025-01-05T14:03:00.000Z'),
           ('=HYPERLINK(\"http://evil.example\",\"click\")', 'x@example.org', '+1 call me', 'Line one
line \"two\", with a comma', '2025-03-01T09:00:00.000Z');
         INSERT INTO volunteer_signups (name, email, phone, zip_code, interests, created_at) VALUES
           ('Sam Lee', 'sam@example.org', '+1 555-201-3344', '98101', '@doors', '2025-02-10T18:30:00.000Z'),
           ('Zoë Ng', 'zoe@example.org', NULL, '10001', NULL, '2025-02-11T18:30:00.000Z');
         INSERT INTO newsletter_signups (email, phone, zip_code, created_at, updated_at) VALUES
           ('a@example.org', NULL, '20001', '2025-01-01T05:00:00.000Z', '2025-01-01T05:00:00.000Z'),
           ('-1@example.org', '555', '20002', '2025-06-01T12:00:00.000Z', '2025-06-02T12:00:00.000Z');
         INSERT INTO donations (amount_cents, donor_name, donor_first_name, donor_last_name, donor_email, donor_address,
             donor_city, donor_state, donor_zip_code, donor_occupation, donor_employer, contribution_purpose,
             citizenship_confirmed, contribution_year, status, payment_intent_id, created_at, updated_at) VALUES
           (2500, 'Bea Cruz', 'Bea', 'Cruz', 'bea@example.org', '1 Main St', 'Austin', 'TX', '73301', NULL, NULL, NULL, 1, 2025, 'completed', 'pi_1', '2025-04-01T15:00:00.000Z', '2025-04-01T15:01:00.000Z'),
           (100000, 'al Diaz', 'al', 'Diaz', 'al@example.org', '2 Oak Ave', 'Reno', 'NV', '89501', 'Teacher', 'Reno Schools', 'general_party_use', 1, 2025, 'pending', 'pi_2', '2025-03-01T15:00:00.000Z', '2025-03-01T15:00:00.000Z'),
           (12345, 'Cy Park', 'Cy', 'Park', 'cy@example.org', '=cmd|'' /C calc''!A0', 'Boise', 'ID', '83701', 'Nurse', '@Clinic', 'legal_proceedings', 0, 2025, 'failed', NULL, '2025-05-01T15:00:00.000Z', '2025-05-01T15:00:00.000Z');",
    )
    .await;
}

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
               "createdAt": "2025-04-01T15:00:00.000Z", "updatedAt": "2025-04-01T15:01:00.000Z", "redactedAt": null})
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

/// Parses an export: checks the download headers and returns its records (header first).
fn parse_export(res: &warp::http::Response<bytes::Bytes>, kind: &str) -> Vec<Vec<String>> {
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["content-type"], "text/csv; charset=utf-8");
    assert_eq!(res.headers()["cache-control"], "no-store");
    let today = jiff::Timestamp::now()
        .to_zoned_datetime(jiff::tz::TimeZone::get("America/Chicago").unwrap())
        .strftime("%Y-%m-%d")
        .to_string();
    assert_eq!(
        res.headers()["content-disposition"],
        format!("attachment; filename=\"FXP-{kind}-{today}.csv\"").as_str()
    );
    let body = res.body();
    assert!(
        body.starts_with("\u{feff}".as_bytes()),
        "a byte-order mark for Excel"
    );
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(&body[3..]);
    reader
        .records()
        .map(|r| r.unwrap().iter().map(str::to_owned).collect())
        .collect()
}

/// The value of a cell as stored, undoing the formula guard.
fn unguard(cell: &str) -> &str {
    match cell.strip_prefix('\'') {
        Some(rest) if rest.starts_with(['=', '+', '-', '@', '\t', '\r']) => rest,
        _ => cell,
    }
}

#[tokio::test]
async fn exports_carry_every_field_of_every_row_and_no_formulas() {
    let app = TestApp::new();
    seed(&app).await;
    let token = app.login().await;

    let contacts = parse_export(
        &app.admin("GET", "/api/admin/contacts/export", &token, None)
            .await,
        "contacts",
    );
    assert_eq!(
        contacts[0],
        ["ID", "Name", "Email", "Subject", "Message", "Date"]
    );
    assert_eq!(contacts.len(), 3);
    // The fixture party keeps Chicago time: 14:03 UTC on January 5 is 08:03 there.
    assert_eq!(
        contacts[2],
        [
            "1",
            "Ruth Alvarez",
            "ruth@example.org",
            "Town hall",
            "Tuesdays work.",
            "2025-01-05 08:03"
        ]
    );
    assert_eq!(
        contacts[1][1],
        "'=HYPERLINK(\"http://evil.example\",\"click\")"
    );
    assert_eq!(contacts[1][3], "'+1 call me");
    assert_eq!(contacts[1][4], "Line one\nline \"two\", with a comma");

    let volunteers = parse_export(
        &app.admin("GET", "/api/admin/volunteers/export", &token, None)
            .await,
        "volunteers",
    );
    assert_eq!(
        volunteers[0],
        [
            "ID",
            "Name",
            "Email",
            "Phone",
            "ZIP Code",
            "Areas of Interest",
            "Date"
        ]
    );
    assert_eq!(
        volunteers[2],
        [
            "1",
            "Sam Lee",
            "sam@example.org",
            "'+1 555-201-3344",
            "98101",
            "'@doors",
            "2025-02-10 12:30"
        ]
    );
    assert_eq!(
        volunteers[1],
        [
            "2",
            "Zoë Ng",
            "zoe@example.org",
            "",
            "10001",
            "",
            "2025-02-11 12:30"
        ]
    );

    let newsletters = parse_export(
        &app.admin("GET", "/api/admin/newsletters/export", &token, None)
            .await,
        "newsletters",
    );
    assert_eq!(
        newsletters[0],
        ["ID", "Email", "Phone", "ZIP Code", "Date", "Updated"]
    );
    assert_eq!(
        newsletters[1],
        [
            "2",
            "'-1@example.org",
            "555",
            "20002",
            "2025-06-01 07:00",
            "2025-06-02 07:00"
        ]
    );

    let donations = parse_export(
        &app.admin("GET", "/api/admin/donations/export", &token, None)
            .await,
        "donations",
    );
    assert_eq!(
        donations[0],
        [
            "ID",
            "Date",
            "Amount",
            "Status",
            "Donor Name",
            "First Name",
            "Last Name",
            "Email",
            "Address",
            "City",
            "State",
            "ZIP Code",
            "Occupation",
            "Employer",
            "Purpose",
            "Citizenship",
            "Election Year",
            "Year-to-Date Aggregate",
            "Itemize",
            "Payment Intent",
            "Updated"
        ]
    );
    assert_eq!(
        donations[3],
        [
            "2",
            "2025-03-01 09:00",
            "1000.00",
            "pending",
            "al Diaz",
            "al",
            "Diaz",
            "al@example.org",
            "2 Oak Ave",
            "Reno",
            "NV",
            "89501",
            "Teacher",
            "Reno Schools",
            "General Party Use",
            "Yes",
            "2025",
            "0.00",
            "No",
            "pi_2",
            "2025-03-01 09:00"
        ]
    );
    assert_eq!(donations[1][8], "'=cmd|' /C calc'!A0");
    assert_eq!(donations[1][13], "'@Clinic");
    assert_eq!(donations[1][15], "No");
    assert_eq!(donations[1][14], "Legal Proceedings");

    // Every export against the database, cell by cell (after undoing the formula guard).
    let db_rows: Vec<Vec<Option<String>>> = app
        .db
        .read(|c| {
            let mut stmt = c.prepare("SELECT id, name, email, subject, message FROM contact_messages ORDER BY created_at DESC")?;
            stmt.query_map([], |r| (0..5).map(|i| r.get::<_, rusqlite::types::Value>(i).map(|v| match v {
                rusqlite::types::Value::Integer(n) => Some(n.to_string()),
                rusqlite::types::Value::Text(t) => Some(t),
                _ => None,
            })).collect())?.collect()
        })
        .await
        .unwrap();
    for (exported, stored) in contacts[1..].iter().zip(&db_rows) {
        for (cell, value) in exported.iter().zip(stored) {
            assert_eq!(unguard(cell), value.as_deref().unwrap_or(""));
        }
    }
}

#[tokio::test]
async fn the_donations_export_carries_each_donor_year_to_date_total_for_the_fec_report() {
    let app = TestApp::new();
    app.exec(
        "INSERT INTO donations (amount_cents, donor_name, donor_first_name, donor_last_name, donor_email, donor_address,
             donor_city, donor_state, donor_zip_code, citizenship_confirmed, contribution_year, status, created_at) VALUES
           (15000, 'Di Fox', 'Di', 'Fox', 'di@example.org', '3 Elm', 'Troy', 'NY', '12180', 1, 2025, 'completed', '2025-01-10T12:00:00.000Z'),
           (9900, 'Di Fox', 'Di', 'Fox', 'di@example.org', '3 Elm', 'Troy', 'NY', '12180', 1, 2025, 'failed', '2025-01-11T12:00:00.000Z'),
           (6000, 'Di Fox', 'Di', 'Fox', 'di@example.org', '3 Elm', 'Troy', 'NY', '12180', 1, 2025, 'completed', '2025-02-10T12:00:00.000Z'),
           (5000, 'Di Fox', 'Di', 'Fox', 'di@example.org', '3 Elm', 'Troy', 'NY', '12180', 1, 2026, 'completed', '2026-01-02T12:00:00.000Z'),
           (30000, 'Ed Roe', 'Ed', 'Roe', 'ed@example.org', '4 Ash', 'Troy', 'NY', '12180', 1, 2025, 'completed', '2025-03-01T12:00:00.000Z');",
    )
    .await;
    let token = app.login().await;
    let rows = parse_export(
        &app.admin("GET", "/api/admin/donations/export", &token, None)
            .await,
        "donations",
    );
    let column = |name: &str| rows[0].iter().position(|h| h == name).unwrap();
    let (name, amount, year, aggregate, itemize) = (
        column("Donor Name"),
        column("Amount"),
        column("Election Year"),
        column("Year-to-Date Aggregate"),
        column("Itemize"),
    );
    let seen: Vec<[&str; 5]> = rows[1..]
        .iter()
        .map(|r| {
            [
                r[name].as_str(),
                r[amount].as_str(),
                r[year].as_str(),
                r[aggregate].as_str(),
                r[itemize].as_str(),
            ]
        })
        .collect();
    assert_eq!(
        seen,
        [
            // A new year starts from nothing.
            ["Di Fox", "50.00", "2026", "50.00", "No"],
            ["Ed Roe", "300.00", "2025", "300.00", "Yes"],
            // $150 + $60: the failed $99 never counted, and $210 passes $200.
            ["Di Fox", "60.00", "2025", "210.00", "Yes"],
            ["Di Fox", "99.00", "2025", "150.00", "No"],
            ["Di Fox", "150.00", "2025", "150.00", "No"],
        ]
    );
}

#[tokio::test]
async fn an_empty_export_still_has_its_header_row() {
    let app = TestApp::new();
    let token = app.login().await;
    let rows = parse_export(
        &app.admin("GET", "/api/admin/blogs/export", &token, None)
            .await,
        "blogs",
    );
    assert_eq!(
        rows,
        [[
            "ID",
            "Title",
            "Slug",
            "Status",
            "Published Date",
            "Created At",
            "Updated At"
        ]]
    );
    let _: Value = json!(null);
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
        json!({"contacts": 1, "volunteers": 1, "newsletters": 1, "donationsRedacted": 1, "donationsKept": 1, "donationsInProgress": 0})
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
