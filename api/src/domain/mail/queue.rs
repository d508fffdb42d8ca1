//! The mail queue in SQLite. A message is queued inside the write of the event that causes
//! it ([`enqueue`]), so the two commit together or not at all; the sender reads what is due
//! and records each outcome. A row becomes `sent` only after the server accepted it.

use jiff::{SignedDuration, Timestamp};
use rusqlite::{Connection, params};
use serde::Serialize;

use super::message::Built;
use crate::domain::clock::sql_time;

/// The first retry waits this long; each next one twice as long as the last...
pub const FIRST_RETRY: SignedDuration = SignedDuration::from_mins(1);
/// ...up to this.
pub const LONGEST_WAIT: SignedDuration = SignedDuration::from_hours(6);
/// A message not accepted this long after it was queued is given up (`failed`).
pub const GIVE_UP_AFTER: SignedDuration = SignedDuration::from_hours(24 * 3);

/// What a message is, for staff and for erasure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Receipt,
    /// To a donor whose money went back.
    RefundNotice,
    StaffAlert,
    /// To a staff member about their own account: a sign-in code, an invitation, a reset
    /// link, a security notice. Never shown in the people timeline: a code in another's
    /// hands signs in as them.
    StaffSecurity,
    NewsletterConfirm,
    NewsletterWelcome,
    /// To a donor about their monthly gift: a decline, a pause, its end.
    PlanNotice,
    /// The request for occupation and employer after a gift (best efforts).
    InfoRequest,
    /// A test copy of a post to be mailed to the list, to the staff member who asked.
    BroadcastTest,
    /// To someone who RSVPed: going, waiting, or moved up from the waitlist.
    EventRsvp,
    /// To those going or waiting: the event's time or place changed, or it was cancelled.
    EventUpdate,
    /// The day before, to those going.
    EventReminder,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Receipt => "receipt",
            Kind::RefundNotice => "refund_notice",
            Kind::StaffAlert => "staff_alert",
            Kind::StaffSecurity => "staff_security",
            Kind::NewsletterConfirm => "newsletter_confirm",
            Kind::NewsletterWelcome => "newsletter_welcome",
            Kind::PlanNotice => "plan_notice",
            Kind::InfoRequest => "info_request",
            Kind::BroadcastTest => "broadcast_test",
            Kind::EventRsvp => "event_rsvp",
            Kind::EventUpdate => "event_update",
            Kind::EventReminder => "event_reminder",
        }
    }
}

/// Queues `message` for the event `event_key` about `about` (an address); an event that
/// already queued its message queues nothing (`false`). Call inside the event's write.
pub fn enqueue(
    conn: &Connection,
    event_key: &str,
    kind: Kind,
    about: &str,
    message: &Built,
    now: Timestamp,
) -> rusqlite::Result<bool> {
    let head = Head {
        envelope_from: &message.envelope_from,
        to: &message.to,
        subject: &message.subject,
    };
    insert(conn, event_key, kind, about, &head, &message.bytes, now)
}

/// Who a message goes to and its subject, without the message.
pub struct Head<'a> {
    pub envelope_from: &'a str,
    pub to: &'a str,
    pub subject: &'a str,
}

/// Queues a message the sender writes when it sends it ([`Due::unwritten`]): a row with
/// its address and subject and no bytes, for mail queued by the hundred in one write
/// (newsletter confirmations), whose building (text, HTML, MIME) would hold up the one
/// writer all forms wait on.
pub fn enqueue_unwritten(
    conn: &Connection,
    event_key: &str,
    kind: Kind,
    about: &str,
    head: &Head<'_>,
    now: Timestamp,
) -> rusqlite::Result<bool> {
    insert(conn, event_key, kind, about, head, &[], now)
}

fn insert(
    conn: &Connection,
    event_key: &str,
    kind: Kind,
    about: &str,
    head: &Head<'_>,
    bytes: &[u8],
    now: Timestamp,
) -> rusqlite::Result<bool> {
    // Kept prepared: most forms' writes run it.
    let added = conn
        .prepare_cached(
            "INSERT INTO mail_queue (event_key, kind, about, envelope_from, to_address, subject, \
                 message, next_attempt_at, created_at) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8) ON CONFLICT (event_key) DO NOTHING",
        )?
        .execute(params![
            event_key,
            kind.as_str(),
            about.trim().to_lowercase(),
            head.envelope_from,
            head.to,
            head.subject,
            bytes,
            sql_time(now),
        ])?;
    Ok(added == 1)
}

/// A message to send.
#[derive(Debug, Clone)]
pub struct Due {
    pub id: i64,
    pub event_key: String,
    pub kind: String,
    pub envelope_from: String,
    pub to: String,
    pub message: Vec<u8>,
    pub attempts: u32,
    pub created_at: String,
}

impl Due {
    /// Queued without its bytes ([`enqueue_unwritten`]): the sender writes it before sending.
    pub fn unwritten(&self) -> bool {
        self.message.is_empty()
    }
}

