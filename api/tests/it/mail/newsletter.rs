//! Double opt-in over real SMTP: a signup is pending until the mailed link's page is
//! POSTed (a GET confirms nothing); confirming records the time and consent version and
//! sends a welcome with one-click unsubscribe; repeats reveal nothing, duplicate nothing
//! and send at most three confirmations a day to a mailbox (and put off those past the hour's
//! cap in all to an hour with room); links expire, cannot be forged, and a link from before an unsubscribe subscribes
//! nobody; unsubscribing works by page or by one-click POST, without signing in.

use serde_json::Value;

use super::smtp::{Received, Smtp};
use super::{advance, mail_app, queue};
use crate::common::{TestApp, text};

const SIGNUP: &str = "/api/newsletter-signup";

async fn sign_up(app: &TestApp, email: &str) -> warp::http::Response<bytes::Bytes> {
    let res = app
        .post_json(
            SIGNUP,
            &format!(r#"{{"email":"{email}","zipCode":"12345"}}"#),
        )
        .await;
    assert_eq!(res.status(), 201, "{:?}", res.body());
    res
}

/// The path of the first link under `prefix` in a message's text.
fn link(message: &Received, prefix: &str) -> String {
    let text = message.text();
    let at = text
        .find(&format!("https://example.org{prefix}"))
        .unwrap_or_else(|| panic!("no {prefix} link in {text}"));
    let url: String = text[at..]
        .chars()
        .take_while(|c| !c.is_whitespace())
        .collect();
    url.trim_start_matches("https://example.org").to_owned()
}

async fn status(app: &TestApp) -> (String, Option<String>, Option<String>, Option<String>) {
    app.db
        .read(|c| {
            c.query_row(
                "SELECT status, confirmed_at, consent_version, unsubscribed_at FROM newsletter_signups",
                [],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
            )
        })
        .await
        .unwrap()
}

async fn post(app: &TestApp, path: &str, body: &str) -> warp::http::Response<bytes::Bytes> {
    warp::test::request()
        .method("POST")
        .path(path)
        .header("content-type", "application/x-www-form-urlencoded")
        .body(body)
        .reply(&app.app)
        .await
}

#[tokio::test]
async fn confirm_by_post_then_welcome_with_one_click_unsubscribe() {
    let smtp = Smtp::start();
    let app = mail_app(&smtp, |_| {});
    sign_up(&app, "Ada@Example.org").await;
    assert_eq!(status(&app).await.0, "pending");
    app.state.mail.deliver_due().await;
    let got = smtp.received();
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].to, ["Ada@Example.org"]);
    assert_eq!(
        got[0].header("Subject").unwrap(),
        "Confirm your subscription"
    );
    let confirm = link(&got[0], "/newsletter/confirm/");

    // A scanner fetching the link confirms nothing; the page has the button.
    let page = app.get(&confirm).await;
    assert_eq!(page.status(), 200);
    assert_eq!(page.headers()["cache-control"], "no-store");
    let html = text(&page);
    assert!(
        html.contains(&format!("<form method=\"post\" action=\"{confirm}\"")),
        "{html}"
    );
    assert!(html.contains(">Confirm</button>"), "{html}");
    // In the site's own layout (the generator's shell), titled for what it asks.
    assert!(
        html.starts_with("<title>Confirm your subscription</title>"),
        "{html}"
    );
    assert!(
        html.contains("By confirming, you agree"),
        "the consent text: {html}"
    );
    assert!(!html.contains("<script"), "works without JavaScript");
    assert_eq!(status(&app).await.0, "pending");

    let done = post(&app, &confirm, "").await;
    assert_eq!(done.status(), 200);
    assert!(text(&done).contains("You are subscribed"));
    let (state, at, version, _) = status(&app).await;
    assert_eq!(state, "confirmed");
    assert!(at.is_some());
    assert_eq!(version.as_deref(), Some("2026-11-25"));
    // Confirming again sends no second welcome.
    assert_eq!(post(&app, &confirm, "").await.status(), 200);

    app.state.mail.deliver_due().await;
    let got = smtp.received();
    assert_eq!(got.len(), 2, "the confirmation and one welcome");
    let welcome = &got[1];
    let unsubscribe = link(welcome, "/newsletter/unsubscribe/");
    assert_eq!(
        welcome.header("List-Unsubscribe").unwrap(),
        format!("<https://example.org{unsubscribe}>")
    );
    assert_eq!(
        welcome.header("List-Unsubscribe-Post").unwrap(),
        "List-Unsubscribe=One-Click"
    );

    // A minute later: the page shows a button and changes nothing; the one-click POST
    // (RFC 8058) works with no page, no session and no cookie.
    advance(&app, 1);
    let page = app.get(&unsubscribe).await;
    assert!(text(&page).contains(">Unsubscribe</button>"));
    assert_eq!(status(&app).await.0, "confirmed");
    let res = post(&app, &unsubscribe, "List-Unsubscribe=One-Click").await;
    assert_eq!(res.status(), 200);
    let (state, _, _, unsubscribed_at) = status(&app).await;
    assert_eq!(state, "unsubscribed");
    assert!(unsubscribed_at.is_some());
    assert_eq!(
        post(&app, &unsubscribe, "").await.status(),
        200,
        "twice is fine"
    );

    // Staff see the status, and the export has the three new columns.
    let token = app.login().await;
    let list = TestApp::json(
        &app.admin("GET", "/api/admin/newsletters", &token, None)
            .await,
    );
    assert_eq!(list[0]["status"], "Unsubscribed");
    assert!(list[0]["confirmedAt"].is_string() && list[0]["unsubscribedAt"].is_string());
    let csv = text(
        &app.admin("GET", "/api/admin/newsletters/export", &token, None)
            .await,
    );
    let header = csv.lines().next().unwrap();
    assert!(
        header.contains("Status,Confirmed At,Unsubscribed At"),
        "{header}"
    );
    assert!(
        csv.lines().nth(1).unwrap().contains(",Unsubscribed,"),
        "{csv}"
    );

    // The old confirmation link, still in the mailbox, does not subscribe Ada again, nor
    // rewrite when she unsubscribed.
    let before = status(&app).await;
    let res = post(&app, &confirm, "").await;
    assert_eq!(res.status(), 410);
    assert!(text(&res).contains("This link has expired"));
    assert_eq!(status(&app).await, before);

    // Signing up again sends a new confirmation; until it is used, still unsubscribed.
    sign_up(&app, "ada@example.org").await;
    app.state.mail.deliver_due().await;
    assert_eq!(smtp.received().len(), 3);
    assert_eq!(status(&app).await.0, "unsubscribed");
    assert_eq!(app.count("newsletter_signups").await, 1);
    // The new link subscribes her again; when she unsubscribed stays on the record.
    let again = link(&smtp.received()[2], "/newsletter/confirm/");
    assert_ne!(again, confirm);
    assert_eq!(post(&app, &again, "").await.status(), 200);
    let (state, _, _, unsubscribed_at) = status(&app).await;
    assert_eq!(state, "confirmed");
    assert_eq!(unsubscribed_at, before.3);
}

