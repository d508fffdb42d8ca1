//! The role matrix, generated from api/openapi.json: every admin route declares the
//! capability it needs (`x-capability`), and every role calls every route. A role without
//! the capability gets `403 "Your role (X) can't …"`; a role with it never does.

use api::domain::staff::{Cap, Role};
use serde_json::{Value, json};

use super::{Member, member};
use crate::common::{TestApp, message};

fn document() -> Value {
    serde_json::from_str(api::routes::openapi::DOCUMENT).unwrap()
}

/// Routes that end the caller's session: run after the rest, then the role signs in again.
fn ends_session(path: &str) -> bool {
    path.ends_with("/logout") || path.ends_with("/security/sign-out-everywhere")
}

#[tokio::test]
async fn every_admin_route_answers_every_role_as_its_capability_says() {
    let app = TestApp::new();
    let owner = app.login().await;
    let mut members: Vec<(Role, String)> = vec![(Role::Owner, owner)];
    for role in &Role::ALL[1..] {
        let m: Member = member(&app, *role, &format!("{}@party.example", role.as_str())).await;
        members.push((*role, m.token));
    }
    let doc = document();
    let mut operations: Vec<(String, String, Cap)> = Vec::new();
    for (template, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            if op.get("security").is_none() {
                continue;
            }
            let cap = op["x-capability"]
                .as_str()
                .and_then(Cap::parse)
                .unwrap_or_else(|| panic!("{method} {template} declares no capability"));
            operations.push((method.to_uppercase(), template.clone(), cap));
        }
    }
    operations.sort_by_key(|(_, path, _)| ends_session(path));
    assert!(operations.len() > 70, "{}", operations.len());
    let mut denials = 0;
    for (method, template, cap) in &operations {
        // Ids no row has: nothing real is changed, and a holder's answer is its 404 or 400.
        let path = template.replace("{id}", "999").replace("{rev}", "999");
        for (role, token) in &members {
            let body = matches!(method.as_str(), "POST" | "PATCH" | "PUT").then(|| json!({}));
            let res = app.admin(method, &path, token, body).await;
            let denial = format!("Your role ({}) can't {}.", role.label(), cap.denied());
            let said = serde_json::from_slice::<Value>(res.body())
                .ok()
                .and_then(|b| b["message"].as_str().map(str::to_owned))
                .unwrap_or_default();
            if role.can(*cap) {
                assert!(
                    !(res.status() == 403 && said.starts_with("Your role")),
                    "{method} {path} as {role:?}: {said}"
                );
                assert_ne!(res.status(), 401, "{method} {path} as {role:?}: {said}");
            } else {
                assert_eq!(res.status(), 403, "{method} {path} as {role:?}: {said}");
                assert_eq!(message(&res), denial, "{method} {path} as {role:?}");
                denials += 1;
            }
        }
        if ends_session(template) {
            // Every role that could call it is signed out now: sign each in again.
            for (role, token) in members.iter_mut() {
                if role.can(*cap) {
                    *token = if *role == Role::Owner {
                        app.login().await
                    } else {
                        relogin(&app, *role).await
                    };
                }
            }
        }
    }
    assert!(denials > 200, "{denials}");
}

