//! The one task that delivers the queue: over SMTP when `SMTP_URL` is set, otherwise into
//! `DATA_DIR/outbox/` as `.eml` files. It runs at start (so what a crash left queued goes
//! out), whenever a write queues something, and every half minute for retries.
//!
//! A message is marked sent only after the SMTP server accepted it. A crash between the two
//! sends it again after the restart, with the same Message-ID, so the receiving side can
//! tell it is the same message; that is the one case where it can arrive twice (at most the
//! messages in flight and those whose record was being written at that moment).

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use futures_util::StreamExt as _;

use super::Mail;
use super::message::envelope;
use super::queue::{self, Attempt, Due};
use super::smtp::{Refusal, Smtp};

/// How often the queue is looked at when nothing woke the sender.
pub const POLL: Duration = Duration::from_secs(30);
/// The least time from the start of one pass to the next when woken: a form wakes the
/// sender whether or not it queued mail (the answer must not tell), so under a flood of
/// signups the wakes are taken together, at most one pass each 25 ms, instead of a pass (a
/// read of the queue and the sends' bookkeeping) for every signup competing with the
/// signups' own writes. A message waits at most that much longer.
pub const WAKE_GAP: Duration = Duration::from_millis(25);
/// Messages read from the queue at once.
const BATCH: u32 = 500;
/// Messages on their way at once, each on its own SMTP connection (kept open between
/// messages: opening one, and its TLS, per message held delivery to about 19 a second). A crash resends those whose acceptance was not yet recorded (with the same
/// Message-ID), so this is also the most a crash can send twice, plus [`RECORD_AT_ONCE`].
pub const IN_FLIGHT: usize = super::smtp::KEEP;
/// Outcomes recorded in one write, at most: those that arrived while the last write ran.
const RECORD_AT_ONCE: usize = 64;

pub enum Transport {
    Smtp(Smtp),
    /// `.eml` files in this folder (no `SMTP_URL`).
    Outbox(PathBuf),
}

/// A message ready to go, whichever queue it came from.
pub trait Outgoing: Send + Sync + 'static {
    /// Its file name in the outbox (without `.eml`): the queue's `00000042-receipt`.
    fn file_name(&self) -> String;
    fn envelope_from(&self) -> &str;
    fn to(&self) -> &str;
    fn bytes(&self) -> &[u8];
    /// One log line for how it went.
    fn log(&self, attempt: &Attempt);
    /// Its id in the mail queue, for an erasure to stop it (`flight`); none for the list's
    /// messages, which an erasure takes out of their send itself.
    fn queue_id(&self) -> Option<i64> {
        None
    }
}

impl Transport {
    async fn send(&self, out: &impl Outgoing) -> Attempt {
        if out.bytes().is_empty() {
            return Attempt::Permanent("the message could not be written".into());
        }
        match self {
            Transport::Smtp(smtp) => {
                let Some(envelope) = envelope(out.envelope_from(), out.to()) else {
                    return Attempt::Permanent("the address cannot be used".into());
                };
                match smtp.send(&envelope, out.bytes()).await {
                    Ok(answer) => Attempt::Accepted(answer),
                    Err(Refusal::Permanent(why)) => Attempt::Permanent(why),
                    Err(Refusal::Temporary(why)) => Attempt::Temporary(why),
                }
            }
            Transport::Outbox(dir) => {
                let (dir, name, bytes) = (dir.clone(), out.file_name(), out.bytes().to_vec());
                let written =
                    tokio::task::spawn_blocking(move || write_eml(&dir, &name, &bytes)).await;
                match written {
                    Ok(Ok(())) => Attempt::Accepted("written to the outbox".into()),
                    Ok(Err(e)) => Attempt::Temporary(format!("could not write the outbox: {e}")),
                    Err(e) => Attempt::Temporary(format!("the outbox writer stopped: {e}")),
                }
            }
        }
    }
}

impl Outgoing for Due {
    fn file_name(&self) -> String {
        format!("{:08}-{}", self.id, self.kind)
    }
    fn envelope_from(&self) -> &str {
        &self.envelope_from
    }
    fn to(&self) -> &str {
        &self.to
    }
    fn bytes(&self) -> &[u8] {
        &self.message
    }
    fn log(&self, attempt: &Attempt) {
        log(self, attempt)
    }
    fn queue_id(&self) -> Option<i64> {
        Some(self.id)
    }
}

