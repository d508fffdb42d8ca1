//! The FEC limit, counted per contributor (name, street and ZIP), never per e-mail address:
//! two people sharing an inbox have a limit each; one person giving from two inboxes has one;
//! names that may be one person wait for the treasurer.

use super::*;
use crate::common::message;

/// A donor with a name and street of their own (occupation and employer given).
fn giver(first: &str, last: &str, email: &str, street: &str, zip: &str) -> Value {
    let mut d = itemized(email);
    d["donorFirstName"] = json!(first);
    d["donorLastName"] = json!(last);
    d["donorName"] = json!(format!("{first} {last}"));
    d["donorAddress"] = json!(street);
    d["donorZipCode"] = json!(zip);
    d
}

fn this_year() -> i16 {
    super::this_year() as i16
}

/// What the limit's refunder sent back of a gift, once it has run.
async fn returned(d: &Donate, intent: &str) -> i64 {
    d.app.state.limit_refunder.run().await;
    d.fake.refunds_of_intent(intent).into_iter().sum()
}

async fn attention(d: &Donate, token: &str) -> Value {
    let res = d
        .app
        .admin("GET", "/api/admin/donations/attention", token, None)
        .await;
    assert_eq!(res.status(), 200);
    TestApp::json(&res)
}

/// Ann Lee gives the whole limit; Ben Lee, at the same inbox and street, still gives $100
/// and keeps it: two people, two limits. His receipt counts his gifts only.
#[tokio::test]
async fn two_people_sharing_an_inbox_have_a_limit_each() {
    let d = donate_app(|_| {}).await;
    let ann = giver("Ann", "Lee", "lees@example.org", "1 Elm Street", "62701");
    let ben = giver("Ben", "Lee", "lees@example.org", "1 Elm St.", "62701");
    let (_, ann_intent) = d.paid(json!(44_300), ann).await;
    assert_eq!(returned(&d, &ann_intent).await, 0);
    // Ben's own browser holds the inbox's pass (from Ann's receipt): still not refused.
    let pass = d.pass_from_receipt("lees@example.org").await;
    let res = d.give_with_pass(json!(100), ben.clone(), Some(&pass)).await;
    assert_eq!(res.status(), 200, "{:?}", res.body());
    let (_, ben_intent) = d.paid(json!(100), ben).await;
    assert_eq!(returned(&d, &ben_intent).await, 0, "Ben's $100 is his own");
    let receipt = d.newest_mail("receipt", "lees@example.org").await.unwrap();
    assert!(
        receipt.contains("Your contributions this calendar year, this one included: $100.00"),
        "{receipt}"
    );
    // Which of the two is asking is known only from the form: the summary does not guess.
    let summary = d
        .summary_with(
            &format!("email=lees@example.org&year={}", this_year()),
            &pass,
        )
        .await;
    assert_eq!(summary["remaining"], Value::Null, "{summary}");
    let token = d.app.login().await;
    assert_eq!(attention(&d, &token).await, json!([]));
}

/// Carla Ruiz gives the limit from one inbox and $100 from another at the same street and
/// ZIP (typed another way): one person, one limit. The $100 goes back as soon as it is paid,
/// the notice names the limit and never the other address, and nothing is left excessive.
#[tokio::test]
async fn one_person_giving_from_two_inboxes_has_one_limit() {
    let d = donate_app(|_| {}).await;
    let first = giver(
        "Carla",
        "Ruiz",
        "carla@example.org",
        "5 Oak Avenue",
        "62701",
    );
    let second = giver(
        "carla",
        "RUIZ",
        "c.ruiz@example.net",
        "5 Oak Ave.",
        "62701-0001",
    );
    d.paid(json!(44_300), first).await;
    // The other inbox's browser is told nothing of the first (a stranger could type her name).
    let pass = d
        .paid_pass(
            json!(1),
            giver("Carla", "Ruiz", "c.ruiz@example.net", "5 oak ave", "62701"),
        )
        .await;
    let (_, intent) = d.paid(json!(100), second).await;
    assert_eq!(
        returned(&d, &intent).await,
        10_000,
        "the whole $100 goes back"
    );
    let notice = d
        .newest_mail("refund_notice", "c.ruiz@example.net")
        .await
        .unwrap();
    assert!(notice.contains("$44,300"), "{notice}");
    assert!(!notice.contains("carla@example.org"), "{notice}");
    let summary = d
        .summary_with(
            &format!("email=c.ruiz@example.net&year={}", this_year()),
            &pass,
        )
        .await;
    assert_eq!(summary["completed"], json!(0.0), "{summary}");
    // The $1 before it went back too: the limit was reached from the other inbox.
    let token = d.app.login().await;
    assert_eq!(attention(&d, &token).await, json!([]));
    let net = d
        .app
        .db
        .read(|c| {
            c.query_row(
                "SELECT COUNT(DISTINCT contributor_id) FROM donations WHERE status = 'completed'",
                [],
                |r| r.get::<_, i64>(0),
            )
        })
        .await
        .unwrap();
    assert_eq!(net, 1);
}

