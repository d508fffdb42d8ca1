//! Events (issue 39): staff's API, the public RSVP and its mail, seats under a race, the
//! calendar files, the reminder the day before, the pages, and erasure. Over a real built
//! site where pages matter, a real SMTP server where mail does.

mod admin;
mod mail;
mod pages;
mod rsvp;
mod strangers;

use jiff::Timestamp;
use jiff::tz::TimeZone;
use serde_json::{Value, json};

use crate::common::TestApp;
use crate::mail::smtp::Received;

/// The fixture party's zone.
pub const ZONE: &str = "America/Chicago";

/// The wall-clock time in Chicago `hours` from the app's now, on the hour.
pub fn local(app: &TestApp, hours: i64) -> String {
    let at = app.state.clock.now() + jiff::SignedDuration::from_hours(hours);
    at.to_zoned_datetime(TimeZone::get(ZONE).unwrap())
        .strftime("%Y-%m-%dT%H:00")
        .to_string()
}

/// An event's body for staff's API, starting `hours` from now for two hours.
pub fn event(app: &TestApp, title: &str, hours: i64, capacity: Option<i64>) -> Value {
    json!({
        "title": title,
        "description": "<p>Bring a clipboard.</p><script>alert(1)</script>",
        "kind": "petitioning_shift",
        "start": local(app, hours),
        "end": local(app, hours + 2),
        "timeZone": ZONE,
        "venue": "12 Main St, Springfield, IL",
        "online": false,
        "videoLink": null,
        "capacity": capacity,
        "rsvpDeadline": null,
        "waitlist": true,
    })
}

/// Creates and publishes an event; returns its JSON.
pub async fn published(app: &TestApp, token: &str, body: Value) -> Value {
    let res = app
        .admin("POST", "/api/admin/events", token, Some(body))
        .await;
    assert_eq!(res.status(), 201, "{:?}", res.body());
    let id = TestApp::json(&res)["event"]["id"].as_i64().unwrap();
    let res = app
        .admin(
            "POST",
            &format!("/api/admin/events/{id}/publish"),
            token,
            None,
        )
        .await;
    assert_eq!(res.status(), 200, "{:?}", res.body());
    TestApp::json(&res)["event"].clone()
}

/// The event page's form, posted as JSON: the RSVP waits for its mailbox.
pub async fn ask(app: &TestApp, slug: &str, name: &str, email: &str, guests: i64) -> (u16, Value) {
    let body = json!({
        "event": slug,
        "name": name,
        "email": email,
        "zipCode": "62701",
        "guests": guests.to_string(),
    });
    let res = app.post_json("/api/events/rsvp", &body.to_string()).await;
    (
        res.status().as_u16(),
        serde_json::from_slice(res.body()).unwrap_or(Value::Null),
    )
}

/// The confirmation link in the newest message queued to `email` that asks for one (as its
/// reader would find it), if any.
pub async fn confirm_link(app: &TestApp, email: &str) -> Option<String> {
    let email = email.to_lowercase();
    let message: Option<Vec<u8>> = app
        .db
        .read(move |c| {
            use rusqlite::OptionalExtension;
            c.query_row(
                "SELECT message FROM mail_queue WHERE event_key LIKE 'event-rsvp-ask:%' \
                 AND about = ?1 ORDER BY id DESC LIMIT 1",
                [email],
                |r| r.get(0),
            )
            .optional()
        })
        .await
        .unwrap();
    let text = String::from_utf8_lossy(&message?).replace("=\r\n", "");
    let start = text.find("/events/rsvp/confirm/")?;
    Some(
        text[start..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '/' | '-' | '_'))
            .collect(),
    )
}

/// The `<h1>` of an HTML page.
pub fn heading(page: &[u8]) -> String {
    let page = String::from_utf8_lossy(page);
    let start = page
        .find("<h1")
        .and_then(|i| page[i..].find('>').map(|j| i + j + 1));
    let Some(start) = start else {
        return String::new();
    };
    let end = page[start..]
        .find("</h1>")
        .map_or(page.len(), |e| start + e);
    page[start..end]
        .trim()
        .replace("&#x27;", "'")
        .replace("&#39;", "'")
}

/// An RSVP as a visitor makes it: the form (answered "Check your e-mail to confirm"), then
/// the link mailed to the address, pressed. Returns the confirmation page's status and
/// heading ("You're going!").
pub async fn rsvp(
    app: &TestApp,
    slug: &str,
    name: &str,
    email: &str,
    guests: i64,
) -> (u16, String) {
    let (status, body) = ask(app, slug, name, email, guests).await;
    if status != 201 {
        return (
            status,
            body["message"].as_str().unwrap_or_default().to_owned(),
        );
    }
    assert_eq!(body["message"], "Check your e-mail to confirm", "{body}");
    let link = confirm_link(app, email)
        .await
        .unwrap_or_else(|| panic!("no confirmation link mailed to {email}"));
    let res = warp::test::request()
        .method("POST")
        .path(&link)
        .reply(&app.app)
        .await;
    (res.status().as_u16(), heading(res.body()))
}

/// The unfolded content lines of an `.ics`.
pub fn ics_lines(ics: &str) -> Vec<String> {
    let unfolded = ics.replace("\r\n ", "");
    unfolded
        .split("\r\n")
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect()
}

/// The value of the first line of `ics` whose name (before `;` or `:`) is `name`, with its
/// parameters: `("TZID=America/Chicago", "20261210T180000")`.
pub fn ics_prop(ics: &str, name: &str) -> Option<(String, String)> {
    // The event's own lines first (a VTIMEZONE has DTSTARTs of its own), then the calendar's.
    let lines = ics_lines(ics);
    let event = lines.iter().position(|l| l == "BEGIN:VEVENT").unwrap_or(0);
    lines[event..].iter().chain(&lines[..event]).find_map(|l| {
        let (head, value) = l.split_once(':')?;
        let (prop, params) = head.split_once(';').unwrap_or((head, ""));
        (prop == name).then(|| (params.to_owned(), value.to_owned()))
    })
}

/// The instant a `DTSTART;TZID=…:…` (or `DTEND`) names, read as a calendar would.
pub fn ics_instant(ics: &str, name: &str) -> Timestamp {
    let (params, value) = ics_prop(ics, name).unwrap_or_else(|| panic!("no {name} in {ics}"));
    let zone = params
        .strip_prefix("TZID=")
        .expect("a local time with its zone");
    assert!(
        ics.contains(&format!("BEGIN:VTIMEZONE\r\nTZID:{zone}\r\n")),
        "the zone is described: {ics}"
    );
    let civil: jiff::civil::DateTime = jiff::fmt::strtime::parse("%Y%m%dT%H%M%S", &value)
        .unwrap()
        .to_datetime()
        .unwrap();
    TimeZone::get(zone)
        .unwrap()
        .to_ambiguous_zoned_datetime(civil)
        .later()
        .unwrap()
        .timestamp()
}

/// The calendar a message carries (its line ends as on the wire: the test's decoder reads
/// text parts with LF).
pub fn invitation(m: &Received) -> String {
    m.part("text/calendar")
        .replace("\r\n", "\n")
        .replace('\n', "\r\n")
}
