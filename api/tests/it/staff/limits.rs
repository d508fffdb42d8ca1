//! What one staff member, another role or a stranger can do to an account from outside it
//! (issue 48): wrong second-step codes counted per account, codes kept out of subjects and
//! out of the people timeline, the account lock answered like an unknown address, reset
//! mail throttled without voiding the link in use, factor changes only after a fresh proof
//! of the password, service tokens that end, remembered browsers forgotten, and an Owner's
//! sessions hidden from an Administrator.

use api::domain::staff::Role;
use serde_json::json;
use warp::http::Response;
use warp::hyper::body::Bytes;

use super::{PASSWORD, code_in, login, member, post, with_mail};
use crate::common::{TestApp, message};
use crate::mail::smtp::Smtp;

/// A sign-in from network `ip` with no remembered browser.
async fn login_from(app: &TestApp, ip: [u8; 4], email: &str, password: &str) -> Response<Bytes> {
    warp::test::request()
        .method("POST")
        .path("/api/admin/login")
        .remote_addr((ip, 40000).into())
        .json(&json!({ "email": email, "password": password }))
        .reply(&app.app)
        .await
}

/// A sign-in that opens a challenge: its token, and the code mailed for it.
async fn challenge(app: &TestApp, smtp: &Smtp, email: &str) -> (String, String) {
    let res = login(app, email, PASSWORD, None).await;
    assert_eq!(res.status(), 200, "{:?}", res.body());
    let body = TestApp::json(&res);
    assert_eq!(body["methods"], json!(["email"]), "{body}");
    app.state.mail.deliver_due().await;
    (
        body["challenge"].as_str().unwrap().to_owned(),
        code_in(smtp),
    )
}

fn wrong(code: &str, n: u32) -> String {
    format!("{:06}", (code.parse::<u32>().unwrap() + 1 + n) % 1_000_000)
}

async fn verify(app: &TestApp, challenge: &str, code: &str) -> Response<Bytes> {
    post(
        app,
        "/api/admin/login/verify",
        json!({ "challenge": challenge, "method": "email", "code": code }),
    )
    .await
}

#[tokio::test]
async fn wrong_codes_are_counted_per_account_then_only_known_browsers_sign_it_in() {
    let smtp = Smtp::start();
    let app = with_mail(&smtp);
    let org = member(&app, Role::Organizer, "org@party.example").await;
    // Five wrong codes void a challenge; the password holder opens another...
    let (first, code) = challenge(&app, &smtp, &org.email).await;
    for n in 0..5 {
        assert_eq!(verify(&app, &first, &wrong(&code, n)).await.status(), 401);
    }
    let (second, code) = challenge(&app, &smtp, &org.email).await;
    for n in 0..4 {
        assert_eq!(verify(&app, &second, &wrong(&code, n)).await.status(), 401);
    }
    let (third, third_code) = challenge(&app, &smtp, &org.email).await;
    // ...and the tenth wrong code for the account, on any challenge, ends codes for it.
    assert_eq!(verify(&app, &second, &wrong(&code, 9)).await.status(), 401);
    let res = verify(&app, &third, &third_code).await;
    assert_eq!(res.status(), 429, "even the right code: {:?}", res.body());
    assert!(
        message(&res).starts_with("Too many wrong codes for this account."),
        "{}",
        message(&res)
    );
    assert!(res.headers().contains_key("retry-after"));
    // A new sign-in from a new browser mails no code (it has no passkey to offer instead).
    let sent = smtp.received().len();
    let res = login(&app, &org.email, PASSWORD, None).await;
    assert_eq!(res.status(), 429);
    app.state.mail.deliver_due().await;
    let got = smtp.received();
    let notices: Vec<_> = got[sent..]
        .iter()
        .filter(|m| m.text().contains("wrong sign-in codes"))
        .collect();
    assert_eq!(notices.len(), 1, "the owner is told once");
    assert_eq!(notices[0].to, ["org@party.example"]);
    assert_eq!(got.len(), sent + 1, "no code went out");
    // A stranger without the password is answered as for an address with no account.
    let theirs = login(&app, &org.email, "not the password at all", None).await;
    let nobody = login(
        &app,
        "nobody@party.example",
        "not the password at all",
        None,
    )
    .await;
    assert_eq!(
        (theirs.status(), theirs.body()),
        (nobody.status(), nobody.body())
    );
    // The browser the person signed in from before still gets in.
    let res = login(&app, &org.email, PASSWORD, Some(&org.device)).await;
    assert_eq!(TestApp::json(&res)["success"], true);
    // Fifteen minutes on, codes work again.
    app.state
        .clock
        .advance(std::time::Duration::from_secs(15 * 60 + 1));
    let (fresh, code) = challenge(&app, &smtp, &org.email).await;
    assert_eq!(verify(&app, &fresh, &code).await.status(), 200);
}