/// An unsubscribe outlives every link mailed before it (CAN-SPAM), however soon after the
/// confirmation it comes: the same second, here.
#[tokio::test]
async fn an_old_confirmation_link_never_subscribes_an_address_that_unsubscribed() {
    let smtp = Smtp::start();
    let app = mail_app(&smtp, |_| {});
    sign_up(&app, "ada@example.org").await;
    app.state.mail.deliver_due().await;
    let confirm = link(&smtp.received()[0], "/newsletter/confirm/");
    assert_eq!(post(&app, &confirm, "").await.status(), 200);
    app.state.mail.deliver_due().await;
    let unsubscribe = link(&smtp.received()[1], "/newsletter/unsubscribe/");
    assert_eq!(
        post(&app, &unsubscribe, "List-Unsubscribe=One-Click")
            .await
            .status(),
        200
    );
    assert_eq!(status(&app).await.0, "unsubscribed");
    // The first link again, posted at once: out of date, and nothing changes.
    let res = post(&app, &confirm, "").await;
    assert_eq!(res.status(), 410);
    assert_eq!(status(&app).await.0, "unsubscribed");
    assert_eq!(
        app.get(&confirm).await.status(),
        410,
        "its page says so too"
    );
    // Nor does a second signup's pending link revive the first: only the new link works.
    sign_up(&app, "ada@example.org").await;
    app.state.mail.deliver_due().await;
    assert_eq!(post(&app, &confirm, "").await.status(), 410);
    assert_eq!(status(&app).await.0, "unsubscribed");
    let again = link(smtp.received().last().unwrap(), "/newsletter/confirm/");
    assert_eq!(post(&app, &again, "").await.status(), 200);
    assert_eq!(status(&app).await.0, "confirmed");
}

