//! Consent to texts: a separate box, recorded with its evidence, revoked by staff, and
//! revoked numbers out of the exports.

use serde_json::json;
use warp::http::Response;
use warp::hyper::body::Bytes;

use crate::common::{TestApp, message, text};

const SIGNUP: &str = "/api/newsletter-signup";
const OPT_OUT: &str = "/api/admin/sms-opt-outs";
const OPT_IN: &str = "/api/admin/sms-opt-ins";

/// `(phone, action, source, ip, user_agent, disclosure_version, method, note)` of every record.
type Record = (
    String,
    String,
    String,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
);

async fn records(app: &TestApp) -> Vec<Record> {
    app.db
        .read(|c| {
            c.prepare(
                "SELECT phone, action, source, ip, user_agent, disclosure_version, method, note \
                 FROM sms_consents ORDER BY id",
            )?
            .query_map([], |r| {
                Ok((
                    r.get(0)?,
                    r.get(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get(5)?,
                    r.get(6)?,
                    r.get(7)?,
                ))
            })?
            .collect()
        })
        .await
        .unwrap()
}

/// A JSON signup from a browser with a user agent.
async fn sign_up(app: &TestApp, body: serde_json::Value) -> Response<Bytes> {
    warp::test::request()
        .method("POST")
        .path(SIGNUP)
        .remote_addr(([10, 0, 0, 7], 40000).into())
        .header("user-agent", "Mozilla/5.0\t(Test)")
        .json(&body)
        .reply(&app.app)
        .await
}

#[tokio::test]
async fn a_ticked_box_records_the_number_the_words_and_where_it_came_from() {
    let app = TestApp::new();
    let res = sign_up(
        &app,
        json!({"email": "ana@example.org", "phone": "(555) 123-4567", "zipCode": "12345", "smsConsent": true}),
    )
    .await;
    assert_eq!(res.status(), 201);
    assert_eq!(message(&res), "Thank you for joining!");
    let words = &app.state.texts_consent;
    let found = records(&app).await;
    assert_eq!(found.len(), 1);
    let (phone, action, source, ip, ua, version, method, note) = &found[0];
    assert_eq!(
        (phone.as_str(), action.as_str(), source.as_str()),
        ("+15551234567", "granted", "newsletter")
    );
    assert_eq!(ip.as_deref(), Some("10.0.0.7"));
    assert_eq!(
        ua.as_deref(),
        Some("Mozilla/5.0(Test)"),
        "control characters are dropped"
    );
    assert_eq!(version.as_deref(), Some(words.version().as_str()));
    assert_eq!((method, note), (&None, &None));
    // The exact words are kept under that version.
    let version = words.version();
    let (label, disclosure): (String, String) = app
        .db
        .read(move |c| {
            c.query_row(
                "SELECT label, disclosure FROM sms_disclosures WHERE version = ?1",
                [version],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
        })
        .await
        .unwrap();
    assert_eq!(
        (label, disclosure),
        (words.label.clone(), words.disclosure.clone())
    );
}

#[tokio::test]
async fn a_number_without_the_box_is_for_contact_only() {
    let app = TestApp::new();
    for body in [
        json!({"email": "a@example.org", "phone": "5551234567", "zipCode": "12345"}),
        json!({"email": "b@example.org", "phone": "5551234568", "zipCode": "12345", "smsConsent": false}),
    ] {
        assert_eq!(sign_up(&app, body).await.status(), 201);
    }
    assert!(records(&app).await.is_empty());
    let token = app.login().await;
    let list = TestApp::json(
        &app.admin("GET", "/api/admin/newsletters", &token, None)
            .await,
    );
    for signup in list.as_array().unwrap() {
        assert_eq!(signup["texts"], "No consent", "{signup}");
        assert_eq!(signup["textsChangedAt"], serde_json::Value::Null);
    }
}

#[tokio::test]
async fn a_box_without_a_number_or_with_a_strange_value_is_refused_and_nothing_is_kept() {
    let app = TestApp::new();
    let cases = [
        (
            json!({"email": "a@example.org", "zipCode": "12345", "smsConsent": true}),
            "Please enter your phone number to get text updates.",
        ),
        (
            json!({"email": "a@example.org", "phone": "  ", "zipCode": "12345", "smsConsent": "yes"}),
            "Please enter your phone number to get text updates.",
        ),
        (
            json!({"email": "a@example.org", "phone": "5551234567", "zipCode": "12345", "smsConsent": 1}),
            "Text updates must be true or false.",
        ),
        (
            json!({"email": "a@example.org", "phone": "5551234567", "zipCode": "12345", "smsConsent": "sure"}),
            "Text updates must be true or false.",
        ),
    ];
    for (body, expected) in cases {
        let res = sign_up(&app, body.clone()).await;
        assert_eq!(res.status(), 400, "{body}");
        assert_eq!(message(&res), expected, "{body}");
    }
    assert_eq!(app.count("newsletter_signups").await, 0);
    assert!(records(&app).await.is_empty());
}

#[tokio::test]
async fn an_html_form_ticks_the_box_with_yes_and_a_refusal_keeps_it_ticked() {
    let app = TestApp::new();
    let res = app
        .post_form(
            SIGNUP,
            "email=c%40example.org&phone=555-123-4567&zipCode=12345&smsConsent=yes",
            "/join",
        )
        .await;
    assert_eq!(res.status(), 303);
    assert_eq!(records(&app).await.len(), 1);
    // A refused post shows the box again, ticked, beside the same words.
    let refused = app
        .post_form(
            SIGNUP,
            "email=d%40example.org&zipCode=12345&smsConsent=yes",
            "/join",
        )
        .await;
    assert_eq!(refused.status(), 303);
    let page = app.get(&crate::common::location(&refused)).await;
    let html = text(&page);
    assert!(
        html.contains("Please enter your phone number to get text updates."),
        "{html}"
    );
    assert!(
        html.contains(r#"type="checkbox" value="yes""#) && html.contains(" checked>"),
        "{html}"
    );
    assert!(html.contains(&app.state.texts_consent.label.replace('&', "&amp;")));
    assert_eq!(records(&app).await.len(), 1);
}

#[tokio::test]
async fn records_are_only_ever_added() {
    let app = TestApp::new();
    sign_up(&app, json!({"email": "a@example.org", "phone": "5551234567", "zipCode": "12345", "smsConsent": true})).await;
    let changed = app
        .db
        .write(|tx| tx.execute("UPDATE sms_consents SET action = 'revoked'", []))
        .await;
    assert!(changed.is_err(), "the trigger refuses a change");
    assert_eq!(records(&app).await[0].1, "granted");
}

#[tokio::test]
async fn staff_record_a_stop_and_the_number_leaves_every_export_at_once() {
    let app = TestApp::new();
    sign_up(&app, json!({"email": "ana@example.org", "phone": "(555) 123-4567", "zipCode": "12345", "smsConsent": true})).await;
    sign_up(&app, json!({"email": "bo@example.org", "phone": "555 987 6543", "zipCode": "12345", "smsConsent": true})).await;
    app.post_json(
        "/api/volunteer",
        r#"{"name":"Ana","email":"ana@example.org","phone":"555-123-4567","zipCode":"12345"}"#,
    )
    .await;
    let token = app.login().await;
    let export = |path: &'static str| {
        let (app, token) = (&app, token.clone());
        async move { text(&app.admin("GET", path, &token, None).await) }
    };
    let before = export("/api/admin/newsletters/export").await;
    assert!(
        before.contains("(555) 123-4567") && before.contains(",Consented,"),
        "{before}"
    );
    assert!(before.starts_with("\u{feff}ID,Email,Phone,ZIP Code,Date,Updated,Status,Confirmed At,Unsubscribed At,Text Consent,Text Consent Changed At\r\n"), "{before}");

    let res = app
        .admin("POST", OPT_OUT, &token, Some(json!({"phone": "+1 555-123-4567 ", "method": "text", "note": "Replied STOP to the March text."})))
        .await;
    assert_eq!(res.status(), 201, "{:?}", res.body());
    assert_eq!(
        TestApp::json(&res),
        json!({"phone": "+15551234567", "wasConsenting": true})
    );

    let newsletters = export("/api/admin/newsletters/export").await;
    assert!(!newsletters.contains("123-4567"), "{newsletters}");
    assert!(
        newsletters.contains("ana@example.org,,12345,") && newsletters.contains(",Opted out,"),
        "{newsletters}"
    );
    assert!(
        newsletters.contains("555 987 6543"),
        "another number is untouched"
    );
    let volunteers = export("/api/admin/volunteers/export").await;
    assert!(
        volunteers.contains("Ana,ana@example.org,,12345"),
        "{volunteers}"
    );
    // Staff still see the number, marked.
    let list = TestApp::json(
        &app.admin("GET", "/api/admin/newsletters", &token, None)
            .await,
    );
    let ana = list
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["email"] == "ana@example.org")
        .unwrap();
    assert_eq!(
        (ana["phone"].as_str(), ana["texts"].as_str()),
        (Some("(555) 123-4567"), Some("Opted out"))
    );
    assert!(ana["textsChangedAt"].is_string());
    // The record says how and what staff noted; the audit log names the number by its last digits.
    let last = records(&app).await.pop().unwrap();
    assert_eq!(
        (
            last.1.as_str(),
            last.2.as_str(),
            last.6.as_deref(),
            last.7.as_deref()
        ),
        (
            "revoked",
            "staff",
            Some("text"),
            Some("Replied STOP to the March text.")
        )
    );
    let target: String = app
        .db
        .read(|c| {
            c.query_row(
                "SELECT target FROM audit_log WHERE action = 'opt_out'",
                [],
                |r| r.get(0),
            )
        })
        .await
        .unwrap();
    assert_eq!(target, "sms:…4567");

    // A ticked box does not take a stop back: anyone can type anyone's number, and each
    // later text would break the law. The signup is answered as ever.
    let res = sign_up(&app, json!({"email": "mallory@example.org", "phone": "5551234567", "zipCode": "12345", "smsConsent": true})).await;
    assert_eq!(res.status(), 201);
    let res = sign_up(&app, json!({"email": "ana@example.org", "phone": "5551234567", "zipCode": "12345", "smsConsent": true})).await;
    assert_eq!(res.status(), 201);
    let after = export("/api/admin/newsletters/export").await;
    assert!(!after.contains("123-4567"), "{after}");
    assert_eq!(records(&app).await.last().unwrap().1, "revoked");

    // Only staff record it again, saying how the owner asked; audited.
    let res = app
        .admin("POST", OPT_IN, &token, Some(json!({"phone": "555-123-4567", "note": "Ana called on May 3 asking for texts again."})))
        .await;
    assert_eq!(res.status(), 201, "{:?}", res.body());
    assert_eq!(
        TestApp::json(&res),
        json!({"phone": "+15551234567", "wasStopped": true})
    );
    assert!(
        export("/api/admin/newsletters/export")
            .await
            .contains("(555) 123-4567")
    );
    let last = records(&app).await.pop().unwrap();
    assert_eq!((last.1.as_str(), last.2.as_str()), ("granted", "staff"));
    let audited: i64 = app
        .db
        .read(|c| {
            c.query_row(
                "SELECT COUNT(*) FROM audit_log WHERE action = 'opt_in' AND target = 'sms:…4567'",
                [],
                |r| r.get(0),
            )
        })
        .await
        .unwrap();
    assert_eq!(audited, 1);
}

#[tokio::test]
async fn an_opt_in_needs_a_session_a_number_and_a_note() {
    let app = TestApp::new();
    let anonymous = warp::test::request()
        .method("POST")
        .path(OPT_IN)
        .json(&json!({"phone": "5551234567", "note": "asked"}))
        .reply(&app.app)
        .await;
    assert_eq!(anonymous.status(), 401);
    let token = app.login().await;
    for (body, expected) in [
        (json!({"phone": "5551234567"}), "Say how and when"),
        (
            json!({"phone": "5551234567", "note": "  "}),
            "Say how and when",
        ),
        (
            json!({"phone": "12", "note": "asked"}),
            "Please enter a valid phone number",
        ),
        (
            json!({"phone": "5551234567", "note": "x".repeat(501)}),
            "The note must be at most 500",
        ),
        (
            json!({"phone": "5551234567", "note": "a\u{0007}b"}),
            "The note contains characters",
        ),
    ] {
        let res = app.admin("POST", OPT_IN, &token, Some(body.clone())).await;
        assert_eq!(res.status(), 400, "{body}");
        assert!(
            message(&res).starts_with(expected),
            "{body}: {}",
            message(&res)
        );
    }
    let res = app
        .admin(
            "POST",
            OPT_IN,
            &token,
            Some(json!({"phone": "5551234567", "note": "x", "extra": 1})),
        )
        .await;
    assert_eq!(res.status(), 400);
    assert!(records(&app).await.is_empty(), "nothing recorded");
}

#[tokio::test]
async fn an_opt_out_needs_a_session_and_a_valid_body() {
    let app = TestApp::new();
    let anonymous = warp::test::request()
        .method("POST")
        .path(OPT_OUT)
        .json(&json!({"phone": "5551234567", "method": "text"}))
        .reply(&app.app)
        .await;
    assert_eq!(anonymous.status(), 401);
    let token = app.login().await;
    let long_note = "x".repeat(501);
    let cases = [
        (
            json!({"phone": "12", "method": "text"}),
            400,
            "Please enter a valid phone number (7 to 15 digits).",
        ),
        (
            json!({"phone": "<script>", "method": "text"}),
            400,
            "Please enter a valid phone number (7 to 15 digits).",
        ),
        (
            json!({"phone": "5551234567", "method": "carrier pigeon"}),
            400,
            "Choose how they asked to stop: text, phone, mail or other.",
        ),
        (
            json!({"phone": "5551234567", "method": "text", "note": long_note}),
            400,
            "The note must be at most 500 characters.",
        ),
        (
            json!({"phone": "5551234567", "method": "text", "note": "a\u{0}b"}),
            400,
            "The note contains characters that are not allowed.",
        ),
        (json!({"phone": "5551234567"}), 400, ""),
        (
            json!({"phone": "5551234567", "method": "text", "extra": 1}),
            400,
            "",
        ),
        (json!({"phone": 5551234567u64, "method": "text"}), 400, ""),
    ];
    for (body, status, expected) in cases {
        let res = app.admin("POST", OPT_OUT, &token, Some(body.clone())).await;
        assert_eq!(res.status(), status, "{body}");
        if !expected.is_empty() {
            assert_eq!(message(&res), expected, "{body}");
        } else {
            assert!(!message(&res).is_empty(), "{body}");
        }
    }
    assert!(records(&app).await.is_empty());
    // A number that never agreed can still be recorded: it is what staff were told.
    let res = app
        .admin(
            "POST",
            OPT_OUT,
            &token,
            Some(json!({"phone": "555-000-1111", "method": "mail", "note": null})),
        )
        .await;
    assert_eq!(res.status(), 201);
    assert_eq!(TestApp::json(&res)["wasConsenting"], false);
}

/// Erasing a person erases the consent records of every number they gave (a later signup's
/// too, with its address and browser), and keeps only a stop, as a keyed hash that names
/// nobody: a stranger's ticked box for that number still records nothing.
#[tokio::test]
async fn erasing_a_person_erases_their_numbers_consent_records_but_not_a_stop() {
    let app = TestApp::new();
    sign_up(&app, json!({"email": "ana@example.org", "phone": "5551234567", "zipCode": "12345", "smsConsent": true})).await;
    // A later signup from Ana with another number: her row keeps the first, the grant is kept.
    sign_up(&app, json!({"email": "Ana@Example.org", "phone": "5550001111", "zipCode": "12345", "smsConsent": true})).await;
    sign_up(&app, json!({"email": "bo@example.org", "phone": "5559876543", "zipCode": "12345", "smsConsent": true})).await;
    let token = app.login().await;
    let res = app
        .admin(
            "POST",
            OPT_OUT,
            &token,
            Some(json!({"phone": "5551234567", "method": "text"})),
        )
        .await;
    assert_eq!(res.status(), 201);
    let res = app
        .admin(
            "POST",
            "/api/admin/erase",
            &token,
            Some(json!({"email": "ANA@example.org"})),
        )
        .await;
    assert_eq!(res.status(), 200);
    let left = records(&app).await;
    assert_eq!(left.len(), 1, "{left:?}");
    assert_eq!(left[0].0, "+15559876543");
    let kept: Vec<String> = app
        .db
        .read(|c| {
            c.prepare("SELECT phone_key FROM sms_revocations")?
                .query_map([], |r| r.get(0))?
                .collect()
        })
        .await
        .unwrap();
    assert_eq!(kept.len(), 1, "one stop kept");
    assert!(!kept[0].contains("555"), "as a hash: {kept:?}");
    sign_up(&app, json!({"email": "mallory@example.org", "phone": "(555) 123-4567", "zipCode": "12345", "smsConsent": true})).await;
    assert_eq!(
        records(&app).await.len(),
        1,
        "the stop outlived the erasure"
    );
    // Staff can still record the owner's own request.
    let res = app
        .admin(
            "POST",
            OPT_IN,
            &token,
            Some(json!({"phone": "5551234567", "note": "Asked by letter."})),
        )
        .await;
    assert_eq!(TestApp::json(&res)["wasStopped"], true);
}

#[tokio::test]
async fn numbers_stored_before_consent_existed_are_matched_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("site.db");
    {
        let db = api::store::db::Db::open(&path).unwrap();
        db.write(|tx| {
            tx.execute(
                "INSERT INTO newsletter_signups (email, phone, zip_code) VALUES ('old@example.org', '(555) 222-3333', '12345')",
                [],
            )
        })
        .await
        .unwrap();
    }
    let db = api::store::db::Db::open(&path).unwrap();
    let e164: Option<String> = db
        .read(|c| {
            c.query_row("SELECT phone_e164 FROM newsletter_signups", [], |r| {
                r.get(0)
            })
        })
        .await
        .unwrap();
    assert_eq!(e164.as_deref(), Some("+15552223333"));
}
