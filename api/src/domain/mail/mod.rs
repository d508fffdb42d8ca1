//! The site's outgoing mail, on one path that loses nothing:
//!
//! 1. the write that records an event (a gift paid, a signup) also queues its message
//!    ([`queue::enqueue`]), built whole then, with its Message-ID, so the two commit together;
//! 2. one sender task ([`sender`]) delivers the queue over SMTP (or into `DATA_DIR/outbox/`),
//!    retrying temporary failures with backoff and marking a message sent only once the
//!    server accepted it.
//!
//! What is sent: [`receipt`]s for paid gifts and [`refund_notice`]s when money goes back,
//! [`staff_alert`]s for contact messages and volunteers and [`money_alerts`] for disputes
//! and failed refunds, the [`newsletter`]'s confirmation and welcome, the
//! [`plan_notices`] about monthly gifts and the best-efforts [`info_request`] after a gift. The words are in
//! `content/mail.yaml` ([`texts`]); links are signed ([`tokens`]).

pub mod broadcast;
pub mod flight;
pub mod message;
pub mod newsletter;
pub mod queue;
pub mod rate;
pub mod sender;
mod smtp;
pub mod staff_alert;
pub mod suppressions;
pub mod texts;
pub mod tokens;

use std::path::Path;
use std::sync::Arc;

use generator::config::SiteConfig;
use lettre::message::Mailbox;

use self::message::{Built, Draft, Person};
use self::sender::Transport;
use self::texts::{Texts, fill};
use self::tokens::Tokens;
use crate::domain::clock::Clock;
use crate::store::db::Db;

/// Mail settings from the environment.
#[derive(Clone, Default)]
pub struct MailConfig {
    /// `SMTP_URL`: `smtp://host:port` or `smtps://user:pass@host:port`; none writes `.eml`
    /// files to `DATA_DIR/outbox/`.
    pub smtp_url: Option<String>,
    /// `MAIL_FROM`, e.g. `American Conscience Party <hello@example.org>`; default the party's
    /// name and the `email` of `content/site.yaml`.
    pub from: Option<String>,
    /// `STAFF_EMAIL`: where staff alerts go; none are sent when unset.
    pub staff_email: Option<String>,
    /// `COMMITTEE_NAME`: the committee named on receipts and in "Paid for by", when it is
    /// not the party's name.
    pub committee_name: Option<String>,
    /// `MAIL_RATE`: how fast the list is mailed ([`rate::MailRate`]).
    pub rate: Option<String>,
    /// `MAIL_COMPLAINT_SECRET`: signs the complaint notices `POST /api/mail/complaints`
    /// takes; none turns the endpoint off.
    pub complaint_secret: Option<String>,
    /// `SMTP_CA_FILE`: PEM certificates trusted for the SMTP server's TLS besides the public
    /// roots (a relay with a private certificate authority).
    pub smtp_ca_file: Option<std::path::PathBuf>,
    /// `CONFIRMATIONS_PER_HOUR`: the ceiling on newsletter confirmations an hour, for
    /// everyone (default [`newsletter::CONFIRMATIONS_PER_HOUR`]).
    pub confirmations_per_hour: Option<String>,
}

impl std::fmt::Debug for MailConfig {
    // The SMTP URL may hold a password.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MailConfig")
            .field("smtp_url", &self.smtp_url.as_ref().map(|_| "…"))
            .field("from", &self.from)
            .field("staff_email", &self.staff_email)
            .field("committee_name", &self.committee_name)
            .field("rate", &self.rate)
            .field(
                "complaint_secret",
                &self.complaint_secret.as_ref().map(|_| "…"),
            )
            .finish()
    }
}

/// Everything needed to compose and deliver mail.
pub struct Mail {
    pub from: Mailbox,
    /// `STAFF_EMAIL`.
    pub staff: Option<Mailbox>,
    /// Who pays for the site's messages, and receives gifts.
    pub committee: String,
    pub party: String,
    /// The canonical origin, for links (no trailing slash).
    pub site_url: String,
    pub tz: jiff::tz::TimeZone,
    pub texts: Texts,
    pub tokens: Tokens,
    /// The limits and the itemisation threshold, which notices and follow-ups quote.
    pub donation_rules: generator::config::DonationRules,
    /// The party's postal address (`content/site.yaml`), printed in list mail; the list is
    /// not mailed without one.
    pub postal_address: Option<String>,
    /// `MAIL_RATE`, and the pacing of single messages it asks for.
    pub rate: rate::MailRate,
    /// `CONFIRMATIONS_PER_HOUR` ([`newsletter`]).
    pub confirmations_per_hour: i64,
    pacer: Option<governor::DefaultDirectRateLimiter>,
    /// The messages of the sends under way, read once each.
    broadcasts: std::sync::Mutex<std::collections::HashMap<i64, Arc<broadcast::deliver::Content>>>,
    transport: Transport,
    db: Db,
    clock: Arc<Clock>,
    wake: Arc<tokio::sync::Notify>,
    one_at_a_time: tokio::sync::Mutex<()>,
    /// The queued messages on their way, for an erasure to stop or report.
    pub flight: flight::Flight,
}

