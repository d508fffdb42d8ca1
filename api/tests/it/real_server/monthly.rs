//! `kill -9` between a monthly charge and its record: Stripe took the money but the server
//! died before it heard. The gift was stored before Stripe was asked, so the restarted
//! server's first pass asks again with the same idempotency key, Stripe answers with the
//! charge it made, and the donor is charged once, with one receipt.

use std::path::PathBuf;
use std::time::Duration;

use serde_json::json;

use super::{Server, bare_site, connect, env_refs, give, request, sign_in, stripe_for};

const MONTH: u64 = 31 * 24 * 3600;

fn query_i64(dir: &std::path::Path, sql: &str) -> i64 {
    let db = rusqlite::Connection::open(dir.join("data/site.db")).unwrap();
    db.busy_timeout(Duration::from_secs(5)).unwrap();
    db.query_row(sql, [], |r| r.get(0)).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_kill_between_a_monthly_charge_and_its_record_charges_once_after_the_restart() {
    let (dir, mut env) = bare_site();
    let fake = stripe_for(&mut env).await;
    env.push(("ENABLE_TEST_CLOCK", PathBuf::from("1")));
    let mut server = Server::start(dir.path(), &env_refs(&env)).await;
    fake.set_webhook(
        format!("http://{}/api/stripe/webhook", server.addr),
        "whsec_real",
    );

    // The donor gives $25 a month; the first gift is paid on the page.
    let mut stream = connect(&server.addr).await;
    give(&mut stream, &fake, 25, "monthly").await;
    let active = "SELECT COUNT(*) FROM donation_plans WHERE status = 'active'";
    for _ in 0..100 {
        if query_i64(dir.path(), active) == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(query_i64(dir.path(), active), 1, "{}", server.output());

    // A month on, Stripe makes the charge, and the server is killed before it hears.
    fake.hold_charges(true);
    let token = sign_in(&mut stream).await;
    let addr = server.addr.clone();
    let moving = tokio::spawn(async move {
        let mut stream = connect(&addr).await;
        let auth = format!("Bearer {token}");
        let headers = [
            ("Content-Type", "application/json"),
            ("Authorization", auth.as_str()),
        ];
        let _ = request(
            &mut stream,
            "POST",
            "/api/admin/test-clock",
            &headers,
            json!({ "advanceSeconds": MONTH }).to_string(),
        )
        .await;
    });
    for _ in 0..300 {
        if fake.held_charges() == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(
        fake.held_charges(),
        1,
        "the charge reached Stripe: {}",
        server.output()
    );
    server.kill().await;
    moving.abort();
    fake.hold_charges(false);
    let charge = "SELECT status FROM donations WHERE plan_charge = 1";
    let db = rusqlite::Connection::open(dir.path().join("data/site.db")).unwrap();
    let stored: String = db.query_row(charge, [], |r| r.get(0)).unwrap();
    assert_eq!(
        stored, "pending",
        "the gift was stored before Stripe was asked"
    );
    drop(db);

    // Restarted "a month later": its first pass makes the charge it missed, once.
    let mut later = env.clone();
    later.push(("TEST_CLOCK_OFFSET_SECS", PathBuf::from(MONTH.to_string())));
    let mut server = Server::start(dir.path(), &env_refs(&later)).await;
    let completed = "SELECT COUNT(*) FROM donations WHERE status = 'completed'";
    for _ in 0..200 {
        if query_i64(dir.path(), completed) == 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(query_i64(dir.path(), completed), 2, "{}", server.output());
    server.stop().await;

    let charges: Vec<_> = fake
        .requests()
        .into_iter()
        .filter(|r| {
            r.path == "/v1/payment_intents"
                && r.params.get("off_session").is_some_and(|v| v == "true")
        })
        .collect();
    assert_eq!(charges.len(), 2, "asked twice...");
    assert_eq!(
        charges[0].idempotency_key, charges[1].idempotency_key,
        "...with one key"
    );
    assert_eq!(
        fake.paid_intents(),
        2,
        "two payments in all: the first gift and the month"
    );
    assert_eq!(query_i64(dir.path(), "SELECT COUNT(*) FROM donations"), 2);
    assert_eq!(
        query_i64(
            dir.path(),
            "SELECT COUNT(*) FROM mail_queue WHERE kind = 'receipt'"
        ),
        2,
        "one receipt a gift"
    );
}
