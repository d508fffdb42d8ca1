//! Staff's side: what is refused and why, the life of an event (draft, published,
//! cancelled), the attendee list, marks and export, and the audit log.

use api::domain::staff::Role;
use serde_json::json;

use super::{event, local, published, rsvp};
use crate::common::{TestApp, message};
use crate::staff::member;

#[tokio::test]
async fn what_staff_send_is_checked_field_by_field() {
    let app = TestApp::new();
    let token = app.login().await;
    let good = event(&app, "Town hall", 72, Some(20));
    let cases: Vec<(serde_json::Value, &str)> = vec![
        (json!({"title": "  "}), "Give the event a title."),
        (
            json!({"title": "x".repeat(151)}),
            "The title must be 150 characters or fewer.",
        ),
        (
            json!({"kind": "rally"}),
            "The type must be town_hall, petitioning_shift, meeting or other.",
        ),
        (
            json!({"timeZone": "Mars/Olympus"}),
            "\"Mars/Olympus\" is not a time zone.",
        ),
        (
            json!({"start": "next tuesday"}),
            "The start must be a date and time like 2026-12-10T18:00.",
        ),
        (
            json!({"end": local(&app, 71)}),
            "The end must be after the start.",
        ),
        (
            json!({"venue": null}),
            "Give a venue address, or mark the event as online.",
        ),
        (
            json!({"videoLink": "https://meet.example/x"}),
            "Only an online event has a video link.",
        ),
        (
            json!({"online": true, "videoLink": "javascript:alert(1)"}),
            "The video link must be an https:// address.",
        ),
        (
            json!({"online": true, "videoLink": "http://meet.example/x"}),
            "The video link must be an https:// address.",
        ),
        (
            json!({"capacity": 0}),
            "Capacity must be a whole number from 1 to 100000, or empty for no limit.",
        ),
        (
            json!({"rsvpDeadline": local(&app, 80)}),
            "The RSVP deadline must be before the start.",
        ),
        (
            json!({"start": local(&app, -5), "end": local(&app, -3)}),
            "That start has already passed. Choose a time in the future.",
        ),
    ];
    for (change, expected) in cases {
        let mut body = good.clone();
        for (k, v) in change.as_object().unwrap() {
            body[k] = v.clone();
        }
        let res = app
            .admin("POST", "/api/admin/events", &token, Some(body))
            .await;
        assert_eq!(res.status(), 400, "{change}");
        assert_eq!(message(&res), expected, "{change}");
    }
    // Hostile bodies: an unknown field, the wrong type, not JSON at all.
    let mut extra = good.clone();
    extra["status"] = json!("published");
    let res = app
        .admin("POST", "/api/admin/events", &token, Some(extra))
        .await;
    assert_eq!(res.status(), 400);
    let mut wrong = good.clone();
    wrong["capacity"] = json!("lots");
    assert_eq!(
        app.admin("POST", "/api/admin/events", &token, Some(wrong))
            .await
            .status(),
        400
    );
    assert_eq!(app.count("events").await, 0, "nothing stored");
    // An id that is not one.
    let res = app
        .admin("GET", "/api/admin/events/abc", &token, None)
        .await;
    assert_eq!(res.status(), 400);
    let res = app.admin("GET", "/api/admin/events/99", &token, None).await;
    assert_eq!(res.status(), 404);
}