impl Transport {
    /// Deletes the outbox's copies of messages `ids`, and of every other message that names
    /// `email` (in any case): the staff alert that quoted a person's words outlives its
    /// queue row there. Nothing for SMTP, whose messages have left. Returns how many went.
    pub fn erase(&self, email: &str, ids: &[i64]) -> usize {
        let Transport::Outbox(dir) = self else {
            return 0;
        };
        let Ok(entries) = std::fs::read_dir(dir) else {
            return 0;
        };
        let email = email.trim().to_lowercase();
        let named: Vec<String> = ids.iter().map(|id| format!("{id:08}-")).collect();
        let mut removed = 0;
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if !name.ends_with(".eml") {
                continue;
            }
            let ours = named.iter().any(|prefix| name.starts_with(prefix))
                || std::fs::read(entry.path()).is_ok_and(|bytes| {
                    String::from_utf8_lossy(&bytes)
                        .to_lowercase()
                        .contains(&email)
                });
            if ours && std::fs::remove_file(entry.path()).is_ok() {
                removed += 1;
            }
        }
        removed
    }
}

/// Writes a message as `{name}.eml`, whole or not at all; writing it again (after a crash)
/// replaces the same file.
fn write_eml(dir: &std::path::Path, name: &str, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write as _;
    use std::os::unix::fs::OpenOptionsExt as _;
    let name = format!("{name}.eml");
    let tmp = dir.join(format!(".{name}.tmp"));
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        // It holds supporters' details.
        .mode(0o600)
        .open(&tmp)?;
    file.write_all(bytes)?;
    file.sync_all()?;
    std::fs::rename(&tmp, dir.join(name))
}

