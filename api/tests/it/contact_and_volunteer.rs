use crate::common::{TestApp, message};

#[tokio::test]
async fn a_contact_message_is_stored() {
    let app = TestApp::new();
    let res = app
        .post_json("/api/contact", r#"{"name":"Jane Doe","email":"jane@example.org","subject":"Town hall","message":"Line one\nLine two"}"#)
        .await;
    assert_eq!(res.status(), 201);
    assert_eq!(message(&res), "Message sent!");
    let row: (String, String, String, String) = app
        .db
        .read(|c| {
            c.query_row(
                "SELECT name, email, subject, message FROM contact_messages",
                [],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
            )
        })
        .await
        .unwrap();
    assert_eq!(
        row,
        (
            "Jane Doe".into(),
            "jane@example.org".into(),
            "Town hall".into(),
            "Line one\nLine two".into()
        )
    );
}

#[tokio::test]
async fn contact_rules_are_enforced_and_nothing_is_stored_on_failure() {
    let app = TestApp::new();
    let full = r#""name":"Jane","email":"jane@example.org","subject":"Hi","message":"Hello""#;
    let cases = [
        (full.replace(r#""name":"Jane","#, ""), "Name is required."),
        (
            full.replace("jane@example.org", "jane"),
            "Please enter a valid email address.",
        ),
        (
            full.replace(r#""subject":"Hi","#, r#""subject":"  ","#),
            "Subject is required.",
        ),
        (
            full.replace(r#","message":"Hello""#, ""),
            "Message is required.",
        ),
        (
            full.replace(r#""Hello""#, &format!(r#""{}""#, "x".repeat(5001))),
            "Message must be at most 5000 characters.",
        ),
        (
            full.replace(r#""Hi""#, &format!(r#""{}""#, "x".repeat(201))),
            "Subject must be at most 200 characters.",
        ),
        (
            full.replace(r#""Jane""#, &format!(r#""{}""#, "x".repeat(101))),
            "Name must be at most 100 characters.",
        ),
        (
            full.replace(r#""Hi""#, r#""Hi\nthere""#),
            "Subject contains characters that are not allowed.",
        ),
        (full.replace(r#""Hello""#, "true"), "Message must be text."),
    ];
    for (fields, expected) in cases {
        let res = app
            .post_json("/api/contact", &format!("{{{fields}}}"))
            .await;
        assert_eq!(res.status(), 400, "{fields}");
        assert_eq!(message(&res), expected, "{fields}");
    }
    assert_eq!(app.count("contact_messages").await, 0);
}

#[tokio::test]
async fn markup_in_a_message_is_kept_verbatim_as_text() {
    let app = TestApp::new();
    let body = r#"{"name":"<b>Eve</b>","email":"eve@example.org","subject":"x'); DROP TABLE contact_messages;--","message":"<script>alert(1)</script>"}"#;
    assert_eq!(app.post_json("/api/contact", body).await.status(), 201);
    let (name, subject, msg): (String, String, String) = app
        .db
        .read(|c| {
            c.query_row(
                "SELECT name, subject, message FROM contact_messages",
                [],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
        })
        .await
        .unwrap();
    assert_eq!(
        (name.as_str(), subject.as_str(), msg.as_str()),
        (
            "<b>Eve</b>",
            "x'); DROP TABLE contact_messages;--",
            "<script>alert(1)</script>"
        )
    );
}

#[tokio::test]
async fn a_volunteer_signup_is_stored_with_optional_fields() {
    let app = TestApp::new();
    let res = app
        .post_json("/api/volunteer", r#"{"name":"Sam","email":"sam@example.org","phone":"555-201-3344","zipCode":"12345-6789","interests":"Canvassing, events"}"#)
        .await;
    assert_eq!(res.status(), 201);
    assert_eq!(message(&res), "Thank you for volunteering!");
    let res = app
        .post_json(
            "/api/volunteer",
            r#"{"name":"Lee","email":"lee@example.org","zipCode":"54321"}"#,
        )
        .await;
    assert_eq!(res.status(), 201);
    let rows: Vec<(String, Option<String>, String, Option<String>)> = app
        .db
        .read(|c| {
            let mut s = c.prepare(
                "SELECT name, phone, zip_code, interests FROM volunteer_signups ORDER BY id",
            )?;
            s.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
                .collect()
        })
        .await
        .unwrap();
    assert_eq!(
        rows[0],
        (
            "Sam".into(),
            Some("555-201-3344".into()),
            "12345-6789".into(),
            Some("Canvassing, events".into())
        )
    );
    assert_eq!(rows[1], ("Lee".into(), None, "54321".into(), None));
}

#[tokio::test]
async fn volunteer_rules_are_enforced_and_nothing_is_stored_on_failure() {
    let app = TestApp::new();
    let cases = [
        (
            r#"{"email":"a@example.org","zipCode":"12345"}"#,
            "Name is required.",
        ),
        (r#"{"name":"A","zipCode":"12345"}"#, "Email is required."),
        (
            r#"{"name":"A","email":"a@example.org"}"#,
            "ZIP code is required.",
        ),
        (
            r#"{"name":"A","email":"a@example.org","zipCode":"12345-67890"}"#,
            "ZIP code must be at most 10 characters.",
        ),
        (
            r#"{"name":"A","email":"a@example.org","zipCode":"ABCDE"}"#,
            "Please enter a valid ZIP code (5 digits, or ZIP+4).",
        ),
        (
            r#"{"name":"A","email":"a@example.org","zipCode":"12345","phone":"call me"}"#,
            "Please enter a valid phone number (7 to 15 digits).",
        ),
        (
            r#"{"name":"A","email":"a@example.org","zipCode":"12345","interests":{"a":1}}"#,
            "Areas of interest must be text.",
        ),
    ];
    for (body, expected) in cases {
        let res = app.post_json("/api/volunteer", body).await;
        assert_eq!(res.status(), 400, "{body}");
        assert_eq!(message(&res), expected, "{body}");
    }
    let long = format!(
        r#"{{"name":"A","email":"a@example.org","zipCode":"12345","interests":"{}"}}"#,
        "x".repeat(1001)
    );
    assert_eq!(
        message(&app.post_json("/api/volunteer", &long).await),
        "Areas of interest must be at most 1000 characters."
    );
    assert_eq!(app.count("volunteer_signups").await, 0);
}

#[tokio::test]
async fn both_forms_have_the_honeypot_size_limit_and_rate_limit() {
    let app = TestApp::with(|c| c.form_rate_limit = 1);
    for (path, table, body) in [
        (
            "/api/contact",
            "contact_messages",
            r#"{"name":"B","email":"b@example.org","subject":"S","message":"M""#,
        ),
        (
            "/api/volunteer",
            "volunteer_signups",
            r#"{"name":"B","email":"b@example.org","zipCode":"12345""#,
        ),
    ] {
        let bot = format!(r#"{body},"website":"spam"}}"#);
        assert_eq!(app.post_from(path, &bot, [10, 0, 1, 1]).await.status(), 201);
        assert_eq!(app.count(table).await, 0, "{path}: honeypot");
        let huge = format!(r#"{body},"pad":"{}"}}"#, "x".repeat(70_000));
        assert_eq!(app.post_json(path, &huge).await.status(), 413, "{path}");
        let ok = format!("{body}}}");
        assert_eq!(
            app.post_from(path, &ok, [10, 0, 1, 2]).await.status(),
            201,
            "{path}"
        );
        assert_eq!(
            app.post_from(path, &ok, [10, 0, 1, 2]).await.status(),
            429,
            "{path}"
        );
        assert_eq!(app.count(table).await, 1, "{path}");
        let res = warp::test::request()
            .method("POST")
            .path(path)
            .header("content-type", "text/plain")
            .body(ok)
            .reply(&app.app)
            .await;
        assert_eq!(res.status(), 415, "{path}");
    }
}