/// Three confirmations a day go to one mailbox however its address is spelt (a `+tag`,
/// Gmail's dots): the form floods nobody.
#[tokio::test]
async fn confirmations_are_capped_per_mailbox() {
    let smtp = Smtp::start();
    let app = mail_app(&smtp, |_| {});
    for email in [
        "ann.lee+news@gmail.com",
        "annlee+x@gmail.com",
        "Ann.Lee@googlemail.com",
        "a.n.n.l.e.e@gmail.com",
        "annlee@gmail.com",
    ] {
        sign_up(&app, email).await;
    }
    assert_eq!(
        app.count("newsletter_signups").await,
        5,
        "each spelling is stored"
    );
    app.state.mail.deliver_due().await;
    assert_eq!(smtp.received().len(), 3, "one mailbox, three a day");
}

/// Sets the site's count of confirmations queued in the current hour (UTC, as the counts
/// are kept) to `sent`.
async fn hour_count(app: &TestApp, sent: i64) {
    let period = app.state.clock.now().strftime("%Y-%m-%dT%H").to_string();
    app.db
        .write(move |c| {
            c.execute(
                "INSERT INTO confirm_mail_counts (mailbox_key, period, sent) VALUES ('*', ?1, ?2) \
                 ON CONFLICT (mailbox_key, period) DO UPDATE SET sent = ?2",
                rusqlite::params![period, sent],
            )
        })
        .await
        .unwrap();
}

/// Moves the clock to 30 s into the next hour.
fn into_next_hour(app: &TestApp) {
    let second = app.state.clock.now().as_second().rem_euclid(3600) as u64;
    app.state
        .clock
        .advance(std::time::Duration::from_secs(3600 - second + 30));
}

/// Past the hour's cap in all (a flood from many networks must not make the party a spam
/// cannon) a confirmation is not dropped: it goes in the next hour, oldest first, and its
/// link works. Only one that waited a whole day is no longer sent; the form answers the
/// same throughout, and signing up again then gets one.
#[tokio::test]
async fn past_the_hours_cap_confirmations_wait_for_the_next_hour() {
    use api::domain::mail::newsletter::{CONFIRMATION_BACKLOG_HOURS, CONFIRMATIONS_PER_HOUR};
    let smtp = Smtp::start();
    let app = mail_app(&smtp, |_| {});
    // Who got confirmations (staff are told when the hour fills: see below).
    let to = |smtp: &Smtp| {
        smtp.received()
            .iter()
            .map(|m| m.to.join(","))
            .filter(|to| to != "staff@party.example")
            .collect::<Vec<_>>()
    };
    // The hour has room for one more.
    hour_count(&app, CONFIRMATIONS_PER_HOUR - 1).await;
    let first = sign_up(&app, "in-time@example.org").await;
    let later = sign_up(&app, "next-hour@example.org").await;
    let last = sign_up(&app, "after-that@example.org").await;
    assert_eq!(later.body(), first.body());
    assert_eq!(last.body(), first.body());
    app.state.mail.deliver_due().await;
    assert_eq!(to(&smtp), ["in-time@example.org"]);
    into_next_hour(&app);
    app.state.mail.deliver_due().await;
    // Queued in the order they signed up (messages in one batch go on parallel
    // connections, so the order they arrive in is the server's).
    let queued: Vec<String> = app
        .db
        .read(|c| {
            c.prepare(
                "SELECT to_address FROM mail_queue WHERE kind = 'newsletter_confirm' ORDER BY id",
            )?
            .query_map([], |r| r.get(0))?
            .collect()
        })
        .await
        .unwrap();
    let order = [
        "in-time@example.org",
        "next-hour@example.org",
        "after-that@example.org",
    ];
    assert_eq!(queued, order, "the rest in the order they signed up");
    let mut arrived = to(&smtp);
    arrived.sort_by_key(|to| order.iter().position(|o| o == to));
    assert_eq!(arrived, order, "all three sent");
    let next_hour = smtp
        .received()
        .into_iter()
        .find(|m| m.to == ["next-hour@example.org"])
        .unwrap();
    let confirm = link(&next_hour, "/newsletter/confirm/");
    assert_eq!(post(&app, &confirm, "").await.status(), 200);

    // A whole day without room: that one is not sent (still pending), and a new signup
    // from the address later gets one.
    hour_count(&app, CONFIRMATIONS_PER_HOUR).await;
    let flooded = sign_up(&app, "flood@example.org").await;
    assert_eq!(flooded.body(), first.body());
    app.state.mail.deliver_due().await;
    let before = smtp.received().len();
    app.state.clock.advance(std::time::Duration::from_secs(
        CONFIRMATION_BACKLOG_HOURS as u64 * 3600 + 60,
    ));
    app.state.mail.deliver_due().await;
    assert_eq!(smtp.received().len(), before, "a day late is not sent");
    sign_up(&app, "flood@example.org").await;
    app.state.mail.deliver_due().await;
    assert_eq!(to(&smtp).last().unwrap(), "flood@example.org");
    assert_eq!(smtp.received().len(), before + 1);
}

