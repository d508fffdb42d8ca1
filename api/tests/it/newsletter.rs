use crate::common::{TestApp, message};

const PATH: &str = "/api/newsletter-signup";

#[tokio::test]
async fn a_signup_is_stored() {
    let app = TestApp::new();
    let res = app
        .post_json(
            PATH,
            r#"{"email":" Jane@Example.org ","phone":"(555) 123-4567","zipCode":"12345"}"#,
        )
        .await;
    assert_eq!(res.status(), 201);
    assert_eq!(message(&res), "Thank you for joining!");
    let row: (String, Option<String>, String, String) = app
        .db
        .read(|c| {
            c.query_row(
                "SELECT email, phone, zip_code, created_at FROM newsletter_signups",
                [],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
            )
        })
        .await
        .unwrap();
    assert_eq!(
        (row.0.as_str(), row.1.as_deref(), row.2.as_str()),
        ("Jane@Example.org", Some("(555) 123-4567"), "12345")
    );
    assert!(
        row.3.ends_with('Z') && row.3.contains('T'),
        "UTC ISO-8601: {}",
        row.3
    );
}

#[tokio::test]
async fn a_known_email_is_answered_like_a_new_one_and_left_unchanged() {
    let app = TestApp::new();
    let first = app
        .post_json(
            PATH,
            r#"{"email":"jane@example.org","phone":"5551234567","zipCode":"12345"}"#,
        )
        .await;
    // A stranger who knows (or guesses) the address tries to learn of it and to change it.
    let again = app
        .post_json(
            PATH,
            r#"{"email":"JANE@example.org","phone":"5559999999","zipCode":"54321"}"#,
        )
        .await;
    assert_eq!(first.status(), 201);
    assert_eq!(again.status(), first.status(), "the same status");
    assert_eq!(again.body(), first.body(), "the same body");
    assert_eq!(app.count("newsletter_signups").await, 1);
    let (phone, zip): (Option<String>, String) = app
        .db
        .read(|c| {
            c.query_row("SELECT phone, zip_code FROM newsletter_signups", [], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
        })
        .await
        .unwrap();
    assert_eq!(zip, "12345", "the subscriber's ZIP is theirs");
    assert_eq!(phone.as_deref(), Some("5551234567"), "and so is the phone");
}

#[tokio::test]
async fn each_validation_rule_answers_400_with_a_message_and_stores_nothing() {
    let app = TestApp::new();
    let cases = [
        (r#"{"phone":"","zipCode":"12345"}"#, "Email is required."),
        (r#"{"email":"   ","zipCode":"12345"}"#, "Email is required."),
        (
            r#"{"email":"not-an-email","zipCode":"12345"}"#,
            "Please enter a valid email address.",
        ),
        (
            r#"{"email":"someone@localhost","zipCode":"12345"}"#,
            "Please enter a valid email address.",
        ),
        (r#"{"email":"a@b.org"}"#, "ZIP code is required."),
        (
            r#"{"email":"a@b.org","zipCode":"1234"}"#,
            "Please enter a valid ZIP code (5 digits, or ZIP+4).",
        ),
        (
            r#"{"email":"a@b.org","zipCode":"12345678901"}"#,
            "ZIP code must be at most 10 characters.",
        ),
        (
            r#"{"email":"a@b.org","zipCode":"12345","phone":"12"}"#,
            "Please enter a valid phone number (7 to 15 digits).",
        ),
        (r#"{"email":5,"zipCode":"12345"}"#, "Email must be text."),
        (
            r#"{"email":"a@b.org","zipCode":["12345"]}"#,
            "ZIP code must be text.",
        ),
        (r#"["a@b.org"]"#, "The request body must be a JSON object."),
        (
            r#"{"email":"a@b.org","zipCode":"12345""#,
            "The request body is not valid JSON.",
        ),
        ("", "The request body is not valid JSON."),
    ];
    for (body, expected) in cases {
        let res = app.post_json(PATH, body).await;
        assert_eq!(res.status(), 400, "{body}");
        assert_eq!(message(&res), expected, "{body}");
    }
    let long_email = format!(
        r#"{{"email":"{}@example.org","zipCode":"12345"}}"#,
        "a".repeat(250)
    );
    assert_eq!(
        message(&app.post_json(PATH, &long_email).await),
        "Email must be at most 254 characters."
    );
    assert_eq!(app.count("newsletter_signups").await, 0);
}

#[tokio::test]
async fn hostile_input_is_stored_as_plain_text_or_refused() {
    let app = TestApp::new();
    // SQL in a value is just text.
    let res = app
        .post_json(
            PATH,
            r#"{"email":"x'); DROP TABLE newsletter_signups;--@example.org","zipCode":"12345"}"#,
        )
        .await;
    assert_eq!(res.status(), 400);
    let res = app
        .post_json(
            PATH,
            r#"{"email":"robert@example.org","zipCode":"12345","phone":"555 123 4567"}"#,
        )
        .await;
    assert_eq!(res.status(), 201);
    // Control characters and markup in the ZIP are refused, not cleaned into something else.
    let res = app
        .post_json(PATH, r#"{"email":"a@example.org","zipCode":"1234\u0000"}"#)
        .await;
    assert_eq!(res.status(), 400);
    let res = app
        .post_json(
            PATH,
            r#"{"email":"<script>@example.org","zipCode":"12345"}"#,
        )
        .await;
    assert_eq!(res.status(), 400);
    assert_eq!(app.count("newsletter_signups").await, 1);
}

#[tokio::test]
async fn wrong_content_type_is_415() {
    let app = TestApp::new();
    for content_type in ["text/plain", "multipart/form-data; boundary=x", ""] {
        let res = warp::test::request()
            .method("POST")
            .path(PATH)
            .header("content-type", content_type)
            .body("email=a%40b.org&zipCode=12345")
            .reply(&app.app)
            .await;
        assert_eq!(res.status(), 415, "{content_type:?}");
        assert!(message(&res).contains("JSON"));
    }
    assert_eq!(app.count("newsletter_signups").await, 0);
}

#[tokio::test]
async fn oversized_bodies_are_413() {
    let app = TestApp::new();
    let body = format!(
        r#"{{"email":"a@b.org","zipCode":"12345","padding":"{}"}}"#,
        "x".repeat(70_000)
    );
    let res = app.post_json(PATH, &body).await;
    assert_eq!(res.status(), 413);
    assert_eq!(message(&res), "The request is too large.");
    assert_eq!(app.count("newsletter_signups").await, 0);
}

#[tokio::test]
async fn too_many_signups_from_one_address_are_429() {
    let app = TestApp::with(|c| c.form_rate_limit = 3);
    for i in 0..3 {
        let body = format!(r#"{{"email":"p{i}@example.org","zipCode":"12345"}}"#);
        assert_eq!(
            app.post_from(PATH, &body, [10, 0, 0, 7]).await.status(),
            201
        );
    }
    let res = app
        .post_from(
            PATH,
            r#"{"email":"p9@example.org","zipCode":"12345"}"#,
            [10, 0, 0, 7],
        )
        .await;
    assert_eq!(res.status(), 429);
    assert_eq!(
        message(&res),
        "Too many requests. Please wait a minute and try again."
    );
    // Another address is unaffected.
    assert_eq!(
        app.post_from(
            PATH,
            r#"{"email":"q@example.org","zipCode":"12345"}"#,
            [10, 0, 0, 8]
        )
        .await
        .status(),
        201
    );
    assert_eq!(app.count("newsletter_signups").await, 4);
    // An IPv6 client is its /64: a new address in it for every post is still one client.
    let v6 = |net: u16, host: u16| std::net::IpAddr::from([0x2001, 0xdb8, 7, net, 0, 0, 0, host]);
    for host in 1..=3 {
        let body = format!(r#"{{"email":"v{host}@example.org","zipCode":"12345"}}"#);
        assert_eq!(app.post_from(PATH, &body, v6(1, host)).await.status(), 201);
    }
    let body = r#"{"email":"v9@example.org","zipCode":"12345"}"#;
    assert_eq!(app.post_from(PATH, body, v6(1, 4)).await.status(), 429);
    assert_eq!(
        app.post_from(PATH, body, v6(2, 1)).await.status(),
        201,
        "another /64"
    );
}

#[tokio::test]
async fn invalid_posts_do_not_use_up_the_rate_limit() {
    let app = TestApp::with(|c| c.form_rate_limit = 1);
    for _ in 0..3 {
        assert_eq!(
            app.post_json(PATH, r#"{"email":"typo","zipCode":"12345"}"#)
                .await
                .status(),
            400
        );
    }
    assert_eq!(
        app.post_json(PATH, r#"{"email":"fixed@example.org","zipCode":"12345"}"#)
            .await
            .status(),
        201
    );
}

#[tokio::test]
async fn a_filled_honeypot_looks_like_success_but_stores_nothing() {
    let app = TestApp::new();
    let res = app
        .post_json(
            PATH,
            r#"{"email":"bot@example.org","zipCode":"12345","website":"http://spam.example"}"#,
        )
        .await;
    assert_eq!(res.status(), 201);
    assert_eq!(message(&res), "Thank you for joining!");
    assert_eq!(app.count("newsletter_signups").await, 0);
}

#[tokio::test]
async fn other_methods_and_unknown_api_paths_answer_json() {
    let app = TestApp::new();
    let res = app.get(PATH).await;
    assert_eq!(res.status(), 405);
    assert_eq!(message(&res), "Method not allowed.");
    let res = app.get("/api/nothing-here").await;
    assert_eq!(res.status(), 404);
    assert_eq!(message(&res), "Not found.");
}
