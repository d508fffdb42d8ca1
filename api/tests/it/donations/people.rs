//! One person, one record: every submission joins its supporter by the address it came
//! from; staff find people, open one timeline, merge two and undo it exactly; consent stays
//! per address and number; a person is exported and erased whole.

use super::*;
use crate::common::message;

const PEOPLE: &str = "/api/admin/people";

async fn post(d: &Donate, path: &str, body: Value, ip: [u8; 4]) {
    let res = d.app.post_from(path, &body.to_string(), ip).await;
    assert!(res.status().is_success(), "{path}: {:?}", res.body());
}

async fn people(d: &Donate, token: &str, query: &str) -> Value {
    let res = d
        .app
        .admin("GET", &format!("{PEOPLE}{query}"), token, None)
        .await;
    assert_eq!(res.status(), 200, "{:?}", res.body());
    TestApp::json(&res)
}

/// The supporter `email` belongs to, as the list shows them.
async fn id_of(d: &Donate, token: &str, email: &str) -> i64 {
    let list = people(d, token, &format!("?q={email}")).await;
    let rows = list["people"].as_array().unwrap();
    assert_eq!(rows.len(), 1, "{list}");
    rows[0]["id"].as_i64().unwrap()
}

async fn page(d: &Donate, token: &str, id: i64) -> Value {
    let res = d
        .app
        .admin("GET", &format!("{PEOPLE}/{id}"), token, None)
        .await;
    assert_eq!(res.status(), 200, "{:?}", res.body());
    TestApp::json(&res)
}

/// Every address and whose it is, as stored.
async fn links(d: &Donate) -> Vec<(i64, String, i64)> {
    d.app
        .db
        .read(|c| {
            let mut stmt =
                c.prepare("SELECT id, email, supporter_id FROM supporter_emails ORDER BY id")?;
            stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
                .collect()
        })
        .await
        .unwrap()
}