/// Where the mail's files and links are.
pub struct Places<'a> {
    /// `content/`, for `mail.yaml`.
    pub content_dir: &'a Path,
    /// Where the outbox and the link key are kept.
    pub data_dir: &'a Path,
    /// The site's public address, for links in messages.
    pub site_url: &'a str,
}

impl Mail {
    /// Reads the settings, the texts (`content_dir/mail.yaml`) and the link key kept in
    /// `data_dir`; fails with what to fix.
    pub fn new(
        settings: &MailConfig,
        places: Places<'_>,
        site: &SiteConfig,
        db: Db,
        clock: Arc<Clock>,
    ) -> anyhow::Result<Arc<Mail>> {
        let from: Mailbox = match &settings.from {
            Some(from) => from.parse().map_err(|e| {
                anyhow::anyhow!("MAIL_FROM is not an address like `Name <hello@example.org>`: {e}")
            })?,
            None => format!("{} <{}>", site.name, site.email)
                .parse()
                .map_err(|e| anyhow::anyhow!("content/site.yaml's email cannot send mail: {e}"))?,
        };
        let staff = settings
            .staff_email
            .as_deref()
            .map(|s| s.parse::<Mailbox>())
            .transpose()
            .map_err(|e| anyhow::anyhow!("STAFF_EMAIL is not an e-mail address: {e}"))?;
        if staff.is_none() {
            tracing::info!(
                "STAFF_EMAIL is not set: no alerts of contact messages or volunteers are sent"
            );
        }
        let transport = match &settings.smtp_url {
            Some(url) => {
                let ca = match &settings.smtp_ca_file {
                    Some(file) => Some(std::fs::read(file).map_err(|e| {
                        anyhow::anyhow!("SMTP_CA_FILE {} cannot be read: {e}", file.display())
                    })?),
                    None => None,
                };
                Transport::Smtp(smtp::Smtp::from_url(url, ca.as_deref())?)
            }
            None => {
                let outbox = places.data_dir.join("outbox");
                crate::store::db::private_dir(&outbox)?;
                tracing::info!(
                    outbox = %outbox.display(),
                    "SMTP_URL is not set: mail is written to the outbox as .eml files, not sent"
                );
                Transport::Outbox(outbox)
            }
        };
        let site_url = places.site_url.trim_end_matches('/').to_owned();
        let rate = rate::MailRate::parse(settings.rate.as_deref())?;
        let confirmations_per_hour = match settings.confirmations_per_hour.as_deref() {
            None => newsletter::CONFIRMATIONS_PER_HOUR,
            Some(n) => n.trim().parse::<i64>().ok().filter(|n| *n > 0).ok_or_else(|| {
                anyhow::anyhow!(
                    "CONFIRMATIONS_PER_HOUR must be a whole number above 0 (the newsletter confirmations sent an hour), not {n:?}"
                )
            })?,
        };
        Ok(Arc::new(Mail {
            confirmations_per_hour,
            postal_address: site.postal_address.clone().filter(|a| !a.trim().is_empty()),
            rate,
            pacer: rate.pacer(),
            broadcasts: std::sync::Mutex::default(),
            from,
            staff,
            committee: settings
                .committee_name
                .clone()
                .unwrap_or_else(|| site.name.clone()),
            party: site.name.clone(),
            site_url,
            tz: site.tz(),
            texts: Texts::load(places.content_dir)?,
            tokens: Tokens::open(places.data_dir)?,
            donation_rules: site.donations.clone(),
            transport,
            db,
            clock,
            wake: Arc::default(),
            one_at_a_time: tokio::sync::Mutex::new(()),
            flight: flight::Flight::default(),
        }))
    }

    /// `template` filled with `values`, the party's name and the committee's.
    pub fn fill(&self, template: &str, values: &[(&str, &str)]) -> String {
        let mut all = vec![
            ("party", self.party.as_str()),
            ("committee", self.committee.as_str()),
            ("siteUrl", self.site_url.as_str()),
        ];
        all.extend_from_slice(values);
        fill(template, &all)
    }

