//! The mail an RSVP brings: a confirmation with an invitation whose times a calendar reads
//! as the instant in the database, "You're in" when a seat opens, a change (same UID,
//! SEQUENCE + 1), a cancellation (METHOD:CANCEL), and the reminder the day before, exactly
//! once across a restart and again only when the time moves.

use serde_json::json;

use super::{event, ics_instant, ics_prop, invitation, local, published, rsvp};
use crate::common::TestApp;
use crate::mail::smtp::{Received, Smtp};
use crate::mail::{advance, mail_app};

/// The messages `who` got about their RSVP, leaving out the one that asked them to
/// confirm it (`rsvp` pressed its link; `the_form_mails_a_link_to_confirm_and_nothing_more`
/// reads it).
fn to<'a>(got: &'a [Received], who: &str) -> Vec<&'a Received> {
    got.iter()
        .filter(|m| m.to.iter().any(|t| t == who))
        .filter(|m| {
            !m.header("Subject")
                .is_some_and(|s| s.starts_with("Confirm your RSVP"))
        })
        .collect()
}

async fn starts_at(app: &TestApp, id: i64) -> jiff::Timestamp {
    app.db
        .read(move |c| {
            c.query_row("SELECT starts_at FROM events WHERE id = ?1", [id], |r| {
                r.get::<_, String>(0)
            })
        })
        .await
        .unwrap()
        .parse()
        .unwrap()
}

#[tokio::test]
async fn the_confirmation_carries_an_invitation_a_calendar_reads_as_the_same_instant() {
    let smtp = Smtp::start();
    let app = mail_app(&smtp, |_| {});
    let token = app.login().await;
    let mut body = event(&app, "Town hall", 72, Some(2));
    body["online"] = json!(true);
    body["videoLink"] = json!("https://meet.example/secret-room");
    let e = published(&app, &token, body).await;
    let (id, slug) = (
        e["id"].as_i64().unwrap(),
        e["slug"].as_str().unwrap().to_owned(),
    );
    let (status, answer) = rsvp(&app, &slug, "Ann Lee", "ann@example.org", 1).await;
    assert_eq!(status, 200);
    assert_eq!(answer, "You're going!");
    app.state.mail.deliver_due().await;
    let got = smtp.received();
    let mine = to(&got, "ann@example.org");
    assert_eq!(mine.len(), 1);
    let m = mine[0];
    assert_eq!(m.header("Subject").unwrap(), "You're going: Town hall");
    let text = m.text();
    assert!(
        text.contains("You're going to Town hall with 1 guest."),
        "{text}"
    );
    assert!(
        text.contains("Join online: https://meet.example/secret-room"),
        "{text}"
    );
    assert!(
        text.contains("https://calendar.google.com/calendar/render?action=TEMPLATE"),
        "{text}"
    );
    assert!(
        text.contains("https://example.org/events/rsvp/"),
        "the link to cancel: {text}"
    );
    let ics = invitation(m);
    assert!(m.data.contains("method=REQUEST"), "{}", m.data);
    assert!(
        m.data.contains("\r\nBEGIN:VCALENDAR\r\nVERSION:2.0\r\n"),
        "CRLF on the wire"
    );
    assert_eq!(ics_prop(&ics, "METHOD").unwrap().1, "REQUEST");
    assert_eq!(
        ics_prop(&ics, "UID").unwrap().1,
        format!("event-{id}@example.org")
    );
    assert_eq!(ics_prop(&ics, "SEQUENCE").unwrap().1, "0");
    assert_eq!(ics_instant(&ics, "DTSTART"), starts_at(&app, id).await);
    assert_eq!(
        ics_instant(&ics, "DTEND"),
        starts_at(&app, id).await + jiff::SignedDuration::from_hours(2)
    );
    assert!(ics.contains("ATTENDEE;CN=\"Ann Lee\""), "{ics}");
    // The same RSVP again, confirmed from her mailbox, changes nothing and mails nothing
    // more today: Ann keeps her seats, and her own link tells her so.
    assert_eq!(
        rsvp(&app, &slug, "Ann Lee", "ANN@example.org", 1).await.1,
        "You're going!"
    );
    app.state.mail.deliver_due().await;
    assert_eq!(to(&smtp.received(), "ann@example.org").len(), 1);
    // Full: the next one waits, and its mail has no invitation and no video link.
    assert_eq!(
        rsvp(&app, &slug, "Bo", "bo@example.org", 0).await.1,
        "You're on the waitlist"
    );
    app.state.mail.deliver_due().await;
    let got = smtp.received();
    let bo = to(&got, "bo@example.org");
    assert_eq!(
        bo[0].header("Subject").unwrap(),
        "You're on the waitlist: Town hall"
    );
    assert!(!bo[0].data.contains("text/calendar"));
    assert!(!bo[0].text().contains("secret-room"));
}

