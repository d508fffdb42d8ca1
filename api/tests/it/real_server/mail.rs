//! `kill -9` in the middle of the mail queue: messages committed with their events but not
//! yet accepted by the SMTP server go out after the restart, each exactly once.

use std::path::PathBuf;
use std::time::Duration;

use super::{Server, bare_site, connect, env_refs, json_headers, request};
use crate::mail::smtp::Smtp;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_kill_mid_send_loses_no_mail_and_sends_none_twice() {
    let (dir, mut env) = bare_site();
    env.push(("STAFF_EMAIL", PathBuf::from("staff@party.example")));
    // A server that takes the connection and never says a word: the sender is mid-send,
    // waiting for its greeting, when the kill comes.
    let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let mut first = env.clone();
    first.push((
        "SMTP_URL",
        PathBuf::from(format!("smtp://{}", silent.local_addr().unwrap())),
    ));
    let mut server = Server::start(dir.path(), &env_refs(&first)).await;
    let mut stream = connect(&server.addr).await;
    for n in 0..3 {
        let body = format!(
            r#"{{"name":"Writer {n}","email":"w{n}@example.org","subject":"Message {n}","message":"Hello"}}"#
        );
        let (status, body) = request(&mut stream, "POST", "/api/contact", &json_headers(), &body)
            .await
            .unwrap();
        assert_eq!(status, 201, "{body}");
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    server.kill().await;

    let smtp = Smtp::start();
    let mut second = env.clone();
    second.push(("SMTP_URL", PathBuf::from(smtp.url())));
    let mut server = Server::start(dir.path(), &env_refs(&second)).await;
    let got = smtp.wait_for(3).await;
    // Time for a duplicate to show, if there were one.
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(smtp.received().len(), 3);
    let mut subjects: Vec<String> = got.iter().map(|m| m.header("Subject").unwrap()).collect();
    subjects.sort();
    assert_eq!(
        subjects,
        [
            "Contact form: Message 0",
            "Contact form: Message 1",
            "Contact form: Message 2"
        ]
    );
    server.stop().await;
    let db = rusqlite::Connection::open(dir.path().join("data/site.db")).unwrap();
    let sent: i64 = db
        .query_row(
            "SELECT COUNT(*) FROM mail_queue WHERE status = 'sent'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(sent, 3);
    drop(silent);
}
