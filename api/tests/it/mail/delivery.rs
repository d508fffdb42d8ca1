//! The queue's promises against a real SMTP server: a temporary refusal (4xx) or a server
//! that is down is retried with backoff on the app's clock until it is accepted, and given
//! up after 3 days; a permanent refusal (5xx) fails at once and shows to staff; without
//! SMTP_URL every message becomes a whole .eml file in DATA_DIR/outbox.

use serde_json::json;

use super::smtp::{Answer, Smtp, closed_port};
use super::{advance, mail_app, queue};
use crate::common::TestApp;

async fn contact(app: &TestApp, n: usize) {
    let body = json!({
        "name": format!("Writer {n}"),
        "email": format!("w{n}@example.org"),
        "subject": format!("Message {n}"),
        "message": "Hello",
    });
    let res = app.post_json("/api/contact", &body.to_string()).await;
    assert_eq!(res.status(), 201, "{:?}", res.body());
}

#[tokio::test]
async fn a_temporary_refusal_is_retried_with_backoff_until_accepted() {
    let smtp = Smtp::start();
    smtp.answer(Answer::TryLater);
    let app = mail_app(&smtp, |_| {});
    contact(&app, 1).await;
    app.state.mail.deliver_due().await;
    let rows = queue(&app).await;
    assert_eq!((rows[0].1.as_str(), rows[0].2), ("queued", 1));
    assert!(rows[0].3.as_deref().unwrap().contains("451"), "{rows:?}");

    // Not again before its minute is up...
    app.state.mail.deliver_due().await;
    assert_eq!(queue(&app).await[0].2, 1);
    // ...then after 1 minute, and after 2 more.
    advance(&app, 1);
    app.state.mail.deliver_due().await;
    assert_eq!(queue(&app).await[0].2, 2);
    advance(&app, 1);
    app.state.mail.deliver_due().await;
    assert_eq!(queue(&app).await[0].2, 2, "the second wait is 2 minutes");
    smtp.answer(Answer::Accept);
    advance(&app, 1);
    app.state.mail.deliver_due().await;
    let rows = queue(&app).await;
    assert_eq!(
        (rows[0].1.as_str(), rows[0].2, rows[0].3.as_deref()),
        ("sent", 3, None)
    );
    assert_eq!(smtp.received().len(), 1);
    assert_eq!(smtp.refused(), 2);
    // Sent is sent: nothing more goes out.
    advance(&app, 600);
    app.state.mail.deliver_due().await;
    assert_eq!(smtp.received().len(), 1);
}

#[tokio::test]
async fn a_permanent_refusal_fails_at_once_and_staff_see_it() {
    let smtp = Smtp::start();
    smtp.answer(Answer::Refuse);
    let app = mail_app(&smtp, |_| {});
    contact(&app, 1).await;
    app.state.mail.deliver_due().await;
    let rows = queue(&app).await;
    assert_eq!((rows[0].1.as_str(), rows[0].2), ("failed", 1));
    advance(&app, 60);
    app.state.mail.deliver_due().await;
    assert_eq!(smtp.refused(), 1, "never tried again");

    let token = app.login().await;
    let res = app.admin("GET", "/api/admin/mail", &token, None).await;
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["cache-control"], "no-store");
    let body = TestApp::json(&res);
    assert_eq!(body["failedLastWeek"], 1);
    let m = &body["messages"][0];
    assert_eq!(m["to"], "staff@party.example");
    assert_eq!(m["subject"], "Contact form: Message 1");
    assert_eq!(
        (
            m["kind"].as_str(),
            m["status"].as_str(),
            m["attempts"].as_u64()
        ),
        (Some("staff_alert"), Some("failed"), Some(1))
    );
    assert!(m["lastError"].as_str().unwrap().contains("550"), "{m}");
    // A week on, the dashboard no longer warns.
    advance(&app, 7 * 24 * 60 + 1);
    let body = TestApp::json(&app.admin("GET", "/api/admin/mail", &token, None).await);
    assert_eq!(body["failedLastWeek"], 0);
    assert_eq!(app.get("/api/admin/mail").await.status(), 401, "staff only");
    // It names who was mailed: each look is in the audit log, like any list of people.
    let looks: i64 = app
        .db
        .read(|c| {
            c.query_row(
                "SELECT COUNT(*) FROM audit_log WHERE action = 'view' AND target = 'mail'",
                [],
                |r| r.get(0),
            )
        })
        .await
        .unwrap();
    assert_eq!(looks, 2);
}

#[tokio::test]
async fn messages_wait_while_the_server_is_down_and_go_out_when_it_is_back() {
    let port = closed_port();
    let app = TestApp::with(|c| {
        c.mail.smtp_url = Some(format!("smtp://{port}"));
        c.mail.staff_email = Some(super::STAFF.into());
    });
    for n in 0..3 {
        contact(&app, n).await;
    }
    app.state.mail.deliver_due().await;
    let rows = queue(&app).await;
    assert!(rows.iter().all(|r| r.1 == "queued" && r.2 == 1), "{rows:?}");
    advance(&app, 1);
    app.state.mail.deliver_due().await;

    let smtp = Smtp::on(std::net::TcpListener::bind(port).unwrap());
    advance(&app, 2);
    app.state.mail.deliver_due().await;
    let got = smtp.received();
    assert_eq!(got.len(), 3);
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
}

#[tokio::test]
async fn a_message_never_accepted_is_given_up_after_three_days() {
    let smtp = Smtp::start();
    smtp.answer(Answer::TryLater);
    let app = mail_app(&smtp, |_| {});
    contact(&app, 1).await;
    let mut minutes = 0;
    loop {
        app.state.mail.deliver_due().await;
        let rows = queue(&app).await;
        if rows[0].1 == "failed" {
            break;
        }
        advance(&app, 30);
        minutes += 30;
        assert!(minutes < 5 * 24 * 60, "still queued after 5 days: {rows:?}");
    }
    assert!(
        minutes >= 3 * 24 * 60 - 6 * 60,
        "given up after {minutes} minutes"
    );
    let attempts = queue(&app).await[0].2;
    // 1, 2, 4 … 256 minutes, then every 6 hours: about 18 tries in 3 days.
    assert!((15..=22).contains(&attempts), "{attempts} attempts");
}

#[tokio::test]
async fn without_smtp_every_message_is_an_eml_file_in_the_outbox() {
    let app = TestApp::with(|c| c.mail.staff_email = Some(super::STAFF.into()));
    contact(&app, 7).await;
    app.state.mail.deliver_due().await;
    let outbox = app.data_dir.join("outbox");
    let files: Vec<_> = std::fs::read_dir(&outbox)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    assert!(files[0].to_str().unwrap().ends_with("-staff_alert.eml"));
    let eml = std::fs::read_to_string(&files[0]).unwrap();
    assert!(eml.contains("Subject: Contact form: Message 7\r\n"));
    assert!(
        eml.contains("To: \"Party Staff\" <staff@party.example>\r\n"),
        "{eml}"
    );
    assert!(eml.contains("Message-ID: <"));
    use std::os::unix::fs::PermissionsExt as _;
    let mode = std::fs::metadata(&files[0]).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    assert_eq!(queue(&app).await[0].1, "sent");
}
