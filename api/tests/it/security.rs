//! What the server does against hostile clients, over the routes (the raw-socket ones are
//! in real_server.rs): forged proxy headers.

use crate::common::TestApp;
use api::http::proxy::ProxyTrust;

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

mod connections {
    use std::time::Duration;

    use api::http::connections::{Connections, FIRST_BYTE};
    use api::http::server::BODY_DEADLINE;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::{TcpListener, TcpStream};
    use tokio::time::Instant;

    use super::TestApp;

    /// The real server loop on a port, in this (paused-clock) runtime.
    async fn serve(app: &TestApp) -> std::net::SocketAddr {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(api::http::server::run(
            listener,
            app.app.clone(),
            app.state.static_files.clone(),
            app.state.security_headers.clone(),
            Connections::new(100, 50, |_| false),
            std::future::pending(),
        ));
        addr
    }

    /// Everything the server sends until it closes the connection (which it must do
    /// within two minutes).
    async fn until_closed(stream: &mut TcpStream) -> String {
        let mut out = Vec::new();
        tokio::time::timeout(Duration::from_secs(120), stream.read_to_end(&mut out))
            .await
            .expect("the server closes the connection")
            .ok();
        String::from_utf8_lossy(&out).into_owned()
    }

    // Time is paused: the runtime jumps ahead whenever everything waits, so these take no
    // real seconds, and what they measure is the server's own timers.
    #[tokio::test(start_paused = true)]
    async fn a_connection_that_says_nothing_is_closed_within_ten_seconds() {
        let app = TestApp::new();
        let addr = serve(&app).await;
        let mut silent = TcpStream::connect(addr).await.unwrap();
        let opened = Instant::now();
        assert_eq!(until_closed(&mut silent).await, "");
        let took = opened.elapsed();
        assert!(
            took >= FIRST_BYTE && took <= FIRST_BYTE + Duration::from_secs(1),
            "{took:?}"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn a_body_that_does_not_arrive_in_thirty_seconds_gets_408() {
        let app = TestApp::new();
        let addr = serve(&app).await;
        let mut slow = TcpStream::connect(addr).await.unwrap();
        slow.write_all(
            b"POST /api/contact HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\
              Content-Length: 200\r\n\r\n{\"name\":\"Slow",
        )
        .await
        .unwrap();
        let sent = Instant::now();
        let answer = until_closed(&mut slow).await;
        assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
        assert!(
            answer.contains("The request took too long to arrive."),
            "{answer}"
        );
        let took = sent.elapsed();
        assert!(
            took >= BODY_DEADLINE && took <= BODY_DEADLINE + Duration::from_secs(1),
            "{took:?}"
        );
        // Real time from here: the answer below waits on the database's thread, which a
        // paused clock would take for idleness and jump past.
        tokio::time::resume();
        assert_eq!(app.count("contact_messages").await, 0);
        // A body that comes in time is answered however long the answer takes.
        let mut quick = TcpStream::connect(addr).await.unwrap();
        let body = r#"{"name":"Quick","email":"q@example.org","subject":"Hi","message":"Hello"}"#;
        quick
            .write_all(
                format!(
                    "POST /api/contact HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\
                     Connection: close\r\nContent-Length: {}\r\n\r\n{body}",
                    body.len()
                )
                .as_bytes(),
            )
            .await
            .unwrap();
        let answer = until_closed(&mut quick).await;
        assert!(answer.starts_with("HTTP/1.1 201"), "{answer}");
    }

    #[tokio::test(start_paused = true)]
    async fn a_kept_alive_connection_idle_for_thirty_seconds_is_closed() {
        let app = TestApp::new();
        let addr = serve(&app).await;
        let mut idle = TcpStream::connect(addr).await.unwrap();
        idle.write_all(b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
            .await
            .unwrap();
        let answered = Instant::now();
        let all = until_closed(&mut idle).await;
        assert!(all.starts_with("HTTP/1.1 200"), "{all}");
        assert!(
            answered.elapsed() <= Duration::from_secs(31),
            "{:?}",
            answered.elapsed()
        );
    }
}

#[tokio::test]
async fn every_answer_carries_the_headers_and_previews_are_sandboxed() {
    let app = TestApp::new();
    let header = |res: &warp::http::Response<bytes::Bytes>, name: &str| {
        res.headers()
            .get(name)
            .map(|v| v.to_str().unwrap().to_owned())
    };
    // The fixture site's canonical address is https: browsers are told to stay on https.
    for path in ["/contact", "/api/blogs", "/nope", "/api/nope"] {
        let res = app.get(path).await;
        assert_eq!(
            header(&res, "strict-transport-security").as_deref(),
            Some("max-age=63072000; includeSubDomains"),
            "{path}"
        );
        assert_eq!(
            header(&res, "cross-origin-resource-policy").as_deref(),
            Some("same-origin"),
            "{path}"
        );
        let csp = header(&res, "content-security-policy").unwrap();
        assert!(csp.contains("img-src 'self' data:;"), "{path}: {csp}");
    }
    // A preview of an unsaved post is a sandbox: an opaque origin with no scripts, so it
    // cannot act as the site (or read the admin's token) whatever the post holds.
    let app = TestApp::with_site(|_| {}).await;
    let token = app.login().await;
    let res = app
        .admin(
            "POST",
            "/api/admin/blogs/preview",
            &token,
            Some(serde_json::json!({ "title": "Draft", "content": "<p>Under review</p>" })),
        )
        .await;
    assert_eq!(res.status(), 200, "{:?}", res.body());
    let url = TestApp::json(&res)["url"].as_str().unwrap().to_owned();
    let page = app.get(&url).await;
    assert_eq!(page.status(), 200);
    assert!(String::from_utf8_lossy(page.body()).contains("Under review"));
    let csp = header(&page, "content-security-policy").unwrap();
    assert!(csp.ends_with("; sandbox"), "{csp}");
}

#[tokio::test]
async fn a_post_shows_no_image_from_a_stranger_s_host() {
    let app = TestApp::new();
    let token = app.login().await;
    let res = app
        .admin(
            "POST",
            "/api/admin/blogs",
            &token,
            Some(serde_json::json!({
                "title": "Pixels",
                "content": "<p>Hi</p><img src=\"https://tracker.example.net/p.gif\" alt=\"A pixel\"><img src=\"/uploads/a.jpg\" alt=\"Ours\">",
            })),
        )
        .await;
    assert_eq!(res.status(), 201, "{:?}", res.body());
    let id = TestApp::json(&res)["id"].clone();
    let saved = TestApp::json(
        &app.admin("GET", &format!("/api/admin/blogs/{id}"), &token, None)
            .await,
    );
    assert_eq!(
        saved["content"],
        "<p>Hi</p><img alt=\"A pixel\"><img src=\"/uploads/a.jpg\" alt=\"Ours\">"
    );
    for image in [
        "https://tracker.example.net/p.gif",
        "http://example.org/a.jpg",
    ] {
        let res = app
            .admin(
                "POST",
                "/api/admin/blogs",
                &token,
                Some(serde_json::json!({ "title": "Featured", "featuredImage": image })),
            )
            .await;
        assert_eq!(res.status(), 400, "{image}");
    }
}

#[tokio::test]
async fn bodies_must_be_the_objects_the_contract_names() {
    let app = TestApp::new();
    let token = app.login().await;
    for (path, body, expected) in [
        (
            "/api/admin/blogs",
            "[]",
            "The request body must be a JSON object.",
        ),
        (
            "/api/admin/blogs",
            " [1, 2]",
            "The request body must be a JSON object.",
        ),
        (
            "/api/admin/blogs",
            "\"draft\"",
            "The request body must be a JSON object.",
        ),
        (
            "/api/admin/blogs",
            r#"{"title":"x","isAdmin":true}"#,
            "unknown field `isAdmin`",
        ),
    ] {
        let res = warp::test::request()
            .method("POST")
            .path(path)
            .header("authorization", format!("Bearer {token}"))
            .header("content-type", "application/json")
            .body(body)
            .reply(&app.app)
            .await;
        assert_eq!(res.status(), 400, "{body}");
        assert!(
            crate::common::message(&res).contains(expected),
            "{body}: {}",
            crate::common::message(&res)
        );
    }
    assert_eq!(
        app.count("blog_posts").await,
        0,
        "no draft from a non-object"
    );
    for body in ["[]", r#"{"password":"x","user":"admin"}"#] {
        let res = app.post_json("/api/admin/login", body).await;
        assert_eq!(res.status(), 400, "{body}");
    }
    for (path, body, expected) in [
        (
            "/api/newsletter-signup",
            r#"{"email":"a@example.org","zipCode":"12345","role":"admin"}"#,
            "This form has no field \"role\".",
        ),
        (
            "/api/contact",
            "[]",
            "The request body must be a JSON object.",
        ),
        (
            "/api/create-payment-intent",
            r#"{"amount":25,"donorInfo":{},"coupon":"FREE"}"#,
            "A donation has no field \"coupon\".",
        ),
        (
            "/api/create-payment-intent",
            r#"{"amount":25,"donorInfo":{"donorEmail":"a@example.org","isEmployee":true}}"#,
            "donorInfo has no field \"isEmployee\".",
        ),
    ] {
        let res = app.post_json(path, body).await;
        assert_eq!(res.status(), 400, "{path}");
        assert_eq!(crate::common::message(&res), expected, "{path}");
    }
    assert_eq!(app.count("newsletter_signups").await, 0);
    // The honeypot is not an unknown field: a bot that fills it is answered like anyone.
    let res = app
        .post_json(
            "/api/newsletter-signup",
            r#"{"email":"b@example.org","zipCode":"12345","website":"spam.example"}"#,
        )
        .await;
    assert_eq!(res.status(), 201);
}

#[tokio::test]
async fn a_405_says_what_the_address_takes_and_the_webhook_is_absent_without_payments() {
    let app = TestApp::new();
    let token = app.login().await;
    for (method, path, allow) in [
        ("DELETE", "/api/blogs", "GET, HEAD"),
        ("POST", "/api/blogs/a-post", "GET, HEAD"),
        ("PUT", "/api/admin/blogs/1", "GET, PATCH, DELETE, HEAD"),
        ("GET", "/api/contact", "POST"),
        ("PATCH", "/api/admin/contacts", "GET, HEAD"),
    ] {
        let res = warp::test::request()
            .method(method)
            .path(path)
            .header("authorization", format!("Bearer {token}"))
            .reply(&app.app)
            .await;
        assert_eq!(res.status(), 405, "{method} {path}");
        let got = res.headers()["allow"].to_str().unwrap();
        let mut got: Vec<&str> = got.split(", ").collect();
        let mut want: Vec<&str> = allow.split(", ").collect();
        got.sort();
        want.sort();
        assert_eq!(got, want, "{method} {path}");
    }
    // Payments are off in this app: no webhook to speak of.
    let res = warp::test::request()
        .method("POST")
        .path("/api/stripe/webhook")
        .header("content-type", "application/json")
        .body("{}")
        .reply(&app.app)
        .await;
    assert_eq!(res.status(), 404);
}

/// A JSON answer too small to compress goes plain, and says so (found by schemathesis: an
/// empty blog list was labelled gzip).
#[tokio::test]
async fn a_small_answer_is_never_labelled_compressed() {
    let app = TestApp::new();
    for accept in ["gzip", "br", "gzip, deflate, br"] {
        let res = warp::test::request()
            .path("/api/blogs")
            .header("accept-encoding", accept)
            .reply(&app.app)
            .await;
        assert_eq!(res.status(), 200);
        assert!(res.headers().get("content-encoding").is_none(), "{accept}");
        assert_eq!(
            TestApp::json(&res),
            serde_json::json!({"blogs": [], "total": 0, "hasMore": false})
        );
    }
}
