//! Staff sign-in, sessions and the auth filter every admin route sits behind.

use crate::common::{ADMIN_ROUTES, TestApp, message};
use api::config::Config;
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

async fn login_from(
    app: &TestApp,
    password: &str,
    ip: impl Into<std::net::IpAddr>,
) -> warp::http::Response<bytes::Bytes> {
    warp::test::request()
        .method("POST")
        .path("/api/admin/login")
        .remote_addr((ip.into(), 40000).into())
        .json(&json!({ "email": Config::TEST_EMAIL, "password": password }))
        .reply(&app.app)
        .await
}

fn now() -> i64 {
    jiff::Timestamp::now().as_second()
}

/// The key the test server signs sessions with: derived from its secret, as
/// api/src/domain/auth.rs documents.
fn server_key() -> Vec<u8> {
    let config = Config::for_tests(".".into(), ".".into(), ".".into());
    Sha256::new()
        .chain_update(config.jwt_secret.unwrap().as_bytes())
        .chain_update([0])
        .chain_update(b"staff-session")
        .finalize()
        .to_vec()
}

fn claims(exp: i64) -> Value {
    json!({ "sub": "1", "iat": now() - 10, "exp": exp, "jti": "0123456789abcdef0123456789abcdef" })
}

/// The claims of a token.
fn payload_of(token: &str) -> Value {
    serde_json::from_slice(
        &URL_SAFE_NO_PAD
            .decode(token.split('.').nth(1).unwrap())
            .unwrap(),
    )
    .unwrap()
}

fn signed(alg: Algorithm, key: &[u8], claims: &Value) -> String {
    jsonwebtoken::encode(&Header::new(alg), claims, &EncodingKey::from_secret(key)).unwrap()
}

fn unsigned(header: &Value, claims: &Value, signature: &str) -> String {
    format!(
        "{}.{}.{signature}",
        URL_SAFE_NO_PAD.encode(header.to_string()),
        URL_SAFE_NO_PAD.encode(claims.to_string())
    )
}

#[tokio::test]
async fn the_right_password_gets_a_one_hour_token_and_the_wrong_one_401() {
    let app = TestApp::new();
    // The account's first sign-in needs no second step (see staff_accounts for the rest).
    let res = login_from(&app, Config::TEST_PASSWORD, [10, 0, 0, 1]).await;
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["cache-control"], "no-store");
    let body = TestApp::json(&res);
    assert_eq!(body["user"]["role"], "owner");
    let token = body["token"].as_str().unwrap();
    let payload: Value = serde_json::from_slice(
        &URL_SAFE_NO_PAD
            .decode(token.split('.').nth(1).unwrap())
            .unwrap(),
    )
    .unwrap();
    assert_eq!(
        payload["exp"].as_i64().unwrap() - payload["iat"].as_i64().unwrap(),
        3600
    );
    assert_eq!(payload["jti"].as_str().unwrap().len(), 32);
    let header: Value = serde_json::from_slice(
        &URL_SAFE_NO_PAD
            .decode(token.split('.').next().unwrap())
            .unwrap(),
    )
    .unwrap();
    assert_eq!(header["alg"], "HS256");
    // A second login from the remembered browser gets another token id.
    let device = crate::common::device_cookie(&res).unwrap();
    let again = warp::test::request()
        .method("POST")
        .path("/api/admin/login")
        .header("cookie", format!("acp_device={device}"))
        .json(&json!({ "email": Config::TEST_EMAIL, "password": Config::TEST_PASSWORD }))
        .reply(&app.app)
        .await;
    assert_eq!(again.status(), 200);
    assert_ne!(TestApp::json(&again)["token"], body["token"]);

    let res = login_from(&app, "wrong", [10, 0, 0, 1]).await;
    assert_eq!(res.status(), 401);
    assert_eq!(message(&res), "Invalid e-mail or password");
    // An unknown address gets the same answer.
    let res = warp::test::request()
        .method("POST")
        .path("/api/admin/login")
        .json(&json!({ "email": "nobody@party.example", "password": Config::TEST_PASSWORD }))
        .reply(&app.app)
        .await;
    assert_eq!(res.status(), 401);
    assert_eq!(message(&res), "Invalid e-mail or password");
    // The shared password alone, as before accounts, is told what to send.
    for old in [json!({ "password": Config::TEST_PASSWORD }), json!({})] {
        let res = warp::test::request()
            .method("POST")
            .path("/api/admin/login")
            .json(&old)
            .reply(&app.app)
            .await;
        assert_eq!(res.status(), 400, "{old}");
        assert_eq!(message(&res), "Sign in with your e-mail and password");
    }
    assert_eq!(res.headers()["cache-control"], "no-store");

    for blank in [
        json!({ "email": Config::TEST_EMAIL, "password": "" }),
        json!({ "email": Config::TEST_EMAIL, "password": "   " }),
        json!({ "email": Config::TEST_EMAIL }),
    ] {
        let res = warp::test::request()
            .method("POST")
            .path("/api/admin/login")
            .json(&blank)
            .reply(&app.app)
            .await;
        assert_eq!(res.status(), 400, "{blank}");
        assert_eq!(message(&res), "Enter the admin password.");
    }
    let res = warp::test::request()
        .method("POST")
        .path("/api/admin/login")
        .header("content-type", "text/plain")
        .body(Config::TEST_PASSWORD)
        .reply(&app.app)
        .await;
    assert_eq!(res.status(), 415);
    let res = warp::test::request()
        .method("POST")
        .path("/api/admin/login")
        .header("content-type", "application/json")
        .body("{\"password\": ")
        .reply(&app.app)
        .await;
    assert_eq!(res.status(), 400);
    assert!(message(&res).starts_with("The request body is not valid"));
}

