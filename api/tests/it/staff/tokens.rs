//! Service tokens for automation, and who did what in the audit log.

use api::domain::staff::Role;
use serde_json::json;

use super::member;
use crate::common::{TestApp, message};

#[tokio::test]
async fn a_service_token_downloads_exports_only_and_stops_when_revoked() {
    let app = TestApp::new();
    let owner = app.login().await;
    let res = app
        .admin(
            "POST",
            "/api/admin/service-tokens",
            &owner,
            Some(json!({ "name": "Nightly export", "scope": "exports" })),
        )
        .await;
    assert_eq!(res.status(), 201, "{:?}", res.body());
    let body = TestApp::json(&res);
    let token = body["token"].as_str().unwrap().to_owned();
    let id = body["id"].as_i64().unwrap();
    for path in [
        "/api/admin/contacts/export",
        "/api/admin/donations/export",
        "/api/admin/plans/export",
    ] {
        assert_eq!(
            app.admin("GET", path, &token, None).await.status(),
            200,
            "{path}"
        );
    }
    for (method, path) in [
        ("GET", "/api/admin/contacts"),
        ("GET", "/api/admin/me"),
        ("POST", "/api/admin/erase"),
        ("GET", "/api/admin/users"),
    ] {
        let res = app.admin(method, path, &token, Some(json!({}))).await;
        assert_eq!(res.status(), 403, "{method} {path}");
        assert!(message(&res).starts_with("This service token (Exports) can't"));
    }
    // Its export is audited as the token's.
    let actor: Option<String> = app
        .db
        .read(|c| {
            c.query_row(
                "SELECT actor FROM audit_log WHERE action = 'export' ORDER BY id LIMIT 1",
                [],
                |r| r.get(0),
            )
        })
        .await
        .unwrap();
    assert_eq!(
        actor.as_deref(),
        Some(format!("service-token:{id}").as_str())
    );
    // Only an Owner manages them; the list never shows a token again.
    let admin = member(&app, Role::Administrator, "admin2@party.example").await;
    assert_eq!(
        app.admin("GET", "/api/admin/service-tokens", &admin.token, None)
            .await
            .status(),
        403
    );
    let list = TestApp::json(
        &app.admin("GET", "/api/admin/service-tokens", &owner, None)
            .await,
    );
    assert!(!list.to_string().contains(&token[10..]));
    let res = app
        .admin(
            "DELETE",
            &format!("/api/admin/service-tokens/{id}"),
            &owner,
            None,
        )
        .await;
    assert_eq!(res.status(), 200);
    let res = app
        .admin("GET", "/api/admin/contacts/export", &token, None)
        .await;
    assert_eq!(res.status(), 401);
    // Made-up and tampered tokens fail the same way.
    for bad in [
        format!("acp_st_{id}_x"),
        "acp_st_".into(),
        "acp_st_9_abc".into(),
    ] {
        assert_eq!(
            app.admin("GET", "/api/admin/contacts/export", &bad, None)
                .await
                .status(),
            401,
            "{bad}"
        );
    }
    let res = app
        .admin(
            "POST",
            "/api/admin/service-tokens",
            &owner,
            Some(json!({ "name": "x", "scope": "everything" })),
        )
        .await;
    assert_eq!(res.status(), 400);
}

#[tokio::test]
async fn the_audit_log_names_who_did_what_and_filters_by_them() {
    let app = TestApp::new();
    let owner = app.login().await;
    let org = member(&app, Role::Organizer, "org@party.example").await;
    app.admin("GET", "/api/admin/contacts", &org.token, None)
        .await;
    app.admin("GET", "/api/admin/contacts", &owner, None).await;
    let res = app
        .admin(
            "GET",
            &format!("/api/admin/audit?actor={}", org.id),
            &owner,
            None,
        )
        .await;
    assert_eq!(res.status(), 200);
    let body = TestApp::json(&res);
    let entries = body["entries"].as_array().unwrap();
    assert!(!entries.is_empty());
    assert!(
        entries
            .iter()
            .all(|e| e["user"]["email"] == "org@party.example"),
        "{body}"
    );
    assert!(
        entries
            .iter()
            .any(|e| e["action"] == "view" && e["target"] == "contacts")
    );
    // Each entry has exactly the fields docs/staff.md names.
    let docs =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/staff.md")).unwrap();
    let listed = docs
        .split("\"entries\": [{")
        .nth(1)
        .and_then(|rest| rest.split("}]").next())
        .expect("docs/staff.md shows an audit entry");
    let mut documented: Vec<&str> = listed.split(',').map(str::trim).collect();
    let mut returned: Vec<&str> = entries[0]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    documented.sort();
    returned.sort();
    assert_eq!(documented, returned);
    assert_eq!(body["pageSize"], 100);
    // The whole log has both; only Owners and Administrators read it.
    let all = TestApp::json(&app.admin("GET", "/api/admin/audit", &owner, None).await);
    assert!(all["total"].as_i64().unwrap() > body["total"].as_i64().unwrap());
    let res = app.admin("GET", "/api/admin/audit", &org.token, None).await;
    assert_eq!(res.status(), 403);
    assert_eq!(
        message(&res),
        "Your role (Organizer) can't read the audit log."
    );
    let res = app
        .admin("GET", "/api/admin/audit?actor=abc", &owner, None)
        .await;
    assert_eq!(res.status(), 400);
    let csv = app
        .admin("GET", "/api/admin/audit/export", &owner, None)
        .await;
    assert_eq!(csv.status(), 200);
    assert!(String::from_utf8_lossy(csv.body()).contains("org@party.example"));
}
