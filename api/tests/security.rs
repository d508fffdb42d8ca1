//! What the server does against hostile clients, over the routes (the raw-socket ones are
//! in real_server.rs): forged proxy headers.

mod common;

use api::proxy::ProxyTrust;
use common::TestApp;

/// A newsletter signup from `peer`, saying it is from `forwarded`.
async fn signup(app: &TestApp, peer: [u8; 4], forwarded: &str, n: usize) -> u16 {
    warp::test::request()
        .method("POST")
        .path("/api/newsletter-signup")
        .remote_addr((peer, 40000).into())
        .header("content-type", "application/json")
        .header("x-forwarded-for", forwarded)
        .body(format!(
            r#"{{"email":"p{n}@example.org","phone":"","zipCode":"12345"}}"#
        ))
        .reply(&app.app)
        .await
        .status()
        .as_u16()
}

#[tokio::test]
async fn x_forwarded_for_is_believed_only_from_a_trusted_proxy() {
    let app = TestApp::with(|c| {
        c.trust_proxy = ProxyTrust::loopback();
        c.form_rate_limit = 2;
    });
    // A client reaching the port directly cannot spread its posts over invented addresses.
    let mut direct = Vec::new();
    for i in 0..3 {
        direct.push(signup(&app, [203, 0, 113, 9], &format!("198.51.100.{i}"), i).await);
    }
    assert_eq!(
        direct.iter().filter(|s| **s == 429).count(),
        1,
        "{direct:?}"
    );
    // The proxy on this machine speaks for many clients, each with its own limit.
    for i in 0..3 {
        assert_eq!(
            signup(
                &app,
                [127, 0, 0, 1],
                &format!("198.51.100.{}", 10 + i),
                10 + i
            )
            .await,
            201
        );
    }
    // With TRUST_PROXY off nobody is believed, the proxy neither.
    let plain = TestApp::with(|c| c.form_rate_limit = 2);
    let mut statuses = Vec::new();
    for i in 0..3 {
        statuses.push(signup(&plain, [127, 0, 0, 1], &format!("198.51.100.{i}"), 20 + i).await);
    }
    assert_eq!(statuses, [201, 201, 429]);
}
