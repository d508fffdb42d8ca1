//! Delivering the list's mail: a small batch of due recipients at a time, each message built
//! as it goes (the send's HTML and text with the recipient's own unsubscribe link and a
//! Message-ID fixed by the send and the recipient), within `MAIL_RATE`.
//!
//! Exactly once, as far as SMTP allows: a row is marked `sent` only after the server
//! accepted its message, and only while it is still `queued`. A crash between the two sends
//! it again after the restart with the same Message-ID, which receiving servers use to drop
//! the copy; at most the messages in flight and those being recorded at that instant (the
//! crash test in `tests/it/real_server/broadcast.rs` counts them).

use std::collections::HashMap;
use std::sync::Arc;

use jiff::{SignedDuration, Timestamp};
use rusqlite::{Connection, params};

use super::super::message::{Draft, Person, build};
use super::super::queue::{Attempt, GIVE_UP_AFTER, retry_delay};
use super::super::sender::Outgoing;
use super::super::suppressions::{self, Reason};
use super::super::{Mail, newsletter};
use crate::domain::clock::sql_time;

/// Recipients read at once, at most: personal mail waits for no more than one batch.
const BATCH: u32 = 64;

/// What a send mails (the same for every recipient).
pub struct Content {
    subject: String,
    html: String,
    text: String,
}

/// One due recipient, as read.
struct Due {
    id: i64,
    broadcast: i64,
    signup: i64,
    email: String,
    attempts: u32,
    started_at: Option<String>,
    subscribed: bool,
    suppressed: Option<String>,
}

/// One recipient's message, built.
pub struct Message {
    id: i64,
    broadcast: i64,
    email: String,
    attempts: u32,
    started_at: Option<String>,
    envelope_from: String,
    bytes: Vec<u8>,
}

impl Outgoing for Message {
    fn file_name(&self) -> String {
        format!("broadcast-{:06}-{:08}", self.broadcast, self.id)
    }
    fn envelope_from(&self) -> &str {
        &self.envelope_from
    }
    fn to(&self) -> &str {
        &self.email
    }
    fn bytes(&self) -> &[u8] {
        &self.bytes
    }
    fn log(&self, attempt: &Attempt) {
        match attempt {
            Attempt::Accepted(_) => {}
            Attempt::Temporary(why) => tracing::warn!(
                broadcast = self.broadcast,
                recipient = self.id,
                attempt = self.attempts + 1,
                error = %super::super::sender::masked(why),
                "list message not sent; will retry"
            ),
            Attempt::Permanent(why) => tracing::warn!(
                broadcast = self.broadcast,
                recipient = self.id,
                error = %super::super::sender::masked(why),
                "list message refused for good; the address is suppressed"
            ),
        }
    }
}

impl Mail {
    /// Starts the scheduled sends whose time came (marks those an outage made more than an
    /// hour late `missed`).
    pub(in super::super) async fn start_scheduled_broadcasts(&self) {
        let now = self.clock.now();
        match self.db.read(move |c| super::any_due(c, now)).await {
            Ok(true) => {}
            Ok(false) => return,
            Err(e) => return tracing::error!(error = %e, "could not read the scheduled sends"),
        }
        match self.db.write(move |tx| super::start_due(tx, now)).await {
            Ok(0) => {}
            Ok(n) => tracing::info!(sends = n, "scheduled sends to the list started"),
            Err(e) => tracing::error!(error = %e, "could not start scheduled sends"),
        }
    }

    /// Sends one batch of the list's mail; None when nothing is due (or the hour's
    /// allowance is spent), else how many were accepted.
    pub(in super::super) async fn deliver_broadcast_batch(&self) -> Option<usize> {
        let now = self.clock.now();
        let per_hour = self.rate.per_hour.map(|n| i64::from(n.get()));
        let batch = self.rate.per_second.map_or(BATCH, |n| n.get().min(BATCH));
        let due = self
            .db
            .read(move |c| {
                let limit = match per_hour {
                    Some(per_hour) => (per_hour - sent_in_hour(c, now)?).clamp(0, i64::from(batch)),
                    None => i64::from(batch),
                };
                if limit == 0 {
                    return Ok(Vec::new());
                }
                due(c, now, limit)
            })
            .await;
        let due = match due {
            Ok(due) if due.is_empty() => return None,
            Ok(due) => due,
            Err(e) => {
                tracing::warn!(error = %e, "could not read the list's mail");
                return None;
            }
        };
        let mut ids: Vec<i64> = due.iter().map(|d| d.broadcast).collect();
        ids.sort_unstable();
        ids.dedup();
        let contents = self.contents(&ids).await?;

        // Those who left the list since it was frozen are excluded, not mailed.
        let (gone, staying): (Vec<Due>, Vec<Due>) = due
            .into_iter()
            .partition(|d| !d.subscribed || d.suppressed.is_some());
        let mut messages = Vec::with_capacity(staying.len());
        let mut unbuildable = Vec::new();
        for d in staying {
            match contents
                .get(&d.broadcast)
                .and_then(|c| self.recipient_message(c, &d))
            {
                Some(message) => messages.push(message),
                None => unbuildable.push(d),
            }
        }
        if !gone.is_empty() || !unbuildable.is_empty() {
            let written = self
                .db
                .write(move |tx| {
                    for d in &gone {
                        let why = match &d.suppressed {
                            Some(reason) => format!("suppressed: {reason}"),
                            None => "unsubscribed".to_owned(),
                        };
                        exclude_one(tx, d.id, &why, now)?;
                    }
                    for d in &unbuildable {
                        fail_one(tx, d.id, "the address cannot be used", now)?;
                    }
                    Ok(())
                })
                .await;
            if let Err(e) = written {
                tracing::error!(error = %e, "could not record excluded recipients");
                return None;
            }
        }
        let accepted = if messages.is_empty() {
            Some(0)
        } else {
            self.send_all(messages, self.pacer.as_ref(), record).await
        };
        let finished = self
            .db
            .write(move |tx| super::finish_if_done(tx, &ids, now))
            .await;
        if let Err(e) = finished {
            tracing::error!(error = %e, "could not mark finished sends");
        }
        accepted
    }