#[tokio::test]
async fn the_form_mails_a_link_to_confirm_and_nothing_more() {
    let smtp = Smtp::start();
    let app = mail_app(&smtp, |_| {});
    let token = app.login().await;
    let mut body = event(&app, "Town hall", 72, Some(2));
    body["online"] = json!(true);
    body["videoLink"] = json!("https://meet.example/secret-room");
    let e = published(&app, &token, body).await;
    let slug = e["slug"].as_str().unwrap().to_owned();
    assert_eq!(
        super::ask(&app, &slug, "Ann Lee", "ann@example.org", 1)
            .await
            .0,
        201
    );
    app.state.mail.deliver_due().await;
    let got = smtp.received();
    assert_eq!(got.len(), 1);
    let m = &got[0];
    assert!(
        m.to.iter().any(|t| t.contains("ann@example.org")),
        "{:?}",
        m.to
    );
    assert_eq!(m.header("Subject").unwrap(), "Confirm your RSVP: Town hall");
    let text = m.text();
    assert!(
        text.contains("To RSVP to Town hall with 1 guest, open this link and press Confirm:"),
        "{text}"
    );
    assert!(
        text.contains("https://example.org/events/rsvp/confirm/"),
        "{text}"
    );
    assert!(text.contains("It works for 24 hours."), "{text}");
    assert!(
        !text.contains("secret-room"),
        "no video link before the mailbox answers: {text}"
    );
    assert!(!m.data.contains("text/calendar"), "no invitation yet");
    assert_eq!(app.count("event_rsvps").await, 0, "nothing held");
}

#[tokio::test]
async fn a_cancellation_from_the_link_moves_up_the_next_who_hears_youre_in() {
    let smtp = Smtp::start();
    let app = mail_app(&smtp, |_| {});
    let token = app.login().await;
    let e = published(&app, &token, event(&app, "Shift", 48, Some(2))).await;
    let slug = e["slug"].as_str().unwrap().to_owned();
    rsvp(&app, &slug, "Ann", "ann@example.org", 1).await;
    rsvp(&app, &slug, "Cy", "cy@example.org", 2).await; // 3 seats: waits
    rsvp(&app, &slug, "Bo", "bo@example.org", 0).await; // waits behind Cy
    app.state.mail.deliver_due().await;
    let got = smtp.received();
    let ann = to(&got, "ann@example.org")[0].text();
    let link = ann
        .split_whitespace()
        .find(|w| w.contains("/events/rsvp/"))
        .unwrap()
        .trim_start_matches("https://example.org")
        .to_owned();
    // Opening the link (a mail scanner does) changes nothing.
    let page = app.get(&link).await;
    assert_eq!(page.status(), 200);
    let html = String::from_utf8(page.body().to_vec()).unwrap();
    assert!(html.contains("You&#39;re going with 1 guest."), "{html}");
    assert!(html.contains("Cancel my RSVP"), "{html}");
    assert_eq!(page.headers()["cache-control"], "no-store");
    let going: i64 = app
        .db
        .read(|c| {
            c.query_row(
                "SELECT COUNT(*) FROM event_rsvps WHERE status = 'going'",
                [],
                |r| r.get(0),
            )
        })
        .await
        .unwrap();
    assert_eq!(going, 1);
    // A forged link is refused.
    let last = if link.ends_with('0') { '1' } else { '0' };
    let forged = format!("{}{last}", &link[..link.len() - 1]);
    assert_eq!(app.get(&forged).await.status(), 404);
    // The POST cancels: Cy's party of three fits the two... no; Bo's party of one does.
    let res = warp::test::request()
        .method("POST")
        .path(&link)
        .reply(&app.app)
        .await;
    assert_eq!(res.status(), 200);
    assert!(
        String::from_utf8(res.body().to_vec())
            .unwrap()
            .contains("Your RSVP is cancelled")
    );
    app.state.mail.deliver_due().await;
    let got = smtp.received();
    let bo = to(&got, "bo@example.org");
    assert_eq!(bo.len(), 2, "waitlisted, then in");
    assert_eq!(bo[1].header("Subject").unwrap(), "You're in: Shift");
    assert!(invitation(bo[1]).contains("METHOD:REQUEST"));
    assert_eq!(
        to(&got, "cy@example.org").len(),
        1,
        "Cy's party still does not fit"
    );
    // Twice is once.
    let res = warp::test::request()
        .method("POST")
        .path(&link)
        .reply(&app.app)
        .await;
    assert_eq!(res.status(), 200);
    app.state.mail.deliver_due().await;
    assert_eq!(smtp.received().len(), got.len());
    let audit: i64 = app
        .db
        .read(|c| {
            c.query_row(
                "SELECT COUNT(*) FROM audit_log WHERE action = 'cancel_rsvp'",
                [],
                |r| r.get(0),
            )
        })
        .await
        .unwrap();
    assert_eq!(audit, 1);
}