/// "Jon Smith" and "Jonathan Smith" at one address are never combined by the server: they
/// wait on the treasurer's list. Yes combines them (and the over-limit list sees one person
/// over by a limit); No hides a pair for good.
#[tokio::test]
async fn near_matches_wait_for_the_treasurer() {
    let d = donate_app(|_| {}).await;
    let (_, jon) = d
        .paid(
            json!(44_300),
            giver("Jon", "Smith", "jon@example.org", "9 Pine St", "62701"),
        )
        .await;
    let (_, jonathan) = d
        .paid(
            json!(44_300),
            giver(
                "Jonathan",
                "Smith",
                "jsmith@example.net",
                "9 Pine Street",
                "62701",
            ),
        )
        .await;
    assert_eq!(returned(&d, &jon).await + returned(&d, &jonathan).await, 0);
    d.paid(
        json!(50),
        giver("Ann", "Park", "ann@example.org", "3 Birch Rd", "62701"),
    )
    .await;
    d.paid(
        json!(50),
        giver("A", "Park", "ap@example.org", "3 Birch Road", "62701"),
    )
    .await;
    let token = d.app.login().await;
    let list = TestApp::json(
        &d.app
            .admin("GET", "/api/admin/contributors/matches", &token, None)
            .await,
    );
    let pairs = list.as_array().unwrap();
    assert_eq!(pairs.len(), 2, "{list}");
    let names = |p: &Value| {
        (
            p["a"]["name"].as_str().unwrap().to_owned(),
            p["b"]["name"].as_str().unwrap().to_owned(),
        )
    };
    assert_eq!(
        names(&pairs[0]),
        ("Jon Smith".into(), "Jonathan Smith".into())
    );
    assert_eq!(names(&pairs[1]), ("Ann Park".into(), "A Park".into()));
    assert_eq!(attention(&d, &token).await, json!([]));

    let decide = |p: &Value, same: bool| json!({ "a": p["a"]["contributor"], "b": p["b"]["contributor"], "same": same });
    let res = d
        .app
        .admin(
            "POST",
            "/api/admin/contributors/matches",
            &token,
            Some(decide(&pairs[0], true)),
        )
        .await;
    assert_eq!(res.status(), 200, "{:?}", res.body());
    let res = d
        .app
        .admin(
            "POST",
            "/api/admin/contributors/matches",
            &token,
            Some(decide(&pairs[1], false)),
        )
        .await;
    assert_eq!(res.status(), 200);
    let list = TestApp::json(
        &d.app
            .admin("GET", "/api/admin/contributors/matches", &token, None)
            .await,
    );
    assert_eq!(list, json!([]));
    // Combined: one person $44,300 over, with the 60 days the law gives to refund it.
    let over = attention(&d, &token).await;
    assert_eq!(over.as_array().unwrap().len(), 1, "{over}");
    assert_eq!(over[0]["excess"], "44300.00", "{over}");
    // Deciding again, or a pair that does not exist, changes nothing.
    let res = d
        .app
        .admin(
            "POST",
            "/api/admin/contributors/matches",
            &token,
            Some(decide(&pairs[0], false)),
        )
        .await;
    assert_eq!(res.status(), 404);
    assert_eq!(
        message(&res),
        "There is no such pair waiting for a decision."
    );
    let res = d
        .app
        .admin(
            "POST",
            "/api/admin/contributors/matches",
            &token,
            Some(json!({ "a": 1, "b": 2, "same": "yes" })),
        )
        .await;
    assert_eq!(res.status(), 400);
    let audit: i64 = d
        .app
        .db
        .read(|c| {
            c.query_row(
                "SELECT COUNT(*) FROM audit_log WHERE action = 'decide_match'",
                [],
                |r| r.get(0),
            )
        })
        .await
        .unwrap();
    assert_eq!(audit, 2);
}

/// The Schedule A aggregate is the contributor's, from every inbox.
#[tokio::test]
async fn the_schedule_a_aggregate_counts_the_person_not_the_inbox() {
    let d = donate_app(|_| {}).await;
    d.paid(
        json!(150),
        giver("Dee", "Vance", "dee@example.org", "4 Ash Ct", "62701"),
    )
    .await;
    d.paid(
        json!(100),
        giver("Dee", "Vance", "dee@work.example", "4 Ash Court", "62701"),
    )
    .await;
    d.paid(
        json!(150),
        giver("Eli", "Vance", "dee@example.org", "4 Ash Ct", "62701"),
    )
    .await;
    let token = d.app.login().await;
    let res = d
        .app
        .admin("GET", "/api/admin/donations/export", &token, None)
        .await;
    assert_eq!(res.status(), 200);
    let mut reader = csv::Reader::from_reader(res.body().as_ref());
    let headers = reader.headers().unwrap().clone();
    let col = |name: &str| headers.iter().position(|h| h == name).unwrap();
    let (email, amount, name, aggregate) = (
        col("Email"),
        col("Amount"),
        col("Donor Name"),
        col("Year-to-Date Aggregate"),
    );
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    let aggregate_of = |who: &str, given: &str| -> String {
        rows.iter()
            .find(|r| {
                (r[email].contains(who) || r[name].contains(who)) && r[amount].contains(given)
            })
            .unwrap_or_else(|| panic!("{who} {given}"))[aggregate]
            .to_owned()
    };
    // Dee's second gift: $250 year to date (past $200), though each inbox gave less.
    assert!(aggregate_of("dee@work.example", "100").contains("250"));
    // Eli shares Dee's inbox: $150 of his own, not $300.
    assert!(aggregate_of("Eli Vance", "150").contains("150"));
    assert!(!aggregate_of("Eli Vance", "150").contains("300"));
}
