//! Mail over a real SMTP conversation with a local server: staff alerts, the newsletter's
//! double opt-in and one-click unsubscribe, and the queue's promises (retries with backoff,
//! a permanent refusal, a server that is down, the outbox without SMTP, a restart).
//! Receipts are tested with the donations (`donations::receipts`), the kill -9 with the
//! real server (`real_server::mail`).

mod alerts;
mod broadcast;
mod delivery;
mod newsletter;
pub mod smtp;
mod tls;

use crate::common::TestApp;
use api::config::Config;
use smtp::Smtp;

pub const STAFF: &str = "Party Staff <staff@party.example>";

/// An app whose mail goes to `smtp`, with staff alerts on.
pub fn mail_app(smtp: &Smtp, adjust: impl FnOnce(&mut Config)) -> TestApp {
    let url = smtp.url();
    TestApp::with(move |c| {
        c.mail.smtp_url = Some(url);
        c.mail.staff_email = Some(STAFF.into());
        c.form_rate_limit = 1000;
        adjust(c);
    })
}

/// One queue row: (kind, status, attempts, last error).
pub type Row = (String, String, u32, Option<String>);

pub async fn queue(app: &TestApp) -> Vec<Row> {
    app.db
        .read(|c| {
            let mut stmt =
                c.prepare("SELECT kind, status, attempts, last_error FROM mail_queue ORDER BY id")?;
            stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
                .collect()
        })
        .await
        .unwrap()
}

/// Moves the app's clock on.
pub fn advance(app: &TestApp, minutes: u64) {
    app.state
        .clock
        .advance(std::time::Duration::from_secs(minutes * 60));
}
