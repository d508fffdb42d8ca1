//! The second step: a new browser is asked for an e-mailed code (or, for someone with one,
//! their authenticator app, a recovery code or a passkey); a browser seen before is not.

use api::config::Config;
use api::domain::staff::Role;
use serde_json::json;

use super::{PASSWORD, code_in, login, login_with, member, post, with_mail};
use crate::common::{TestApp, device_cookie, message, totp_code};
use crate::mail::smtp::Smtp;

#[tokio::test]
async fn a_new_browser_needs_the_code_mailed_to_the_person() {
    let smtp = Smtp::start();
    let app = with_mail(&smtp);
    let org = member(&app, Role::Organizer, "org@party.example").await;
    // A browser with no cookie: the right password opens a challenge and mails a code.
    let res = login(&app, &org.email, PASSWORD, None).await;
    assert_eq!(res.status(), 200);
    let body = TestApp::json(&res);
    assert_eq!(body["success"], false);
    assert_eq!(body["methods"], json!(["email"]));
    assert!(body.get("token").is_none());
    let challenge = body["challenge"].as_str().unwrap().to_owned();
    app.state.mail.deliver_due().await;
    let mail = smtp.received().last().cloned().unwrap();
    assert_eq!(mail.to, ["org@party.example"]);
    let text = mail.text();
    assert!(
        text.contains("Chrome on Linux") && text.contains("10.7.7.7"),
        "{text}"
    );
    let code = code_in(&smtp);
    assert_eq!(code.len(), 6);
    // A wrong code is refused; the right one signs in and remembers the browser.
    let wrong = if code == "000000" { "111111" } else { "000000" };
    let res = post(
        &app,
        "/api/admin/login/verify",
        json!({ "challenge": challenge, "method": "email", "code": wrong }),
    )
    .await;
    assert_eq!(res.status(), 401);
    assert_eq!(message(&res), "That code isn't right.");
    let res = post(
        &app,
        "/api/admin/login/verify",
        json!({ "challenge": challenge, "method": "email", "code": code }),
    )
    .await;
    assert_eq!(res.status(), 200, "{:?}", res.body());
    assert!(TestApp::json(&res)["token"].is_string());
    let cookie = res.headers()["set-cookie"].to_str().unwrap().to_owned();
    for part in [
        "acp_device=",
        "HttpOnly",
        "Secure",
        "SameSite=Strict",
        "Max-Age=2592000",
        "Path=/api/admin",
    ] {
        assert!(cookie.contains(part), "{cookie}");
    }
    // Once only.
    let res = post(
        &app,
        "/api/admin/login/verify",
        json!({ "challenge": challenge, "method": "email", "code": code }),
    )
    .await;
    assert_eq!(res.status(), 410);
    // A browser seen before is not asked again (and keeps the cookie it has).
    let res = login(&app, &org.email, PASSWORD, Some(&org.device)).await;
    assert_eq!(TestApp::json(&res)["success"], true);
    assert!(device_cookie(&res).is_none());
}

#[tokio::test]
async fn five_wrong_codes_or_ten_minutes_void_the_code_and_extra_fields_change_nothing() {
    let smtp = Smtp::start();
    let app = with_mail(&smtp);
    let org = member(&app, Role::Organizer, "org@party.example").await;
    let res = login_with(
        &app,
        json!({ "email": org.email, "password": PASSWORD, "skipVerification": true, "trusted": true }),
        None,
    )
    .await;
    let body = TestApp::json(&res);
    assert_eq!(body["success"], false, "an extra field changes nothing");
    let challenge = body["challenge"].as_str().unwrap().to_owned();
    app.state.mail.deliver_due().await;
    let code = code_in(&smtp);
    for n in 0..5 {
        let wrong = format!("{:06}", (code.parse::<u32>().unwrap() + 1 + n) % 1_000_000);
        let res = post(
            &app,
            "/api/admin/login/verify",
            json!({ "challenge": challenge, "method": "email", "code": wrong }),
        )
        .await;
        assert_eq!(res.status(), 401);
    }
    let res = post(
        &app,
        "/api/admin/login/verify",
        json!({ "challenge": challenge, "method": "email", "code": code }),
    )
    .await;
    assert_eq!(res.status(), 410, "void after five wrong codes");
    assert_eq!(
        message(&res),
        "That sign-in has expired. Please sign in again."
    );
    // A new challenge's code runs out after ten minutes on the clock.
    let body = TestApp::json(&login(&app, &org.email, PASSWORD, None).await);
    let challenge = body["challenge"].as_str().unwrap().to_owned();
    app.state.mail.deliver_due().await;
    let code = code_in(&smtp);
    app.state.clock.advance(std::time::Duration::from_secs(601));
    let res = post(
        &app,
        "/api/admin/login/verify",
        json!({ "challenge": challenge, "method": "email", "code": code }),
    )
    .await;
    assert_eq!(res.status(), 410);
    // Bad requests store nothing and say what is wrong.
    let res = post(
        &app,
        "/api/admin/login/verify",
        json!({ "challenge": "x", "method": "sms", "code": "1" }),
    )
    .await;
    assert_eq!(res.status(), 400);
    let res = post(
        &app,
        "/api/admin/login/verify",
        json!({ "challenge": "x", "method": "email" }),
    )
    .await;
    assert_eq!(res.status(), 400);
}

