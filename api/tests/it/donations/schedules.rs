//! The treasurer's Schedule A (SA11AI) and Schedule B (SB28A) for a date range, as CSV and
//! as the FEC's `.fec` format: every record checked against the field rules, aggregates as
//! of each gift, refunds tied to the gift they return; and the requests they refuse.

use api::domain::donations::fec::{FS, SA_FIELDS, SB_FIELDS, validate};
use serde_json::json;

use super::{Donate, donate_app, donor, itemized};
use crate::common::{TestApp, message, text};

fn today() -> String {
    jiff::Timestamp::now()
        .to_zoned_datetime(jiff::tz::TimeZone::get("America/Chicago").unwrap())
        .date()
        .to_string()
}

async fn get(d: &Donate, token: &str, path: &str) -> warp::http::Response<bytes::Bytes> {
    d.app.admin("GET", path, token, None).await
}

/// CSV rows (the header first), without the byte-order mark.
fn rows(res: &warp::http::Response<bytes::Bytes>) -> Vec<Vec<String>> {
    let body = text(res);
    csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(body.trim_start_matches('\u{feff}').as_bytes())
        .records()
        .map(|r| r.unwrap().iter().map(str::to_owned).collect())
        .collect()
}

/// A `.fec` file's records, each split into its fields.
fn records(res: &warp::http::Response<bytes::Bytes>) -> Vec<Vec<String>> {
    let body = text(res);
    assert!(body.is_ascii(), "a .fec file is ASCII");
    body.lines()
        .map(|l| l.split(FS).map(str::to_owned).collect())
        .collect()
}

#[tokio::test]
async fn schedules_a_and_b_for_a_range_as_csv_and_fec() {
    let d = donate_app(|c| c.fec_committee_id = Some("C00123456".into())).await;
    let token = d.app.login().await;
    // Ada gives $150, then $100: the second takes her past $200, so both are itemized.
    let (ada1, _) = d.paid(json!(150), donor("ada@example.org")).await;
    let (ada2, _) = d.paid(json!(100), itemized("ada@example.org")).await;
    // Bo (another person: his own name) gives $50: not itemized.
    let mut bo = donor("bo@example.org");
    bo["donorFirstName"] = json!("Bo");
    bo["donorName"] = json!("Bo Lovelace");
    d.paid(json!(50), bo).await;
    // Zoë's name and street are longer than the FEC's fields, with letters outside ASCII.
    let mut zoe = itemized("zoe@example.org");
    zoe["donorFirstName"] = json!("Zoë Maximiliana Alexandra");
    zoe["donorLastName"] = json!("Núñez-Wolfeschlegelsteinhausenberger");
    zoe["donorAddress"] = json!("12345 North Martin Luther King Jr Boulevard, Apartment 1201");
    zoe["donorZipCode"] = json!("62701-1234");
    let (zoe_gift, _) = d.paid(json!(500), zoe).await;
    // $30 of Ada's second gift goes back.
    let res = d
        .refund(&token, ada2, json!({ "amount": 30, "reason": "Asked" }))
        .await;
    assert_eq!(res.status(), 200);

    let day = today();
    let range = format!("from={day}&to={day}");
    let a = get(
        &d,
        &token,
        &format!("/api/admin/donations/schedule-a?{range}"),
    )
    .await;
    assert_eq!(a.status(), 200, "{:?}", a.body());
    assert_eq!(a.headers()["content-type"], "text/csv; charset=utf-8");
    assert!(
        a.headers()["content-disposition"]
            .to_str()
            .unwrap()
            .contains(&format!("FXP-schedule-a-{day}_{day}.csv"))
    );
    let csv = rows(&a);
    assert_eq!(
        csv[0][..4],
        [
            "Form Type",
            "Transaction ID",
            "Entity Type",
            "Contributor Last Name"
        ]
    );
    assert_eq!(csv.len(), 5, "every gift in the range");
    let by_id = |id: i64| {
        csv.iter()
            .find(|r| r[1] == format!("DON{id}"))
            .unwrap()
            .clone()
    };
    let (first, second) = (by_id(ada1), by_id(ada2));
    assert_eq!(
        (first[11].as_str(), first[12].as_str(), first[16].as_str()),
        ("150.00", "150.00", "Yes")
    );
    assert_eq!(
        (
            second[11].as_str(),
            second[12].as_str(),
            second[16].as_str()
        ),
        ("100.00", "250.00", "Yes")
    );
    assert_eq!(second[17], "30.00", "what went back of it so far");
    assert_eq!(
        first[13], "INFORMATION REQUESTED",
        "itemized without an employer given"
    );
    let bo = csv
        .iter()
        .find(|r| r[3] == "Lovelace" && r[11] == "50.00")
        .unwrap();
    assert_eq!(bo[16], "No");

    let fec = get(
        &d,
        &token,
        &format!("/api/admin/donations/schedule-a?{range}&format=fec"),
    )
    .await;
    assert_eq!(fec.status(), 200, "{:?}", fec.body());
    assert!(
        fec.headers()["content-disposition"]
            .to_str()
            .unwrap()
            .ends_with(".fec\"")
    );
    let lines = records(&fec);
    assert_eq!(lines[0][..3], ["HDR", "FEC", "8.4"]);
    assert_eq!(
        lines.len(),
        1 + 3,
        "the header and the three itemized gifts"
    );
    for record in &lines[1..] {
        validate(&SA_FIELDS, record).unwrap_or_else(|e| panic!("{e}: {record:?}"));
        assert_eq!(record[0], "SA11AI");
        assert_eq!(record[1], "C00123456");
        assert!(record[2].len() <= 20 && record[2] == record[2].to_uppercase());
        assert!(!record[21].is_empty(), "the aggregate is present");
    }
    let z = lines
        .iter()
        .find(|r| r[2] == format!("DON{zoe_gift}"))
        .unwrap();
    assert_eq!(z[8], "Zoe Maximiliana Alex");
    assert_eq!(z[7], "Nunez-Wolfeschlegelsteinhausen");
    assert_eq!(
        (z[12].as_str(), z[13].as_str()),
        (
            "12345 North Martin Luther King Jr",
            "Boulevard, Apartment 1201"
        )
    );
    assert_eq!(z[16], "627011234");

    // Schedule B: the refund, tied to the gift it returns.
    let b = get(
        &d,
        &token,
        &format!("/api/admin/donations/schedule-b?{range}"),
    )
    .await;
    let csv = rows(&b);
    assert_eq!(csv.len(), 2);
    let line = &csv[1];
    assert_eq!(line[0], "SB28A");
    assert_eq!(line[2], format!("DON{ada2}"));
    assert_eq!(line[13], "30.00");
    assert_eq!(
        line[14],
        format!(
            "Refund of contribution of 100.00 received {}",
            jiff::Timestamp::now()
                .to_zoned_datetime(jiff::tz::TimeZone::get("America/Chicago").unwrap())
                .strftime("%m/%d/%Y")
        )
    );
    assert_eq!(
        (line[15].as_str(), line[16].as_str(), line[17].as_str()),
        (day.as_str(), "100.00", "Refund")
    );
    let fec = get(
        &d,
        &token,
        &format!("/api/admin/donations/schedule-b?{range}&format=fec"),
    )
    .await;
    let lines = records(&fec);
    assert_eq!(lines.len(), 2);
    validate(&SB_FIELDS, &lines[1]).unwrap();
    assert_eq!(lines[1][3..5], [format!("DON{ada2}"), "SA11AI".to_owned()]);

    // A range before today has nothing.
    let res = get(
        &d,
        &token,
        "/api/admin/donations/schedule-b?from=2020-01-01&to=2020-12-31&format=fec",
    )
    .await;
    assert_eq!(records(&res).len(), 1, "the header alone");
}