    /// Empties the cache of the sends' messages.
    pub(in super::super) fn forget_broadcast_messages(&self) {
        self.broadcasts
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
    }

    /// The content of sends `ids`, from the cache or the database.
    async fn contents(&self, ids: &[i64]) -> Option<HashMap<i64, Arc<Content>>> {
        let mut found = HashMap::new();
        let missing: Vec<i64> = {
            let cache = self.broadcasts.lock().unwrap_or_else(|e| e.into_inner());
            ids.iter()
                .filter(|id| match cache.get(id) {
                    Some(content) => {
                        found.insert(**id, content.clone());
                        false
                    }
                    None => true,
                })
                .copied()
                .collect()
        };
        if missing.is_empty() {
            return Some(found);
        }
        let loaded = self
            .db
            .read(move |c| {
                let mut stmt =
                    c.prepare("SELECT subject, html, text FROM broadcasts WHERE id = ?1")?;
                missing
                    .iter()
                    .map(|id| {
                        stmt.query_row([id], |r| {
                            Ok((
                                *id,
                                Content {
                                    subject: r.get(0)?,
                                    html: r.get(1)?,
                                    text: r.get(2)?,
                                },
                            ))
                        })
                    })
                    .collect::<rusqlite::Result<Vec<_>>>()
            })
            .await;
        let loaded = match loaded {
            Ok(loaded) => loaded,
            Err(e) => {
                tracing::warn!(error = %e, "could not read a send's message");
                return None;
            }
        };
        let mut cache = self.broadcasts.lock().unwrap_or_else(|e| e.into_inner());
        // A handful of sends at most run at once; what finished is not needed again.
        if cache.len() > 8 {
            cache.clear();
        }
        for (id, content) in loaded {
            let content = Arc::new(content);
            cache.insert(id, content.clone());
            found.insert(id, content);
        }
        Some(found)
    }

    /// Recipient `d`'s copy: the send's message with their own unsubscribe link (the body's
    /// footer and the `List-Unsubscribe` headers), the party's postal address and who paid
    /// for it. None (logged) when the address cannot be used.
    fn recipient_message(&self, content: &Content, d: &Due) -> Option<Message> {
        let unsubscribe = newsletter::unsubscribe_url(self, d.signup, &d.email);
        let (footer_text, footer_html) = self.list_footer(&unsubscribe);
        let mailto = format!("mailto:{}?subject=Unsubscribe", self.from.email);
        let html = generator::blog::email::document(&content.subject, &content.html, &footer_html);
        let draft = Draft {
            to: Person {
                name: None,
                email: &d.email,
            },
            reply_to: None,
            subject: &content.subject,
            text: format!("{}\n\n-- \n{footer_text}\n", content.text.trim_end()),
            html,
            unsubscribe: Some(&unsubscribe),
            unsubscribe_mailto: Some(&mailto),
            // The same for every attempt: a copy sent again after a crash is recognisable.
            message_id: format!(
                "<broadcast-{}.{}@{}>",
                d.broadcast,
                d.id,
                self.from.email.domain()
            ),
            date: self.clock.now(),
            calendar: None,
        };
        match build(&self.from, draft) {
            Ok(built) => Some(Message {
                id: d.id,
                broadcast: d.broadcast,
                email: d.email.clone(),
                attempts: d.attempts,
                started_at: d.started_at.clone(),
                envelope_from: built.envelope_from,
                bytes: built.bytes,
            }),
            Err(e) => {
                tracing::warn!(broadcast = d.broadcast, recipient = d.id, error = %e, "a list message could not be built");
                None
            }
        }
    }