/// A volunteer who also writes in and gives from one address, and subscribes from another,
/// is two people until staff merge them: then one row, one timeline, one page. Undoing the
/// merge restores exactly the links there were.
#[tokio::test]
async fn a_merge_joins_two_records_and_undoing_it_restores_them_exactly() {
    let d = donate_app(|_| {}).await;
    post(&d, "/api/volunteer", json!({"name": "Rosa Diaz", "email": "Rosa@Example.org", "phone": "555-201-3344", "zipCode": "62701", "interests": "Canvassing"}), [10, 0, 0, 1]).await;
    post(&d, "/api/contact", json!({"name": "Rosa Diaz", "email": "rosa@example.org ", "subject": "Town hall", "message": "When is it?"}), [10, 0, 0, 2]).await;
    let mut gift = itemized("rosa@example.org");
    gift["donorFirstName"] = json!("Rosa");
    gift["donorLastName"] = json!("Diaz");
    gift["donorName"] = json!("Rosa Diaz");
    d.paid(json!(25), gift).await;
    post(
        &d,
        "/api/newsletter-signup",
        json!({"email": "rdiaz@home.example", "zipCode": "62704"}),
        [10, 0, 0, 3],
    )
    .await;
    let token = d.app.login().await;

    let all = people(&d, &token, "").await;
    assert_eq!(all["total"], 2, "{all}");
    let work = id_of(&d, &token, "rosa@example.org").await;
    let home = id_of(&d, &token, "rdiaz@home.example").await;
    // Found by name and by the phone's digits too.
    assert_eq!(id_of(&d, &token, "rosa%20diaz").await, work);
    assert_eq!(id_of(&d, &token, "201-3344").await, work);
    let row = &people(&d, &token, "?q=rosa@example.org").await["people"][0];
    assert_eq!(
        (
            row["volunteered"].clone(),
            row["wrote"].clone(),
            row["gave"].clone(),
            row["subscribed"].clone()
        ),
        (json!(true), json!(true), json!(true), json!(false))
    );
    assert_eq!(row["name"], "Rosa Diaz");
    assert_eq!(row["phone"], "+15552013344");

    let (before_links, before_work, before_home) = (
        links(&d).await,
        page(&d, &token, work).await,
        page(&d, &token, home).await,
    );
    assert_eq!(before_work["emails"], json!(["rosa@example.org"]));
    let kinds: Vec<&str> = before_work["timeline"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap())
        .collect();
    for kind in ["volunteer", "message", "gift", "mail"] {
        assert!(kinds.contains(&kind), "{kind} in {kinds:?}");
    }
    // The gift shows the name and address given on it.
    let gift_event = before_work["timeline"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["kind"] == "gift")
        .unwrap();
    assert_eq!(gift_event["amount"], "25.00");
    assert!(
        gift_event["detail"]
            .as_str()
            .unwrap()
            .contains("12 Analytical Way")
    );

    let res = d
        .app
        .admin(
            "POST",
            &format!("{PEOPLE}/{work}/merge"),
            &token,
            Some(json!({"other": home})),
        )
        .await;
    assert_eq!(res.status(), 200, "{:?}", res.body());
    let merge = TestApp::json(&res)["mergeId"].as_i64().unwrap();
    let merged = people(&d, &token, "").await;
    assert_eq!(merged["total"], 1);
    assert_eq!(
        merged["people"][0]["subscribed"], false,
        "pending is not subscribed"
    );
    let joined = page(&d, &token, work).await;
    assert_eq!(
        joined["emails"],
        json!(["rosa@example.org", "rdiaz@home.example"])
    );
    assert_eq!(
        joined["zipCodes"][0]["value"], "62704",
        "the latest ZIP first"
    );
    assert!(
        joined["zipCodes"].as_array().unwrap().len() >= 2,
        "earlier values kept"
    );
    assert_eq!(page(&d, &token, home).await["mergedInto"], work);
    // A new submission from the merged address joins the merged person.
    post(&d, "/api/contact", json!({"name": "Rosa D.", "email": "RDIAZ@home.example", "subject": "Hi", "message": "Again"}), [10, 0, 0, 4]).await;
    assert_eq!(people(&d, &token, "").await["total"], 1);

    // Refused: merging oneself, a merged person, an unknown one.
    for (path, body, status, text) in [
        (
            format!("{PEOPLE}/{work}/merge"),
            json!({"other": work}),
            400,
            "A person cannot be merged with themselves.",
        ),
        (
            format!("{PEOPLE}/{home}/merge"),
            json!({"other": work}),
            409,
            "One of them is already merged into someone else: open that person instead.",
        ),
        (
            format!("{PEOPLE}/{work}/merge"),
            json!({"other": 999}),
            404,
            "There is no such person or merge.",
        ),
        (
            format!("{PEOPLE}/{work}/merge"),
            json!({"other": "x"}),
            400,
            "",
        ),
        (
            format!("{PEOPLE}/{work}/merge"),
            json!({"other": home, "extra": 1}),
            400,
            "",
        ),
    ] {
        let res = d.app.admin("POST", &path, &token, Some(body.clone())).await;
        assert_eq!(res.status(), status, "{body}: {:?}", res.body());
        if !text.is_empty() {
            assert_eq!(message(&res), text);
        }
    }

    let res = d
        .app
        .admin(
            "POST",
            &format!("{PEOPLE}/merges/{merge}/undo"),
            &token,
            None,
        )
        .await;
    assert_eq!(res.status(), 200, "{:?}", res.body());
    // The links are exactly as before (the new message's address was the home one's).
    assert_eq!(links(&d).await, before_links);
    let (mut after_work, mut after_home) =
        (page(&d, &token, work).await, page(&d, &token, home).await);
    assert!(after_work["merges"][0]["undoneAt"].is_string());
    for p in [&mut after_work, &mut after_home] {
        p["merges"] = json!([]);
    }
    let mut before_home = before_home;
    let mut before_work = before_work;
    before_home["merges"] = json!([]);
    before_work["merges"] = json!([]);
    assert_eq!(after_work, before_work);
    // Home has the one new message more, nothing else changed.
    assert_eq!(after_home["emails"], before_home["emails"]);
    assert_eq!(
        after_home["timeline"].as_array().unwrap().len(),
        before_home["timeline"].as_array().unwrap().len() + 1
    );
    let again = d
        .app
        .admin(
            "POST",
            &format!("{PEOPLE}/merges/{merge}/undo"),
            &token,
            None,
        )
        .await;
    assert_eq!(again.status(), 409);
    assert_eq!(message(&again), "This merge was already undone.");
    let audit: i64 = d
        .app
        .db
        .read(|c| {
            c.query_row(
                "SELECT COUNT(*) FROM audit_log WHERE action IN ('merge', 'unmerge')",
                [],
                |r| r.get(0),
            )
        })
        .await
        .unwrap();
    assert_eq!(audit, 2);
}

