//! Erasing a person who did everything: wrote in, volunteered, signed up twice with two
//! numbers and the box ticked, gave once and monthly. Afterwards none of what they told us
//! is in any table, the outbox or a fresh backup, but for the completed gifts the law keeps;
//! their plan is canceled and its Stripe customer (their saved card) deleted. Their address
//! has capitals outside ASCII, which SQLite's `lower()` does not fold.

use serde_json::{Value, json};

use super::{Donate, donate_app, itemized};
use crate::common::TestApp;

const EMAIL: &str = "ÄNNE.Müller@Example.org";
const UA: &str = "Mozilla/5.0 (UA-ONLY-ANNE)";
/// What Änne told us outside her gifts: each must be gone everywhere.
const SECRETS: [&str; 6] = [
    "MESSAGE-ONLY-ANNE",
    "INTERESTS-ONLY-ANNE",
    "2010001",
    "2010002",
    "2010003",
    "UA-ONLY-ANNE",
];

async fn post(d: &Donate, path: &str, body: Value) {
    let res = warp::test::request()
        .method("POST")
        .path(path)
        .remote_addr(([10, 4, 4, 4], 40000).into())
        .header("user-agent", UA)
        .json(&body)
        .reply(&d.app.app)
        .await;
    assert_eq!(res.status(), 201, "{path}: {:?}", res.body());
}

/// Every row of every table, as text, with its table's name.
async fn every_row(d: &Donate) -> Vec<(String, String)> {
    d.app
        .db
        .read(|c| {
            let tables: Vec<String> = c
                .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND sql NOT LIKE 'CREATE VIRTUAL TABLE%'")?
                .query_map([], |r| r.get(0))?
                .collect::<rusqlite::Result<_>>()?;
            let mut rows = Vec::new();
            for table in tables {
                let mut stmt = c.prepare(&format!("SELECT * FROM \"{table}\""))?;
                let columns = stmt.column_count();
                let found = stmt.query_map([], |r| {
                    let mut row = String::new();
                    for i in 0..columns {
                        let cell = match r.get_ref(i)? {
                            rusqlite::types::ValueRef::Text(t) | rusqlite::types::ValueRef::Blob(t) => {
                                String::from_utf8_lossy(t).into_owned()
                            }
                            other => format!("{other:?}"),
                        };
                        row.push_str(&cell);
                        row.push('|');
                    }
                    Ok(row)
                })?;
                for row in found {
                    rows.push((table.clone(), row?));
                }
            }
            Ok(rows)
        })
        .await
        .unwrap()
}