#[tokio::test]
async fn a_change_updates_the_same_calendar_entry_and_a_cancellation_removes_it() {
    let smtp = Smtp::start();
    let app = mail_app(&smtp, |_| {});
    let token = app.login().await;
    let body = event(&app, "Meeting", 72, Some(1));
    let e = published(&app, &token, body.clone()).await;
    let (id, slug) = (
        e["id"].as_i64().unwrap(),
        e["slug"].as_str().unwrap().to_owned(),
    );
    rsvp(&app, &slug, "Ann", "ann@example.org", 0).await;
    rsvp(&app, &slug, "Bo", "bo@example.org", 0).await; // waits
    // A new title only: nobody is mailed.
    let mut renamed = body.clone();
    renamed["title"] = json!("Meeting (room 2)");
    let res = app
        .admin(
            "PUT",
            &format!("/api/admin/events/{id}"),
            &token,
            Some(renamed.clone()),
        )
        .await;
    assert_eq!(TestApp::json(&res)["notified"], 0);
    // A new time: both are told, once; the invitation moves the entry already there.
    let mut moved = renamed.clone();
    moved["start"] = json!(local(&app, 96));
    moved["end"] = json!(local(&app, 98));
    let res = app
        .admin(
            "PUT",
            &format!("/api/admin/events/{id}"),
            &token,
            Some(moved.clone()),
        )
        .await;
    assert_eq!(res.status(), 200);
    assert_eq!(TestApp::json(&res)["notified"], 2);
    // Saved again unchanged: nobody is told twice.
    let res = app
        .admin(
            "PUT",
            &format!("/api/admin/events/{id}"),
            &token,
            Some(moved),
        )
        .await;
    assert_eq!(TestApp::json(&res)["notified"], 0);
    app.state.mail.deliver_due().await;
    let got = smtp.received();
    let ann = to(&got, "ann@example.org");
    assert_eq!(ann.len(), 2);
    assert_eq!(
        ann[1].header("Subject").unwrap(),
        "Changed: Meeting (room 2)"
    );
    let first = invitation(ann[0]);
    let change = invitation(ann[1]);
    assert_eq!(ics_prop(&change, "UID"), ics_prop(&first, "UID"));
    assert_eq!(ics_prop(&change, "SEQUENCE").unwrap().1, "1");
    assert_eq!(ics_instant(&change, "DTSTART"), starts_at(&app, id).await);
    let bo = to(&got, "bo@example.org");
    assert_eq!(
        bo[1].header("Subject").unwrap(),
        "Changed: Meeting (room 2)"
    );
    assert!(
        !bo[1].data.contains("text/calendar"),
        "no invitation while waiting"
    );
    // Cancelled: METHOD:CANCEL for the one going, a note for the one waiting.
    let res = app
        .admin(
            "POST",
            &format!("/api/admin/events/{id}/cancel"),
            &token,
            Some(json!({"message": "Snowed in."})),
        )
        .await;
    assert_eq!(TestApp::json(&res)["notified"], 2);
    app.state.mail.deliver_due().await;
    let got = smtp.received();
    let ann = to(&got, "ann@example.org");
    let cancel = invitation(ann[2]);
    assert_eq!(
        ann[2].header("Subject").unwrap(),
        "Cancelled: Meeting (room 2)"
    );
    assert!(ann[2].text().contains("Snowed in."));
    assert_eq!(ics_prop(&cancel, "METHOD").unwrap().1, "CANCEL");
    assert_eq!(ics_prop(&cancel, "STATUS").unwrap().1, "CANCELLED");
    assert_eq!(ics_prop(&cancel, "UID"), ics_prop(&first, "UID"));
    assert_eq!(ics_prop(&cancel, "SEQUENCE").unwrap().1, "2");
    // An RSVP to a cancelled event is refused.
    assert_eq!(rsvp(&app, &slug, "Di", "di@example.org", 0).await.0, 409);
}