    /// A whole message: `body` with the footer every message carries ("Paid for by…"), in
    /// text and HTML, with a new Message-ID. `None` (logged) when an address cannot be used.
    pub fn compose(
        &self,
        kind: queue::Kind,
        to: Person<'_>,
        reply_to: Option<Person<'_>>,
        subject: &str,
        body: &str,
        unsubscribe: Option<&str>,
    ) -> Option<Built> {
        let id = self.message_id(kind);
        self.compose_as(kind, id, to, reply_to, subject, body, unsubscribe)
    }

    /// [`Mail::compose`] with Message-ID `message_id`: a message written when it is sent
    /// ([`queue::Due::unwritten`]) is written again if sent again, and keeps its id.
    #[allow(clippy::too_many_arguments)]
    pub fn compose_as(
        &self,
        kind: queue::Kind,
        message_id: String,
        to: Person<'_>,
        reply_to: Option<Person<'_>>,
        subject: &str,
        body: &str,
        unsubscribe: Option<&str>,
    ) -> Option<Built> {
        self.compose_draft(
            kind,
            message_id,
            to,
            reply_to,
            subject,
            body,
            unsubscribe,
            None,
        )
    }

    /// [`Mail::compose`] for a message that carries a calendar invitation (an event's).
    pub fn compose_invitation(
        &self,
        kind: queue::Kind,
        to: Person<'_>,
        subject: &str,
        body: &str,
        calendar: Option<message::Calendar>,
    ) -> Option<Built> {
        let id = self.message_id(kind);
        self.compose_draft(kind, id, to, None, subject, body, None, calendar)
    }

    #[allow(clippy::too_many_arguments)]
    fn compose_draft(
        &self,
        kind: queue::Kind,
        message_id: String,
        to: Person<'_>,
        reply_to: Option<Person<'_>>,
        subject: &str,
        body: &str,
        unsubscribe: Option<&str>,
        calendar: Option<message::Calendar>,
    ) -> Option<Built> {
        let text = format!("{body}\n\n-- \n{}\n", self.fill(&self.texts.footer, &[]));
        let html = message::html_of(&text, &self.site_url);
        let draft = Draft {
            to,
            reply_to,
            subject,
            text,
            html,
            unsubscribe,
            unsubscribe_mailto: None,
            message_id,
            date: self.clock.now(),
            calendar,
        };
        match message::build(&self.from, draft) {
            Ok(built) => Some(built),
            Err(e) => {
                tracing::error!(kind = kind.as_str(), error = %e, "a message could not be built; not queued");
                None
            }
        }
    }

    /// `<kind.hash@domain of MAIL_FROM>` for the queue's event `event_key`: the same each time
    /// it is made, for a message written when it is sent.
    pub fn message_id_of(&self, kind: queue::Kind, event_key: &str) -> String {
        format!(
            "<{}.{}@{}>",
            kind.as_str().replace('_', "-"),
            &self.tokens.key_of("message-id", event_key)[..32],
            self.from.email.domain()
        )
    }

    /// `<kind.random@domain of MAIL_FROM>`: made once, stored with the message.
    fn message_id(&self, kind: queue::Kind) -> String {
        format!(
            "<{}.{:032x}@{}>",
            kind.as_str().replace('_', "-"),
            rand::random::<u128>(),
            self.from.email.domain()
        )
    }

    /// What one individual may give in `year`, in cents.
    pub fn limit_cents(&self, year: i16) -> Option<i64> {
        self.donation_rules.limit_cents(year)
    }

    /// Deletes the outbox's copies of mail about erased person `email` (see
    /// [`sender::Transport::erase`]); blocking.
    pub fn erase_from_outbox(&self, email: &str, ids: &[i64]) -> usize {
        self.transport.erase(email, ids)
    }

    /// Whether mail leaves this server (an SMTP server is set); without one it only lands
    /// in the outbox folder, where nobody reads a sign-in code.
    pub fn delivers(&self) -> bool {
        matches!(self.transport, Transport::Smtp(_))
    }

    /// An absolute link to `path` on the site.
    pub fn link(&self, path: &str) -> String {
        format!("{}{path}", self.site_url)
    }
}

/// `$1,234.50`
pub fn usd(cents: i64) -> String {
    let dollars = (cents / 100).to_string();
    let mut grouped = String::new();
    for (i, c) in dollars.chars().enumerate() {
        if i > 0 && (dollars.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(c);
    }
    format!("${grouped}.{:02}", cents % 100)
}