#[tokio::test]
async fn schedules_refuse_bad_requests() {
    let d = donate_app(|_| {}).await;
    let token = d.app.login().await;
    for (query, status, said) in [
        ("", 400, "Choose the first date of the report."),
        (
            "from=2026-01-01",
            400,
            "Choose the last date of the report.",
        ),
        (
            "from=2026-1-1&to=2026-01-31",
            400,
            "The first date must be a date like 2026-01-31.",
        ),
        (
            "from=2026-02-30&to=2026-03-01",
            400,
            "The first date must be a date like 2026-01-31.",
        ),
        (
            "from=2026-03-01&to=2026-01-01",
            400,
            "The first date must not be after the last.",
        ),
        (
            "from=2026-01-01&to=2026-01-31&format=xml",
            400,
            "format must be csv or fec (not \"xml\").",
        ),
        (
            "from=2026-01-01&to=2026-01-31&format=fec",
            409,
            "Set FEC_COMMITTEE_ID (the committee's FEC id) to export .fec files; the CSV needs none.",
        ),
    ] {
        let res = get(
            &d,
            &token,
            &format!("/api/admin/donations/schedule-a?{query}"),
        )
        .await;
        assert_eq!(res.status(), status, "{query}");
        assert_eq!(message(&res), said, "{query}");
    }
    let res = d
        .app
        .get("/api/admin/donations/schedule-b?from=2026-01-01&to=2026-01-31")
        .await;
    assert_eq!(res.status(), 401);
    let _ = TestApp::json;
}

/// A donor's year-to-date aggregate on Schedule A is their gifts up to each one less what was
/// refunded to them before it: $150, $100 of it refunded, then $100 is $150, not $250 (and so
/// not itemised).
#[tokio::test]
async fn the_aggregate_as_of_a_gift_is_net_of_refunds_made_before_it() {
    let d = donate_app(|_| {}).await;
    let token = d.app.login().await;
    let (first, _) = d.paid(json!(150), donor("cy@example.org")).await;
    let res = d
        .refund(&token, first, json!({ "amount": 100, "reason": "Asked" }))
        .await;
    assert_eq!(res.status(), 200);
    d.advance(60);
    let (second, _) = d.paid(json!(100), donor("cy@example.org")).await;
    let day = today();
    let a = get(
        &d,
        &token,
        &format!("/api/admin/donations/schedule-a?from={day}&to={day}"),
    )
    .await;
    let csv = rows(&a);
    let row = csv.iter().find(|r| r[1] == format!("DON{second}")).unwrap();
    assert_eq!(
        (row[11].as_str(), row[12].as_str(), row[16].as_str()),
        ("100.00", "150.00", "No")
    );
}