#[tokio::test]
async fn logins_are_in_the_audit_log_with_their_address() {
    let app = TestApp::new();
    login_from(&app, "nope", [192, 0, 2, 7]).await;
    login_from(&app, Config::TEST_PASSWORD, [192, 0, 2, 8]).await;
    let rows: Vec<(String, String)> = app
        .db
        .read(|c| {
            let mut stmt = c.prepare("SELECT action, ip FROM audit_log ORDER BY id")?;
            stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect()
        })
        .await
        .unwrap();
    assert_eq!(rows, [("login".into(), "192.0.2.8".into())]);
    // Failures are counted per address and minute, outside the append-only log.
    login_from(&app, "still not", [192, 0, 2, 7]).await;
    let failures: Vec<(String, i64)> = app
        .db
        .read(|c| {
            let mut stmt = c.prepare("SELECT ip, attempts FROM failed_logins")?;
            stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect()
        })
        .await
        .unwrap();
    // (Two rows if a minute turned between the two.)
    assert!(
        failures.iter().all(|(ip, _)| ip == "192.0.2.7")
            && failures.iter().map(|(_, n)| n).sum::<i64>() == 2,
        "{failures:?}"
    );
    // Append-only: the database itself refuses to change or remove a row.
    let change = app
        .db
        .write(|tx| tx.execute("UPDATE audit_log SET ip = 'x'", []))
        .await;
    assert!(change.is_err());
    let remove = app
        .db
        .write(|tx| tx.execute("DELETE FROM audit_log", []))
        .await;
    assert!(remove.is_err());
}