#[tokio::test]
async fn the_reminder_goes_once_the_day_before_across_a_restart_and_again_if_the_time_moves() {
    let smtp = Smtp::start();
    let url = smtp.url();
    let app = TestApp::with_site(move |c| {
        c.mail.smtp_url = Some(url.clone());
        c.form_rate_limit = 1000;
    })
    .await;
    let token = app.login().await;
    let e = published(&app, &token, event(&app, "Town hall", 72, None)).await;
    let (id, slug) = (
        e["id"].as_i64().unwrap(),
        e["slug"].as_str().unwrap().to_owned(),
    );
    rsvp(&app, &slug, "Ann", "ann@example.org", 0).await;
    rsvp(&app, &slug, "Bo", "bo@example.org", 0).await;
    // Bo cancels: no reminder for him.
    app.exec("UPDATE event_rsvps SET status = 'cancelled' WHERE email = 'bo@example.org'")
        .await;
    let reminders = |smtp: &Smtp| {
        smtp.received()
            .into_iter()
            .filter(|m| {
                m.header("Subject")
                    .is_some_and(|s| s.starts_with("Tomorrow:"))
            })
            .count()
    };
    app.state.events_due().await;
    app.state.mail.deliver_due().await;
    assert_eq!(reminders(&smtp), 0, "not yet");
    // 9 AM in Chicago the day before.
    let start = starts_at(&app, id).await;
    let at = api::domain::events::reminders::reminder_at(
        start,
        &jiff::tz::TimeZone::get("America/Chicago").unwrap(),
    );
    let until = (at - app.state.clock.now()).as_secs() + 1;
    app.state
        .clock
        .advance(std::time::Duration::from_secs(until as u64 - 60));
    app.state.events_due().await;
    app.state.mail.deliver_due().await;
    assert_eq!(reminders(&smtp), 0, "a minute early");
    advance(&app, 1);
    app.state.events_due().await;
    app.state.events_due().await;
    app.state.mail.deliver_due().await;
    assert_eq!(reminders(&smtp), 1, "Ann's, once");
    // A restart on the same data: nothing again.
    let now = app.state.clock.now();
    let app = app
        .restart(move |s| {
            let behind = now - s.clock.now();
            s.clock.advance(std::time::Duration::from_secs(
                behind.as_secs().max(0) as u64 + 60,
            ));
        })
        .await;
    app.state.events_due().await;
    app.state.mail.deliver_due().await;
    assert_eq!(reminders(&smtp), 1);
    // The time moves a day on: the reminder is armed again, for the new day.
    let token = app.login().await;
    let mut later = event(&app, "Town hall", 0, None);
    later["start"] = json!(
        start
            .to_zoned_datetime(jiff::tz::TimeZone::get("America/Chicago").unwrap())
            .checked_add(jiff::Span::new().days(1))
            .unwrap()
            .strftime("%Y-%m-%dT%H:%M")
            .to_string()
    );
    later["end"] = json!(
        start
            .to_zoned_datetime(jiff::tz::TimeZone::get("America/Chicago").unwrap())
            .checked_add(jiff::Span::new().days(1).hours(2))
            .unwrap()
            .strftime("%Y-%m-%dT%H:%M")
            .to_string()
    );
    let res = app
        .admin(
            "PUT",
            &format!("/api/admin/events/{id}"),
            &token,
            Some(later),
        )
        .await;
    assert_eq!(res.status(), 200, "{:?}", res.body());
    app.state.events_due().await;
    app.state.mail.deliver_due().await;
    assert_eq!(reminders(&smtp), 1, "not until the new day before");
    advance(&app, 24 * 60);
    app.state.events_due().await;
    app.state.mail.deliver_due().await;
    assert_eq!(reminders(&smtp), 2);
}