#[tokio::test]
async fn repeats_reveal_nothing_duplicate_nothing_and_send_three_confirmations_a_day() {
    let smtp = Smtp::start();
    let app = mail_app(&smtp, |_| {});
    let first = sign_up(&app, "bo@example.org").await;
    // Signing up again before the mail went: still one confirmation owed.
    let again = sign_up(&app, "Bo@example.org").await;
    assert_eq!(again.body(), first.body());
    app.state.mail.deliver_due().await;
    assert_eq!(smtp.received().len(), 1, "one owed, one sent");
    for _ in 0..5 {
        let again = sign_up(&app, "BO@example.org").await;
        assert_eq!(again.body(), first.body());
        app.state.mail.deliver_due().await;
    }
    assert_eq!(app.count("newsletter_signups").await, 1);
    assert_eq!(smtp.received().len(), 3, "at most three a day");
    advance(&app, 24 * 60);
    sign_up(&app, "bo@example.org").await;
    app.state.mail.deliver_due().await;
    assert_eq!(smtp.received().len(), 4, "a new day, a new one");

    // Confirmed: signing up again sends nothing.
    let confirm = link(&smtp.received()[3], "/newsletter/confirm/");
    assert_eq!(post(&app, &confirm, "").await.status(), 200);
    app.state.mail.deliver_due().await;
    let before = smtp.received().len();
    let again = sign_up(&app, "bo@example.org").await;
    assert_eq!(again.body(), first.body());
    app.state.mail.deliver_due().await;
    assert_eq!(smtp.received().len(), before);
    assert!(queue(&app).await.iter().all(|r| r.1 == "sent"));
}

/// An address is one signup however it is cased, outside ASCII too (SQLite's NOCASE folds
/// only A-Z; people are matched as Rust lower-cases them): one row, one confirmation, and
/// the spelling first typed is kept.
#[tokio::test]
async fn an_address_outside_ascii_is_one_signup_however_it_is_cased() {
    let smtp = Smtp::start();
    let app = mail_app(&smtp, |_| {});
    let first = sign_up(&app, "ZOË@example.org").await;
    let again = sign_up(&app, "zoë@example.org").await;
    assert_eq!(again.body(), first.body());
    app.state.mail.deliver_due().await;
    assert_eq!(app.count("newsletter_signups").await, 1);
    // Every confirmation queued is the one signup's (the background sender may have queued
    // the first before the second casing came: a repeat then is owed another, by design).
    let keys: Vec<String> = app
        .db
        .read(|c| {
            c.prepare("SELECT event_key FROM mail_queue")?
                .query_map([], |r| r.get(0))?
                .collect()
        })
        .await
        .unwrap();
    assert!(!keys.is_empty());
    let id: i64 = app
        .db
        .read(|c| c.query_row("SELECT id FROM newsletter_signups", [], |r| r.get(0)))
        .await
        .unwrap();
    assert!(
        keys.iter()
            .all(|k| k.starts_with(&format!("newsletter-confirm:{id}:"))),
        "one signup's confirmations: {keys:?}"
    );
    let typed: String = app
        .db
        .read(|c| c.query_row("SELECT email FROM newsletter_signups", [], |r| r.get(0)))
        .await
        .unwrap();
    assert_eq!(typed, "ZOË@example.org");
}

