//! Staff accounts (issue 37): the role matrix drawn from the OpenAPI description, sign-in
//! and its second step, invitations, offboarding, password resets, service tokens and the
//! audit log's actor. Mail goes to a real local SMTP server where a flow reads it.

mod accounts;
mod limits;
mod roles;
mod sign_in;
mod tokens;

use api::domain::staff::Role;
use serde_json::{Value, json};
use warp::http::Response;
use warp::hyper::body::Bytes;

use crate::common::{TestApp, device_cookie};
use crate::mail::smtp::Smtp;

/// Every test account's password.
pub const PASSWORD: &str = "violet harbor lantern quietly";

/// A signed-in test account.
pub struct Member {
    pub id: i64,
    pub email: String,
    pub token: String,
    pub device: String,
}

/// An app whose mail reaches `smtp` (so e-mailed codes can be sent).
pub fn with_mail(smtp: &Smtp) -> TestApp {
    let url = smtp.url();
    TestApp::with(move |c| c.mail.smtp_url = Some(url))
}

/// Adds an account of `role` directly (the arrangement) and signs it in (its first sign-in:
/// no second step). Roles that need a strong factor get an authenticator app.
pub async fn member(app: &TestApp, role: Role, email: &str) -> Member {
    let hash = api::domain::auth::hash(PASSWORD).unwrap();
    let email = email.to_owned();
    let e = email.clone();
    let now = app.state.clock.now_sql();
    let (owner, owner_hash) = (
        app.state.auth.owner_email.clone(),
        app.state.auth.owner_password.clone(),
    );
    let id = app
        .db
        .write(move |tx| {
            // The Owner first, as the server's start makes them.
            api::domain::staff::accounts::seed_owner(tx, &owner, &owner_hash, &now)?;
            api::domain::staff::accounts::create(tx, &e, "", role, &hash, &now)
                .map(|id| id.expect("a new address"))
        })
        .await
        .unwrap();
    let res = login(app, &email, PASSWORD, None).await;
    assert_eq!(res.status(), 200, "{:?}", res.body());
    let body = TestApp::json(&res);
    assert_eq!(body["success"], true, "{body}");
    if role.needs_strong_factor() {
        app.arrange_totp(id).await;
    }
    Member {
        id,
        email,
        token: body["token"].as_str().unwrap().to_owned(),
        device: device_cookie(&res).unwrap(),
    }
}

/// `POST /api/admin/login`, with the device cookie `device` if given.
pub async fn login(
    app: &TestApp,
    email: &str,
    password: &str,
    device: Option<&str>,
) -> Response<Bytes> {
    login_with(app, json!({ "email": email, "password": password }), device).await
}

pub async fn login_with(app: &TestApp, body: Value, device: Option<&str>) -> Response<Bytes> {
    let mut req = warp::test::request()
        .method("POST")
        .path("/api/admin/login")
        .remote_addr(([10, 7, 7, 7], 40000).into())
        .header("user-agent", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36")
        .json(&body);
    if let Some(device) = device {
        req = req.header("cookie", format!("acp_device={device}"));
    }
    req.reply(&app.app).await
}

/// A public admin POST (the sign-in steps, the mailed links' routes).
pub async fn post(app: &TestApp, path: &str, body: Value) -> Response<Bytes> {
    warp::test::request()
        .method("POST")
        .path(path)
        .remote_addr(([10, 7, 7, 7], 40000).into())
        .json(&body)
        .reply(&app.app)
        .await
}

/// The link token in the newest queued message to `to` whose link has `path` (`/admin/invite#`).
pub async fn link_in_mail(app: &TestApp, to: &'static str, path: &'static str) -> String {
    let message: Vec<u8> = app
        .db
        .read(move |c| {
            c.query_row(
                "SELECT message FROM mail_queue WHERE to_address LIKE '%' || ?1 || '%' ORDER BY id DESC LIMIT 1",
                [to],
                |r| r.get(0),
            )
        })
        .await
        .unwrap();
    let text = String::from_utf8_lossy(&message).replace("=\r\n", "");
    let start = text
        .find(path)
        .unwrap_or_else(|| panic!("no {path} link in: {text}"))
        + path.len();
    text[start..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .collect()
}

/// The 6-digit code in the newest message `smtp` received.
pub fn code_in(smtp: &Smtp) -> String {
    let last = smtp.received().last().cloned().expect("a message");
    let text = last.text();
    let at = text.find("is:").expect("the code's line") + 3;
    text[at..].trim().chars().take(6).collect()
}