#[tokio::test]
async fn more_seats_move_up_the_waiting_in_order_and_tell_them() {
    let smtp = Smtp::start();
    let app = mail_app(&smtp, |_| {});
    let token = app.login().await;
    let body = event(&app, "Canvass", 48, Some(1));
    let e = published(&app, &token, body.clone()).await;
    let (id, slug) = (
        e["id"].as_i64().unwrap(),
        e["slug"].as_str().unwrap().to_owned(),
    );
    rsvp(&app, &slug, "Ann", "ann@example.org", 0).await;
    rsvp(&app, &slug, "Cy", "cy@example.org", 2).await; // a party of three, first in line
    rsvp(&app, &slug, "Bo", "bo@example.org", 0).await;
    // Two seats: Cy's party still does not fit; Bo's does.
    let mut more = body.clone();
    more["capacity"] = json!(2);
    let res = app
        .admin(
            "PUT",
            &format!("/api/admin/events/{id}"),
            &token,
            Some(more.clone()),
        )
        .await;
    assert_eq!(TestApp::json(&res)["notified"], 1);
    assert_eq!(TestApp::json(&res)["event"]["going"], 2);
    // Five: Cy's party moves up, in the order it came.
    more["capacity"] = json!(5);
    let res = app
        .admin(
            "PUT",
            &format!("/api/admin/events/{id}"),
            &token,
            Some(more),
        )
        .await;
    assert_eq!(TestApp::json(&res)["notified"], 1);
    assert_eq!(TestApp::json(&res)["event"]["going"], 5);
    assert_eq!(TestApp::json(&res)["event"]["waitlisted"], 0);
    app.state.mail.deliver_due().await;
    let got = smtp.received();
    for who in ["bo@example.org", "cy@example.org"] {
        let mine = to(&got, who);
        assert_eq!(mine.len(), 2, "{who}: waiting, then in");
        // One batch goes out on parallel connections: the two may arrive in either order.
        assert!(
            mine.iter()
                .any(|m| m.header("Subject").unwrap() == "You're in: Canvass"),
            "{who}"
        );
    }
}

/// An erasure while a message to the erased person is inside its SMTP transaction: the
/// message queued in the same write (the next person's "You're in") must be the one the
/// server receives, exactly once, and never be marked sent in the held one's place; the
/// erasure says the one on its way could not be stopped.
#[tokio::test]
async fn an_erasure_mid_send_loses_no_other_mail_and_says_what_it_could_not_stop() {
    let smtp = Smtp::start();
    let app = std::sync::Arc::new(mail_app(&smtp, |_| {}));
    let token = app.login().await;
    let e = published(&app, &token, event(&app, "Shift", 48, Some(1))).await;
    let slug = e["slug"].as_str().unwrap().to_owned();
    rsvp(&app, &slug, "Ann", "ann@example.org", 0).await;
    rsvp(&app, &slug, "Bo", "bo@example.org", 0).await; // waits
    app.state.mail.deliver_due().await;
    let before = smtp.received().len();
    // The newest message in the queue is Ann's, and the server holds it mid-transaction.
    assert_eq!(
        super::ask(&app, &slug, "Ann", "ann@example.org", 0).await.0,
        201
    );
    smtp.hold_for("ann@example.org");
    let sending = {
        let app = app.clone();
        tokio::spawn(async move { app.state.mail.deliver_due().await })
    };
    for _ in 0..200 {
        if smtp.holding() == 1 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert_eq!(smtp.holding(), 1, "Ann's message is on its way");
    let res = app
        .admin(
            "POST",
            "/api/admin/erase",
            &token,
            Some(json!({"email": "ann@example.org"})),
        )
        .await;
    assert_eq!(res.status(), 200, "{:?}", res.body());
    let erased = TestApp::json(&res);
    assert_eq!(erased["mailInFlight"], 1);
    assert!(
        erased["warning"]
            .as_str()
            .is_some_and(|w| w.contains("could not be stopped")),
        "{erased}"
    );
    smtp.release();
    sending.await.unwrap();
    app.state.mail.deliver_due().await;
    let got = smtp.received();
    let ins: Vec<_> = got[before..]
        .iter()
        .filter(|m| m.to.iter().any(|t| t.contains("bo@example.org")))
        .filter(|m| m.header("Subject").is_some_and(|s| s == "You're in: Shift"))
        .collect();
    assert_eq!(ins.len(), 1, "Bo's \"You're in\" arrives, once");
    let queued: i64 = app
        .db
        .read(|c| {
            c.query_row(
                "SELECT COUNT(*) FROM mail_queue WHERE status = 'queued'",
                [],
                |r| r.get(0),
            )
        })
        .await
        .unwrap();
    assert_eq!(queued, 0);
}
