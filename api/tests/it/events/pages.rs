//! The public pages, over a real built site: written in-process when staff publish or
//! change an event, with schema.org JSON-LD, in the sitemap, the calendar feed and Take
//! Action; the form gives way to "This event has ended" once it starts; the private video
//! link is in no public file.

use serde_json::json;

use super::{event, ics_instant, ics_prop, published};
use crate::common::{TestApp, text};

const SECRET: &str = "https://meet.example/very-secret-room";

fn every_file(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            every_file(&path, out);
        } else {
            out.push(path);
        }
    }
}

#[tokio::test]
async fn a_published_event_has_its_page_json_ld_feed_and_sitemap_and_no_private_link() {
    let app = TestApp::with_site(|c| c.form_rate_limit = 1000).await;
    let token = app.login().await;
    // A draft is nowhere.
    let mut body = event(&app, "Online town hall", 72, Some(50));
    body["online"] = json!(true);
    body["venue"] = json!(null);
    body["videoLink"] = json!(SECRET);
    let res = app
        .admin("POST", "/api/admin/events", &token, Some(body.clone()))
        .await;
    let id = TestApp::json(&res)["event"]["id"].as_i64().unwrap();
    assert_eq!(app.get("/events/online-town-hall").await.status(), 404);
    let res = app
        .admin(
            "POST",
            &format!("/api/admin/events/{id}/publish"),
            &token,
            None,
        )
        .await;
    assert_eq!(res.status(), 200);
    // Live as soon as the answer came back.
    let res = app.get("/events/online-town-hall").await;
    assert_eq!(res.status(), 200);
    let html = text(&res);
    assert!(html.contains("<h1 class=\"mt-4 font-serif text-4xl font-bold leading-tight text-navy sm:text-5xl\">Online town hall</h1>"), "{html}");
    assert!(
        html.contains("action=\"/api/events/rsvp\""),
        "the form posts without JavaScript"
    );
    assert!(html.contains("name=\"event\" value=\"online-town-hall\""));
    assert!(html.contains("data-spots=\"/api/events/online-town-hall/spots\""));
    assert!(
        html.contains("href=\"/donate?source=event-online-town-hall\""),
        "Chip in"
    );
    assert!(
        !html.contains("<script>alert(1)"),
        "the description is clean"
    );
    // schema.org Event, with the start's offset.
    let ld = html
        .split("<script type=\"application/ld+json\">")
        .skip(1)
        .map(|s| s.split("</script>").next().unwrap())
        .map(|s| serde_json::from_str::<serde_json::Value>(s).unwrap())
        .find(|v| v["@type"] == "Event")
        .expect("an Event block");
    assert_eq!(ld["name"], "Online town hall");
    let start = ld["startDate"].as_str().unwrap();
    assert!(
        start.ends_with("-06:00") || start.ends_with("-05:00"),
        "{start}"
    );
    let db_start: jiff::Timestamp = app
        .db
        .read(move |c| {
            c.query_row("SELECT starts_at FROM events WHERE id = ?1", [id], |r| {
                r.get::<_, String>(0)
            })
        })
        .await
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(start.parse::<jiff::Timestamp>().unwrap(), db_start);
    assert_eq!(ld["eventStatus"], "https://schema.org/EventScheduled");
    assert_eq!(
        ld["eventAttendanceMode"],
        "https://schema.org/OnlineEventAttendanceMode"
    );
    assert_eq!(ld["location"]["@type"], "VirtualLocation");
    assert_eq!(
        ld["location"]["url"],
        "https://example.org/events/online-town-hall"
    );
    // Listed, in the calendar, in the sitemap, on Take Action.
    let list = text(&app.get("/events").await);
    assert!(list.contains("href=\"/events/online-town-hall\""), "{list}");
    let ics = text(&app.get("/events.ics").await);
    assert_eq!(
        ics_prop(&ics, "UID").unwrap().1,
        format!("event-{id}@example.org")
    );
    assert_eq!(ics_instant(&ics, "DTSTART"), db_start);
    let index = text(&app.get("/sitemap.xml").await);
    assert!(
        index.contains("https://example.org/events/sitemap.xml"),
        "{index}"
    );
    let sitemap = text(&app.get("/events/sitemap.xml").await);
    assert!(
        sitemap.contains("https://example.org/events/online-town-hall"),
        "{sitemap}"
    );
    let take_action = text(&app.get("/take-action").await);
    assert!(take_action.contains("Upcoming Events"), "{take_action}");
    assert!(take_action.contains("href=\"/events/online-town-hall\""));
    // The private link is in no public file.
    let mut files = Vec::new();
    every_file(&app.dist(), &mut files);
    for file in &files {
        let bytes = std::fs::read(file).unwrap();
        assert!(
            !String::from_utf8_lossy(&bytes).contains("very-secret-room"),
            "{} carries the video link",
            file.display()
        );
    }
    assert!(files.len() > 20, "the whole site was searched");
}

