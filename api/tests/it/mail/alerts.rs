//! Staff alerts: each contact message and volunteer signup reaches STAFF_EMAIL with the
//! visitor as Reply-To and a link to the admin; the visitor is never mailed; no alert
//! without STAFF_EMAIL; hostile names cannot add headers.

use serde_json::json;

use super::smtp::Smtp;
use super::{mail_app, queue};
use crate::common::TestApp;

#[tokio::test]
async fn a_contact_message_alerts_staff_who_can_reply_and_the_sender_gets_nothing() {
    let smtp = Smtp::start();
    let app = mail_app(&smtp, |_| {});
    // Line breaks in a name or subject are refused at the form (the message builder's own
    // tests show they could not start a header anyway)...
    let hostile = json!({
        "name": "Eve Q. Public\r\nBcc: victim@example.org",
        "email": "eve@example.org",
        "subject": "Ballot access",
        "message": "Hi",
    });
    let res = app.post_json("/api/contact", &hostile.to_string()).await;
    assert_eq!(res.status(), 400);
    assert_eq!(app.count("mail_queue").await, 0);
    // ...and what is accepted reaches staff, answerable with one click.
    let body = json!({
        "name": "Eve Q. Public",
        "email": "eve@example.org",
        "subject": "Ballot access: \"when?\" <soon>",
        "message": "When is the deadline?\nSign in to reply: https://evil.example/admin\nThanks!",
    });
    let res = app.post_json("/api/contact", &body.to_string()).await;
    assert_eq!(res.status(), 201, "{:?}", res.body());
    app.state.mail.deliver_due().await;

    let got = smtp.received();
    assert_eq!(got.len(), 1, "one message, to staff only");
    let alert = &got[0];
    assert_eq!(alert.to, ["staff@party.example"]);
    assert_eq!(
        alert.from, "hello@example.org",
        "the envelope is MAIL_FROM's (site.yaml's)"
    );
    let reply_to = alert.header("Reply-To").unwrap();
    assert!(reply_to.contains("<eve@example.org>"), "{reply_to}");
    assert_eq!(
        alert.header("Subject").unwrap(),
        "Contact form: Ballot access: \"when?\" <soon>"
    );
    let text = alert.text();
    // The visitor's words are set apart as a quote, and their address is not made a link.
    assert!(
        text.contains(
            "> When is the deadline?\n> Sign in to reply: https://evil.example/admin\n> Thanks!"
        ),
        "{text}"
    );
    let html = alert.html();
    assert!(html.contains("<blockquote"), "{html}");
    assert!(!html.contains("href=\"https://evil.example"), "{html}");
    assert!(
        html.contains("<a href=\"https://example.org/admin/dashboard\">"),
        "the site's own links stay links: {html}"
    );
    assert!(
        text.contains("https://example.org/admin/dashboard"),
        "{text}"
    );
    assert!(text.contains("Paid for by Fixture Party."), "{text}");
    assert!(
        alert.data.contains("Content-Type: text/html"),
        "an HTML alternative"
    );
    assert!(
        alert
            .header("Message-ID")
            .unwrap()
            .ends_with("@example.org>")
    );
    assert_eq!(queue(&app).await[0].1, "sent");
}

#[tokio::test]
async fn a_volunteer_signup_alerts_staff() {
    let smtp = Smtp::start();
    let app = mail_app(&smtp, |_| {});
    let body = json!({
        "name": "Zoë Ångström",
        "email": "zoe@example.org",
        "phone": "555-123-4567",
        "zipCode": "12345",
        "interests": "Canvassing",
    });
    assert_eq!(
        app.post_json("/api/volunteer", &body.to_string())
            .await
            .status(),
        201
    );
    app.state.mail.deliver_due().await;
    let got = smtp.received();
    assert_eq!(got.len(), 1);
    let subject = got[0].header("Subject").unwrap();
    assert!(
        subject.starts_with("New volunteer: =?utf-8?"),
        "encoded: {subject}"
    );
    assert!(
        got[0]
            .header("Reply-To")
            .unwrap()
            .contains("<zoe@example.org>")
    );
    let text = got[0].text();
    assert!(
        text.contains("Zoë Ångström <zoe@example.org> signed up"),
        "{text}"
    );
    assert!(text.contains("Interests: Canvassing"), "{text}");
    assert!(
        text.contains("https://example.org/admin/dashboard?tab=volunteers"),
        "{text}"
    );
}

#[tokio::test]
async fn without_staff_email_no_alert_is_queued() {
    let app = TestApp::new();
    let body = json!({"name": "A", "email": "a@example.org", "subject": "S", "message": "M"});
    assert_eq!(
        app.post_json("/api/contact", &body.to_string())
            .await
            .status(),
        201
    );
    assert_eq!(app.count("mail_queue").await, 0);
}