#[tokio::test]
async fn more_than_ten_failures_from_one_address_are_locked_out() {
    let app = TestApp::new();
    let attacker = [203, 0, 113, 5];
    for _ in 0..10 {
        assert_eq!(login_from(&app, "guess", attacker).await.status(), 401);
    }
    let res = login_from(&app, "guess", attacker).await;
    assert_eq!(res.status(), 429);
    let wait: u64 = res.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((800..=900).contains(&wait), "{wait}");
    assert!(message(&res).starts_with("Too many failed sign-in attempts."));
    // Even the right password waits: the lock is on the address.
    assert_eq!(
        login_from(&app, Config::TEST_PASSWORD, attacker)
            .await
            .status(),
        429
    );
    // Another address signs in, and that does not unlock the first.
    assert_eq!(
        login_from(&app, Config::TEST_PASSWORD, [198, 51, 100, 1])
            .await
            .status(),
        200
    );
    assert_eq!(login_from(&app, "guess", attacker).await.status(), 429);
}

/// An IPv6 client holds a whole /64 and can take a new address in it for every guess: the
/// lockout counts the /64.
#[tokio::test]
async fn an_ipv6_network_is_locked_out_as_one_address() {
    let app = TestApp::new();
    let v6 = |net: u16, host: u16| std::net::IpAddr::from([0x2001, 0xdb8, 5, net, 0, 0, 0, host]);
    for host in 1..=10 {
        assert_eq!(
            login_from(&app, "guess", v6(5, host)).await.status(),
            401,
            "::{host:x}"
        );
    }
    for host in 11..=12 {
        assert_eq!(
            login_from(&app, "guess", v6(5, host)).await.status(),
            429,
            "::{host:x}"
        );
    }
    assert_eq!(
        login_from(&app, Config::TEST_PASSWORD, v6(6, 1))
            .await
            .status(),
        200,
        "another /64 is another client"
    );
}