#[tokio::test]
async fn sign_in_codes_are_in_no_subject_and_on_no_page_of_the_people_tab() {
    let smtp = Smtp::start();
    let app = with_mail(&smtp);
    let organizer = member(&app, Role::Organizer, "org@party.example").await;
    let editor = member(&app, Role::Editor, "ed@party.example").await;
    // Anyone can give a staff address a person record: a message through the contact form.
    let body = json!({"name": "Ed", "email": "ed@party.example", "subject": "Hi", "message": "Hello there"});
    assert_eq!(
        app.post_json("/api/contact", &body.to_string())
            .await
            .status(),
        201
    );
    let mut codes = Vec::new();
    for _ in 0..3 {
        let res = login(&app, &editor.email, PASSWORD, None).await;
        assert_eq!(TestApp::json(&res)["methods"], json!(["email"]));
        app.state.mail.deliver_due().await;
        let code = code_in(&smtp);
        let last = smtp.received().last().cloned().unwrap();
        let subject = last.header("Subject").unwrap();
        assert!(!subject.contains(&code), "{subject}");
        assert!(subject.contains("sign-in code"), "{subject}");
        codes.push(code);
    }
    let person: i64 = app
        .db
        .read(|c| {
            c.query_row(
                "SELECT supporter_id FROM supporter_emails WHERE email = 'ed@party.example'",
                [],
                |r| r.get(0),
            )
        })
        .await
        .unwrap();
    for path in [
        format!("/api/admin/people/{person}"),
        format!("/api/admin/people/{person}/export"),
    ] {
        let res = app.admin("GET", &path, &organizer.token, None).await;
        assert_eq!(res.status(), 200, "{path}");
        let text = String::from_utf8_lossy(res.body()).into_owned();
        for code in &codes {
            assert!(!text.contains(code.as_str()), "{path}: {text}");
        }
        assert!(!text.contains("sign-in code"), "{path}: {text}");
        assert!(text.contains("Hello there"), "the message is there: {text}");
    }
    // The mail list staff with `mail.read` see names the kind, never a code.
    let owner = app.login().await;
    let res = app.admin("GET", "/api/admin/mail", &owner, None).await;
    let text = String::from_utf8_lossy(res.body()).into_owned();
    assert!(text.contains("staff_security"), "{text}");
    for code in &codes {
        assert!(!text.contains(code.as_str()), "{text}");
    }
}

#[tokio::test]
async fn the_account_lock_answers_like_an_address_without_an_account() {
    let smtp = Smtp::start();
    let app = with_mail(&smtp);
    let org = member(&app, Role::Organizer, "org@party.example").await;
    // Fifty wrong passwords from fifty networks (none of them locked out on its own).
    for n in 0..50u8 {
        let res = login_from(&app, [172, 16, n, 1], &org.email, "a wrong guess here").await;
        assert_eq!(res.status(), 401);
    }
    // Now even the right password from a new network is answered like any wrong one,
    // exactly as an address with no account is.
    let staff = login_from(&app, [172, 17, 0, 1], &org.email, PASSWORD).await;
    let nobody = login_from(&app, [172, 17, 0, 2], "nobody@party.example", PASSWORD).await;
    assert_eq!(staff.status(), 401);
    assert_eq!(
        (staff.status(), staff.body()),
        (nobody.status(), nobody.body()),
        "the lock tells nobody who is staff"
    );
    // The person's own browser still signs in, and they were told once.
    let res = login(&app, &org.email, PASSWORD, Some(&org.device)).await;
    assert_eq!(TestApp::json(&res)["success"], true);
    app.state.mail.deliver_due().await;
    let told: Vec<_> = smtp
        .received()
        .into_iter()
        .filter(|m| m.text().contains("many wrong passwords were tried"))
        .collect();
    assert_eq!(told.len(), 1);
}

