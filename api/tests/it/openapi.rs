//! The OpenAPI description and the server agree: every route the server answers is in it,
//! and every operation in it is answered.

use crate::common::{ADMIN_ROUTES, TestApp};
use serde_json::{Value, json};

const METHODS: [&str; 5] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/// Routes outside the admin area.
const PUBLIC_ROUTES: &[(&str, &str)] = &[
    ("GET", "/api/openapi.json"),
    ("POST", "/api/newsletter-signup"),
    ("POST", "/api/contact"),
    ("POST", "/api/volunteer"),
    ("POST", "/api/events/rsvp"),
    ("GET", "/api/events/an-event/spots"),
    ("GET", "/api/blogs"),
    ("GET", "/api/blogs/a-post"),
    ("GET", "/api/donations/config"),
    ("GET", "/api/donations/summary"),
    ("POST", "/api/donations/pass"),
    ("POST", "/api/create-payment-intent"),
    ("POST", "/api/monthly/card"),
    ("POST", "/api/monthly/card/saved"),
    ("POST", "/api/stripe/webhook"),
    ("POST", "/api/mail/complaints"),
    ("POST", "/api/admin/login"),
    ("POST", "/api/admin/login/verify"),
    ("POST", "/api/admin/login/passkey/options"),
    ("POST", "/api/admin/login/passkey"),
    ("POST", "/api/admin/invitation"),
    ("POST", "/api/admin/invitation/accept"),
    ("POST", "/api/admin/password-reset"),
    ("POST", "/api/admin/password-reset/check"),
    ("POST", "/api/admin/password-reset/complete"),
];

/// Whether `path` is an admin route anyone may call (the sign-in steps and mailed links').
pub fn public_admin(path: &str) -> bool {
    PUBLIC_ROUTES.iter().any(|(_, p)| *p == path)
}

fn document() -> Value {
    serde_json::from_str(api::routes::openapi::DOCUMENT).expect("api/openapi.json is JSON")
}

/// `/api/admin/blogs/{id}` matches `/api/admin/blogs/1`.
fn template_matches(template: &str, path: &str) -> bool {
    let (t, p): (Vec<&str>, Vec<&str>) = (template.split('/').collect(), path.split('/').collect());
    t.len() == p.len()
        && t.iter()
            .zip(&p)
            .all(|(t, p)| t == p || (t.starts_with('{') && t.ends_with('}')))
}

/// Whether the router itself turned the request away (no such route or method), as opposed
/// to a route answering, even with an error of its own.
fn unrouted(res: &warp::http::Response<bytes::Bytes>) -> bool {
    let generic_404 = res.status() == 404
        && serde_json::from_slice::<Value>(res.body()).is_ok_and(|b| b["message"] == "Not found.");
    generic_404 || res.status() == 405
}

#[tokio::test]
async fn the_document_is_served_and_is_openapi_3_1() {
    let app = TestApp::new();
    let res = app.get("/api/openapi.json").await;
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["content-type"], "application/json");
    let served: Value = serde_json::from_slice(res.body()).unwrap();
    assert_eq!(served, document());
    assert_eq!(served["openapi"], "3.1.0");
    assert_eq!(
        served["components"]["securitySchemes"]["bearer"]["scheme"],
        "bearer"
    );
    for (path, item) in served["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            assert!(
                op["responses"].as_object().is_some_and(|r| !r.is_empty()),
                "{method} {path}"
            );
            let protected = path.starts_with("/api/admin/") && !public_admin(path);
            assert_eq!(
                op.get("security").is_some(),
                protected,
                "{method} {path}: bearer only on admin routes"
            );
            if protected {
                assert!(op["responses"].get("401").is_some(), "{method} {path}");
                assert!(op["responses"].get("403").is_some(), "{method} {path}");
                let cap = op["x-capability"].as_str().unwrap_or_default();
                assert!(
                    api::domain::staff::Cap::parse(cap).is_some(),
                    "{method} {path} declares no capability (x-capability): {cap:?}"
                );
            }
        }
    }
}

#[tokio::test]
async fn every_route_the_server_answers_is_documented() {
    let doc = document();
    let paths = doc["paths"].as_object().unwrap();
    for (method, path) in PUBLIC_ROUTES.iter().chain(ADMIN_ROUTES) {
        let documented = paths.iter().any(|(template, item)| {
            template_matches(template, path) && item.get(method.to_ascii_lowercase()).is_some()
        });
        assert!(documented, "{method} {path} is not in api/openapi.json");
    }
}