/// Signs a test member in again from a new session (their browser is remembered).
async fn relogin(app: &TestApp, role: Role) -> String {
    let email = format!("{}@party.example", role.as_str());
    let device: String = {
        // A new device row for this user, as a browser that signed in before would hold.
        let keys_app = app.state.auth.clone();
        let now = app.state.clock.now();
        app.db
            .write(move |tx| {
                let id: i64 =
                    tx.query_row("SELECT id FROM users WHERE email = ?1", [&email], |r| {
                        r.get(0)
                    })?;
                api::domain::staff::devices::remember(tx, &keys_app.keys, id, now)
            })
            .await
            .unwrap()
    };
    let email = format!("{}@party.example", role.as_str());
    let res = super::login(app, &email, super::PASSWORD, Some(&device)).await;
    assert_eq!(res.status(), 200, "{:?}", res.body());
    TestApp::json(&res)["token"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn an_owner_or_treasurer_without_a_strong_factor_is_sent_to_enrol() {
    let app = TestApp::new();
    // The Owner's first sign-in, before any factor.
    let res = super::login(
        &app,
        api::config::Config::TEST_EMAIL,
        api::config::Config::TEST_PASSWORD,
        None,
    )
    .await;
    let body = TestApp::json(&res);
    assert_eq!(body["user"]["mustEnrol"], true);
    let token = body["token"].as_str().unwrap();
    for path in [
        "/api/admin/donations",
        "/api/admin/users",
        "/api/admin/contacts",
    ] {
        let res = app.admin("GET", path, token, None).await;
        assert_eq!(res.status(), 403, "{path}");
        let body = TestApp::json(&res);
        assert_eq!(body["enrol"], true);
        assert!(
            body["message"]
                .as_str()
                .unwrap()
                .contains("authenticator app or a passkey")
        );
    }
    // Their own account stays open, to enrol.
    assert_eq!(
        app.admin("GET", "/api/admin/me", token, None)
            .await
            .status(),
        200
    );
    app.enrol_totp(token).await;
    assert_eq!(
        app.admin("GET", "/api/admin/donations", token, None)
            .await
            .status(),
        200
    );
    // The only strong factor cannot be removed under the policy.
    let res = app
        .admin("DELETE", "/api/admin/security/totp", token, None)
        .await;
    assert_eq!(res.status(), 409);
    assert!(message(&res).contains("requires an authenticator app or a passkey"));
    // An Editor has no such requirement.
    let editor = member(&app, Role::Editor, "ed@party.example").await;
    assert_eq!(
        app.admin("GET", "/api/admin/blogs", &editor.token, None)
            .await
            .status(),
        200
    );
}

#[tokio::test]
async fn nobody_grants_a_role_above_their_own_or_changes_their_own() {
    let app = TestApp::new();
    let owner = app.login().await;
    let admin = member(&app, Role::Administrator, "admin2@party.example").await;
    let organizer = member(&app, Role::Organizer, "org@party.example").await;
    // An Administrator cannot invite or make an Owner.
    let res = app
        .admin(
            "POST",
            "/api/admin/invitations",
            &admin.token,
            Some(json!({ "email": "x@party.example", "role": "owner" })),
        )
        .await;
    assert_eq!(res.status(), 403);
    assert_eq!(
        message(&res),
        "Your role (Administrator) can't give or take away the Owner role."
    );
    let res = app
        .admin(
            "PATCH",
            &format!("/api/admin/users/{}", organizer.id),
            &admin.token,
            Some(json!({ "role": "owner" })),
        )
        .await;
    assert_eq!(res.status(), 403);
    // Nor change their own role, even downwards, nor touch the Owner.
    let res = app
        .admin(
            "PATCH",
            &format!("/api/admin/users/{}", admin.id),
            &admin.token,
            Some(json!({ "role": "editor" })),
        )
        .await;
    assert_eq!(res.status(), 403);
    let res = app
        .admin("POST", "/api/admin/users/1/deactivate", &admin.token, None)
        .await;
    assert_eq!(res.status(), 403);
    // But may make the Organizer a Treasurer, which the Organizer is told of.
    let res = app
        .admin(
            "PATCH",
            &format!("/api/admin/users/{}", organizer.id),
            &admin.token,
            Some(json!({ "role": "treasurer" })),
        )
        .await;
    assert_eq!(res.status(), 200, "{:?}", res.body());
    // The last active Owner cannot leave: 409.
    let res = app
        .admin("POST", "/api/admin/users/1/deactivate", &owner, None)
        .await;
    assert_eq!(res.status(), 409);
    assert_eq!(message(&res), "The party needs at least one active Owner.");
    // With a second Owner, the first may be demoted by them.
    let res = app
        .admin(
            "PATCH",
            &format!("/api/admin/users/{}", admin.id),
            &owner,
            Some(json!({ "role": "owner" })),
        )
        .await;
    assert_eq!(res.status(), 200);
    // (An Owner needs an authenticator app before anything else.)
    app.arrange_totp(admin.id).await;
    let res = app
        .admin(
            "PATCH",
            "/api/admin/users/1",
            &admin.token,
            Some(json!({ "role": "editor" })),
        )
        .await;
    assert_eq!(res.status(), 200, "{:?}", res.body());
    // Now the second is the last Owner: demoting them is refused to the (former) Owner
    // anyway, and they cannot leave.
    let res = app
        .admin(
            "POST",
            &format!("/api/admin/users/{}/deactivate", admin.id),
            &admin.token,
            None,
        )
        .await;
    assert_eq!(res.status(), 409);
    let roles: Vec<(String, String)> = app
        .db
        .read(|c| {
            let mut s = c.prepare(
                "SELECT action, detail FROM audit_log WHERE action = 'role_change' ORDER BY id",
            )?;
            s.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?.collect()
        })
        .await
        .unwrap();
    assert_eq!(roles.len(), 3, "{roles:?}");
}

/// Two Owners demoting each other at the same moment: the check for the last Owner is made
/// in the write itself, so one of them stays an Owner whatever the order.
#[tokio::test]
async fn two_owners_demoting_each_other_at_once_leave_one_owner() {
    let app = TestApp::new();
    let first = app.login().await;
    let second = member(&app, Role::Owner, "owner2@party.example").await;
    let demote = |token: String, id: i64| {
        let app = &app;
        async move {
            app.admin(
                "PATCH",
                &format!("/api/admin/users/{id}"),
                &token,
                Some(json!({ "role": "administrator" })),
            )
            .await
            .status()
            .as_u16()
        }
    };
    let (a, b) = tokio::join!(demote(first, second.id), demote(second.token.clone(), 1));
    let owners: i64 = app
        .db
        .read(|c| {
            c.query_row(
                "SELECT COUNT(*) FROM users WHERE role = 'owner' AND active = 1",
                [],
                |r| r.get(0),
            )
        })
        .await
        .unwrap();
    assert_eq!(owners, 1, "answers {a} and {b}");
    let mut answers = [a, b];
    answers.sort();
    assert_eq!(answers[0], 200);
    // The other was refused: as the last Owner (409), or because it was no longer one (403).
    assert!([403, 409].contains(&answers[1]), "{answers:?}");
}