/// The reset mails queued to `to` so far.
async fn resets(app: &TestApp) -> i64 {
    app.db
        .read(|c| {
            c.query_row(
                "SELECT COUNT(*) FROM mail_queue WHERE event_key LIKE 'staff-reset:%'",
                [],
                |r| r.get(0),
            )
        })
        .await
        .unwrap()
}

#[tokio::test]
async fn reset_mail_is_throttled_and_a_newer_link_leaves_the_one_in_use_working() {
    let app = TestApp::with(|c| c.form_rate_limit = 1000);
    let org = member(&app, Role::Organizer, "org@party.example").await;
    let ask = || {
        post(
            &app,
            "/api/admin/password-reset",
            json!({ "email": "org@party.example" }),
        )
    };
    assert_eq!(ask().await.status(), 200);
    let first = super::link_in_mail(&app, "org@party.example", "/admin/reset#").await;
    // Seven more in a row: answered alike, but only two more mails go.
    for _ in 0..7 {
        let res = ask().await;
        assert_eq!(res.status(), 200);
        assert_eq!(
            message(&res),
            "If that address belongs to a staff account, a link to reset its password is on its way."
        );
    }
    assert_eq!(resets(&app).await, 3, "three an hour");
    let last = super::link_in_mail(&app, "org@party.example", "/admin/reset#").await;
    assert_ne!(last, first);
    // The first link, the one the person opened, still works.
    let res = post(
        &app,
        "/api/admin/password-reset/check",
        json!({ "token": first }),
    )
    .await;
    assert_eq!(res.status(), 200);
    let res = post(
        &app,
        "/api/admin/password-reset/complete",
        json!({ "token": first, "password": "copper meadow violin tuesday" }),
    )
    .await;
    assert_eq!(res.status(), 200, "{:?}", res.body());
    // Using one ends the others.
    let res = post(
        &app,
        "/api/admin/password-reset/check",
        json!({ "token": last }),
    )
    .await;
    assert_eq!(res.status(), 410);
    // An hour on, another may be asked for.
    app.state
        .clock
        .advance(std::time::Duration::from_secs(3601));
    assert_eq!(ask().await.status(), 200);
    assert_eq!(resets(&app).await, 4);
    let _ = org;
}

#[tokio::test]
async fn reset_requests_are_limited_per_network_whatever_address_they_name() {
    let app = TestApp::with(|c| c.form_rate_limit = 2);
    member(&app, Role::Organizer, "org@party.example").await;
    let from = |ip: [u8; 4], email: &'static str| {
        let app = &app;
        async move {
            warp::test::request()
                .method("POST")
                .path("/api/admin/password-reset")
                .remote_addr((ip, 40000).into())
                .json(&json!({ "email": email }))
                .reply(&app.app)
                .await
        }
    };
    assert_eq!(from([10, 3, 3, 3], "org@party.example").await.status(), 200);
    assert_eq!(
        from([10, 3, 3, 3], "nobody@party.example").await.status(),
        200
    );
    let staff = from([10, 3, 3, 3], "org@party.example").await;
    let nobody = from([10, 3, 3, 3], "nobody@party.example").await;
    assert_eq!(staff.status(), 429);
    assert_eq!(
        (staff.status(), staff.body()),
        (nobody.status(), nobody.body())
    );
    // Another network is not held up.
    assert_eq!(from([10, 4, 4, 4], "org@party.example").await.status(), 200);
}