#[tokio::test]
async fn an_event_goes_from_draft_to_published_to_cancelled_and_only_a_draft_is_deleted() {
    let app = TestApp::new();
    // An Organizer runs events.
    let organizer = member(&app, Role::Organizer, "org@party.example")
        .await
        .token;
    let res = app
        .admin(
            "POST",
            "/api/admin/events",
            &organizer,
            Some(event(&app, "Town hall: ballot access", 72, Some(20))),
        )
        .await;
    assert_eq!(res.status(), 201, "{:?}", res.body());
    let body = TestApp::json(&res);
    assert_eq!(body["notified"], 0);
    let e = &body["event"];
    let id = e["id"].as_i64().unwrap();
    assert_eq!(e["status"], "draft");
    assert_eq!(e["slug"], "town-hall-ballot-access");
    assert_eq!(e["url"], "/events/town-hall-ballot-access");
    assert_eq!(
        e["start"],
        local(&app, 72),
        "the wall-clock time staff chose"
    );
    assert_eq!(e["timeZone"], "America/Chicago");
    assert_eq!(e["going"], 0);
    assert_eq!(e["started"], false);
    // The description is cleaned like a post's.
    assert_eq!(e["description"], "<p>Bring a clipboard.</p>");
    // A second event of the same title gets its own address.
    let res = app
        .admin(
            "POST",
            "/api/admin/events",
            &organizer,
            Some(event(&app, "Town hall: ballot access", 96, None)),
        )
        .await;
    let other = TestApp::json(&res)["event"].clone();
    assert_eq!(other["slug"], "town-hall-ballot-access-2");
    // A draft is deleted; the list shows what is left, the latest start first.
    let res = app
        .admin(
            "DELETE",
            &format!("/api/admin/events/{}", other["id"]),
            &organizer,
            None,
        )
        .await;
    assert_eq!(res.status(), 204);
    let list = TestApp::json(
        &app.admin("GET", "/api/admin/events", &organizer, None)
            .await,
    );
    assert_eq!(list["events"].as_array().unwrap().len(), 1);
    assert_eq!(list["timeZone"], "America/Chicago");
    // Published, it cannot be published again, nor deleted.
    let res = app
        .admin(
            "POST",
            &format!("/api/admin/events/{id}/publish"),
            &organizer,
            None,
        )
        .await;
    assert_eq!(res.status(), 200);
    assert_eq!(TestApp::json(&res)["event"]["status"], "published");
    let res = app
        .admin(
            "POST",
            &format!("/api/admin/events/{id}/publish"),
            &organizer,
            None,
        )
        .await;
    assert_eq!(res.status(), 409);
    let res = app
        .admin(
            "DELETE",
            &format!("/api/admin/events/{id}"),
            &organizer,
            None,
        )
        .await;
    assert_eq!(res.status(), 409);
    assert_eq!(
        message(&res),
        "Only a draft can be deleted. Cancel a published event instead, so those coming are told."
    );
    // Cancelled with a message; then it can no longer change.
    let res = app
        .admin(
            "POST",
            &format!("/api/admin/events/{id}/cancel"),
            &organizer,
            Some(json!({"message": "x".repeat(2001)})),
        )
        .await;
    assert_eq!(res.status(), 400);
    let res = app
        .admin(
            "POST",
            &format!("/api/admin/events/{id}/cancel"),
            &organizer,
            Some(json!({"message": "The hall flooded. We'll be back."})),
        )
        .await;
    assert_eq!(res.status(), 200, "{:?}", res.body());
    let e = &TestApp::json(&res)["event"];
    assert_eq!(e["status"], "cancelled");
    assert_eq!(e["cancelMessage"], "The hall flooded. We'll be back.");
    let res = app
        .admin(
            "PUT",
            &format!("/api/admin/events/{id}"),
            &organizer,
            Some(event(&app, "Again", 72, None)),
        )
        .await;
    assert_eq!(res.status(), 409);
    let res = app
        .admin(
            "POST",
            &format!("/api/admin/events/{id}/cancel"),
            &organizer,
            Some(json!({})),
        )
        .await;
    assert_eq!(res.status(), 409);
    // Every change is in the audit log, by the Organizer.
    let actions: Vec<(String, String)> = app
        .db
        .read(|c| {
            c.prepare(
                "SELECT action, target FROM audit_log WHERE target LIKE 'event:%' ORDER BY id",
            )?
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect()
        })
        .await
        .unwrap();
    let actions: Vec<&str> = actions.iter().map(|(a, _)| a.as_str()).collect();
    assert_eq!(
        actions,
        ["create", "create", "delete", "publish", "cancel_event"]
    );
}

#[tokio::test]
async fn the_attendee_list_marks_who_came_once_it_started_and_exports() {
    let app = TestApp::new();
    let token = app.login().await;
    let e = published(&app, &token, event(&app, "House meeting", 30, Some(3))).await;
    let (id, slug) = (
        e["id"].as_i64().unwrap(),
        e["slug"].as_str().unwrap().to_owned(),
    );
    assert_eq!(
        rsvp(&app, &slug, "Ann Lee", "ann@example.org", 1).await.0,
        200
    );
    assert_eq!(
        rsvp(&app, &slug, "=HYPERLINK(\"x\")", "bo@example.org", 1)
            .await
            .0,
        200
    );
    let res = app
        .admin(
            "GET",
            &format!("/api/admin/events/{id}/rsvps"),
            &token,
            None,
        )
        .await;
    assert_eq!(res.status(), 200);
    let body = TestApp::json(&res);
    assert_eq!(body["going"], 2);
    assert_eq!(body["waitlisted"], 1);
    assert_eq!(body["capacity"], 3);
    let rsvps = body["rsvps"].as_array().unwrap();
    assert_eq!(rsvps[0]["name"], "Ann Lee");
    assert_eq!(rsvps[0]["status"], "going");
    assert_eq!(rsvps[1]["status"], "waitlisted");
    let ann = rsvps[0]["id"].as_i64().unwrap();
    // Not before it starts...
    let path = format!("/api/admin/events/{id}/rsvps/{ann}/attended");
    let res = app
        .admin("PUT", &path, &token, Some(json!({"attended": true})))
        .await;
    assert_eq!(res.status(), 409);
    assert_eq!(message(&res), "Mark who came once the event has started.");
    // ...then yes, no, or unmarked.
    app.state
        .clock
        .advance(std::time::Duration::from_secs(31 * 3600));
    let res = app
        .admin("PUT", &path, &token, Some(json!({"attended": true})))
        .await;
    assert_eq!(res.status(), 200, "{:?}", res.body());
    assert_eq!(TestApp::json(&res)["attended"], true);
    let res = app
        .admin("PUT", &path, &token, Some(json!({"attended": "maybe"})))
        .await;
    assert_eq!(res.status(), 400);
    // Another event's RSVP is not this one's.
    let res = app
        .admin(
            "PUT",
            &format!("/api/admin/events/{id}/rsvps/99999/attended"),
            &token,
            Some(json!({"attended": false})),
        )
        .await;
    assert_eq!(res.status(), 404);
    // The export: every RSVP, a cell that looks like a formula defused.
    let res = app
        .admin(
            "GET",
            &format!("/api/admin/events/{id}/rsvps/export"),
            &token,
            None,
        )
        .await;
    assert_eq!(res.status(), 200);
    let csv = String::from_utf8(res.body().to_vec()).unwrap();
    assert!(
        res.headers()["content-disposition"]
            .to_str()
            .unwrap()
            .contains(&format!("-rsvps-{slug}.csv")),
    );
    assert!(
        csv.contains("Ann Lee,ann@example.org,62701,,1,going,yes,"),
        "{csv}"
    );
    assert!(csv.contains("'=HYPERLINK"), "{csv}");
    assert_eq!(csv.lines().count(), 3, "{csv}");
}