    /// The end of every list message, as text and HTML: who paid for it, the postal
    /// address, and `unsubscribe` (a link in the HTML).
    pub fn list_footer(&self, unsubscribe: &str) -> (String, String) {
        let address = self.postal_address.as_deref().unwrap_or_default();
        let text = self.fill(
            &self.texts.newsletter.list_footer,
            &[("postalAddress", address), ("unsubscribeUrl", unsubscribe)],
        );
        let link = format!(
            r#"<a href="{0}" style="color: #1d4ed8; text-decoration: underline">{0}</a>"#,
            super::super::message::escape(unsubscribe)
        );
        let html = text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|line| {
                let escaped = super::super::message::escape(line);
                let linked = escaped.replace(&super::super::message::escape(unsubscribe), &link);
                format!(r#"<p style="margin: 0 0 8px">{linked}</p>"#)
            })
            .collect::<String>();
        (text, html)
    }
}

/// Messages of the list accepted in the hour before `now`.
fn sent_in_hour(conn: &Connection, now: Timestamp) -> rusqlite::Result<i64> {
    conn.query_row(
        "SELECT COUNT(*) FROM broadcast_recipients WHERE status = 'sent' AND done_at > ?1",
        [sql_time(now - SignedDuration::from_hours(1))],
        |r| r.get(0),
    )
}

/// Up to `limit` recipients due at `now`, of sends under way, in the order they fell due.
fn due(conn: &Connection, now: Timestamp, limit: i64) -> rusqlite::Result<Vec<Due>> {
    let mut stmt = conn.prepare_cached(
        "SELECT r.id, r.broadcast_id, r.signup_id, r.email, r.attempts, b.started_at, \
             COALESCE(s.status = 'confirmed', 0), m.reason \
         FROM broadcast_recipients r JOIN broadcasts b ON b.id = r.broadcast_id \
         LEFT JOIN newsletter_signups s ON s.id = r.signup_id \
         LEFT JOIN mail_suppressions m ON m.email = r.email \
         WHERE r.status = 'queued' AND r.next_attempt_at <= ?1 AND b.status = 'sending' \
         ORDER BY r.next_attempt_at, r.id LIMIT ?2",
    )?;
    stmt.query_map(params![sql_time(now), limit], |r| {
        Ok(Due {
            id: r.get(0)?,
            broadcast: r.get(1)?,
            signup: r.get(2)?,
            email: r.get(3)?,
            attempts: r.get(4)?,
            started_at: r.get(5)?,
            subscribed: r.get(6)?,
            suppressed: r.get(7)?,
        })
    })?
    .collect()
}

/// Records how sending `message` went; a row already out of `queued` is left alone, but for
/// an acceptance.
fn record(
    conn: &Connection,
    message: &Message,
    attempt: &Attempt,
    now: Timestamp,
) -> rusqlite::Result<()> {
    let at = sql_time(now);
    let attempts = message.attempts + 1;
    match attempt {
        // Accepted is the truth even for a row an unsubscribe excluded while the message was
        // on its way: staff see that it went.
        Attempt::Accepted(answer) => {
            conn.execute(
                "UPDATE broadcast_recipients SET status = 'sent', attempts = ?2, answer = ?3, \
                 done_at = ?4 WHERE id = ?1 AND status IN ('queued', 'excluded')",
                params![message.id, attempts, short(answer), at],
            )?;
        }
        Attempt::Permanent(why) => {
            conn.execute(
                "UPDATE broadcast_recipients SET status = 'failed', attempts = ?2, answer = ?3, \
                 done_at = ?4 WHERE id = ?1 AND status = 'queued'",
                params![message.id, attempts, short(why), at],
            )?;
            suppressions::add(conn, &message.email, Reason::Bounced, Some(why), None, now)?;
        }
        Attempt::Temporary(why) => {
            let started: Timestamp = message
                .started_at
                .as_deref()
                .and_then(|s| s.parse().ok())
                .unwrap_or(now);
            let next = now + retry_delay(attempts);
            if next.duration_since(started) > GIVE_UP_AFTER {
                conn.execute(
                    "UPDATE broadcast_recipients SET status = 'failed', attempts = ?2, answer = ?3, \
                     done_at = ?4 WHERE id = ?1 AND status = 'queued'",
                    params![message.id, attempts, short(why), at],
                )?;
            } else {
                conn.execute(
                    "UPDATE broadcast_recipients SET attempts = ?2, answer = ?3, next_attempt_at = ?4 \
                     WHERE id = ?1 AND status = 'queued'",
                    params![message.id, attempts, short(why), sql_time(next)],
                )?;
            }
        }
    }
    Ok(())
}

fn exclude_one(conn: &Connection, id: i64, why: &str, now: Timestamp) -> rusqlite::Result<()> {
    conn.execute(
        "UPDATE broadcast_recipients SET status = 'excluded', answer = ?2, done_at = ?3 \
         WHERE id = ?1 AND status = 'queued'",
        params![id, why, sql_time(now)],
    )?;
    Ok(())
}

fn fail_one(conn: &Connection, id: i64, why: &str, now: Timestamp) -> rusqlite::Result<()> {
    conn.execute(
        "UPDATE broadcast_recipients SET status = 'failed', answer = ?2, done_at = ?3 \
         WHERE id = ?1 AND status = 'queued'",
        params![id, why, sql_time(now)],
    )?;
    Ok(())
}

/// An answer kept short enough for a list.
fn short(why: &str) -> String {
    why.chars().take(500).collect()
}