#[tokio::test]
async fn changing_a_second_factor_needs_a_fresh_proof_of_the_password() {
    let app = TestApp::new();
    let token = app.login().await;
    // Just signed in: a change is taken.
    let res = app
        .admin("POST", "/api/admin/security/recovery-codes", &token, None)
        .await;
    assert_eq!(res.status(), 200, "{:?}", res.body());
    // Six minutes on (a token stolen from the browser, say), every factor change asks.
    app.state
        .clock
        .advance(std::time::Duration::from_secs(6 * 60));
    for (method, path) in [
        ("POST", "/api/admin/security/totp"),
        ("POST", "/api/admin/security/totp/confirm"),
        ("DELETE", "/api/admin/security/totp"),
        ("POST", "/api/admin/security/recovery-codes"),
        ("POST", "/api/admin/security/passkeys/options"),
        ("DELETE", "/api/admin/security/passkeys/1"),
    ] {
        let body = (path.ends_with("confirm")).then(|| json!({ "code": "123456" }));
        let res = app.admin(method, path, &token, body).await;
        assert_eq!(res.status(), 403, "{method} {path}: {:?}", res.body());
        let body = TestApp::json(&res);
        assert_eq!(body["reauth"], true, "{method} {path}");
        assert_eq!(
            body["message"],
            "Enter your password again to change how you sign in."
        );
    }
    // A wrong password proves nothing; the right one opens five minutes.
    let prove = |password: &'static str| {
        let (app, token) = (&app, &token);
        async move {
            app.admin(
                "POST",
                "/api/admin/security/confirm",
                token,
                Some(json!({ "password": password })),
            )
            .await
        }
    };
    let res = prove("not my password at all").await;
    assert_eq!(res.status(), 400);
    assert_eq!(message(&res), "That password isn't right.");
    assert_eq!(prove("").await.status(), 400);
    assert_eq!(
        prove(api::config::Config::TEST_PASSWORD).await.status(),
        200
    );
    let res = app
        .admin("POST", "/api/admin/security/recovery-codes", &token, None)
        .await;
    assert_eq!(res.status(), 200);
    app.state
        .clock
        .advance(std::time::Duration::from_secs(6 * 60));
    let res = app
        .admin("POST", "/api/admin/security/recovery-codes", &token, None)
        .await;
    assert_eq!(res.status(), 403);
}

#[tokio::test]
async fn service_tokens_end_on_their_date_and_with_the_owner_who_made_them() {
    let app = TestApp::new();
    let owner = app.login().await;
    let other = member(&app, Role::Owner, "second-owner@party.example").await;
    let make = |token: String, body: serde_json::Value| {
        let app = &app;
        async move {
            app.admin("POST", "/api/admin/service-tokens", &token, Some(body))
                .await
        }
    };
    let res = make(
        other.token.clone(),
        json!({ "name": "Nightly", "scope": "exports" }),
    )
    .await;
    assert_eq!(res.status(), 201, "{:?}", res.body());
    let theirs = TestApp::json(&res)["token"].as_str().unwrap().to_owned();
    let export = |token: String| {
        let app = &app;
        async move {
            app.admin("GET", "/api/admin/contacts/export", &token, None)
                .await
                .status()
        }
    };
    assert_eq!(export(theirs.clone()).await, 200);
    // Its maker leaves: it stops with their account.
    let res = app
        .admin(
            "POST",
            &format!("/api/admin/users/{}/deactivate", other.id),
            &owner,
            None,
        )
        .await;
    assert_eq!(res.status(), 200, "{:?}", res.body());
    assert_eq!(export(theirs).await, 401);
    // One made for a day works for a day; a year is the most.
    for days in [0, 366] {
        let res = make(
            owner.clone(),
            json!({ "name": "Too long", "scope": "exports", "expiresInDays": days }),
        )
        .await;
        assert_eq!(res.status(), 400);
        assert_eq!(message(&res), "A token works for 1 to 365 days.");
    }
    let res = make(
        owner.clone(),
        json!({ "name": "Probe", "scope": "exports", "expiresInDays": 1 }),
    )
    .await;
    assert_eq!(res.status(), 201);
    let mine = TestApp::json(&res);
    assert!(mine["expiresAt"].is_string());
    let mine = mine["token"].as_str().unwrap().to_owned();
    assert_eq!(export(mine.clone()).await, 200);
    app.state
        .clock
        .advance(std::time::Duration::from_secs(25 * 3600));
    let owner = app.login().await;
    assert_eq!(export(mine).await, 401);
    // The list says when each ends and why one no longer works.
    let res = app
        .admin("GET", "/api/admin/service-tokens", &owner, None)
        .await;
    let tokens = TestApp::json(&res)["tokens"].as_array().unwrap().clone();
    let ended: Vec<_> = tokens.iter().map(|t| t["ended"].clone()).collect();
    assert_eq!(ended, [json!("expired"), json!("maker left")]);
    assert!(
        tokens
            .iter()
            .all(|t| t["expiresAt"].is_string() && t["active"] == false)
    );
}