#[tokio::test]
async fn links_expire_after_seven_days_and_cannot_be_forged() {
    let smtp = Smtp::start();
    let app = mail_app(&smtp, |_| {});
    sign_up(&app, "cy@example.org").await;
    app.state.mail.deliver_due().await;
    let confirm = link(&smtp.received()[0], "/newsletter/confirm/");

    let forged = format!("{}0", &confirm[..confirm.len() - 1]);
    let forged = if forged == confirm {
        format!("{}1", &confirm[..confirm.len() - 1])
    } else {
        forged
    };
    for path in [
        forged.as_str(),
        "/newsletter/confirm/1-1-00",
        "/newsletter/confirm/x",
        "/newsletter/unsubscribe/1-deadbeef",
    ] {
        assert_eq!(app.get(path).await.status(), 404, "{path}");
        assert_eq!(post(&app, path, "").await.status(), 404, "{path}");
    }
    let long = format!("/newsletter/confirm/{}", "9".repeat(5000));
    assert_eq!(post(&app, &long, "").await.status(), 404);

    advance(&app, 7 * 24 * 60 + 1);
    let res = post(&app, &confirm, "").await;
    assert_eq!(res.status(), 410);
    assert!(text(&res).contains("This link has expired"));
    assert_eq!(status(&app).await.0, "pending");
    let _: Option<Value> = None;
}

/// An unsubscribe link names its signup and its address: once that signup is deleted, the
/// link does nothing to whoever signs up next and gets its number.
#[tokio::test]
async fn an_unsubscribe_link_works_only_for_its_own_address() {
    let smtp = Smtp::start();
    let app = mail_app(&smtp, |_| {});
    sign_up(&app, "first@example.org").await;
    app.state.mail.deliver_due().await;
    let confirm = link(&smtp.received()[0], "/newsletter/confirm/");
    assert_eq!(post(&app, &confirm, "").await.status(), 200);
    app.state.mail.deliver_due().await;
    let unsubscribe = link(&smtp.received()[1], "/newsletter/unsubscribe/");
    let token = app.login().await;
    let id: i64 = app
        .db
        .read(|c| c.query_row("SELECT id FROM newsletter_signups", [], |r| r.get(0)))
        .await
        .unwrap();
    let res = app
        .admin(
            "DELETE",
            &format!("/api/admin/newsletters/{id}"),
            &token,
            None,
        )
        .await;
    assert_eq!(res.status(), 200);
    sign_up(&app, "second@example.org").await;
    let again: i64 = app
        .db
        .read(|c| c.query_row("SELECT id FROM newsletter_signups", [], |r| r.get(0)))
        .await
        .unwrap();
    assert_eq!(again, id, "the number is given again");
    assert_eq!(app.get(&unsubscribe).await.status(), 404);
    assert_eq!(
        post(&app, &unsubscribe, "List-Unsubscribe=One-Click")
            .await
            .status(),
        404
    );
    assert_eq!(
        status(&app).await.0,
        "pending",
        "the second signup is untouched"
    );
}

/// A confirmation is queued and written by the sender, not by the signup's write; sent
/// again (its record lost in a crash, here undone by hand) it is the same message: the same
/// Message-ID and the same link, which works.
#[tokio::test]
async fn a_confirmation_sent_again_is_the_same_message() {
    let smtp = Smtp::start();
    let app = mail_app(&smtp, |_| {});
    sign_up(&app, "Dee@Example.org").await;
    app.state.mail.deliver_due().await;
    app.db
        .write(|c| {
            c.execute(
                "UPDATE mail_queue SET status = 'queued', sent_at = NULL",
                [],
            )
        })
        .await
        .unwrap();
    app.state.mail.deliver_due().await;
    let got = smtp.received();
    assert_eq!(got.len(), 2);
    assert_eq!(got[0].to, ["Dee@Example.org"]);
    let id = got[0].header("Message-ID").expect("a Message-ID");
    assert_eq!(got[1].header("Message-ID").as_deref(), Some(id.as_str()));
    let confirm = link(&got[0], "/newsletter/confirm/");
    assert_eq!(link(&got[1], "/newsletter/confirm/"), confirm);
    assert_eq!(post(&app, &confirm, "").await.status(), 200);
    assert_eq!(status(&app).await.0, "confirmed");
}

