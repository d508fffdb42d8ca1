//! One origin names the site (issue 49): with `SITE_URL` set to something other than the
//! content file's `url`, every absolute address and calendar UID the generator and the
//! server emit (pages, feeds, sitemaps, the events' calendar, an RSVP's mail and its
//! invitation) uses `SITE_URL`, so a calendar sees one event, not two.

use serde_json::json;

use crate::common::TestApp;
use crate::events::{event, ics_prop, invitation, published, rsvp};
use crate::mail::smtp::Smtp;

const SITE: &str = "http://127.0.0.1:18530";
/// The fixture's content file says this.
const CONTENT_URL: &str = "https://example.org";

/// Every file under `dir`, as text (binary files as lossy text).
fn files(dir: &std::path::Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for entry in std::fs::read_dir(&d).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if !path.extension().is_some_and(|e| e == "br" || e == "gz") {
                let text = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
                out.push((path.display().to_string(), text));
            }
        }
    }
    out
}

#[tokio::test]
async fn every_address_and_uid_the_site_emits_is_site_urls() {
    let smtp = Smtp::start();
    let url = smtp.url();
    let app = TestApp::with_site_url(SITE, move |c| {
        c.mail.smtp_url = Some(url.clone());
        c.form_rate_limit = 1000;
    })
    .await;
    let token = app.login().await;
    let e = published(&app, &token, event(&app, "Town hall", 72, Some(10))).await;
    let (id, slug) = (
        e["id"].as_i64().unwrap(),
        e["slug"].as_str().unwrap().to_owned(),
    );
    // A blog post too, so its page, the lists, the feed and its sitemap are written.
    let res = app
        .admin(
            "POST",
            "/api/admin/blogs",
            &token,
            Some(
                json!({"title": "Ballot access", "content": "<p>News.</p>", "status": "published"}),
            ),
        )
        .await;
    assert_eq!(res.status(), 201, "{:?}", res.body());
    assert_eq!(
        rsvp(&app, &slug, "Ann Lee", "ann@example.org", 0).await.1,
        "You're going!"
    );
    app.state.mail.deliver_due().await;

    // The built site, as the generator and the server's rewrites left it.
    for (path, text) in files(&app.dist()) {
        assert!(!text.contains(CONTENT_URL), "{path} names {CONTENT_URL}");
    }
    assert!(
        std::fs::read_to_string(app.dist().join("sitemap.xml"))
            .unwrap()
            .contains(&format!("<loc>{SITE}/")),
        "the sitemap names SITE_URL"
    );
    let feed = crate::common::text(&app.get("/events.ics").await);
    assert_eq!(
        ics_prop(&feed, "UID").unwrap().1,
        format!("event-{id}@127.0.0.1")
    );

    // The mail: its links and its invitation.
    let got = smtp.received();
    assert!(!got.is_empty());
    for m in &got {
        let text = m.text();
        assert!(!text.contains(CONTENT_URL), "{text}");
    }
    let going = got
        .iter()
        .find(|m| {
            m.header("Subject")
                .is_some_and(|s| s.starts_with("You're going"))
        })
        .expect("the confirmation");
    let ics = invitation(going);
    assert_eq!(
        ics_prop(&ics, "UID").unwrap().1,
        format!("event-{id}@127.0.0.1")
    );
    assert_eq!(
        ics_prop(&ics, "URL").unwrap().1,
        format!("{SITE}/events/{slug}")
    );
    assert!(going.text().contains(&format!("{SITE}/events/rsvp/")));
}
