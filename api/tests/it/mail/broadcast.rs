//! A published post mailed to the newsletter list, over real SMTP: the preview and the
//! typed count, one message per confirmed subscriber with their own unsubscribe link (https
//! and mailto, RFC 8058 one-click), the counts that always add up, the 409 on a second send
//! and "again" to those it missed, an unsubscribe taking effect mid-send, 4xx retried with
//! backoff and 5xx suppressed, "retry the remaining", scheduled and missed sends, MAIL_RATE
//! across a restart, personal mail first, the suppression list and signed complaint notices.

use hmac::{Hmac, Mac as _};
use serde_json::{Value, json};

use super::advance;
use super::smtp::{Answer, Received, Smtp};
use crate::common::{TestApp, message};
use api::domain::mail::newsletter::unsubscribe_url;

/// An app over the fixture site whose mail goes to `smtp`.
async fn app_with(smtp: &Smtp, rate: Option<&'static str>) -> TestApp {
    let url = smtp.url();
    TestApp::with_site(move |c| {
        c.mail.smtp_url = Some(url.clone());
        c.mail.staff_email = Some(super::STAFF.into());
        c.mail.rate = rate.map(Into::into);
        c.mail.complaint_secret = Some("complaint-secret".into());
        c.form_rate_limit = 1000;
    })
    .await
}

/// A published post; returns its id.
async fn published(app: &TestApp, token: &str, title: &str) -> i64 {
    let res = app
        .admin(
            "POST",
            "/api/admin/blogs",
            token,
            Some(json!({
                "title": title,
                "content": "<p>We met in <a href=\"/issues\">Springfield</a> tonight.</p><h2>What comes next</h2><p>Petitions.</p>",
                "status": "published",
            })),
        )
        .await;
    assert_eq!(res.status(), 201, "{:?}", res.body());
    TestApp::json(&res)["id"].as_i64().unwrap()
}

/// Subscribers straight into the table: `(email, status)`.
async fn subscribers(app: &TestApp, people: &[(&str, &str)]) {
    let people: Vec<(String, String)> = people
        .iter()
        .map(|(e, s)| ((*e).to_owned(), (*s).to_owned()))
        .collect();
    app.db
        .write(move |tx| {
            for (email, status) in &people {
                tx.execute(
                    "INSERT INTO newsletter_signups (email, zip_code, status) VALUES (?1, '12345', ?2)",
                    [email, status],
                )?;
            }
            Ok(())
        })
        .await
        .unwrap();
}

async fn call(
    app: &TestApp,
    token: &str,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let res = app.admin(method, path, token, body).await;
    let status = res.status().as_u16();
    let body = if res.body().is_empty() {
        Value::Null
    } else {
        TestApp::json(&res)
    };
    (status, body)
}

/// A send's counts: (queued, sent, failed, excluded, recipients, status).
async fn counts(app: &TestApp, token: &str, id: i64) -> (i64, i64, i64, i64, i64, String) {
    let (status, b) = call(
        app,
        token,
        "GET",
        &format!("/api/admin/broadcasts/{id}"),
        None,
    )
    .await;
    assert_eq!(status, 200, "{b}");
    let n = |k: &str| b[k].as_i64().unwrap();
    let all = (
        n("queued"),
        n("sent"),
        n("failed"),
        n("excluded"),
        n("recipients"),
        b["status"].as_str().unwrap().to_owned(),
    );
    assert_eq!(
        all.0 + all.1 + all.2 + all.3,
        all.4,
        "the counts add up: {b}"
    );
    all
}

fn to_of(m: &Received) -> String {
    m.to[0].trim_matches(['<', '>']).to_lowercase()
}