/// Consent is kept per address and per number: merging a person who unsubscribed one
/// address and stopped texts at one number into a subscriber turns neither back on.
#[tokio::test]
async fn a_merge_never_turns_consent_back_on() {
    let d = donate_app(|_| {}).await;
    post(&d, "/api/newsletter-signup", json!({"email": "on@example.org", "zipCode": "62701", "phone": "555-111-2222", "smsConsent": true}), [10, 0, 0, 1]).await;
    post(&d, "/api/newsletter-signup", json!({"email": "off@example.org", "zipCode": "62701", "phone": "555-333-4444", "smsConsent": true}), [10, 0, 0, 2]).await;
    d.app
        .exec("UPDATE newsletter_signups SET status = 'confirmed' WHERE email = 'on@example.org'; UPDATE newsletter_signups SET status = 'unsubscribed' WHERE email = 'off@example.org'")
        .await;
    let token = d.app.login().await;
    let res = d
        .app
        .admin(
            "POST",
            "/api/admin/sms-opt-outs",
            &token,
            Some(json!({"phone": "555-333-4444", "method": "text"})),
        )
        .await;
    assert!(res.status().is_success(), "{:?}", res.body());
    let (on, off) = (
        id_of(&d, &token, "on@example.org").await,
        id_of(&d, &token, "off@example.org").await,
    );
    let res = d
        .app
        .admin(
            "POST",
            &format!("{PEOPLE}/{on}/merge"),
            &token,
            Some(json!({"other": off})),
        )
        .await;
    assert_eq!(res.status(), 200);
    let state: Vec<(String, String)> = d
        .app
        .db
        .read(|c| {
            let mut stmt =
                c.prepare("SELECT email, status FROM newsletter_signups ORDER BY email")?;
            stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect()
        })
        .await
        .unwrap();
    assert_eq!(
        state,
        vec![
            ("off@example.org".into(), "unsubscribed".into()),
            ("on@example.org".into(), "confirmed".into())
        ]
    );
    let texts: Vec<(String, String)> = d
        .app
        .db
        .read(|c| {
            let mut stmt = c.prepare("SELECT phone, action FROM sms_state ORDER BY phone")?;
            stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect()
        })
        .await
        .unwrap();
    assert_eq!(
        texts,
        vec![
            ("+15551112222".into(), "granted".into()),
            ("+15553334444".into(), "revoked".into())
        ]
    );
    // The page shows both numbers' histories.
    let joined = page(&d, &token, on).await;
    let titles: Vec<&str> = joined["timeline"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["title"].as_str().unwrap())
        .collect();
    assert!(
        titles.contains(&"Texts stopped at +15553334444"),
        "{titles:?}"
    );
    assert!(
        titles.contains(&"Agreed to texts at +15551112222"),
        "{titles:?}"
    );
}

/// Twenty submissions at once from one new address, across the four forms, make one person.
#[tokio::test]
async fn submissions_racing_with_a_new_address_make_one_person() {
    let d = donate_app(|_| {}).await;
    let email = "new@example.org";
    let mut calls = Vec::new();
    let d = &d;
    for i in 0..20u8 {
        let (path, body) = match i % 4 {
            0 => (
                "/api/newsletter-signup",
                json!({"email": email, "zipCode": "62701"}),
            ),
            1 => (
                "/api/contact",
                json!({"name": "Nia", "email": email, "subject": "Hi", "message": "Hello"}),
            ),
            2 => (
                "/api/volunteer",
                json!({"name": "Nia", "email": email, "zipCode": "62701"}),
            ),
            _ => (
                "/api/create-payment-intent",
                json!({"amount": 5, "donorInfo": donor(email)}),
            ),
        };
        calls.push(async move {
            d.app
                .post_from(path, &body.to_string(), [10, 2, i, 1])
                .await
                .status()
        });
    }
    let statuses = futures_util::future::join_all(calls).await;
    assert!(statuses.iter().all(|s| s.is_success()), "{statuses:?}");
    assert_eq!(d.app.count("supporters").await, 1);
    assert_eq!(d.app.count("supporter_emails").await, 1);
    let unlinked: i64 = d
        .app
        .db
        .read(|c| {
            c.query_row(
                "SELECT (SELECT COUNT(*) FROM contact_messages WHERE email_id IS NULL) \
                      + (SELECT COUNT(*) FROM volunteer_signups WHERE email_id IS NULL) \
                      + (SELECT COUNT(*) FROM newsletter_signups WHERE email_id IS NULL) \
                      + (SELECT COUNT(*) FROM donations WHERE email_id IS NULL)",
                [],
                |r| r.get(0),
            )
        })
        .await
        .unwrap();
    assert_eq!(unlinked, 0);
}