/// Up to `limit` queued messages due at `now`, oldest first.
pub fn due(conn: &Connection, now: Timestamp, limit: u32) -> rusqlite::Result<Vec<Due>> {
    let mut stmt = conn.prepare(
        "SELECT id, kind, envelope_from, to_address, message, attempts, created_at, event_key \
         FROM mail_queue WHERE status = 'queued' AND next_attempt_at <= ?1 ORDER BY id LIMIT ?2",
    )?;
    stmt.query_map(params![sql_time(now), limit], |r| {
        Ok(Due {
            id: r.get(0)?,
            kind: r.get(1)?,
            envelope_from: r.get(2)?,
            to: r.get(3)?,
            message: r.get(4)?,
            attempts: r.get(5)?,
            created_at: r.get(6)?,
            event_key: r.get(7)?,
        })
    })?
    .collect()
}

/// How one attempt went.
#[derive(Debug, Clone)]
pub enum Attempt {
    /// With the server's answer (`250 2.0.0 Ok: queued as …`).
    Accepted(String),
    /// Worth trying again later (4xx, no connection, a timeout).
    Temporary(String),
    /// The server refused it for good (5xx), or it can never be sent.
    Permanent(String),
}

/// The wait before the next try after `attempts` failed ones: 1 minute, doubling, at most
/// 6 hours.
pub fn retry_delay(attempts: u32) -> SignedDuration {
    let doublings = attempts.saturating_sub(1).min(16);
    let wait = FIRST_RETRY * (1i32 << doublings);
    wait.min(LONGEST_WAIT)
}

/// Records `attempt` for message `due` at `now`. Call inside one write.
pub fn record(
    conn: &Connection,
    due: &Due,
    attempt: &Attempt,
    now: Timestamp,
) -> rusqlite::Result<()> {
    let attempts = due.attempts + 1;
    let at = sql_time(now);
    match attempt {
        Attempt::Accepted(_) => conn.execute(
            "UPDATE mail_queue SET status = 'sent', attempts = ?2, sent_at = ?3, last_error = NULL \
             WHERE id = ?1",
            params![due.id, attempts, at],
        ),
        Attempt::Permanent(why) => conn.execute(
            "UPDATE mail_queue SET status = 'failed', attempts = ?2, last_error = ?3, failed_at = ?4 \
             WHERE id = ?1",
            params![due.id, attempts, short(why), at],
        ),
        Attempt::Temporary(why) => {
            let queued: Timestamp = due.created_at.parse().unwrap_or(now);
            let next = now + retry_delay(attempts);
            let (status, failed_at) = if next.duration_since(queued) > GIVE_UP_AFTER {
                ("failed", Some(&at))
            } else {
                ("queued", None)
            };
            conn.execute(
                "UPDATE mail_queue SET status = ?2, attempts = ?3, last_error = ?4, \
                 next_attempt_at = ?5, failed_at = ?6 WHERE id = ?1",
                params![due.id, status, attempts, short(why), sql_time(next), failed_at],
            )
        }
    }
    .map(|_| ())
}

/// An error kept short enough for a list.
fn short(why: &str) -> String {
    why.chars().take(500).collect()
}

/// One message as staff see it.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Listed {
    pub id: i64,
    pub to: String,
    pub subject: String,
    pub kind: String,
    pub status: String,
    pub attempts: u32,
    pub last_error: Option<String>,
    pub created_at: String,
    pub sent_at: Option<String>,
}

/// The newest 100 messages.
pub fn newest(conn: &Connection) -> rusqlite::Result<Vec<Listed>> {
    let mut stmt = conn.prepare(
        "SELECT id, to_address, subject, kind, status, attempts, last_error, created_at, sent_at \
         FROM mail_queue ORDER BY id DESC LIMIT 100",
    )?;
    stmt.query_map([], |r| {
        Ok(Listed {
            id: r.get(0)?,
            to: r.get(1)?,
            subject: r.get(2)?,
            kind: r.get(3)?,
            status: r.get(4)?,
            attempts: r.get(5)?,
            last_error: r.get(6)?,
            created_at: r.get(7)?,
            sent_at: r.get(8)?,
        })
    })?
    .collect()
}

/// Messages given up in the 7 days before `now`.
pub fn failed_last_week(conn: &Connection, now: Timestamp) -> rusqlite::Result<i64> {
    conn.query_row(
        "SELECT COUNT(*) FROM mail_queue WHERE status = 'failed' AND failed_at >= ?1",
        [sql_time(now - SignedDuration::from_hours(24 * 7))],
        |r| r.get(0),
    )
}

/// Forgets sent and failed messages older than 90 days: they hold personal data, and the
/// admin shows only the newest anyway. Call inside one write.
pub fn prune(conn: &Connection, now: Timestamp) -> rusqlite::Result<usize> {
    conn.execute(
        "DELETE FROM mail_queue WHERE status != 'queued' AND created_at < ?1",
        [sql_time(now - SignedDuration::from_hours(24 * 90))],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retries_wait_a_minute_doubling_to_six_hours() {
        let mins: Vec<i64> = (1..=12).map(|n| retry_delay(n).as_mins()).collect();
        assert_eq!(mins, [1, 2, 4, 8, 16, 32, 64, 128, 256, 360, 360, 360]);
        assert_eq!(retry_delay(1000), LONGEST_WAIT);
    }
}