#[tokio::test]
async fn without_mail_a_code_only_account_is_told_what_to_do_and_an_app_still_works() {
    let app = TestApp::new();
    let org = member(&app, Role::Organizer, "org@party.example").await;
    let res = login(&app, &org.email, PASSWORD, None).await;
    assert_eq!(res.status(), 503);
    assert_eq!(
        message(&res),
        "E-mail isn't configured on this server. Use your authenticator app, a recovery code, or ask the owner"
    );
    // The Owner, with an authenticator app, signs in from a new browser as usual.
    app.login().await;
    let secret = app.owner().totp;
    let res = login(&app, Config::TEST_EMAIL, Config::TEST_PASSWORD, None).await;
    let body = TestApp::json(&res);
    assert_eq!(body["methods"], json!(["totp"]));
    let challenge = body["challenge"].as_str().unwrap();
    // The arranged app's current step counts as used: the next code is the one to type.
    app.state.clock.advance(std::time::Duration::from_secs(30));
    let code = totp_code(&secret, app.state.clock.now());
    let res = post(
        &app,
        "/api/admin/login/verify",
        json!({ "challenge": challenge, "method": "totp", "code": code }),
    )
    .await;
    assert_eq!(res.status(), 200, "{:?}", res.body());
    // The same code is never taken twice.
    let body = TestApp::json(&login(&app, Config::TEST_EMAIL, Config::TEST_PASSWORD, None).await);
    let res = post(
        &app,
        "/api/admin/login/verify",
        json!({ "challenge": body["challenge"], "method": "totp", "code": code }),
    )
    .await;
    assert_eq!(res.status(), 401);
}

#[tokio::test]
async fn recovery_codes_work_once_and_each_use_is_mailed() {
    let smtp = Smtp::start();
    let app = with_mail(&smtp);
    let token = app.login().await;
    // Enrolling through the API: ten codes, shown once; the notice mailed.
    let res = app
        .admin("POST", "/api/admin/security/totp", &token, None)
        .await;
    let secret = TestApp::json(&res)["secret"].as_str().unwrap().to_owned();
    assert!(
        TestApp::json(&res)["qrSvg"]
            .as_str()
            .unwrap()
            .starts_with("<?xml")
    );
    let secret = totp_rs::Secret::Encoded(secret).to_bytes().unwrap();
    app.state.clock.advance(std::time::Duration::from_secs(30));
    let res = app
        .admin(
            "POST",
            "/api/admin/security/totp/confirm",
            &token,
            Some(json!({ "code": "000000" })),
        )
        .await;
    assert_eq!(res.status(), 400, "a wrong code does not turn the app on");
    let code = totp_code(&secret, app.state.clock.now());
    let res = app
        .admin(
            "POST",
            "/api/admin/security/totp/confirm",
            &token,
            Some(json!({ "code": code })),
        )
        .await;
    assert_eq!(res.status(), 200);
    let codes: Vec<String> =
        serde_json::from_value(TestApp::json(&res)["recoveryCodes"].clone()).unwrap();
    assert_eq!(codes.len(), 10);
    app.state.mail.deliver_due().await;
    let notices = smtp.received();
    assert_eq!(notices.len(), 1);
    assert!(
        notices[0]
            .header("subject")
            .unwrap()
            .contains("an authenticator app was added")
    );
    // A recovery code signs a new browser in, once.
    let body = TestApp::json(&login(&app, Config::TEST_EMAIL, Config::TEST_PASSWORD, None).await);
    assert_eq!(body["methods"], json!(["totp", "recovery"]));
    let res = post(&app, "/api/admin/login/verify", json!({ "challenge": body["challenge"], "method": "recovery", "code": codes[0].to_uppercase() })).await;
    assert_eq!(res.status(), 200, "{:?}", res.body());
    let body = TestApp::json(&login(&app, Config::TEST_EMAIL, Config::TEST_PASSWORD, None).await);
    let res = post(
        &app,
        "/api/admin/login/verify",
        json!({ "challenge": body["challenge"], "method": "recovery", "code": codes[0] }),
    )
    .await;
    assert_eq!(res.status(), 401, "used already");
    app.state.mail.deliver_due().await;
    let notices = smtp.received();
    assert_eq!(notices.len(), 2);
    assert!(notices[1].text().contains("recovery code was used"));
    // New codes void the old ones; the overview counts what is left.
    let res = app.admin("GET", "/api/admin/security", &token, None).await;
    assert_eq!(TestApp::json(&res)["recoveryCodesLeft"], 9);
    let res = app
        .admin("POST", "/api/admin/security/recovery-codes", &token, None)
        .await;
    assert_eq!(res.status(), 200);
    let body = TestApp::json(&login(&app, Config::TEST_EMAIL, Config::TEST_PASSWORD, None).await);
    let res = post(
        &app,
        "/api/admin/login/verify",
        json!({ "challenge": body["challenge"], "method": "recovery", "code": codes[1] }),
    )
    .await;
    assert_eq!(res.status(), 401);
}

