//! The CSV exports: every field of every row, no formulas, the FEC year-to-date totals, and a
//! header row even when there is nothing to export.

use crate::common::TestApp;
use serde_json::{Value, json};

use super::seed;

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
        [
            "ID",
            "Email",
            "Phone",
            "ZIP Code",
            "Date",
            "Updated",
            "Status",
            "Confirmed At",
            "Unsubscribed At",
            "Text Consent",
            "Text Consent Changed At"
        ]
    );
    assert_eq!(
        newsletters[1],
        [
            "2",
            "'-1@example.org",
            "555",
            "20002",
            "2025-06-01 07:00",
            "2025-06-02 07:00",
            "Pending",
            "",
            "",
            "",
            "",
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
            "Updated",
            "Refunded",
            "Refunded At",
            "Dispute"
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
            "2025-03-01 09:00",
            "0.00",
            "",
            ""
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