/// A signup from `ip`, answered like every other.
async fn sign_up_from(app: &TestApp, email: &str, ip: std::net::IpAddr) -> bytes::Bytes {
    let res = app
        .post_from(
            SIGNUP,
            &format!(r#"{{"email":"{email}","zipCode":"12345"}}"#),
            ip,
        )
        .await;
    assert_eq!(res.status(), 201, "{:?}", res.body());
    res.into_body()
}

/// A crowd from many networks gets its confirmations at once, while one network signing up
/// strangers by the dozen gets its hour's share and waits for the next hour for the rest
/// (an IPv6 /64 and an IPv4 /24 are each one network): the abuser cannot hold up everyone
/// else. The form answers the same for all.
#[tokio::test]
async fn one_network_gets_its_share_of_the_hour_and_a_crowd_from_many_is_not_held_up() {
    use api::domain::mail::newsletter::CONFIRMATIONS_PER_NETWORK_HOUR;
    let smtp = Smtp::start();
    let app = mail_app(&smtp, |_| {});
    let share = CONFIRMATIONS_PER_NETWORK_HOUR as usize;
    // The abuser first (oldest, so at the head of the queue), from addresses across a /64.
    let flood = share + 10;
    let mut answers = std::collections::HashSet::new();
    for i in 0..flood {
        let ip: std::net::IpAddr = format!("2001:db8:7:7::{:x}", i + 1).parse().unwrap();
        answers.insert(sign_up_from(&app, &format!("stranger{i}@example.org"), ip).await);
    }
    // Then a crowd: 4 people on each of 25 networks, two of them IPv4 /24s' neighbours.
    for net in 0..25u8 {
        for person in 0..4u8 {
            let ip = std::net::IpAddr::from([192, 0, net, 10 + person]);
            answers
                .insert(sign_up_from(&app, &format!("reader{net}-{person}@example.org"), ip).await);
        }
    }
    assert_eq!(answers.len(), 1, "every signup answered alike");
    app.state.mail.deliver_due().await;
    let received = smtp.received();
    let to = |prefix: &str| {
        received
            .iter()
            .filter(|m| m.to.iter().any(|t| t.starts_with(prefix)))
            .count()
    };
    assert_eq!(to("reader"), 100, "the crowd all got theirs at once");
    assert_eq!(to("stranger"), share, "the flood's network got its share");
    // The next hour, the rest of that network's.
    into_next_hour(&app);
    app.state.mail.deliver_due().await;
    let received = smtp.received();
    let strangers = received
        .iter()
        .filter(|m| m.to.iter().any(|t| t.starts_with("stranger")))
        .count();
    assert_eq!(strangers, flood, "the rest went the next hour");
    assert_eq!(received.len(), 100 + flood, "each exactly once");
}

/// The ceiling for everyone is a setting (`CONFIRMATIONS_PER_HOUR`); reaching it tells
/// staff once that hour, and the rest wait for the next hour.
#[tokio::test]
async fn reaching_the_hours_ceiling_tells_staff_once() {
    let smtp = Smtp::start();
    let app = mail_app(&smtp, |c| c.mail.confirmations_per_hour = Some("5".into()));
    for i in 0..8u8 {
        sign_up_from(&app, &format!("p{i}@example.org"), [198, 51, i, 1].into()).await;
    }
    app.state.mail.deliver_due().await;
    let to_staff = |smtp: &Smtp| {
        smtp.received()
            .into_iter()
            .filter(|m| m.to.iter().any(|t| t.contains("staff@party.example")))
            .collect::<Vec<_>>()
    };
    let alerts = to_staff(&smtp);
    assert_eq!(alerts.len(), 1, "staff are told");
    assert!(
        alerts[0].text().contains("ceiling of 5"),
        "{}",
        alerts[0].text()
    );
    assert!(alerts[0].text().contains("CONFIRMATIONS_PER_HOUR"));
    assert_eq!(smtp.received().len(), 5 + 1);
    // More signups that hour: no second alert.
    sign_up_from(&app, "late@example.org", [198, 51, 200, 1].into()).await;
    app.state.mail.deliver_due().await;
    assert_eq!(to_staff(&smtp).len(), 1, "once an hour");
    into_next_hour(&app);
    app.state.mail.deliver_due().await;
    assert_eq!(
        smtp.received().len(),
        9 + 1,
        "the four waiting went the next hour"
    );
}

/// A ceiling that is not a whole number above 0 stops the start with what to fix.
#[tokio::test]
async fn a_bad_confirmations_ceiling_stops_the_start() {
    for bad in ["0", "-3", "lots"] {
        let dir = tempfile::tempdir().unwrap();
        let mut config = api::config::Config::for_tests(
            dir.path().to_path_buf(),
            dir.path().join("dist"),
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../generator/tests/fixtures/site/content"),
        );
        config.mail.confirmations_per_hour = Some(bad.into());
        let db = api::store::db::Db::open(&dir.path().join("site.db")).unwrap();
        let err = api::state::AppState::new(config, db).err().expect(bad);
        assert!(
            format!("{err:#}").contains("CONFIRMATIONS_PER_HOUR must be a whole number"),
            "{err:#}"
        );
    }
}