#[tokio::test]
async fn deactivating_a_user_ends_their_sessions_at_once_and_keeps_their_byline() {
    let app = TestApp::new();
    let owner = app.login().await;
    let author = member(&app, Role::Author, "writer@party.example").await;
    let res = app
        .admin(
            "POST",
            "/api/admin/blogs",
            &author.token,
            Some(json!({ "title": "Mine", "authorName": "Wren Writer" })),
        )
        .await;
    assert_eq!(res.status(), 201, "{:?}", res.body());
    let post_id = TestApp::json(&res)["id"].as_i64().unwrap();
    let res = app
        .admin(
            "POST",
            &format!("/api/admin/users/{}/deactivate", author.id),
            &owner,
            None,
        )
        .await;
    assert_eq!(res.status(), 200);
    let res = app
        .admin("GET", "/api/admin/blogs", &author.token, None)
        .await;
    assert_eq!(res.status(), 401, "not at the token's expiry: now");
    // Their password no longer works either.
    let res = login(&app, &author.email, PASSWORD, Some(&author.device)).await;
    assert_eq!(res.status(), 401);
    let res = app
        .admin("GET", &format!("/api/admin/blogs/{post_id}"), &owner, None)
        .await;
    assert_eq!(TestApp::json(&res)["authorName"], "Wren Writer");
    // Reactivated, they sign in again.
    app.admin(
        "POST",
        &format!("/api/admin/users/{}/reactivate", author.id),
        &owner,
        None,
    )
    .await;
    let res = login(&app, &author.email, PASSWORD, Some(&author.device)).await;
    assert_eq!(res.status(), 200);
    // The session from before stays ended: reactivating does not bring a stolen token back.
    let res = app
        .admin("GET", "/api/admin/blogs", &author.token, None)
        .await;
    assert_eq!(res.status(), 401);
}

#[tokio::test]
async fn sessions_are_listed_and_sign_out_everywhere_ends_them_all() {
    let app = TestApp::new();
    let first = app.login().await;
    let second = app.login().await;
    let res = app.admin("GET", "/api/admin/security", &first, None).await;
    let sessions = TestApp::json(&res)["sessions"].as_array().unwrap().clone();
    assert_eq!(sessions.len(), 2);
    assert_eq!(sessions.iter().filter(|s| s["current"] == true).count(), 1);
    assert_eq!(sessions[0]["ip"], "10.9.9.9");
    let res = app
        .admin(
            "POST",
            "/api/admin/security/sign-out-everywhere",
            &first,
            None,
        )
        .await;
    assert_eq!(res.status(), 200);
    for token in [&first, &second] {
        assert_eq!(
            app.admin("GET", "/api/admin/me", token, None)
                .await
                .status(),
            401
        );
    }
}

