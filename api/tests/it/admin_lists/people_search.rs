//! The People list's search through the index (issue 49): a person is found by a word of the
//! name they gave last, by any part of an address or by their phone's digits; a merge, an
//! erasure and an unsubscribe show at once; pages never overlap and the total counts every
//! match, in the list's order.

use api::domain::mail::newsletter::unsubscribe_url;
use serde_json::{Value, json};

use crate::common::TestApp;

const PEOPLE: &str = "/api/admin/people";

/// Posts a public form, each from a network of its own (the forms limit each network).
async fn post(app: &TestApp, path: &str, body: Value, network: u8) {
    let res = app
        .post_from(path, &body.to_string(), [10, 7, network, 1])
        .await;
    assert!(res.status().is_success(), "{path}: {:?}", res.body());
}

/// `q` as a query string value: everything but letters and digits percent-encoded.
fn encoded(q: &str) -> String {
    q.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

async fn list(app: &TestApp, token: &str, q: &str, page: usize) -> Value {
    let path = format!("{PEOPLE}?q={}&page={page}", encoded(q));
    let res = app.admin("GET", &path, token, None).await;
    assert_eq!(res.status(), 200, "{path}: {:?}", res.body());
    TestApp::json(&res)
}

/// The ids on a page of the list.
fn ids(page: &Value) -> Vec<i64> {
    page["people"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row["id"].as_i64().unwrap())
        .collect()
}

/// Who the search `q` finds (it fits one page here).
async fn found(app: &TestApp, token: &str, q: &str) -> Vec<i64> {
    let page = list(app, token, q, 0).await;
    assert_eq!(
        page["total"].as_u64().unwrap() as usize,
        ids(&page).len(),
        "{q}: {page}"
    );
    ids(&page)
}

async fn id_of(app: &TestApp, email: &str) -> i64 {
    let email = email.to_owned();
    app.db
        .read(move |c| {
            c.query_row(
                "SELECT supporter_id FROM supporter_emails WHERE email = ?1",
                [email],
                |r| r.get(0),
            )
        })
        .await
        .unwrap()
}

/// Rosa volunteers, then writes under a new name; Ben volunteers. Each is found by a word
/// of the name they gave last (in any case), by any part of an address, by their phone's
/// digits however typed, and by several words only when all are theirs. A word too short
/// for the index still finds them, in any case.
#[tokio::test]
async fn people_are_found_by_their_latest_name_an_address_or_their_phone() {
    let app = TestApp::new();
    post(&app, "/api/volunteer", json!({"name": "Rosa Diaz", "email": "Rosa.Diaz@Example.org", "phone": "555-201-3344", "zipCode": "62701"}), 1).await;
    post(&app, "/api/contact", json!({"name": "Rosalind Marquez", "email": "rosa.diaz@example.org", "subject": "Hi", "message": "New name"}), 2).await;
    post(&app, "/api/volunteer", json!({"name": "Ben Okafor", "email": "ben@okafor.example", "phone": "(555) 777-1234", "zipCode": "62702"}), 3).await;
    let token = app.login().await;
    let (rosa, ben) = (
        id_of(&app, "rosa.diaz@example.org").await,
        id_of(&app, "ben@okafor.example").await,
    );

    let page = list(&app, &token, "marquez", 0).await;
    assert_eq!(ids(&page), [rosa], "{page}");
    let row = &page["people"][0];
    assert_eq!(row["name"], "Rosalind Marquez", "the later form's name");
    assert_eq!(row["emails"], json!(["rosa.diaz@example.org"]));
    assert_eq!(row["phone"], "+15552013344");
    assert_eq!(
        (
            &row["volunteered"],
            &row["wrote"],
            &row["subscribed"],
            &row["gave"]
        ),
        (&json!(true), &json!(true), &json!(false), &json!(false))
    );
    assert_eq!(
        (page["page"].clone(), page["pageSize"].clone()),
        (json!(0), json!(50))
    );

    for (q, who) in [
        ("MARQUEZ", vec![rosa]),
        ("rosalind marquez", vec![rosa]),
        ("diaz@exa", vec![rosa]),
        ("okafor.example", vec![ben]),
        ("okafor", vec![ben]),
        ("201-3344", vec![rosa]),
        ("5552013344", vec![rosa]),
        ("777 1234", vec![ben]),
        // A number as people write one is one number, in any punctuation.
        ("(555) 777-1234", vec![ben]),
        ("+1 555 201 3344", vec![rosa]),
        ("555.201.3344", vec![rosa]),
        ("rosa 3344", vec![rosa]),
        ("example", vec![ben, rosa]),
        ("ben 3344", vec![]),
        ("zzz", vec![]),
        // Too short for the index: in any case in a name, and in an address.
        ("oK", vec![ben]),
        ("z@", vec![rosa]),
        // Digits that are not most of a word never search the phone.
        ("abcd201", vec![]),
    ] {
        assert_eq!(found(&app, &token, q).await, who, "{q}");
    }
    // Everyone, latest seen first: Ben volunteered last.
    assert_eq!(found(&app, &token, "").await, [ben, rosa]);
}

/// A merged person's name (given last) is found under the one they were merged into, their
/// address too; once that person is erased, nothing finds them, and neither the list's table
/// nor the index holds anything of them.
#[tokio::test]
async fn a_merged_person_is_found_under_the_survivor_and_an_erased_one_by_nothing() {
    let app = TestApp::new();
    post(
        &app,
        "/api/newsletter-signup",
        json!({"email": "ann@home.example", "zipCode": "62701"}),
        1,
    )
    .await;
    post(&app, "/api/contact", json!({"name": "Annabel Quist", "email": "aq@work.example", "subject": "Hi", "message": "Hello"}), 2).await;
    post(&app, "/api/contact", json!({"name": "Cy Other", "email": "cy@work.example", "subject": "Hi", "message": "Hello"}), 3).await;
    // A name whose trigrams share no first letter with anyone else's: the index keeps such
    // a term whole in its pages, so the file shows whether it is still there.
    post(&app, "/api/contact", json!({"name": "Zygmunt Jovkes", "email": "jovkes@x.example", "subject": "Hi", "message": "Hello"}), 4).await;
    let token = app.login().await;
    let zygmunt = id_of(&app, "jovkes@x.example").await;
    let res = app
        .admin("POST", &format!("{PEOPLE}/{zygmunt}/erase"), &token, None)
        .await;
    assert_eq!(res.status(), 200, "{:?}", res.body());
    // Gone from the files as soon as the erasure answers, not only after a later merge.
    assert_files_hold_none(&app, &["Zygmunt", "zyg", "jov"]);
    let (ann, quist, cy) = (
        id_of(&app, "ann@home.example").await,
        id_of(&app, "aq@work.example").await,
        id_of(&app, "cy@work.example").await,
    );
    assert_eq!(found(&app, &token, "quist").await, [quist]);

    let res = app
        .admin(
            "POST",
            &format!("{PEOPLE}/{ann}/merge"),
            &token,
            Some(json!({"other": quist})),
        )
        .await;
    assert_eq!(res.status(), 200, "{:?}", res.body());
    assert_eq!(found(&app, &token, "quist").await, [ann]);
    assert_eq!(found(&app, &token, "aq@work").await, [ann]);
    assert_eq!(found(&app, &token, "work.example").await, [cy, ann]);
    let page = list(&app, &token, "annabel", 0).await;
    assert_eq!(page["people"][0]["name"], "Annabel Quist");
    assert_eq!(
        page["people"][0]["emails"],
        json!(["ann@home.example", "aq@work.example"])
    );
    assert_eq!(
        found(&app, &token, "").await,
        [cy, ann],
        "the merged one is not listed"
    );

    let res = app
        .admin("POST", &format!("{PEOPLE}/{ann}/erase"), &token, None)
        .await;
    assert_eq!(res.status(), 200, "{:?}", res.body());
    for q in [
        "quist",
        "annabel",
        "ann@home",
        "home.example",
        "aq@",
        "an",
        "aq",
    ] {
        assert_eq!(found(&app, &token, q).await, Vec::<i64>::new(), "{q}");
    }
    assert_eq!(found(&app, &token, "work.example").await, [cy]);
    assert_eq!(found(&app, &token, "").await, [cy]);
    let (rows, indexed): (i64, i64) = app
        .db
        .read(move |c| {
            c.query_row(
                "SELECT (SELECT COUNT(*) FROM people_list WHERE id IN (?1, ?2)), \
                        (SELECT COUNT(*) FROM people_search WHERE people_search MATCH \
                            '\"quist\" OR \"annabel\" OR \"home.example\" OR \"aq@work\"')",
                [ann, quist],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
        })
        .await
        .unwrap();
    // Nothing finds them, and the index's pages hold none of their trigrams.
    assert_eq!((rows, indexed), (0, 0));
    assert_files_hold_none(
        &app,
        &[
            "Annabel Quist",
            "aq@work.example",
            "ann@home.example",
            "zyg",
            "jov",
        ],
    );
}

/// Neither the database file nor its log holds any of `texts`.
fn assert_files_hold_none(app: &TestApp, texts: &[&str]) {
    for file in ["site.db", "site.db-wal"] {
        let bytes = std::fs::read(app.data_dir.join(file)).unwrap_or_default();
        for text in texts {
            assert!(
                !bytes.windows(text.len()).any(|w| w == text.as_bytes()),
                "{file} still holds {text}"
            );
        }
    }
}

/// A confirmed subscriber shows as subscribed; their one-click unsubscribe clears it in the
/// same request, and they stay listed, found by their address and phone.
#[tokio::test]
async fn an_unsubscribe_clears_subscribed_at_once() {
    let app = TestApp::new();
    post(
        &app,
        "/api/newsletter-signup",
        json!({"email": "nia@example.org", "phone": "555-300-4000", "zipCode": "62701"}),
        1,
    )
    .await;
    let token = app.login().await;
    assert_eq!(
        list(&app, &token, "nia@", 0).await["people"][0]["subscribed"],
        false,
        "pending is not subscribed"
    );
    // As the confirmation link does.
    app.exec("UPDATE newsletter_signups SET status = 'confirmed' WHERE email = 'nia@example.org'")
        .await;
    let row = list(&app, &token, "3004000", 0).await["people"][0].clone();
    assert_eq!(
        (&row["subscribed"], &row["phone"]),
        (&json!(true), &json!("+15553004000"))
    );

    let signup: i64 = app
        .db
        .read(|c| {
            c.query_row(
                "SELECT id FROM newsletter_signups WHERE email = 'nia@example.org'",
                [],
                |r| r.get(0),
            )
        })
        .await
        .unwrap();
    let url = unsubscribe_url(&app.state.mail, signup, "nia@example.org");
    let res = warp::test::request()
        .method("POST")
        .path(url.trim_start_matches("https://example.org"))
        .header("content-type", "application/x-www-form-urlencoded")
        .body("List-Unsubscribe=One-Click")
        .reply(&app.app)
        .await;
    assert!(
        res.status().is_success() || res.status().is_redirection(),
        "{}",
        res.status()
    );
    let page = list(&app, &token, "nia@example.org", 0).await;
    assert_eq!(page["total"], 1, "still listed: {page}");
    assert_eq!(page["people"][0]["subscribed"], false);
    assert_eq!(page["people"][0]["phone"], "+15553004000");
}

/// 130 people, a pair of them seen at each moment and half of them Walkers: each page of
/// the whole list and of a search holds the next people in the list's order (latest seen
/// first, then the newest), no page repeats anyone, the total counts every match, and a
/// page past the end is empty with the same total.
#[tokio::test]
async fn pages_never_overlap_and_the_total_counts_every_match() {
    let app = TestApp::new();
    app.exec(
        "WITH RECURSIVE i(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM i WHERE n < 130)
         INSERT INTO supporters (created_at)
         SELECT strftime('%Y-%m-%dT%H:%M:%fZ', '2025-01-01', '+' || (n / 2) || ' minutes') FROM i;
         INSERT INTO supporter_emails (email, supporter_id, created_at)
         SELECT 'page' || id || '@example.org', id, created_at FROM supporters;
         INSERT INTO volunteer_signups (name, email, zip_code, email_id, created_at)
         SELECT iif(id % 2 = 0, 'Sam Walker', 'Sam Stone'), 'page' || id || '@example.org', '12345', id,
             iif(id % 3 = 0, strftime('%Y-%m-%dT%H:%M:%fZ', created_at, '+1 day'), created_at)
         FROM supporters;",
    )
    .await;
    let token = app.login().await;
    // The order the list must have, from the submissions themselves.
    let expected = |walkers: bool| {
        app.db.read(move |c| {
            let mut stmt = c.prepare(
                "SELECT s.id FROM supporters s JOIN volunteer_signups v ON v.email_id = s.id \
                 WHERE ?1 = 0 OR v.name = 'Sam Walker' \
                 ORDER BY max(s.created_at, v.created_at) DESC, s.id DESC",
            )?;
            stmt.query_map([walkers], |r| r.get::<_, i64>(0))?
                .collect::<rusqlite::Result<Vec<i64>>>()
        })
    };
    for (q, want) in [
        ("", expected(false).await.unwrap()),
        ("walker", expected(true).await.unwrap()),
    ] {
        let mut seen = Vec::new();
        for page in 0..3 {
            let got = list(&app, &token, q, page).await;
            assert_eq!(got["total"].as_u64().unwrap() as usize, want.len(), "{q}");
            let ids = ids(&got);
            assert!(ids.len() <= 50);
            assert!(
                ids.iter().all(|id| !seen.contains(id)),
                "{q} page {page} repeats"
            );
            seen.extend(ids);
        }
        assert_eq!(seen, want, "{q}: every match, in order");
        let past = list(&app, &token, q, 40).await;
        assert_eq!(
            (
                past["people"].clone(),
                past["total"].as_u64().unwrap() as usize
            ),
            (json!([]), want.len())
        );
    }
    assert_eq!(expected(true).await.unwrap().len(), 65);
}