#[tokio::test]
async fn once_it_starts_the_form_gives_way_and_a_cancellation_says_so() {
    let app = TestApp::with_site(|c| c.form_rate_limit = 1000).await;
    let token = app.login().await;
    let a = published(&app, &token, event(&app, "Early shift", 5, None)).await;
    let b = published(&app, &token, event(&app, "Late shift", 50, None)).await;
    assert!(text(&app.get("/events/early-shift").await).contains("action=\"/api/events/rsvp\""));
    app.state
        .clock
        .advance(std::time::Duration::from_secs(6 * 3600));
    app.state.events_due().await;
    let html = text(&app.get("/events/early-shift").await);
    assert!(html.contains("This event has ended"), "{html}");
    assert!(!html.contains("action=\"/api/events/rsvp\""));
    // Past, on the list; gone from the calendar feed and Take Action.
    let list = text(&app.get("/events").await);
    assert!(list.contains("Past events"), "{list}");
    assert!(!text(&app.get("/events.ics").await).contains(&format!("event-{}@", a["id"])));
    assert!(!text(&app.get("/take-action").await).contains("href=\"/events/early-shift\""));
    // Cancelled: the page stays and says so.
    let id = b["id"].as_i64().unwrap();
    let res = app
        .admin(
            "POST",
            &format!("/api/admin/events/{id}/cancel"),
            &token,
            Some(json!({"message": "Rain <b>date</b> soon."})),
        )
        .await;
    assert_eq!(res.status(), 200);
    let html = text(&app.get("/events/late-shift").await);
    assert!(html.contains("This event has been cancelled."), "{html}");
    assert!(
        html.contains("Rain &lt;b&gt;date&lt;&#x2F;b&gt; soon.")
            || html.contains("Rain &lt;b&gt;date&lt;/b&gt; soon."),
        "{html}"
    );
    assert!(html.contains("https://schema.org/EventCancelled"));
    let ics = text(&app.get("/events.ics").await);
    assert_eq!(ics_prop(&ics, "STATUS").unwrap().1, "CANCELLED");
}

/// What `REBUILD_HOOK` (here: append stdin to a file) has been told so far, once it holds
/// `want` (the hook runs in the background; nobody waits for it).
async fn hook_heard(app: &TestApp, want: &str) -> Vec<String> {
    let log = app.dist().join("../hook.txt");
    let mut seen = String::new();
    for _ in 0..200 {
        seen = std::fs::read_to_string(&log).unwrap_or_default();
        if seen.lines().any(|l| l == want) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    std::fs::write(&log, "").unwrap();
    seen.lines().map(str::to_owned).collect()
}

/// The events' pages go through the same "files written" path as the blog's rebuilds: a
/// CDN purge or a static-host push set up as the hook hears of every event page, the list,
/// the feed and Take Action when an event is published, changed and cancelled.
#[tokio::test]
async fn the_rebuild_hook_hears_every_event_page_change() {
    let app = TestApp::with_site(|c| c.rebuild_hook = Some("cat >> ../hook.txt".into())).await;
    let token = app.login().await;
    let e = published(&app, &token, event(&app, "Hooked hall", 72, Some(20))).await;
    let id = e["id"].as_i64().unwrap();
    let page = "events/hooked-hall/index.html";
    let heard = hook_heard(&app, page).await;
    for path in [
        page,
        "events/index.html",
        "events.ics",
        "take-action/index.html",
    ] {
        assert!(heard.iter().any(|l| l == path), "{path} in {heard:?}");
    }
    // A change of its details: its page, the list and the feed again.
    let mut body = event(&app, "Hooked hall", 72, Some(20));
    body["description"] = json!("<p>Now with a second speaker.</p>");
    let res = app
        .admin(
            "PUT",
            &format!("/api/admin/events/{id}"),
            &token,
            Some(body),
        )
        .await;
    assert_eq!(res.status(), 200, "{:?}", res.body());
    let heard = hook_heard(&app, page).await;
    assert!(heard.iter().any(|l| l == page), "{heard:?}");
    // Cancelled: its page and the feed say so.
    let res = app
        .admin(
            "POST",
            &format!("/api/admin/events/{id}/cancel"),
            &token,
            Some(json!({"message": "The hall flooded."})),
        )
        .await;
    assert_eq!(res.status(), 200, "{:?}", res.body());
    let heard = hook_heard(&app, page).await;
    for path in [page, "events.ics"] {
        assert!(heard.iter().any(|l| l == path), "{path} in {heard:?}");
    }
}
