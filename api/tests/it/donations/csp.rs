//! Only the donate page may load and frame Stripe.

use crate::common::TestApp;

#[tokio::test]
async fn only_the_donate_page_may_load_and_frame_stripe() {
    let app = TestApp::new();
    let donate = app.get("/donate").await;
    let csp = donate.headers()["content-security-policy"]
        .to_str()
        .unwrap();
    assert!(
        csp.contains("script-src 'self' https://js.stripe.com;"),
        "{csp}"
    );
    assert!(
        csp.contains("frame-src https://js.stripe.com https://hooks.stripe.com;"),
        "{csp}"
    );
    assert!(
        csp.contains("connect-src 'self' https://api.stripe.com;"),
        "{csp}"
    );
    assert!(
        donate.headers()["permissions-policy"]
            .to_str()
            .unwrap()
            .contains("payment=(self \"https://js.stripe.com\")")
    );
    for path in [
        "/",
        "/contact",
        "/donate/",
        "/donatex",
        "/api/donations/config",
        "/admin",
    ] {
        let res = app.get(path).await;
        let csp = res.headers()["content-security-policy"].to_str().unwrap();
        assert!(!csp.contains("stripe"), "{path}: {csp}");
        assert!(csp.contains("frame-src 'none'"), "{path}");
    }
}