/// An SMTP server's reason with any address in it masked (`a…@example.org`), for the log:
/// log lines carry no full addresses (staff see the whole reason in the admin).
pub(super) fn masked(why: &str) -> String {
    why.split(' ')
        .map(|word| {
            if word.contains('@') {
                let trimmed = word.trim_matches(|c: char| "<>,;:()[]\"'".contains(c));
                word.replace(trimmed, &crate::http::redact::email(trimmed))
            } else {
                word.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

impl Mail {
    /// What rings when something was queued: the sender's loop (`crate::workers`) waits on
    /// it, or [`POLL`].
    pub fn bell(&self) -> Arc<tokio::sync::Notify> {
        self.wake.clone()
    }

    /// Tells the sender something was queued (call after the write committed).
    pub fn wake(&self) {
        self.wake.notify_one();
    }

    /// Sends every message due now, mail a person is waiting for first: the list's mail
    /// goes a small batch at a time (`broadcast::deliver`), and the queue is looked at
    /// again between batches. Returns how many were accepted. One pass at a time.
    pub async fn deliver_due(&self) -> usize {
        let _alone = self.one_at_a_time.lock().await;
        // Each pass reads the sends' messages afresh (they are read once per pass, not per
        // message): nothing read in an earlier pass can stand for another send.
        self.forget_broadcast_messages();
        self.start_scheduled_broadcasts().await;
        let mut accepted = 0;
        loop {
            // Mail a person waits for: queued as the hour allows, a batch each time round.
            self.queue_owed_confirmations().await;
            let now = self.clock.now();
            let due = match self.db.read(move |c| queue::due(c, now, BATCH)).await {
                Ok(due) => due.into_iter().map(|d| self.written(d)).collect::<Vec<_>>(),
                Err(e) => {
                    tracing::warn!(error = %e, "could not read the mail queue");
                    return accepted;
                }
            };
            let sent = if due.is_empty() {
                self.deliver_broadcast_batch().await
            } else {
                self.send_all(due, None, |tx, message: &Due, attempt, now| {
                    queue::record(tx, message, attempt, now)
                })
                .await
            };
            match sent {
                Some(n) => accepted += n,
                None => return accepted,
            }
        }
    }

    /// `due` with its bytes: a message queued unwritten ([`Due::unwritten`]) is written now.
    /// One that cannot be written stays empty, and [`Transport::send`] fails it for good.
    fn written(&self, mut due: Due) -> Due {
        if !due.unwritten() {
            return due;
        }
        let built = match due.kind.as_str() {
            "newsletter_confirm" => super::newsletter::write_confirmation(self, &due),
            _ => None,
        };
        match built {
            Some(built) => {
                due.message = built.bytes;
                due.to = built.to;
            }
            None => {
                tracing::error!(mail = due.id, kind = %due.kind, "a queued message could not be written")
            }
        }
        due
    }

    /// Sends `messages` and records each outcome with `record`; returns how many were
    /// accepted, or None when nothing could be recorded (the next pass tries again).
    ///
    /// Up to [`IN_FLIGHT`] messages are on their way at once (each on its own kept-open SMTP
    /// connection), `pacer` (if any) letting each go, and outcomes are recorded as they come
    /// in, those that arrived together in one write: the bookkeeping costs a write per
    /// handful of messages, not one each, and a send never waits for the previous record.
    pub(super) async fn send_all<T, R>(
        &self,
        messages: Vec<T>,
        pacer: Option<&governor::DefaultDirectRateLimiter>,
        record: R,
    ) -> Option<usize>
    where
        T: Outgoing,
        R: Fn(&rusqlite::Connection, &T, &Attempt, jiff::Timestamp) -> rusqlite::Result<()>
            + Clone
            + Send
            + 'static,
    {
        if messages.is_empty() {
            return None;
        }
        let (done, mut outcomes) = tokio::sync::mpsc::unbounded_channel();
        let sending = futures_util::stream::iter(messages)
            .map(|message| async move {
                if let Some(pacer) = pacer {
                    pacer.until_ready().await;
                }
                let id = message.queue_id();
                // An erasure since the batch was read: this one must not go.
                if let Some(id) = id
                    && !self.flight.depart(id)
                {
                    tracing::info!(mail = id, "a message of an erased person was not sent");
                    return None;
                }
                let attempt = self.transport.send(&message).await;
                if let Some(id) = id {
                    self.flight.land(id);
                }
                Some((message, attempt))
            })
            .buffer_unordered(IN_FLIGHT)
            .for_each(move |outcome| {
                // The receiver outlives the stream (both are joined below).
                if let Some(outcome) = outcome {
                    let _ = done.send(outcome);
                }
                std::future::ready(())
            });
        let recording = async {
            let (mut recorded, mut failed, mut accepted) = (0usize, false, 0usize);
            let mut arrived = Vec::with_capacity(RECORD_AT_ONCE);
            while outcomes.recv_many(&mut arrived, RECORD_AT_ONCE).await > 0 {
                let batch: Vec<(T, Attempt)> = std::mem::take(&mut arrived);
                for (message, attempt) in &batch {
                    message.log(attempt);
                }
                let sent = batch
                    .iter()
                    .filter(|(_, a)| matches!(a, Attempt::Accepted(_)))
                    .count();
                let now = self.clock.now();
                let record = record.clone();
                let written = self
                    .db
                    .write(move |tx| {
                        for (message, attempt) in &batch {
                            record(tx, message, attempt, now)?;
                        }
                        Ok(())
                    })
                    .await;
                match written {
                    Ok(()) => {
                        recorded += 1;
                        accepted += sent;
                    }
                    Err(e) => {
                        // Left queued: they go again on the next pass.
                        tracing::error!(error = %e, "could not record delivery attempts");
                        failed = true;
                    }
                }
            }
            (recorded > 0 && !failed).then_some(accepted)
        };
        let ((), accepted) = tokio::join!(sending, recording);
        accepted
    }
}

/// One line per outcome (a failure's reason without full addresses).
fn log(message: &Due, attempt: &Attempt) {
    match attempt {
        Attempt::Accepted(_) => {
            tracing::info!(mail = message.id, kind = %message.kind, "message sent")
        }
        Attempt::Temporary(why) => tracing::warn!(
            mail = message.id,
            attempt = message.attempts + 1,
            error = %masked(why),
            "message not sent; will retry"
        ),
        Attempt::Permanent(why) => tracing::error!(
            mail = message.id,
            kind = %message.kind,
            error = %masked(why),
            "message refused for good; marked failed"
        ),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn addresses_in_a_logged_reason_are_masked() {
        assert_eq!(
            super::masked("550 5.1.1 <ada@example.org>: Recipient address rejected"),
            "550 5.1.1 <a\u{2026}@example.org>: Recipient address rejected"
        );
        assert_eq!(super::masked("connection refused"), "connection refused");
    }
}