#[tokio::test]
async fn a_post_reaches_each_confirmed_subscriber_once_with_their_own_unsubscribe_link() {
    let smtp = Smtp::start();
    let app = app_with(&smtp, None).await;
    let token = app.login().await;
    let post = published(&app, &token, "Town hall in Springfield").await;
    subscribers(
        &app,
        &[
            ("ann@example.org", "confirmed"),
            ("Bo@Example.org", "confirmed"),
            ("cy@example.org", "confirmed"),
            ("pending@example.org", "pending"),
            ("gone@example.org", "unsubscribed"),
            ("bounced@example.org", "confirmed"),
        ],
    )
    .await;
    app.exec("INSERT INTO mail_suppressions (email, reason, created_at) VALUES ('bounced@example.org', 'bounced', '2026-01-01T00:00:00Z')").await;

    // The preview: the message as it will arrive, and whom it will reach.
    let (status, preview) = call(
        &app,
        &token,
        "POST",
        "/api/admin/broadcasts/preview",
        Some(json!({ "postId": post })),
    )
    .await;
    assert_eq!(status, 200, "{preview}");
    assert_eq!(preview["recipients"], 3);
    assert_eq!(preview["alreadySent"], false);
    assert_eq!(preview["subject"], "Town hall in Springfield");
    let html = preview["html"].as_str().unwrap();
    assert!(
        html.contains(r#"href="https://example.org/issues""#),
        "links are absolute: {html}"
    );
    assert!(html.contains("View this post on the website"), "{html}");
    assert!(
        html.contains("100 Main Street, Springfield, IL 62701"),
        "the postal address: {html}"
    );
    assert!(html.contains("Paid for by"), "{html}");
    assert!(html.contains("style=\""), "styles are inline");
    let text = preview["text"].as_str().unwrap();
    assert!(
        text.contains("What comes next") && text.contains("Petitions."),
        "{text}"
    );
    assert!(text.contains("https://example.org/blog/"), "{text}");

    // Sending needs the count typed.
    let start = |confirm: Value| json!({ "postId": post, "confirm": confirm });
    let (status, body) = call(
        &app,
        &token,
        "POST",
        "/api/admin/broadcasts",
        Some(json!({ "postId": post })),
    )
    .await;
    assert_eq!(
        (status, body["message"].as_str()),
        (
            400,
            Some("Type the number of recipients to confirm the send.")
        )
    );
    let (status, body) = call(
        &app,
        &token,
        "POST",
        "/api/admin/broadcasts",
        Some(start(json!(4))),
    )
    .await;
    assert_eq!(status, 409, "{body}");
    assert!(body["message"].as_str().unwrap().contains("(3)"), "{body}");
    assert_eq!(app.count("broadcasts").await, 0, "nothing was made");
    let (status, sent) = call(
        &app,
        &token,
        "POST",
        "/api/admin/broadcasts",
        Some(start(json!(3))),
    )
    .await;
    assert_eq!(status, 201, "{sent}");
    let id = sent["id"].as_i64().unwrap();
    assert_eq!(
        (
            sent["recipients"].as_i64(),
            sent["queued"].as_i64(),
            sent["status"].as_str()
        ),
        (Some(3), Some(3), Some("sending"))
    );

    app.state.mail.deliver_due().await;
    let got = smtp.received();
    let mut to: Vec<String> = got.iter().map(to_of).collect();
    to.sort();
    assert_eq!(to, ["ann@example.org", "bo@example.org", "cy@example.org"]);
    for m in &got {
        let list = m.header("List-Unsubscribe").unwrap();
        let https = list
            .split(", ")
            .next()
            .unwrap()
            .trim_matches(['<', '>'])
            .to_owned();
        assert!(
            https.starts_with("https://example.org/newsletter/unsubscribe/"),
            "{list}"
        );
        assert!(list.contains("<mailto:"), "a mailto too: {list}");
        assert_eq!(
            m.header("List-Unsubscribe-Post").as_deref(),
            Some("List-Unsubscribe=One-Click")
        );
        assert!(
            m.html().contains(&https),
            "the footer links the same address"
        );
        assert!(m.text().contains(&https));
        assert!(
            m.header("Message-ID")
                .unwrap()
                .starts_with(&format!("<broadcast-{id}."))
        );
        assert_eq!(
            m.header("Subject").as_deref(),
            Some("Town hall in Springfield")
        );
        // No tracking: every link and image is the site's own, never passed through the api.
        assert!(!m.html().contains("/api/"), "{}", m.html());
    }
    let links: std::collections::HashSet<String> = got
        .iter()
        .map(|m| m.header("List-Unsubscribe").unwrap())
        .collect();
    assert_eq!(links.len(), 3, "each recipient's link is their own");
    assert_eq!(
        counts(&app, &token, id).await,
        (0, 3, 0, 0, 3, "sent".into())
    );

    // A second send of the same post is refused; "again" reaches only the new subscriber.
    let (status, body) = call(
        &app,
        &token,
        "POST",
        "/api/admin/broadcasts",
        Some(start(json!(3))),
    )
    .await;
    assert_eq!(status, 409);
    assert!(
        message_of(&body).contains("Send again to people who haven't received it"),
        "{body}"
    );
    let again = |n: i64| json!({ "postId": post, "confirm": n, "again": true });
    let (status, body) = call(
        &app,
        &token,
        "POST",
        "/api/admin/broadcasts",
        Some(again(0)),
    )
    .await;
    assert_eq!(status, 409, "nobody is left: {body}");
    subscribers(&app, &[("dee@example.org", "confirmed")]).await;
    let (_, preview) = call(
        &app,
        &token,
        "POST",
        "/api/admin/broadcasts/preview",
        Some(json!({ "postId": post, "again": true })),
    )
    .await;
    assert_eq!(
        (
            preview["recipients"].as_i64(),
            preview["alreadySent"].as_bool()
        ),
        (Some(1), Some(true))
    );
    let (status, body) = call(
        &app,
        &token,
        "POST",
        "/api/admin/broadcasts",
        Some(again(1)),
    )
    .await;
    assert_eq!(status, 201, "{body}");
    app.state.mail.deliver_due().await;
    let got = smtp.received();
    assert_eq!(got.len(), 4);
    assert_eq!(to_of(&got[3]), "dee@example.org");
    // Each send is in the audit log, with who sent it.
    let audited: i64 = app
        .db
        .read(|c| {
            c.query_row(
                "SELECT COUNT(*) FROM audit_log WHERE action = 'broadcast' AND user_id IS NOT NULL",
                [],
                |r| r.get(0),
            )
        })
        .await
        .unwrap();
    assert_eq!(audited, 2);
}

fn message_of(body: &Value) -> String {
    body["message"].as_str().unwrap_or_default().to_owned()
}

#[tokio::test]
async fn an_unsubscribe_mid_send_takes_effect_for_what_is_still_queued() {
    let smtp = Smtp::start();
    let app = app_with(&smtp, None).await;
    let token = app.login().await;
    let post = published(&app, &token, "Ballot access update").await;
    subscribers(
        &app,
        &[
            ("ann@example.org", "confirmed"),
            ("bo@example.org", "confirmed"),
        ],
    )
    .await;
    // The server says "later" to the first tries, so both are still queued a minute on.
    smtp.answer(Answer::TryLater);
    let (status, sent) = call(
        &app,
        &token,
        "POST",
        "/api/admin/broadcasts",
        Some(json!({ "postId": post, "confirm": 2 })),
    )
    .await;
    assert_eq!(status, 201);
    let id = sent["id"].as_i64().unwrap();
    app.state.mail.deliver_due().await;
    assert_eq!(smtp.refused(), 2);
    // Bo's one-click unsubscribe (a mail client's POST) arrives before the next try.
    let signup: i64 = app
        .db
        .read(|c| {
            c.query_row(
                "SELECT id FROM newsletter_signups WHERE email = 'bo@example.org'",
                [],
                |r| r.get(0),
            )
        })
        .await
        .unwrap();
    let url = unsubscribe_url(&app.state.mail, signup, "bo@example.org");
    let path = url.trim_start_matches("https://example.org");
    // A GET (a link scanner) changes nothing.
    assert_eq!(app.get(path).await.status(), 200);
    assert_eq!(counts(&app, &token, id).await.0, 2);
    let res = warp::test::request()
        .method("POST")
        .path(path)
        .header("content-type", "application/x-www-form-urlencoded")
        .body("List-Unsubscribe=One-Click")
        .reply(&app.app)
        .await;
    assert!(
        res.status().is_success() || res.status().is_redirection(),
        "{}",
        res.status()
    );
    assert_eq!(
        counts(&app, &token, id).await,
        (1, 0, 0, 1, 2, "sending".into()),
        "in the same request"
    );

    smtp.answer(Answer::Accept);
    advance(&app, 1);
    app.state.mail.deliver_due().await;
    let got = smtp.received();
    assert_eq!(
        got.iter().map(to_of).collect::<Vec<_>>(),
        ["ann@example.org"]
    );
    assert_eq!(
        counts(&app, &token, id).await,
        (0, 1, 0, 1, 2, "sent".into())
    );
    let (_, excluded) = call(
        &app,
        &token,
        "GET",
        &format!("/api/admin/broadcasts/{id}/recipients?status=excluded"),
        None,
    )
    .await;
    assert_eq!(excluded["recipients"][0]["email"], "bo@example.org");
    assert_eq!(excluded["recipients"][0]["answer"], "unsubscribed");
    // The unsubscribe is on the suppression list, with its reason.
    let (_, list) = call(&app, &token, "GET", "/api/admin/suppressions", None).await;
    assert_eq!(list["entries"][0]["email"], "bo@example.org");
    assert_eq!(list["entries"][0]["reason"], "unsubscribed");
}

#[tokio::test]
async fn a_refusal_for_now_is_retried_with_backoff_and_one_for_good_suppresses_the_address() {
    let smtp = Smtp::start();
    let app = app_with(&smtp, None).await;
    let token = app.login().await;
    let post = published(&app, &token, "Petitioning weekend").await;
    subscribers(
        &app,
        &[
            ("later@example.org", "confirmed"),
            ("nobody@example.org", "confirmed"),
            ("ok@example.org", "confirmed"),
        ],
    )
    .await;
    smtp.answer_for("later@example.org", Answer::TryLater);
    smtp.answer_for("nobody@example.org", Answer::Refuse);
    let (_, sent) = call(
        &app,
        &token,
        "POST",
        "/api/admin/broadcasts",
        Some(json!({ "postId": post, "confirm": 3 })),
    )
    .await;
    let id = sent["id"].as_i64().unwrap();
    app.state.mail.deliver_due().await;
    assert_eq!(
        smtp.received().iter().map(to_of).collect::<Vec<_>>(),
        ["ok@example.org"],
        "nobody held up the others"
    );
    assert_eq!(
        counts(&app, &token, id).await,
        (1, 1, 1, 0, 3, "sending".into())
    );
    let (_, failed) = call(
        &app,
        &token,
        "GET",
        &format!("/api/admin/broadcasts/{id}/recipients?status=failed"),
        None,
    )
    .await;
    assert_eq!(failed["recipients"][0]["email"], "nobody@example.org");
    assert!(
        failed["recipients"][0]["answer"]
            .as_str()
            .unwrap()
            .contains("550"),
        "{failed}"
    );
    let (_, list) = call(
        &app,
        &token,
        "GET",
        "/api/admin/suppressions?q=nobody",
        None,
    )
    .await;
    assert_eq!(
        (
            list["entries"][0]["email"].as_str(),
            list["entries"][0]["reason"].as_str()
        ),
        (Some("nobody@example.org"), Some("bounced"))
    );

    // Not again before its minute...
    app.state.mail.deliver_due().await;
    assert_eq!(smtp.received().len(), 1);
    // ...then it goes.
    smtp.answer_for("later@example.org", Answer::Accept);
    advance(&app, 1);
    app.state.mail.deliver_due().await;
    assert_eq!(smtp.received().len(), 2);
    let (.., status) = counts(&app, &token, id).await;
    assert_eq!(status, "sent", "every recipient has an outcome");
    let summary = call(
        &app,
        &token,
        "GET",
        &format!("/api/admin/broadcasts/{id}"),
        None,
    )
    .await
    .1;
    assert_eq!(summary["retryable"], 0, "the bounced address is suppressed");
    let (status, body) = call(
        &app,
        &token,
        "POST",
        &format!("/api/admin/broadcasts/{id}/retry"),
        None,
    )
    .await;
    assert_eq!(status, 409, "{body}");

    // Staff lift the mistaken entry (audited); now "retry the remaining 1" reaches them.
    let (status, body) = call(
        &app,
        &token,
        "POST",
        "/api/admin/suppressions/lift",
        Some(json!({ "email": "Nobody@example.org" })),
    )
    .await;
    assert_eq!((status, body["was"].as_str()), (200, Some("bounced")));
    let (status, _) = call(
        &app,
        &token,
        "POST",
        "/api/admin/suppressions/lift",
        Some(json!({ "email": "nobody@example.org" })),
    )
    .await;
    assert_eq!(status, 404, "not on the list any more");
    assert_eq!(
        call(
            &app,
            &token,
            "GET",
            &format!("/api/admin/broadcasts/{id}"),
            None
        )
        .await
        .1["retryable"],
        1
    );
    smtp.answer_for("nobody@example.org", Answer::Accept);
    let (status, body) = call(
        &app,
        &token,
        "POST",
        &format!("/api/admin/broadcasts/{id}/retry"),
        None,
    )
    .await;
    assert_eq!(
        (status, body["queued"].as_i64(), body["status"].as_str()),
        (200, Some(1), Some("sending"))
    );
    app.state.mail.deliver_due().await;
    assert_eq!(smtp.received().len(), 3);
    assert_eq!(
        counts(&app, &token, id).await,
        (0, 3, 0, 0, 3, "sent".into())
    );
    let lifted: i64 = app
        .db
        .read(|c| c.query_row("SELECT COUNT(*) FROM audit_log WHERE action = 'unsuppress' AND target = 'email:nobody@example.org'", [], |r| r.get(0)))
        .await
        .unwrap();
    assert_eq!(lifted, 1);
}

#[tokio::test]
async fn a_scheduled_send_goes_on_time_and_one_missed_by_an_outage_waits_for_staff() {
    let smtp = Smtp::start();
    let app = app_with(&smtp, None).await;
    let token = app.login().await;
    let first = published(&app, &token, "First").await;
    let second = published(&app, &token, "Second").await;
    subscribers(&app, &[("ann@example.org", "confirmed")]).await;
    let at =
        |mins: i64| (app.state.clock.now() + jiff::SignedDuration::from_mins(mins)).to_string();
    let (status, a) = call(
        &app,
        &token,
        "POST",
        "/api/admin/broadcasts",
        Some(json!({ "postId": first, "confirm": 1, "sendAt": at(120) })),
    )
    .await;
    assert_eq!(
        (status, a["status"].as_str(), a["recipients"].as_i64()),
        (201, Some("scheduled"), Some(0))
    );
    let (_, b) = call(
        &app,
        &token,
        "POST",
        "/api/admin/broadcasts",
        Some(json!({ "postId": second, "confirm": 1, "sendAt": at(30) })),
    )
    .await;
    let (a, b) = (a["id"].as_i64().unwrap(), b["id"].as_i64().unwrap());
    let (status, body) = call(
        &app,
        &token,
        "POST",
        "/api/admin/broadcasts",
        Some(json!({ "postId": first, "confirm": 1, "sendAt": "next Tuesday" })),
    )
    .await;
    assert_eq!(status, 400, "{body}");

    // Nothing before its time.
    app.state.mail.deliver_due().await;
    assert!(smtp.received().is_empty());
    // The server was down from before the second's time until 95 minutes after it.
    advance(&app, 125);
    app.state.mail.deliver_due().await;
    let got = smtp.received();
    assert_eq!(
        got.iter()
            .map(|m| m.header("Subject").unwrap())
            .collect::<Vec<_>>(),
        ["First"],
        "the one on time went"
    );
    assert_eq!(counts(&app, &token, a).await.5, "sent");
    assert_eq!(
        counts(&app, &token, b).await.5,
        "missed",
        "not sent by itself"
    );
    // Staff choose: send now (typing the count), and it goes.
    let (status, body) = call(
        &app,
        &token,
        "POST",
        &format!("/api/admin/broadcasts/{b}/send"),
        Some(json!({ "confirm": 2 })),
    )
    .await;
    assert_eq!(status, 409, "{body}");
    let (status, body) = call(
        &app,
        &token,
        "POST",
        &format!("/api/admin/broadcasts/{b}/send"),
        Some(json!({ "confirm": 1 })),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    app.state.mail.deliver_due().await;
    assert_eq!(smtp.received().len(), 2);
    // A send that started cannot be called off.
    let (status, _) = call(
        &app,
        &token,
        "POST",
        &format!("/api/admin/broadcasts/{b}/cancel"),
        None,
    )
    .await;
    assert_eq!(status, 409);
}

#[tokio::test]
async fn a_scheduled_send_can_be_called_off() {
    let smtp = Smtp::start();
    let app = app_with(&smtp, None).await;
    let token = app.login().await;
    let post = published(&app, &token, "Called off").await;
    subscribers(&app, &[("ann@example.org", "confirmed")]).await;
    let at = (app.state.clock.now() + jiff::SignedDuration::from_hours(2)).to_string();
    let (_, s) = call(
        &app,
        &token,
        "POST",
        "/api/admin/broadcasts",
        Some(json!({ "postId": post, "confirm": 1, "sendAt": at })),
    )
    .await;
    let id = s["id"].as_i64().unwrap();
    let (status, body) = call(
        &app,
        &token,
        "POST",
        &format!("/api/admin/broadcasts/{id}/cancel"),
        None,
    )
    .await;
    assert_eq!((status, body["status"].as_str()), (200, Some("cancelled")));
    advance(&app, 180);
    app.state.mail.deliver_due().await;
    assert!(smtp.received().is_empty());
    // A cancelled send does not count as sent: the post may be sent afresh.
    let (status, _) = call(
        &app,
        &token,
        "POST",
        "/api/admin/broadcasts",
        Some(json!({ "postId": post, "confirm": 1 })),
    )
    .await;
    assert_eq!(status, 201);
}

#[tokio::test]
async fn the_hourly_rate_holds_across_a_restart_and_personal_mail_is_not_held_by_it() {
    let smtp = Smtp::start();
    let app = app_with(&smtp, Some("2/h")).await;
    let token = app.login().await;
    let post = published(&app, &token, "Rate").await;
    subscribers(
        &app,
        &[
            ("a@example.org", "confirmed"),
            ("b@example.org", "confirmed"),
            ("c@example.org", "confirmed"),
        ],
    )
    .await;
    let (_, s) = call(
        &app,
        &token,
        "POST",
        "/api/admin/broadcasts",
        Some(json!({ "postId": post, "confirm": 3 })),
    )
    .await;
    let id = s["id"].as_i64().unwrap();
    app.state.mail.deliver_due().await;
    assert_eq!(smtp.received().len(), 2, "two an hour");
    // A contact message (mail a person waits for) still goes at once.
    let res = app
        .post_json("/api/contact", &json!({ "name": "Ann", "email": "ann@example.org", "subject": "Hi", "message": "Hello" }).to_string())
        .await;
    assert_eq!(res.status(), 201);
    app.state.mail.deliver_due().await;
    assert_eq!(smtp.received().len(), 3);
    assert_eq!(
        smtp.received()[2].header("Subject").as_deref(),
        Some("Contact form: Hi")
    );

    let app = app.restart(|_| {}).await;
    app.state.mail.deliver_due().await;
    assert_eq!(
        smtp.received().len(),
        3,
        "a restart does not start a new hour"
    );
    advance(&app, 61);
    app.state.mail.deliver_due().await;
    assert_eq!(smtp.received().len(), 4);
    // The session outlives the restart.

    assert_eq!(
        counts(&app, &token, id).await,
        (0, 3, 0, 0, 3, "sent".into())
    );
}

#[tokio::test]
async fn mail_a_person_waits_for_goes_ahead_of_a_send_to_the_list() {
    let smtp = Smtp::start();
    let app = app_with(&smtp, None).await;
    let token = app.login().await;
    let post = published(&app, &token, "Big send").await;
    let people: Vec<String> = (0..300).map(|n| format!("p{n}@example.org")).collect();
    let rows: Vec<(&str, &str)> = people.iter().map(|e| (e.as_str(), "confirmed")).collect();
    subscribers(&app, &rows).await;
    let (status, _) = call(
        &app,
        &token,
        "POST",
        "/api/admin/broadcasts",
        Some(json!({ "postId": post, "confirm": 300 })),
    )
    .await;
    assert_eq!(status, 201);
    // The sender is started by the send; a contact message arrives while it runs.
    let res = app
        .post_json("/api/contact", &json!({ "name": "Ann", "email": "ann@example.org", "subject": "Urgent", "message": "Hello" }).to_string())
        .await;
    assert_eq!(res.status(), 201);
    app.state.mail.deliver_due().await;
    let got = smtp.wait_for(301).await;
    let at = got
        .iter()
        .position(|m| m.header("Subject").as_deref() == Some("Contact form: Urgent"))
        .unwrap();
    assert!(
        at < 300,
        "the alert did not wait for the whole list (it came {at}th)"
    );
    // Exactly one each.
    let mut to: Vec<String> = got.iter().map(to_of).collect();
    to.sort();
    to.dedup();
    assert_eq!(to.len(), 301);
}

#[tokio::test]
async fn a_test_copy_goes_to_the_staff_member_asking_and_bad_requests_are_refused() {
    let smtp = Smtp::start();
    let app = app_with(&smtp, None).await;
    let token = app.login().await;
    let post = published(&app, &token, "Test me").await;
    let (status, body) = call(
        &app,
        &token,
        "POST",
        "/api/admin/broadcasts/test",
        Some(json!({ "postId": post, "subject": "Our news" })),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    app.state.mail.deliver_due().await;
    let got = smtp.received();
    assert_eq!(got.len(), 1);
    assert_eq!(to_of(&got[0]), body["to"].as_str().unwrap());
    assert_eq!(got[0].header("Subject").as_deref(), Some("[Test] Our news"));
    assert_eq!(app.count("broadcasts").await, 0, "a test is not a send");

    let draft = {
        let res = app
            .admin(
                "POST",
                "/api/admin/blogs",
                &token,
                Some(json!({ "title": "Draft", "content": "<p>x</p>", "status": "draft" })),
            )
            .await;
        TestApp::json(&res)["id"].as_i64().unwrap()
    };
    for (path, body, want, says) in [
        (
            "/api/admin/broadcasts/preview",
            json!({ "postId": draft }),
            409,
            "Publish the post before mailing it",
        ),
        (
            "/api/admin/broadcasts/preview",
            json!({ "postId": 9999 }),
            404,
            "There is no blog post 9999.",
        ),
        (
            "/api/admin/broadcasts/preview",
            json!({ "postId": -1 }),
            400,
            "postId",
        ),
        (
            "/api/admin/broadcasts/preview",
            json!({ "postId": post, "subject": "x".repeat(151) }),
            400,
            "150 characters",
        ),
        (
            "/api/admin/broadcasts/preview",
            json!({ "subject": "no post" }),
            400,
            "",
        ),
        (
            "/api/admin/broadcasts",
            json!({ "postId": post, "confirm": "three" }),
            400,
            "",
        ),
        (
            "/api/admin/broadcasts/abc/retry",
            json!({}),
            400,
            "is not a send's id",
        ),
        (
            "/api/admin/broadcasts/77/retry",
            json!({}),
            404,
            "There is no send 77.",
        ),
        (
            "/api/admin/broadcasts/77/cancel",
            json!({}),
            404,
            "There is no send 77.",
        ),
    ] {
        let res = app.admin("POST", path, &token, Some(body.clone())).await;
        assert_eq!(res.status(), want, "{path} {body}: {:?}", res.body());
        assert!(message(&res).contains(says), "{path}: {}", message(&res));
    }
    let (status, _) = call(&app, &token, "GET", "/api/admin/broadcasts/77", None).await;
    assert_eq!(status, 404);
    let (status, _) = call(
        &app,
        &token,
        "GET",
        "/api/admin/broadcasts/1/recipients?status=everyone",
        None,
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(
        app.get("/api/admin/broadcasts").await.status(),
        401,
        "staff only"
    );
    // An Organizer keeps the list but does not mail it.
    let res = app
        .admin(
            "POST",
            "/api/admin/broadcasts/preview",
            &organizer(&app).await,
            Some(json!({ "postId": post })),
        )
        .await;
    assert_eq!(res.status(), 403);
    assert_eq!(
        message(&res),
        "Your role (Organizer) can't mail posts to the newsletter list."
    );
}

/// A signed-in Organizer's token.
async fn organizer(app: &TestApp) -> String {
    crate::staff::member(
        app,
        api::domain::staff::Role::Organizer,
        "org@party.example",
    )
    .await
    .token
}

fn sign(secret: &str, t: i64, body: &str) -> String {
    let mut mac = Hmac::<sha2::Sha256>::new_from_slice(secret.as_bytes()).unwrap();
    mac.update(format!("{t}.{body}").as_bytes());
    format!("t={t},v1={}", hex::encode(mac.finalize().into_bytes()))
}

async fn complaint(app: &TestApp, signature: Option<String>, body: &str) -> u16 {
    let mut req = warp::test::request()
        .method("POST")
        .path("/api/mail/complaints")
        .header("content-type", "application/json")
        .body(body);
    if let Some(signature) = signature {
        req = req.header("complaint-signature", signature);
    }
    req.reply(&app.app).await.status().as_u16()
}

#[tokio::test]
async fn staff_and_signed_complaint_notices_keep_the_suppression_list() {
    let smtp = Smtp::start();
    let app = app_with(&smtp, None).await;
    let token = app.login().await;
    let post = published(&app, &token, "Complaints").await;
    subscribers(
        &app,
        &[
            ("ann@example.org", "confirmed"),
            ("bo@example.org", "confirmed"),
            ("cy@example.org", "confirmed"),
        ],
    )
    .await;

    // A provider's notice: only when signed, fresh and well-formed.
    let now = app.state.clock.now().as_second();
    let body = r#"{"email":"Ann@Example.org","detail":"FBL report"}"#;
    assert_eq!(complaint(&app, None, body).await, 401);
    assert_eq!(
        complaint(&app, Some(sign("wrong", now, body)), body).await,
        401
    );
    assert_eq!(
        complaint(&app, Some(sign("complaint-secret", now - 600, body)), body).await,
        401,
        "replayed"
    );
    assert_eq!(
        complaint(&app, Some(sign("complaint-secret", now, "{}")), "{}").await,
        400
    );
    assert_eq!(
        complaint(&app, Some(sign("complaint-secret", now, body)), body).await,
        200
    );
    let stranger = r#"{"email":"never@example.org"}"#;
    assert_eq!(
        complaint(
            &app,
            Some(sign("complaint-secret", now, stranger)),
            stranger
        )
        .await,
        200,
        "the same answer for anyone"
    );

    // Staff record one from a provider's report, and another address they were asked to stop.
    let (status, _) = call(&app, &token, "POST", "/api/admin/suppressions", Some(json!({ "email": "bo@example.org", "reason": "complained", "detail": "Gmail postmaster" }))).await;
    assert_eq!(status, 201);
    let (status, body) = call(
        &app,
        &token,
        "POST",
        "/api/admin/suppressions",
        Some(json!({ "email": "bo@example.org", "reason": "staff" })),
    )
    .await;
    assert_eq!(
        (status, body["added"].as_bool()),
        (200, Some(false)),
        "already on it: {body}"
    );
    for bad in [
        json!({ "email": "not an address" }),
        json!({ "email": "x@example.org", "reason": "bounced" }),
        json!({}),
    ] {
        let (status, _) = call(
            &app,
            &token,
            "POST",
            "/api/admin/suppressions",
            Some(bad.clone()),
        )
        .await;
        assert_eq!(status, 400, "{bad}");
    }
    let (_, list) = call(&app, &token, "GET", "/api/admin/suppressions", None).await;
    assert_eq!(list["total"], 3);
    let reasons: Vec<(String, String)> = list["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["email"].as_str().unwrap().to_owned(),
                e["reason"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert!(
        reasons.contains(&("ann@example.org".into(), "complained".into())),
        "{reasons:?}"
    );
    assert!(
        reasons.contains(&("bo@example.org".into(), "complained".into())),
        "{reasons:?}"
    );

    // Every send respects it.
    let (_, preview) = call(
        &app,
        &token,
        "POST",
        "/api/admin/broadcasts/preview",
        Some(json!({ "postId": post })),
    )
    .await;
    assert_eq!(preview["recipients"], 1);
    let (status, _) = call(
        &app,
        &token,
        "POST",
        "/api/admin/broadcasts",
        Some(json!({ "postId": post, "confirm": 1 })),
    )
    .await;
    assert_eq!(status, 201);
    app.state.mail.deliver_due().await;
    assert_eq!(
        smtp.received().iter().map(to_of).collect::<Vec<_>>(),
        ["cy@example.org"]
    );
}

#[tokio::test]
async fn without_a_secret_complaint_notices_are_not_taken() {
    let app = TestApp::new();
    let body = r#"{"email":"a@example.org"}"#;
    assert_eq!(
        complaint(
            &app,
            Some(sign("x", app.state.clock.now().as_second(), body)),
            body
        )
        .await,
        404
    );
}

#[tokio::test]
async fn a_plain_newsletter_is_written_like_a_post_never_published_and_mailed_without_a_page() {
    let smtp = Smtp::start();
    let app = app_with(&smtp, None).await;
    let token = app.login().await;
    subscribers(
        &app,
        &[
            ("ann@example.org", "confirmed"),
            ("bo@example.org", "confirmed"),
        ],
    )
    .await;
    let blogs = "/api/admin/blogs";
    let letter = |more: Value| {
        let mut body = json!({
            "title": "November newsletter",
            "content": "<p>Petitions are due on <a href=\"/take-action\">Friday</a>.</p>",
        });
        body.as_object_mut()
            .unwrap()
            .extend(more.as_object().unwrap().clone());
        body
    };

    // It cannot be made published, nor of a kind that does not exist.
    let (status, body) = call(
        &app,
        &token,
        "POST",
        blogs,
        Some(letter(
            json!({ "kind": "newsletter", "status": "published" }),
        )),
    )
    .await;
    assert_eq!(
        (status, message_of(&body)),
        (400, "A newsletter is not published on the website: save it as a draft, then send it by e-mail.".into())
    );
    let (status, body) = call(
        &app,
        &token,
        "POST",
        blogs,
        Some(letter(json!({ "kind": "letter" }))),
    )
    .await;
    assert_eq!(
        (status, message_of(&body)),
        (400, "kind must be post or newsletter.".into())
    );
    assert_eq!(app.count("blog_posts").await, 0, "nothing was stored");

    let (status, made) = call(
        &app,
        &token,
        "POST",
        blogs,
        Some(letter(json!({ "kind": "newsletter" }))),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    assert_eq!(
        (made["kind"].as_str(), made["status"].as_str()),
        (Some("newsletter"), Some("draft"))
    );
    let id = made["id"].as_i64().unwrap();
    let slug = made["slug"].as_str().unwrap().to_owned();
    let one = format!("{blogs}/{id}");

    // Edited like a post; never turned into one, never published or scheduled.
    let (status, saved) = call(
        &app,
        &token,
        "PATCH",
        &one,
        Some(json!({ "title": "November news", "kind": "newsletter" })),
    )
    .await;
    assert_eq!(
        (status, saved["title"].as_str()),
        (200, Some("November news")),
        "{saved}"
    );
    let (status, body) = call(&app, &token, "PATCH", &one, Some(json!({ "kind": "post" }))).await;
    assert_eq!(status, 400, "{body}");
    let (status, body) = call(
        &app,
        &token,
        "PATCH",
        &one,
        Some(json!({ "status": "published" })),
    )
    .await;
    assert_eq!(status, 400, "{body}");
    let (status, body) = call(&app, &token, "POST", &format!("{one}/publish"), None).await;
    assert_eq!((status, message_of(&body)), (409, "A newsletter is not published on the website: save it as a draft, then send it by e-mail.".into()));
    let (status, body) = call(
        &app,
        &token,
        "POST",
        &format!("{one}/schedule"),
        Some(json!({ "publishDate": "2030-01-01T09:00" })),
    )
    .await;
    assert_eq!(status, 409, "{body}");
    let (_, stored) = call(&app, &token, "GET", &one, None).await;
    assert_eq!(
        (stored["status"].as_str(), stored["kind"].as_str()),
        (Some("draft"), Some("newsletter"))
    );
    let (_, list) = call(&app, &token, "GET", blogs, None).await;
    assert_eq!(list["blogs"][0]["kind"], "newsletter", "{list}");
    // A post made without a kind is a post.
    let post = published(&app, &token, "A post").await;
    let (_, stored) = call(&app, &token, "GET", &format!("{blogs}/{post}"), None).await;
    assert_eq!(stored["kind"], "post");

    // Mailed: the preview and each message carry no "view on the website" link.
    let (status, preview) = call(
        &app,
        &token,
        "POST",
        "/api/admin/broadcasts/preview",
        Some(json!({ "postId": id })),
    )
    .await;
    assert_eq!(status, 200, "{preview}");
    assert_eq!(
        (preview["subject"].as_str(), preview["recipients"].as_i64()),
        (Some("November news"), Some(2))
    );
    assert!(preview["url"].is_null(), "{preview}");
    let html = preview["html"].as_str().unwrap();
    assert!(
        html.contains(r#"href="https://example.org/take-action""#),
        "{html}"
    );
    assert!(!html.contains("View this post on the website"), "{html}");
    assert!(
        html.contains("Paid for by") && html.contains("100 Main Street"),
        "{html}"
    );
    let (status, sent) = call(
        &app,
        &token,
        "POST",
        "/api/admin/broadcasts",
        Some(json!({ "postId": id, "confirm": 2 })),
    )
    .await;
    assert_eq!(status, 201, "{sent}");
    app.state.mail.deliver_due().await;
    let got = smtp.received();
    let mut to: Vec<String> = got.iter().map(to_of).collect();
    to.sort();
    assert_eq!(to, ["ann@example.org", "bo@example.org"]);
    for m in &got {
        assert_eq!(m.header("Subject").as_deref(), Some("November news"));
        assert!(
            m.text().contains("Petitions are due on [Friday]"),
            "{}",
            m.text()
        );
        assert!(
            !m.text().contains("/blog/"),
            "no page to link: {}",
            m.text()
        );
        assert!(!m.html().contains("View this post on the website"));
        assert!(m.header("List-Unsubscribe").is_some());
    }
    let (status, _) = call(
        &app,
        &token,
        "POST",
        "/api/admin/broadcasts",
        Some(json!({ "postId": id, "confirm": 2 })),
    )
    .await;
    assert_eq!(status, 409, "a second send is refused like a post's");

    // Nowhere public: not in the blog's list or API, no page, not in the feed or sitemap.
    for path in [
        "/api/blogs",
        "/blog",
        "/blog/feed.xml",
        "/blog/sitemap-1.xml",
    ] {
        let res = app.get(path).await;
        assert_eq!(res.status(), 200, "{path}");
        let body = crate::common::text(&res);
        assert!(
            !body.contains("November news") && !body.contains(&slug),
            "{path} shows the newsletter"
        );
    }
    assert_eq!(app.get(&format!("/api/blogs/{slug}")).await.status(), 404);
    assert_eq!(app.get(&format!("/blog/{slug}")).await.status(), 404);
}

#[tokio::test]
async fn a_role_that_mails_the_list_but_may_not_read_it_sees_counts_and_reasons_not_addresses() {
    let smtp = Smtp::start();
    let app = app_with(&smtp, None).await;
    let owner = app.login().await;
    let editor = crate::staff::member(&app, api::domain::staff::Role::Editor, "ed@party.example")
        .await
        .token;
    let post = published(&app, &editor, "Ballot access update").await;
    subscribers(
        &app,
        &[
            ("ann@example.org", "confirmed"),
            ("bo@example.org", "confirmed"),
            ("cy@example.org", "confirmed"),
        ],
    )
    .await;
    smtp.answer(Answer::TryLater);
    let (status, sent) = call(
        &app,
        &editor,
        "POST",
        "/api/admin/broadcasts",
        Some(json!({ "postId": post, "confirm": 3 })),
    )
    .await;
    assert_eq!(status, 201, "{sent}");
    let id = sent["id"].as_i64().unwrap();
    // Two unsubscribe while it waits (as their one-click links would).
    let now = app.state.clock.now();
    app.db
        .write(move |tx| {
            for who in ["bo@example.org", "cy@example.org"] {
                api::domain::mail::broadcast::exclude(tx, who, "unsubscribed", now)?;
            }
            Ok(())
        })
        .await
        .unwrap();
    let path = format!("/api/admin/broadcasts/{id}/recipients?status=excluded");
    let (status, seen) = call(&app, &editor, "GET", &path, None).await;
    assert_eq!(status, 200, "{seen}");
    assert_eq!(seen["addressesHidden"], true);
    assert_eq!(seen["recipients"], json!([]));
    assert_eq!(
        seen["reasons"],
        json!([{ "answer": "unsubscribed", "count": 2 }])
    );
    let text = seen.to_string();
    assert!(!text.contains("@example.org"), "{text}");
    let (_, queued) = call(
        &app,
        &editor,
        "GET",
        &format!("/api/admin/broadcasts/{id}/recipients?status=queued"),
        None,
    )
    .await;
    assert!(!queued.to_string().contains("ann@"), "{queued}");
    // The counts are the Editor's to see.
    assert_eq!(counts(&app, &editor, id).await.3, 2);
    // A role that may read the list sees who.
    let (_, full) = call(&app, &owner, "GET", &path, None).await;
    assert_eq!(full["addressesHidden"], false);
    let who: Vec<&str> = full["recipients"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["email"].as_str().unwrap())
        .collect();
    assert_eq!(who, ["bo@example.org", "cy@example.org"]);
}

/// With the site's bundles missing (never built on this machine), a preview, a test copy
/// and a send say what is missing and how to build it (503), rather than a bare 500; once
/// built, the preview works without a restart.
#[tokio::test]
async fn mailing_without_the_sites_bundles_says_what_to_build() {
    let (dir, opts) = generator::fixture::project();
    generator::build(&opts, &generator::fixture::EchoRenderer).unwrap();
    let manifest = opts.client_dir.join(".vite/manifest.json");
    let kept = std::fs::read(&manifest).unwrap();
    std::fs::remove_file(&manifest).unwrap();
    let smtp = Smtp::start();
    let url = smtp.url();
    let app = TestApp::start_site_for_test(dir, opts, move |c| {
        c.mail.smtp_url = Some(url.clone());
        c.mail.staff_email = Some(super::STAFF.into());
    })
    .await;
    let token = app.login().await;
    let post = published(&app, &token, "Not built").await;
    for path in [
        "/api/admin/broadcasts/preview",
        "/api/admin/broadcasts/test",
    ] {
        let (status, body) =
            call(&app, &token, "POST", path, Some(json!({ "postId": post }))).await;
        assert_eq!(status, 503, "{path}: {body}");
        let said = body["message"].as_str().unwrap();
        assert!(
            said.contains(".vite/manifest.json is missing") && said.contains("just build"),
            "{said}"
        );
    }
    std::fs::write(&manifest, kept).unwrap();
    let (status, body) = call(
        &app,
        &token,
        "POST",
        "/api/admin/broadcasts/preview",
        Some(json!({ "postId": post })),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["subject"], "Not built");
}