#[tokio::test]
async fn a_new_password_or_signing_out_everywhere_forgets_the_remembered_browsers() {
    let smtp = Smtp::start();
    let app = with_mail(&smtp);
    let org = member(&app, Role::Organizer, "org@party.example").await;
    let res = login(&app, &org.email, PASSWORD, Some(&org.device)).await;
    let token = TestApp::json(&res)["token"].as_str().unwrap().to_owned();
    let res = app
        .admin(
            "POST",
            "/api/admin/security/sign-out-everywhere",
            &token,
            None,
        )
        .await;
    assert_eq!(res.status(), 200);
    let res = login(&app, &org.email, PASSWORD, Some(&org.device)).await;
    assert_eq!(
        TestApp::json(&res)["success"],
        false,
        "the browser is asked for a second step again"
    );
    // Signed in again (by code), then a new password: the new browser is forgotten too.
    let body = TestApp::json(&res);
    app.state.mail.deliver_due().await;
    let code = code_in(&smtp);
    let res = verify(&app, body["challenge"].as_str().unwrap(), &code).await;
    assert_eq!(res.status(), 200);
    let device = crate::common::device_cookie(&res).unwrap();
    let token = TestApp::json(&res)["token"].as_str().unwrap().to_owned();
    let res = app
        .admin(
            "POST",
            "/api/admin/security/password",
            &token,
            Some(json!({ "current": PASSWORD, "password": "copper meadow violin tuesday" })),
        )
        .await;
    assert_eq!(res.status(), 200, "{:?}", res.body());
    let res = login(
        &app,
        &org.email,
        "copper meadow violin tuesday",
        Some(&device),
    )
    .await;
    assert_eq!(TestApp::json(&res)["success"], false);
}

#[tokio::test]
async fn an_administrator_does_not_see_where_an_owner_is_signed_in() {
    let app = TestApp::new();
    let owner = app.login().await;
    let admin = member(&app, Role::Administrator, "admin2@party.example").await;
    let org = member(&app, Role::Organizer, "org@party.example").await;
    let owner_id = TestApp::json(&app.admin("GET", "/api/admin/me", &owner, None).await)["id"]
        .as_i64()
        .unwrap();
    let res = app
        .admin(
            "GET",
            &format!("/api/admin/users/{owner_id}/sessions"),
            &admin.token,
            None,
        )
        .await;
    assert_eq!(res.status(), 403);
    // An Organizer's, yes; and the Owner sees the Administrator's.
    let res = app
        .admin(
            "GET",
            &format!("/api/admin/users/{}/sessions", org.id),
            &admin.token,
            None,
        )
        .await;
    assert_eq!(res.status(), 200);
    assert_eq!(TestApp::json(&res)["sessions"].as_array().unwrap().len(), 1);
    let res = app
        .admin(
            "GET",
            &format!("/api/admin/users/{}/sessions", admin.id),
            &owner,
            None,
        )
        .await;
    assert_eq!(res.status(), 200);
}