#[tokio::test]
async fn posts_are_touched_only_as_the_role_allows() {
    let app = TestApp::new();
    let owner = app.login().await;
    let author = member(&app, Role::Author, "author@party.example").await;
    let contributor = member(&app, Role::Contributor, "contrib@party.example").await;
    let create = |token: String, body: serde_json::Value| {
        let app = &app;
        async move {
            app.admin("POST", "/api/admin/blogs", &token, Some(body))
                .await
        }
    };
    let owners =
        TestApp::json(&create(owner.clone(), json!({ "title": "The Owner's" })).await)["id"]
            .clone();
    let res = create(
        contributor.token.clone(),
        json!({ "title": "Draft", "status": "published" }),
    )
    .await;
    assert_eq!(res.status(), 403, "a Contributor cannot publish by saving");
    let draft =
        TestApp::json(&create(contributor.token.clone(), json!({ "title": "Draft" })).await)["id"]
            .clone();
    let res = app
        .admin(
            "POST",
            &format!("/api/admin/blogs/{draft}/publish"),
            &contributor.token,
            None,
        )
        .await;
    assert_eq!(res.status(), 403);
    assert_eq!(
        message(&res),
        "Your role (Contributor) can't publish posts."
    );
    // Nobody below Editor sees or changes another's post.
    let res = app
        .admin(
            "PATCH",
            &format!("/api/admin/blogs/{owners}"),
            &author.token,
            Some(json!({ "title": "Mine now" })),
        )
        .await;
    assert_eq!(res.status(), 403);
    assert_eq!(
        message(&res),
        "Your role (Author) can't change other people's posts."
    );
    let res = app
        .admin("GET", "/api/admin/blogs", &author.token, None)
        .await;
    assert_eq!(TestApp::json(&res)["blogs"].as_array().unwrap().len(), 0);
    // An Author publishes their own.
    let own =
        TestApp::json(&create(author.token.clone(), json!({ "title": "Own" })).await)["id"].clone();
    let res = app
        .admin(
            "POST",
            &format!("/api/admin/blogs/{own}/publish"),
            &author.token,
            None,
        )
        .await;
    assert_eq!(res.status(), 200);
    // The Owner (an Editor's powers) publishes the Contributor's draft; then it is not the
    // Contributor's to change.
    let res = app
        .admin(
            "POST",
            &format!("/api/admin/blogs/{draft}/publish"),
            &owner,
            None,
        )
        .await;
    assert_eq!(res.status(), 200);
    let res = app
        .admin(
            "PATCH",
            &format!("/api/admin/blogs/{draft}"),
            &contributor.token,
            Some(json!({ "title": "Changed" })),
        )
        .await;
    assert_eq!(res.status(), 403);
}

/// The device cookie vouches for one person's browser for 30 days: another account's
/// cookie, a made-up one, or one past its 30 days still meets the second step.
#[tokio::test]
async fn a_browser_is_known_only_for_the_person_it_signed_in_and_for_thirty_days() {
    let smtp = Smtp::start();
    let app = with_mail(&smtp);
    let org = member(&app, Role::Organizer, "org@party.example").await;
    let ed = member(&app, Role::Editor, "ed@party.example").await;
    let asked = |res: &warp::http::Response<warp::hyper::body::Bytes>| {
        let body = TestApp::json(res);
        assert_eq!(res.status(), 200, "{body}");
        body["success"] == false && body["methods"] == json!(["email"])
    };
    // Each person's own browser is known to them...
    assert!(!asked(
        &login(&app, &org.email, PASSWORD, Some(&org.device)).await
    ));
    // ...but not to a colleague who signs in on it, nor from a cookie nobody was given.
    assert!(asked(
        &login(&app, &ed.email, PASSWORD, Some(&org.device)).await
    ));
    let forged = format!("{}x", org.device);
    assert!(asked(
        &login(&app, &org.email, PASSWORD, Some(&forged)).await
    ));
    assert!(asked(
        &login(&app, &org.email, PASSWORD, Some("1.abc")).await
    ));
    // Thirty days on, the browser is asked again.
    app.state
        .clock
        .advance(std::time::Duration::from_secs(30 * 24 * 3600 + 60));
    assert!(asked(
        &login(&app, &org.email, PASSWORD, Some(&org.device)).await
    ));
}
