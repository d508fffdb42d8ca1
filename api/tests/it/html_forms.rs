//! The public forms without JavaScript: URL-encoded posts answered with `303 See Other`
//! to a thank-you page or to a page with the refusal and the visitor's input; cross-site
//! posts refused; and bodies sent in chunks.

use crate::common::{TestApp, location, message, text};

#[tokio::test]
async fn a_form_post_is_stored_and_sent_to_the_thank_you_page() {
    let app = TestApp::new();
    let res = app
        .post_form(
            "/api/newsletter-signup",
            "email=jo%40example.org&phone=&zipCode=12345&website=",
            "/join",
        )
        .await;
    assert_eq!(res.status(), 303);
    assert_eq!(location(&res), "/forms/newsletter/thank-you");
    let stored: (String, Option<String>, String) = app
        .db
        .read(|c| {
            c.query_row(
                "SELECT email, phone, zip_code FROM newsletter_signups",
                [],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
        })
        .await
        .unwrap();
    assert_eq!(stored, ("jo@example.org".into(), None, "12345".into()));

    let res = app
        .post_form(
            "/api/contact",
            "name=Jo+Doe&email=jo%40example.org&subject=Hi&message=Line+one%0D%0ALine+two",
            "/contact",
        )
        .await;
    assert_eq!(location(&res), "/forms/contact/thank-you");
    let message: String = app
        .db
        .read(|c| c.query_row("SELECT message FROM contact_messages", [], |r| r.get(0)))
        .await
        .unwrap();
    assert_eq!(message, "Line one\r\nLine two");

    let res = app
        .post_form(
            "/api/volunteer",
            "name=Jo&email=jo%40example.org&phone=555-123-4567&zipCode=12345-6789&interests=Doors",
            "/take-action",
        )
        .await;
    assert_eq!(location(&res), "/forms/volunteer/thank-you");
    assert_eq!(app.count("volunteer_signups").await, 1);
}

#[tokio::test]
async fn a_refused_post_shows_the_message_with_the_input_kept_and_a_way_back() {
    let app = TestApp::new();
    let res = app
        .post_form(
            "/api/volunteer",
            "name=Jo+%3Cb%3EDoe%3C%2Fb%3E&email=jo%40example.org&phone=&zipCode=1234&interests=Phones",
            "/take-action",
        )
        .await;
    assert_eq!(res.status(), 303);
    let page_url = location(&res);
    assert!(
        page_url.starts_with("/forms/volunteer/problem/"),
        "{page_url}"
    );
    assert_eq!(app.count("volunteer_signups").await, 0, "nothing stored");

    let page = app.get(&page_url).await;
    assert_eq!(page.status(), 200);
    assert_eq!(page.headers()["cache-control"], "no-store");
    assert_eq!(page.headers()["content-type"], "text/html; charset=utf-8");
    let html = text(&page);
    assert!(html.contains("<title>Signup Failed</title>"));
    assert!(html.contains("Please enter a valid ZIP code (5 digits, or ZIP+4)."));
    assert!(
        html.contains(r#"value="Jo &lt;b&gt;Doe&lt;/b&gt;""#),
        "input kept, escaped: {html}"
    );
    assert!(html.contains(r#"aria-invalid="true" autofocus type="text" value="1234""#));
    assert!(html.contains(">Phones</textarea>"));
    assert!(html.contains(r#"<a href="/take-action""#));
    assert!(html.contains(r#"<input type="hidden" name="_back" value="/take-action">"#));
    // A page reload shows it again; another form's page does not.
    assert_eq!(app.get(&page_url).await.status(), 200);
    let other = page_url.replace("/volunteer/", "/contact/");
    assert_eq!(app.get(&other).await.status(), 404);

    // Fixed and sent again from the problem page, it goes through.
    let res = app
        .post_form(
            "/api/volunteer",
            "_back=%2Ftake-action&name=Jo&email=jo%40example.org&zipCode=12345",
            &page_url,
        )
        .await;
    assert_eq!(location(&res), "/forms/volunteer/thank-you");
    assert_eq!(app.count("volunteer_signups").await, 1);
}

#[tokio::test]
async fn the_back_link_is_the_page_the_visitor_came_from_or_the_forms_own() {
    let app = TestApp::new();
    let res = app
        .post_form("/api/newsletter-signup", "email=bad&zipCode=12345", "/join")
        .await;
    let html = text(&app.get(&location(&res)).await);
    assert!(html.contains(r#"<a href="/join""#), "{html}");

    // A second attempt from the problem page keeps the first page, not the problem page.
    let res = app
        .post_form(
            "/api/newsletter-signup",
            "_back=%2Fjoin&email=bad&zipCode=12345",
            "/forms/newsletter/problem/x",
        )
        .await;
    assert!(text(&app.get(&location(&res)).await).contains(r#"<a href="/join""#));

    // A "back" pointing elsewhere is ignored.
    let res = app
        .post_form(
            "/api/newsletter-signup",
            "_back=https%3A%2F%2Fevil.example%2F&email=bad&zipCode=12345",
            "/forms/newsletter/problem/x",
        )
        .await;
    let html = text(&app.get(&location(&res)).await);
    assert!(
        html.contains(r#"<a href="/""#) && !html.contains("evil.example"),
        "{html}"
    );
}

#[tokio::test]
async fn unknown_or_expired_problem_pages_say_so() {
    let app = TestApp::new();
    let res = app.get("/forms/contact/problem/0123456789abcdef").await;
    assert_eq!(res.status(), 404);
    let html = text(&res);
    assert!(html.contains("This page has expired") && html.contains(r#"<a href="/contact""#));
    assert_eq!(app.get("/forms/nope/problem/1").await.status(), 404);
}

#[tokio::test]
async fn the_honeypot_and_the_rate_limit_hold_for_form_posts_too() {
    // The bot's post counts too: it passed every check but the honeypot.
    let app = TestApp::with(|c| c.form_rate_limit = 2);
    let body = "name=B&email=b%40example.org&subject=S&message=M";
    let res = app
        .post_form(
            "/api/contact",
            &format!("{body}&website=http%3A%2F%2Fspam"),
            "/contact",
        )
        .await;
    assert_eq!(location(&res), "/forms/contact/thank-you");
    assert_eq!(
        app.count("contact_messages").await,
        0,
        "the bot's post is not stored"
    );

    assert_eq!(
        location(&app.post_form("/api/contact", body, "/contact").await),
        "/forms/contact/thank-you"
    );
    let res = app.post_form("/api/contact", body, "/contact").await;
    let html = text(&app.get(&location(&res)).await);
    assert!(html.contains("Too many requests. Please wait a minute and try again."));
    assert!(html.contains(r#"value="b@example.org""#), "input kept");
    assert_eq!(app.count("contact_messages").await, 1);
}

#[tokio::test]
async fn an_oversized_form_post_lands_on_a_problem_page() {
    let app = TestApp::new();
    let body = format!(
        "name=B&email=b%40example.org&subject=S&message={}",
        "x".repeat(70_000)
    );
    let res = app.post_form("/api/contact", &body, "/contact").await;
    assert_eq!(res.status(), 303);
    let html = text(&app.get(&location(&res)).await);
    assert!(html.contains("The request is too large."));
    assert_eq!(app.count("contact_messages").await, 0);
}

#[tokio::test]
async fn cross_site_posts_are_refused_in_either_encoding() {
    let app = TestApp::new();
    let cases: [(&str, &[(&str, &str)]); 4] = [
        (
            "application/x-www-form-urlencoded",
            &[("sec-fetch-site", "cross-site")],
        ),
        (
            "application/x-www-form-urlencoded",
            &[("sec-fetch-site", "same-site")],
        ),
        (
            "application/x-www-form-urlencoded",
            &[("origin", "https://evil.example")],
        ),
        ("application/json", &[("origin", "null")]),
    ];
    for (content_type, headers) in cases {
        let mut req = warp::test::request()
            .method("POST")
            .path("/api/newsletter-signup")
            .header("host", "party.example")
            .header("content-type", content_type);
        for (name, value) in headers {
            req = req.header(*name, *value);
        }
        let body = if content_type.ends_with("json") {
            r#"{"email":"x@example.org","zipCode":"12345"}"#
        } else {
            "email=x%40example.org&zipCode=12345"
        };
        let res = req.body(body).reply(&app.app).await;
        assert_eq!(res.status(), 403, "{headers:?}");
        assert_eq!(
            message(&res),
            "Forms can only be sent from this website's own pages."
        );
    }
    assert_eq!(app.count("newsletter_signups").await, 0);
}

/// Sends raw HTTP/1.1 to a real server running the app and returns the status line and body.
async fn raw_http(app: &TestApp, request: Vec<u8>) -> (String, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let server = tokio::spawn(warp::serve(app.app.clone()).incoming(listener).run());
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    stream.write_all(&request).await.unwrap();
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.unwrap();
    server.abort();
    let response = String::from_utf8_lossy(&response).into_owned();
    let status = response.lines().next().unwrap_or_default().to_owned();
    let body = response
        .split("\r\n\r\n")
        .nth(1)
        .unwrap_or_default()
        .to_owned();
    (status, body)
}

fn chunked(path: &str, content_type: &str, chunks: &[&str]) -> Vec<u8> {
    let mut req = format!(
        "POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: {content_type}\r\nTransfer-Encoding: chunked\r\n\r\n"
    );
    for chunk in chunks {
        req.push_str(&format!("{:x}\r\n{chunk}\r\n", chunk.len()));
    }
    req.push_str("0\r\n\r\n");
    req.into_bytes()
}

#[tokio::test]
async fn a_chunked_body_is_read_up_to_the_same_limit() {
    let app = TestApp::new();
    let (status, body) = raw_http(
        &app,
        chunked(
            "/api/newsletter-signup",
            "application/json",
            &[r#"{"email":"chunks@"#, r#"example.org","zipCode":"12345"}"#],
        ),
    )
    .await;
    assert!(status.contains(" 201 "), "{status}: {body}");
    assert_eq!(app.count("newsletter_signups").await, 1);

    let big = "x".repeat(10_000);
    let mut pieces = vec![r#"{"email":"big@example.org","zipCode":"12345","pad":""#];
    pieces.extend(std::iter::repeat_n(big.as_str(), 7));
    pieces.push(r#""}"#);
    let (status, body) = raw_http(
        &app,
        chunked("/api/newsletter-signup", "application/json", &pieces),
    )
    .await;
    assert!(status.contains(" 413 "), "{status}");
    assert!(body.contains("The request is too large."), "{body}");
    assert_eq!(app.count("newsletter_signups").await, 1);
}