/// Password checks are slow on purpose and run one at a time; a flood of wrong passwords
/// from addresses that have failed lately waits in its own lane, so a staff member signing
/// in from an address with no recent failures is checked at once, not told to retry.
#[tokio::test]
async fn a_flood_of_failures_never_delays_a_clean_sign_in() {
    let app = TestApp::new();
    let flooder = |n: u8| [198, 18, 0, n];
    // What one check costs here, from a few flooders' first failures...
    let started = std::time::Instant::now();
    for n in 0..4 {
        assert_eq!(login_from(&app, "guess", flooder(n)).await.status(), 401);
    }
    let check = started.elapsed() / 4;
    // ...so that the flood below queues twice the longest a sign-in waits for its turn.
    let needed =
        (2 * api::domain::auth::CHECK_WAIT.as_millis() / check.as_millis().max(1)) as usize;
    let flooders = needed.div_ceil(9).clamp(4, 250) as u8;
    for n in 4..flooders {
        assert_eq!(login_from(&app, "guess", flooder(n)).await.status(), 401);
    }
    // Every flooder has failed once; each now guesses nine more times, all at once, and a
    // staff member signs in among them.
    let flood = (0..flooders).flat_map(|n| std::iter::repeat_n(flooder(n), 9));
    let guesses = futures_util::future::join_all(flood.map(|ip| login_from(&app, "guess", ip)));
    let staff = async {
        // Queued after the whole flood.
        tokio::task::yield_now().await;
        let res = login_from(&app, Config::TEST_PASSWORD, [192, 0, 2, 10]).await;
        let said = TestApp::json(&res)["message"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        (res.status(), said)
    };
    let (guesses, (status, said)) = tokio::join!(guesses, staff);
    assert_eq!(
        status,
        200,
        "{said}: {} guesses at {check:?} a check",
        guesses.len()
    );
    assert!(
        guesses
            .iter()
            .all(|r| r.status() == 401 || r.status() == 429)
    );
}

/// A flood spread over many networks, each trying for the first time, is "clean" to the
/// per-network lanes; it must still never keep a staff member out of their own browser,
/// whose device cookie nobody else can make.
#[tokio::test]
async fn a_flood_from_fresh_networks_never_delays_a_known_browser() {
    let app = TestApp::new();
    app.login().await;
    let device = app.owner().device;
    let flooder = |n: u32| std::net::Ipv4Addr::from(0xc612_0000 + n);
    let started = std::time::Instant::now();
    for n in 0..4 {
        assert_eq!(login_from(&app, "guess", flooder(n)).await.status(), 401);
    }
    let check = started.elapsed() / 4;
    // Twice the longest a sign-in waits for its turn, from networks never seen before.
    let needed = (2 * api::domain::auth::CHECK_WAIT.as_millis() / check.as_millis().max(1)) as u32;
    let flood = (4..4 + needed.clamp(8, 2000)).map(|n| login_from(&app, "guess", flooder(n)));
    let guesses = futures_util::future::join_all(flood);
    let staff = async {
        tokio::task::yield_now().await;
        let res = warp::test::request()
            .method("POST")
            .path("/api/admin/login")
            .remote_addr(([192, 0, 2, 10], 40000).into())
            .header("cookie", format!("acp_device={device}"))
            .json(&json!({ "email": Config::TEST_EMAIL, "password": Config::TEST_PASSWORD }))
            .reply(&app.app)
            .await;
        (
            res.status(),
            String::from_utf8_lossy(res.body()).into_owned(),
        )
    };
    let (guesses, (status, said)) = tokio::join!(guesses, staff);
    assert_eq!(
        status,
        200,
        "{said}: {} guesses at {check:?} a check",
        guesses.len()
    );
    assert!(said.contains("\"success\":true"), "{said}");
}

#[tokio::test]
async fn every_admin_route_refuses_every_kind_of_bad_token() {
    let app = TestApp::new();
    let key = server_key();
    let good = app.login().await;
    let expired = signed(Algorithm::HS256, &key, &claims(now() - 5));
    let cases: Vec<(&str, Option<String>)> = vec![
        ("no header", None),
        (
            "another scheme",
            Some(format!("Basic {}", URL_SAFE_NO_PAD.encode("admin:x"))),
        ),
        ("bearer without a token", Some("Bearer ".into())),
        ("malformed token", Some("Bearer not.a.jwt".into())),
        ("garbage", Some("Bearer ✓✓✓".into())),
        (
            "bad signature",
            Some(format!(
                "Bearer {}",
                signed(
                    Algorithm::HS256,
                    b"some other key entirely, 32 bytes+",
                    &claims(now() + 600)
                )
            )),
        ),
        (
            "tampered payload",
            Some(format!("Bearer {}", {
                let parts: Vec<&str> = good.split('.').collect();
                let mut payload: Value =
                    serde_json::from_slice(&URL_SAFE_NO_PAD.decode(parts[1]).unwrap()).unwrap();
                payload["exp"] = json!(now() + 86_400 * 365);
                format!(
                    "{}.{}.{}",
                    parts[0],
                    URL_SAFE_NO_PAD.encode(payload.to_string()),
                    parts[2]
                )
            })),
        ),
        ("expired", Some(format!("Bearer {expired}"))),
        (
            "alg none",
            Some(format!(
                "Bearer {}",
                unsigned(
                    &json!({"alg": "none", "typ": "JWT"}),
                    &claims(now() + 600),
                    ""
                )
            )),
        ),
        (
            "alg None",
            Some(format!(
                "Bearer {}",
                unsigned(
                    &json!({"alg": "None", "typ": "JWT"}),
                    &claims(now() + 600),
                    ""
                )
            )),
        ),
        (
            "HS384 with the right key",
            Some(format!(
                "Bearer {}",
                signed(Algorithm::HS384, &key, &claims(now() + 600))
            )),
        ),
        (
            "RS256",
            Some(format!(
                "Bearer {}",
                unsigned(
                    &json!({"alg": "RS256", "typ": "JWT"}),
                    &claims(now() + 600),
                    "c2lnbmF0dXJl"
                )
            )),
        ),
        (
            "wrong subject",
            Some(format!(
                "Bearer {}",
                signed(
                    Algorithm::HS256,
                    &key,
                    &json!({"sub": "visitor", "iat": now(), "exp": now() + 600, "jti": "x"})
                )
            )),
        ),
        (
            "the right key, but no session",
            Some(format!(
                "Bearer {}",
                signed(Algorithm::HS256, &key, &claims(now() + 600))
            )),
        ),
        (
            "a live session's id under another user",
            Some(format!("Bearer {}", {
                let mut c = payload_of(&good);
                c["sub"] = json!("2");
                signed(Algorithm::HS256, &key, &c)
            })),
        ),
    ];
    for (method, path) in ADMIN_ROUTES {
        for (case, header) in &cases {
            let mut req = warp::test::request().method(method).path(path);
            if let Some(header) = header {
                req = req.header("authorization", header.as_str());
            }
            let res = req.reply(&app.app).await;
            assert_eq!(res.status(), 401, "{method} {path}: {case}");
            assert!(!message(&res).is_empty());
            assert_eq!(
                res.headers()["cache-control"],
                "no-store",
                "{method} {path}: {case}"
            );
        }
    }
    // The same checks let a good token through: it is the token, not the route, refused.
    let res = app.admin("GET", "/api/admin/contacts", &good, None).await;
    assert_eq!(res.status(), 200);
    // The scheme's name is case-insensitive (RFC 9110).
    let res = warp::test::request()
        .path("/api/admin/contacts")
        .header("authorization", format!("bearer {good}"))
        .reply(&app.app)
        .await;
    assert_eq!(res.status(), 200);
    // A token signed with the right key and algorithm, naming a live session and its user,
    // is accepted: the cases above fail for the reason they name.
    let mut c = payload_of(&good);
    c["exp"] = json!(now() + 600);
    let forged_but_right = signed(Algorithm::HS256, &key, &c);
    assert_eq!(
        app.admin("GET", "/api/admin/contacts", &forged_but_right, None)
            .await
            .status(),
        200
    );
}

#[tokio::test]
async fn logout_ends_the_session_at_once() {
    let app = TestApp::new();
    let token = app.login().await;
    let other = app.login().await;
    assert_eq!(
        app.admin("GET", "/api/admin/blogs", &token, None)
            .await
            .status(),
        200
    );
    let res = app.admin("POST", "/api/admin/logout", &token, None).await;
    assert_eq!(res.status(), 200);
    assert_eq!(TestApp::json(&res), json!({ "success": true }));
    for (method, path) in ADMIN_ROUTES {
        let res = app.admin(method, path, &token, None).await;
        assert_eq!(res.status(), 401, "{method} {path}");
        assert_eq!(message(&res), "You have signed out. Please sign in again.");
    }
    // Another session is untouched.
    assert_eq!(
        app.admin("GET", "/api/admin/blogs", &other, None)
            .await
            .status(),
        200
    );
    let ended: i64 = app
        .db
        .read(|c| {
            c.query_row(
                "SELECT COUNT(*) FROM staff_sessions WHERE ended_at IS NOT NULL",
                [],
                |r| r.get(0),
            )
        })
        .await
        .unwrap();
    assert_eq!(ended, 1);
    let actions: Vec<String> = app
        .db
        .read(|c| {
            let mut stmt = c.prepare("SELECT action FROM audit_log ORDER BY id")?;
            stmt.query_map([], |r| r.get(0))?.collect()
        })
        .await
        .unwrap();
    assert_eq!(actions, ["login", "login", "logout"]);
}

#[tokio::test]
async fn admin_paths_that_do_not_exist_answer_json_and_are_not_cached() {
    let app = TestApp::new();
    let token = app.login().await;
    let res = app
        .admin("GET", "/api/admin/nothing-here", &token, None)
        .await;
    assert_eq!(res.status(), 404);
    assert_eq!(res.headers()["cache-control"], "no-store");
    let res = app
        .admin("DELETE", "/api/admin/donations/1", &token, None)
        .await;
    assert!(
        matches!(res.status().as_u16(), 404 | 405),
        "no delete for donations: {}",
        res.status()
    );
}