#[tokio::test]
async fn an_erased_person_is_gone_from_every_table_the_outbox_a_backup_and_stripe() {
    let d = donate_app(|c| c.mail.staff_email = Some("Staff <staff@example.org>".into())).await;
    post(&d, "/api/contact", json!({ "name": "Änne Müller", "email": EMAIL, "subject": "Canvass", "message": "Please call me: MESSAGE-ONLY-ANNE" })).await;
    post(&d, "/api/volunteer", json!({ "name": "Änne Müller", "email": EMAIL, "phone": "555-201-0001", "zipCode": "12345", "interests": "INTERESTS-ONLY-ANNE" })).await;
    post(
        &d,
        "/api/newsletter-signup",
        json!({ "email": EMAIL, "phone": "555-201-0002", "zipCode": "12345", "smsConsent": true }),
    )
    .await;
    // A later signup with another number: her row keeps the first; the consent is recorded.
    post(&d, "/api/newsletter-signup", json!({ "email": EMAIL.to_lowercase(), "phone": "555-201-0003", "zipCode": "12345", "smsConsent": true })).await;
    // Someone else, who stays.
    post(
        &d,
        "/api/contact",
        json!({ "name": "Bo", "email": "bo@example.org", "subject": "Hi", "message": "Keep me" }),
    )
    .await;
    let mut info = itemized(EMAIL);
    info["donorFirstName"] = json!("Änne");
    info["donorLastName"] = json!("Müller");
    d.paid(json!(25), info.clone()).await;
    let (plan, _) = d.sign_up(json!(10), info).await;
    let customer: String = d
        .app
        .db
        .read(move |c| {
            c.query_row(
                "SELECT stripe_customer FROM donation_plans WHERE id = ?1",
                [plan],
                |r| r.get(0),
            )
        })
        .await
        .unwrap();
    assert!(d.fake.has_customer(&customer));
    d.app.state.mail.deliver_due().await;
    let outbox = d.app.data_dir.join("outbox");
    assert!(
        std::fs::read_dir(&outbox).unwrap().count() >= 3,
        "alerts and receipts written"
    );
    let before = every_row(&d).await;
    for secret in SECRETS {
        assert!(
            before.iter().any(|(_, row)| row.contains(secret)),
            "{secret} was stored"
        );
    }

    // Staff erase her by her address as she might write it in a letter.
    let token = d.app.login().await;
    let res = d
        .app
        .admin(
            "POST",
            "/api/admin/erase",
            &token,
            Some(json!({ "email": " änne.müller@example.org " })),
        )
        .await;
    assert_eq!(res.status(), 200, "{:?}", res.body());
    let erased = TestApp::json(&res);
    // (Her two spellings are one newsletter signup: signups are matched as people are.)
    assert_eq!(
        (
            erased["contacts"].as_u64(),
            erased["volunteers"].as_u64(),
            erased["newsletters"].as_u64()
        ),
        (Some(1), Some(1), Some(1)),
        "{erased}"
    );
    assert_eq!(erased["donationsKept"], 2);
    assert!(erased.get("warning").is_none(), "{erased}");

    // No table holds what she told us; her e-mail address is nowhere, not even in the gifts
    // the law keeps, which keep her name and address (what the FEC requires) and nothing
    // else of hers; her receipts are gone from the mail queue.
    let lower = EMAIL.to_lowercase();
    for (table, row) in every_row(&d).await {
        for secret in SECRETS {
            assert!(!row.contains(secret), "{secret} left in {table}: {row}");
        }
        assert!(
            !row.to_lowercase().contains(&lower),
            "{table} still has her address: {row}"
        );
        let named = row.contains("Müller");
        let kept = table == "donations" && row.contains("|completed|");
        assert!(!named || kept, "{table} still names her: {row}");
    }
    let about = lower.clone();
    let receipts: i64 = d
        .app
        .db
        .read(move |c| {
            c.query_row(
                "SELECT COUNT(*) FROM mail_queue WHERE kind IN ('receipt', 'refund_notice') AND about = ?1",
                [about],
                |r| r.get(0),
            )
        })
        .await
        .unwrap();
    assert_eq!(receipts, 0, "her receipts are not kept");
    assert_eq!(
        d.app.count("contact_messages").await,
        1,
        "Bo's message stays"
    );
    // The outbox keeps no copy of mail about her.
    for entry in std::fs::read_dir(&outbox).unwrap().flatten() {
        let text = String::from_utf8_lossy(&std::fs::read(entry.path()).unwrap()).to_lowercase();
        assert!(
            !text.contains(&lower),
            "{:?} still names her",
            entry.file_name()
        );
        assert!(
            !text.contains("message-only-anne"),
            "{:?}",
            entry.file_name()
        );
    }
    // A backup made now holds none of it, not even in free pages.
    let backup = d.app.data_dir.join("after-erasure.db");
    api::store::backup::backup(&d.app.data_dir.join("site.db"), &backup).unwrap();
    let bytes = String::from_utf8_lossy(&std::fs::read(&backup).unwrap()).into_owned();
    for secret in SECRETS {
        assert!(!bytes.contains(secret), "{secret} in the backup");
    }
    // Her card is gone from Stripe, her plan canceled and forgetting her.
    assert!(
        !d.fake.has_customer(&customer),
        "the Stripe customer is deleted"
    );
    let (status, email, left): (String, String, Option<String>) = d
        .app
        .db
        .read(move |c| {
            c.query_row(
                "SELECT status, donor_email, stripe_customer FROM donation_plans WHERE id = ?1",
                [plan],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
        })
        .await
        .unwrap();
    assert_eq!(
        (status.as_str(), email.as_str(), left),
        ("canceled", "", None)
    );
    // Erasing again finds nothing more, and is no error.
    let again = d
        .app
        .admin(
            "POST",
            "/api/admin/erase",
            &token,
            Some(json!({ "email": EMAIL })),
        )
        .await;
    assert_eq!(again.status(), 200);
    assert_eq!(TestApp::json(&again)["contacts"], 0);
}
