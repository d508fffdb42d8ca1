//! `kill -9` in the middle of mailing a post to 2,000 subscribers, then a restart: every
//! subscriber ends up with exactly one copy, counted at the SMTP server by Message-ID (the
//! same for every attempt at one recipient), and the server's counts agree.
//!
//! SMTP cannot promise more: a message the server accepted a moment before the kill, whose
//! acceptance was not yet written down, goes again after the restart with the same
//! Message-ID (receiving servers drop such copies). The test reports how many raw
//! duplicates arrived and holds them to what can be in flight at once.

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use super::{Server, blog_site, connect, env_refs, request, sign_in};
use crate::mail::smtp::Smtp;

const SUBSCRIBERS: usize = 2_000;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_kill_mid_send_leaves_every_subscriber_with_exactly_one_copy() {
    let (dir, mut env) = blog_site(1);
    let smtp = Smtp::start();
    env.push(("SMTP_URL", PathBuf::from(smtp.url())));
    // Slow enough that the kill lands mid-send (about 4 s for the whole list).
    env.push(("MAIL_RATE", PathBuf::from("500/s")));
    let db_path = env[0].1.join("site.db");
    {
        drop(api::store::db::Db::open(&db_path).unwrap());
        let mut conn = rusqlite::Connection::open(&db_path).unwrap();
        let tx = conn.transaction().unwrap();
        for n in 0..SUBSCRIBERS {
            tx.execute(
                "INSERT INTO newsletter_signups (email, zip_code, status) VALUES (?1, '12345', 'confirmed')",
                [format!("reader{n}@example.org")],
            )
            .unwrap();
        }
        tx.commit().unwrap();
    }
    let mut server = Server::start(dir.path(), &env_refs(&env)).await;
    let mut stream = connect(&server.addr).await;
    let token = sign_in(&mut stream).await;
    let auth = format!("Bearer {token}");
    let headers = [
        ("Content-Type", "application/json"),
        ("Authorization", auth.as_str()),
    ];
    let post: i64 = rusqlite::Connection::open(&db_path)
        .unwrap()
        .query_row("SELECT id FROM blog_posts LIMIT 1", [], |r| r.get(0))
        .unwrap();
    let body = format!(r#"{{"postId":{post},"confirm":{SUBSCRIBERS}}}"#);
    let started = Instant::now();
    let (status, sent) = request(
        &mut stream,
        "POST",
        "/api/admin/broadcasts",
        &headers,
        &body,
    )
    .await
    .unwrap();
    assert_eq!(status, 201, "{sent}");
    let frozen = started.elapsed();
    let id = serde_json::from_str::<serde_json::Value>(&sent).unwrap()["id"]
        .as_i64()
        .unwrap();

    // Killed once a quarter has arrived.
    let list_mail = || {
        smtp.received()
            .iter()
            .filter(|m| {
                m.header("Message-ID")
                    .is_some_and(|id| id.starts_with("<broadcast-"))
            })
            .count()
    };
    while list_mail() < SUBSCRIBERS / 4 {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the send did not get going"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    server.kill().await;
    let at_kill = list_mail();
    assert!(
        at_kill < SUBSCRIBERS,
        "the send had finished before the kill"
    );

    let mut server = Server::start(dir.path(), &env_refs(&env)).await;
    let restarted = Instant::now();
    loop {
        let state: (String, i64) = rusqlite::Connection::open(&db_path)
            .unwrap()
            .query_row(
                "SELECT status, (SELECT COUNT(*) FROM broadcast_recipients WHERE broadcast_id = ?1 AND status = 'queued') FROM broadcasts WHERE id = ?1",
                [id],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap();
        if state.0 == "sent" {
            assert_eq!(state.1, 0);
            break;
        }
        assert!(
            restarted.elapsed() < Duration::from_secs(60),
            "not finished after the restart: {state:?}\n{}",
            server.output()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // Time for a stray copy to show, if there were one.
    tokio::time::sleep(Duration::from_millis(300)).await;
    server.stop().await;

    // The list's mail only (the Owner's sign-in sends them a security notice).
    let received: Vec<_> = smtp
        .received()
        .into_iter()
        .filter(|m| {
            m.header("Message-ID")
                .is_some_and(|id| id.starts_with("<broadcast-"))
        })
        .collect();
    let mut by_recipient: HashMap<String, Vec<String>> = HashMap::new();
    for m in &received {
        by_recipient
            .entry(m.to[0].trim_matches(['<', '>']).to_lowercase())
            .or_default()
            .push(m.header("Message-ID").unwrap());
    }
    assert_eq!(by_recipient.len(), SUBSCRIBERS, "nobody was skipped");
    for (to, ids) in &by_recipient {
        let mut distinct = ids.clone();
        distinct.dedup();
        assert_eq!(distinct.len(), 1, "{to} got different messages: {ids:?}");
    }
    let duplicates = received.len() - SUBSCRIBERS;
    // What can be on its way or awaiting its record at one instant.
    let in_flight = api::domain::mail::sender::IN_FLIGHT + 64;
    assert!(
        duplicates <= in_flight,
        "{duplicates} copies went twice (at most {in_flight} can be in flight)"
    );
    let counts: (i64, i64, i64) = rusqlite::Connection::open(&db_path)
        .unwrap()
        .query_row(
            "SELECT recipients, (SELECT COUNT(*) FROM broadcast_recipients WHERE broadcast_id = ?1 AND status = 'sent'), \
             (SELECT COUNT(*) FROM broadcast_recipients WHERE broadcast_id = ?1 AND status != 'sent') FROM broadcasts WHERE id = ?1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .unwrap();
    assert_eq!(counts, (SUBSCRIBERS as i64, SUBSCRIBERS as i64, 0));
    println!(
        "broadcast crash test: {SUBSCRIBERS} recipients frozen and the send answered in {frozen:?}; \
         {at_kill} had arrived at the kill; {duplicates} raw duplicate(s) after the restart (same Message-ID)"
    );
}
