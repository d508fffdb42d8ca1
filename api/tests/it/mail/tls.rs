//! TLS to the SMTP server, as a real relay needs it: `smtps://` (TLS from the first byte) and
//! STARTTLS (`smtp://…?tls=required`) deliver when the server's certificate is trusted (here
//! a private authority named by `SMTP_CA_FILE`); nothing goes in clear when it is not
//! trusted or the server offers no STARTTLS. And a kept connection the server has since
//! dropped costs the next message nothing.

use std::sync::Arc;

use rcgen::{BasicConstraints, CertificateParams, CertifiedIssuer, DnType, IsCa, KeyPair};
use rustls::pki_types::{PrivateKeyDer, PrivatePkcs8KeyDer};
use serde_json::json;
use smtp_sink::Tls;

use super::smtp::Smtp;
use super::{mail_app, queue};
use crate::common::TestApp;

/// A certificate authority of the test's own and the server's TLS settings, with a
/// certificate for `localhost` it signed.
struct Authority {
    _dir: tempfile::TempDir,
    ca_file: std::path::PathBuf,
    server: Arc<rustls::ServerConfig>,
}

fn authority() -> Authority {
    let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
    params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    params
        .distinguished_name
        .push(DnType::CommonName, "Party mail relay test CA");
    let ca = CertifiedIssuer::self_signed(params, KeyPair::generate().unwrap()).unwrap();
    let key = KeyPair::generate().unwrap();
    let certificate = CertificateParams::new(vec!["localhost".to_owned()])
        .unwrap()
        .signed_by(&key, &ca)
        .unwrap();
    let server = rustls::ServerConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .unwrap()
    .with_no_client_auth()
    .with_single_cert(
        vec![certificate.der().clone()],
        PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(key.serialize_der())),
    )
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let ca_file = dir.path().join("relay-ca.pem");
    std::fs::write(&ca_file, ca.pem()).unwrap();
    Authority {
        _dir: dir,
        ca_file,
        server: Arc::new(server),
    }
}

/// A contact message, which queues one alert to staff.
async fn contact(app: &TestApp, n: usize) {
    let body = json!({
        "name": "Ann Lee",
        "email": format!("ann{n}@example.org"),
        "subject": "Ballot access",
        "message": "When is the deadline?",
    });
    let res = app.post_json("/api/contact", &body.to_string()).await;
    assert_eq!(res.status(), 201, "{:?}", res.body());
}

/// The app mailing through `url` (its port that of `smtp`), trusting `ca` if given.
fn app_on(smtp: &Smtp, url: &str, ca: Option<&Authority>) -> TestApp {
    let url = url.replace("PORT", &smtp.addr.port().to_string());
    let ca = ca.map(|a| a.ca_file.clone());
    mail_app(smtp, move |c| {
        c.mail.smtp_url = Some(url);
        c.mail.smtp_ca_file = ca;
    })
}

#[tokio::test]
async fn smtps_delivers_to_a_server_whose_certificate_is_trusted() {
    let ca = authority();
    let smtp = Smtp::start_tls(Tls::Implicit(ca.server.clone()));
    let app = app_on(&smtp, "smtps://localhost:PORT", Some(&ca));
    contact(&app, 1).await;
    app.state.mail.deliver_due().await;
    let got = smtp.received();
    assert_eq!(got.len(), 1, "{:?}", queue(&app).await);
    assert!(got[0].data.contains("Ballot access"));
}

#[tokio::test]
async fn starttls_delivers_when_required_and_trusted() {
    let ca = authority();
    let smtp = Smtp::start_tls(Tls::StartTls(ca.server.clone()));
    let app = app_on(&smtp, "smtp://localhost:PORT?tls=required", Some(&ca));
    contact(&app, 1).await;
    app.state.mail.deliver_due().await;
    assert_eq!(smtp.received().len(), 1, "{:?}", queue(&app).await);
}

/// A certificate the public roots do not vouch for (no SMTP_CA_FILE): nothing is sent, the
/// message waits in the queue with the reason, for staff to see.
#[tokio::test]
async fn an_untrusted_certificate_sends_nothing() {
    let ca = authority();
    for (tls, url) in [
        (Tls::Implicit(ca.server.clone()), "smtps://localhost:PORT"),
        (
            Tls::StartTls(ca.server.clone()),
            "smtp://localhost:PORT?tls=required",
        ),
    ] {
        let smtp = Smtp::start_tls(tls);
        let app = app_on(&smtp, url, None);
        contact(&app, 1).await;
        app.state.mail.deliver_due().await;
        assert!(smtp.received().is_empty(), "{url}");
        let rows = queue(&app).await;
        assert_eq!(rows.len(), 1);
        let (_, status, _, error) = &rows[0];
        assert_eq!(status, "queued", "{url}: tried again later");
        let error = error.as_deref().unwrap_or_default();
        assert!(
            error.contains("TLS") || error.contains("certificate"),
            "{url}: {error}"
        );
    }
}

/// STARTTLS required of a server that does not offer it: no fallback to plain text.
#[tokio::test]
async fn required_starttls_never_falls_back_to_plain_text() {
    let ca = authority();
    let smtp = Smtp::start();
    let app = app_on(&smtp, "smtp://localhost:PORT?tls=required", Some(&ca));
    contact(&app, 1).await;
    app.state.mail.deliver_due().await;
    assert!(smtp.received().is_empty());
    let rows = queue(&app).await;
    let error = rows[0].3.as_deref().unwrap_or_default();
    assert!(error.contains("STARTTLS"), "{error}");
}

/// The sender keeps its connection open between messages; a server that has since hung up
/// on it (as servers do with idle clients) costs the next message nothing: it goes on a
/// fresh connection at once, with no failed attempt recorded. Over TLS, where a reconnect
/// is a handshake too.
#[tokio::test]
async fn a_kept_connection_the_server_dropped_costs_the_next_message_nothing() {
    let ca = authority();
    let smtp = Smtp::start_tls(Tls::Implicit(ca.server.clone()));
    let app = app_on(&smtp, "smtps://localhost:PORT", Some(&ca));
    contact(&app, 1).await;
    app.state.mail.deliver_due().await;
    assert_eq!(smtp.received().len(), 1);
    smtp.hang_up();
    contact(&app, 2).await;
    app.state.mail.deliver_due().await;
    assert_eq!(smtp.received().len(), 2, "{:?}", queue(&app).await);
    for (_, status, attempts, error) in queue(&app).await {
        assert_eq!((status.as_str(), attempts, error), ("sent", 1, None));
    }
}