#[tokio::test]
async fn every_documented_operation_is_answered_and_no_other_method_is() {
    let app = TestApp::new();
    let token = app.login().await;
    let doc = document();
    let mut operations = 0;
    let paths = doc["paths"].as_object().unwrap();
    for (template, item) in paths {
        let path = template.replace("{id}", "1").replace("{slug}", "a-post");
        for method in METHODS {
            let here = item.get(method.to_ascii_lowercase()).is_some();
            // `/api/admin/blogs/export` also fits `/api/admin/blogs/{id}`, whose DELETE answers
            // (with 400: not an id).
            let documented = paths.iter().any(|(other, item)| {
                template_matches(other, &path) && item.get(method.to_ascii_lowercase()).is_some()
            });
            let mut req = warp::test::request()
                .method(method)
                .path(&path)
                .header("authorization", format!("Bearer {token}"));
            if matches!(method, "POST" | "PUT" | "PATCH") && path != "/api/admin/logout" {
                req = req.json(&json!({}));
            }
            let res = req.reply(&app.app).await;
            if here {
                operations += 1;
            }
            if documented {
                assert!(
                    !unrouted(&res),
                    "{method} {path} is documented but not answered ({})",
                    res.status()
                );
            } else {
                assert!(
                    unrouted(&res),
                    "{method} {path} answers {} but is not documented",
                    res.status()
                );
            }
        }
    }
    assert_eq!(operations, PUBLIC_ROUTES.len() + ADMIN_ROUTES.len());
}

/// A client that sends the wrong content type (the first thing a fuzzer tries) gets a status
/// the document lists, from every operation that takes a body: the audit failed CI once on an
/// undocumented 415.
#[tokio::test]
async fn every_operation_with_a_body_documents_what_a_wrong_content_type_gets() {
    let app = TestApp::new();
    let token = app.login().await;
    let doc = document();
    let mut checked = 0;
    for (template, item) in doc["paths"].as_object().unwrap() {
        let path = template
            .replace("{id}", "1")
            .replace("{rsvpId}", "1")
            .replace("{rev}", "1")
            .replace("{slug}", "a-post");
        for (method, op) in item.as_object().unwrap() {
            if op.get("requestBody").is_none() {
                continue;
            }
            let res = warp::test::request()
                .method(&method.to_ascii_uppercase())
                .path(&path)
                .header("authorization", format!("Bearer {token}"))
                .header("content-type", "text/plain")
                .body("{}")
                .reply(&app.app)
                .await;
            let status = res.status().as_u16().to_string();
            assert!(
                op["responses"].get(&status).is_some(),
                "{method} {template} answers an undocumented {status} to a text/plain body: {}",
                String::from_utf8_lossy(res.body())
            );
            checked += 1;
        }
    }
    assert!(checked > 40, "only {checked} operations take a body");
}

/// The document's form schemas are the server's rules, not a description of them: every
/// field the server takes with its length and required-ness, and nothing else.
#[tokio::test]
async fn the_form_schemas_are_the_servers_rules() {
    let doc = document();
    for (schema, form) in [
        ("NewsletterSignup", generator::forms::NEWSLETTER),
        ("ContactMessage", generator::forms::CONTACT),
        ("VolunteerSignup", generator::forms::VOLUNTEER),
        ("EventRsvp", generator::forms::RSVP),
    ] {
        let s = &doc["components"]["schemas"][schema];
        assert_eq!(s["additionalProperties"], false, "{schema}");
        let mut required: Vec<&str> = s["required"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        required.sort();
        let mut expected: Vec<&str> = form
            .fields
            .iter()
            .filter(|f| f.required)
            .map(|f| f.name)
            .collect();
        expected.sort();
        assert_eq!(required, expected, "{schema}");
        let properties = s["properties"].as_object().unwrap();
        assert_eq!(
            properties.len(),
            form.fields.len() + 1,
            "{schema}: the fields and the honeypot"
        );
        assert!(properties.contains_key(generator::forms::HONEYPOT));
        for field in form.fields {
            let p = &properties[field.name];
            if field.kind == generator::forms::Kind::Consent {
                // A box: a boolean, or what an HTML form sends for it.
                assert!(
                    p["oneOf"]
                        .as_array()
                        .is_some_and(|o| o.iter().any(|t| t["type"] == "boolean")),
                    "{schema}.{}",
                    field.name
                );
                continue;
            }
            if let Some(max) = p.get("maxLength") {
                assert_eq!(max, field.max_length, "{schema}.{}", field.name);
            } else {
                assert!(
                    p.get("pattern").is_some(),
                    "{schema}.{} has neither maxLength nor pattern",
                    field.name
                );
            }
        }
    }
}