/// A data request: everything held, as a download; then the person erased whole: their
/// addresses suppressed as keyed hashes, their gift kept with its FEC fields.
#[tokio::test]
async fn a_person_is_exported_then_erased_whole() {
    let d = donate_app(|_| {}).await;
    post(&d, "/api/contact", json!({"name": "Oli", "email": "oli@example.org", "subject": "Data", "message": "What do you hold?"}), [10, 0, 0, 1]).await;
    post(
        &d,
        "/api/volunteer",
        json!({"name": "Oli", "email": "oli@home.example", "zipCode": "62701"}),
        [10, 0, 0, 2],
    )
    .await;
    d.paid(json!(30), itemized("oli@example.org")).await;
    let token = d.app.login().await;
    let (a, b) = (
        id_of(&d, &token, "oli@example.org").await,
        id_of(&d, &token, "oli@home.example").await,
    );
    d.app
        .admin(
            "POST",
            &format!("{PEOPLE}/{a}/merge"),
            &token,
            Some(json!({"other": b})),
        )
        .await;

    let res = d
        .app
        .admin("GET", &format!("{PEOPLE}/{a}/export"), &token, None)
        .await;
    assert_eq!(res.status(), 200);
    assert_eq!(
        res.headers()["content-disposition"],
        format!("attachment; filename=\"person-{a}.json\"").as_str()
    );
    let held = TestApp::json(&res);
    assert_eq!(
        held["tables"]["contact_messages"][0]["message"],
        "What do you hold?"
    );
    assert_eq!(
        held["tables"]["volunteer_signups"][0]["email"],
        "oli@home.example"
    );
    assert_eq!(held["tables"]["donations"][0]["amount_cents"], 3000);
    assert!(!held["tables"]["mail_queue"].as_array().unwrap().is_empty());

    let res = d
        .app
        .admin("POST", &format!("{PEOPLE}/{a}/erase"), &token, None)
        .await;
    assert_eq!(res.status(), 200, "{:?}", res.body());
    let done = TestApp::json(&res);
    assert_eq!(
        (
            done["contacts"].clone(),
            done["volunteers"].clone(),
            done["donationsKept"].clone()
        ),
        (json!(1), json!(1), json!(1))
    );
    for table in [
        "supporters",
        "supporter_emails",
        "supporter_merges",
        "contact_messages",
        "volunteer_signups",
    ] {
        assert_eq!(d.app.count(table).await, 0, "{table}");
    }
    assert_eq!(d.app.count("suppressed_emails").await, 2);
    let (kept, suppressed): (String, String) = d
        .app
        .db
        .read(|c| {
            c.query_row(
                "SELECT (SELECT donor_email || ' ' || donor_address FROM donations WHERE email_id IS NULL), \
                        (SELECT group_concat(email_key) FROM suppressed_emails)",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
        })
        .await
        .unwrap();
    // The gift keeps the address it was given from (the FEC's record), not the e-mail: a
    // keyed hash stands in for it, the same one the suppression list keeps.
    let (hash, street) = kept.split_once(' ').unwrap();
    assert_eq!(street, "12 Analytical Way");
    assert!(
        hash.starts_with("erased:") && !hash.contains("oli"),
        "{hash}"
    );
    assert!(suppressed.contains(hash.trim_start_matches("erased:")));
    assert!(!suppressed.contains("oli"), "hashes, not addresses");
    assert_eq!(people(&d, &token, "").await["total"], 0);
    let gone = d
        .app
        .admin("POST", &format!("{PEOPLE}/{a}/erase"), &token, None)
        .await;
    assert_eq!(gone.status(), 404);
}

/// Hostile or wrong requests get a clear 4xx, and nothing changes.
#[tokio::test]
async fn bad_requests_are_refused_clearly() {
    let d = donate_app(|_| {}).await;
    let token = d.app.login().await;
    let long = "x".repeat(201);
    for (path, status, text) in [
        (
            format!("{PEOPLE}?q={long}"),
            400,
            "The search must be at most 200 characters.",
        ),
        (
            format!("{PEOPLE}?page=-1"),
            400,
            "The page must be a whole number from 0.",
        ),
        (
            format!("{PEOPLE}/abc"),
            400,
            "The id must be a positive whole number.",
        ),
        (
            format!("{PEOPLE}/0"),
            400,
            "The id must be a positive whole number.",
        ),
        (format!("{PEOPLE}/77"), 404, "There is no person 77."),
        (format!("{PEOPLE}/77/export"), 404, "There is no person 77."),
    ] {
        let res = d.app.admin("GET", &path, &token, None).await;
        assert_eq!(res.status(), status, "{path}");
        assert_eq!(message(&res), text, "{path}");
    }
    // A search is text, never SQL or a pattern.
    post(
        &d,
        "/api/contact",
        json!({"name": "Pat", "email": "pat@example.org", "subject": "s", "message": "m"}),
        [10, 0, 0, 1],
    )
    .await;
    for q in ["%25", "'%20OR%201=1--", "_"] {
        assert_eq!(
            people(&d, &token, &format!("?q={q}")).await["total"],
            0,
            "{q}"
        );
    }
    let res = d
        .app
        .admin("POST", &format!("{PEOPLE}/merges/5/undo"), &token, None)
        .await;
    assert_eq!(res.status(), 404);
    let res = warp::test::request()
        .method("GET")
        .path(PEOPLE)
        .reply(&d.app.app)
        .await;
    assert_eq!(res.status(), 401);
}

/// The Organizer works the people; the money is the Treasurer's: the same person's page
/// says that they gave, not how much, and their export leaves the gifts out.
#[tokio::test]
async fn an_organizer_sees_that_a_person_gave_but_not_how_much() {
    let d = donate_app(|_| {}).await;
    d.paid(json!(40), itemized("gia@example.org")).await;
    let owner = d.app.login().await;
    let organizer = crate::staff::member(
        &d.app,
        api::domain::staff::Role::Organizer,
        "org@party.example",
    )
    .await;
    let id = id_of(&d, &owner, "gia@example.org").await;
    let gift = |page: &Value| {
        page["timeline"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["kind"] == "gift")
            .cloned()
            .unwrap()
    };
    assert_eq!(gift(&page(&d, &owner, id).await)["amount"], "40.00");
    let seen = page(&d, &organizer.token, id).await;
    assert!(gift(&seen)["amount"].is_null(), "{seen}");
    let held = TestApp::json(
        &d.app
            .admin(
                "GET",
                &format!("{PEOPLE}/{id}/export"),
                &organizer.token,
                None,
            )
            .await,
    );
    assert!(held["tables"]["donations"].is_string(), "{held}");
    assert!(!held.to_string().contains("4000"));
    // The export applies the page's rule: its timeline has no amount either.
    assert!(gift(&held["person"])["amount"].is_null(), "{held}");
    assert!(!held.to_string().contains("40.00"), "{held}");
    let res = d
        .app
        .admin("GET", "/api/admin/donations", &organizer.token, None)
        .await;
    assert_eq!(res.status(), 403);
}

/// A refund names who made it where staff look at the gift: its row on the Donations tab
/// and the person's timeline (whose amount an Organizer does not see).
#[tokio::test]
async fn a_refund_shows_who_made_it_on_the_gift_and_the_persons_timeline() {
    let d = donate_app(|_| {}).await;
    let (gift_id, _) = d.paid(json!(40), itemized("gia@example.org")).await;
    let owner = d.app.login().await;
    let tess = crate::staff::member(
        &d.app,
        api::domain::staff::Role::Treasurer,
        "tess@party.example",
    )
    .await;
    d.app
        .exec("UPDATE users SET name = 'Tess Treasurer' WHERE email = 'tess@party.example'")
        .await;
    let res = d
        .refund(
            &tess.token,
            gift_id,
            json!({ "amount": 5, "reason": "Asked for part back" }),
        )
        .await;
    assert_eq!(res.status(), 200, "{:?}", res.body());
    assert_eq!(TestApp::json(&res)["refundedBy"], "Tess Treasurer");
    let list = TestApp::json(
        &d.app
            .admin("GET", "/api/admin/donations", &owner, None)
            .await,
    );
    let row = list
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == gift_id)
        .cloned()
        .unwrap();
    assert_eq!(
        (row["refunded"].as_str(), row["refundedBy"].as_str()),
        (Some("5.00"), Some("Tess Treasurer"))
    );
    let id = id_of(&d, &owner, "gia@example.org").await;
    let refund = |page: &Value| {
        page["timeline"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["kind"] == "refund")
            .cloned()
            .unwrap_or_else(|| panic!("no refund in {page}"))
    };
    let seen = refund(&page(&d, &owner, id).await);
    assert_eq!(seen["title"], format!("Refund of gift #{gift_id}"));
    assert_eq!(seen["detail"], "By Tess Treasurer");
    assert_eq!(seen["amount"], "5.00");
    let organizer = crate::staff::member(
        &d.app,
        api::domain::staff::Role::Organizer,
        "org@party.example",
    )
    .await;
    assert!(refund(&page(&d, &organizer.token, id).await)["amount"].is_null());
}
