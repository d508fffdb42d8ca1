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
/// Messages read from the queue at once.
const BATCH: u32 = 500;
/// Messages on their way at once, each on its own SMTP connection (kept open between
/// messages: opening one, and its TLS, per message held delivery to about 19 a second). A crash resends those whose acceptance was not yet recorded (with the same
/// Message-ID), so this is also the most a crash can send twice, plus [`RECORD_AT_ONCE`].
pub const IN_FLIGHT: usize = 8;
/// Outcomes recorded in one write, at most: those that arrived while the last write ran.
const RECORD_AT_ONCE: usize = 64;

pub enum Transport {
    Smtp(Smtp),
    /// `.eml` files in this folder (no `SMTP_URL`).
    Outbox(PathBuf),
}

impl Transport {
    async fn send(&self, due: &Due) -> Attempt {
        match self {
            Transport::Smtp(smtp) => {
                let Some(envelope) = envelope(&due.envelope_from, &due.to) else {
                    return Attempt::Permanent("the address cannot be used".into());
                };
                match smtp.send(&envelope, &due.message).await {
                    Ok(()) => Attempt::Accepted,
                    Err(Refusal::Permanent(why)) => Attempt::Permanent(why),
                    Err(Refusal::Temporary(why)) => Attempt::Temporary(why),
                }
            }
            Transport::Outbox(dir) => {
                let (dir, id, kind, bytes) =
                    (dir.clone(), due.id, due.kind.clone(), due.message.clone());
                let written =
                    tokio::task::spawn_blocking(move || write_eml(&dir, id, &kind, &bytes)).await;
                match written {
                    Ok(Ok(())) => Attempt::Accepted,
                    Ok(Err(e)) => Attempt::Temporary(format!("could not write the outbox: {e}")),
                    Err(e) => Attempt::Temporary(format!("the outbox writer stopped: {e}")),
                }
            }
        }
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

/// Writes message `id` as `{id}-{kind}.eml`, whole or not at all; writing it again (after a
/// crash) replaces the same file.
fn write_eml(dir: &std::path::Path, id: i64, kind: &str, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write as _;
    use std::os::unix::fs::OpenOptionsExt as _;
    let name = format!("{id:08}-{kind}.eml");
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
fn masked_addresses(why: &str) -> String {
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

    /// Sends every message due now; returns how many were accepted. One pass at a time.
    ///
    /// Up to [`IN_FLIGHT`] messages are on their way at once (each on its own pooled SMTP
    /// connection), and outcomes are recorded as they come in, those that arrived together
    /// in one write: the queue's bookkeeping costs a write per handful of messages, not one
    /// each, and a send never waits for the previous one's record.
    pub async fn deliver_due(&self) -> usize {
        let _alone = self.one_at_a_time.lock().await;
        let mut accepted = 0;
        loop {
            let now = self.clock.now();
            let due = match self.db.read(move |c| queue::due(c, now, BATCH)).await {
                Ok(due) => due,
                Err(e) => {
                    tracing::warn!(error = %e, "could not read the mail queue");
                    return accepted;
                }
            };
            if due.is_empty() {
                return accepted;
            }
            let (done, mut outcomes) = tokio::sync::mpsc::unbounded_channel();
            let sending = futures_util::stream::iter(due)
                .map(|message| async move {
                    let attempt = self.transport.send(&message).await;
                    (message, attempt)
                })
                .buffer_unordered(IN_FLIGHT)
                .for_each(move |outcome| {
                    // The receiver outlives the stream (both are joined below).
                    let _ = done.send(outcome);
                    std::future::ready(())
                });
            let recording = async {
                let (mut recorded, mut failed) = (0usize, false);
                let mut arrived = Vec::with_capacity(RECORD_AT_ONCE);
                while outcomes.recv_many(&mut arrived, RECORD_AT_ONCE).await > 0 {
                    let batch: Vec<(Due, Attempt)> = std::mem::take(&mut arrived);
                    for (message, attempt) in &batch {
                        log(message, attempt);
                    }
                    let sent = batch
                        .iter()
                        .filter(|(_, a)| matches!(a, Attempt::Accepted))
                        .count();
                    let now = self.clock.now();
                    let written = self
                        .db
                        .write(move |tx| {
                            for (message, attempt) in &batch {
                                queue::record(tx, message, attempt, now)?;
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
                recorded > 0 && !failed
            };
            let ((), progressed) = tokio::join!(sending, recording);
            if !progressed {
                return accepted;
            }
        }
    }
}

/// One line per outcome (a failure's reason without full addresses).
fn log(message: &Due, attempt: &Attempt) {
    match attempt {
        Attempt::Accepted => {
            tracing::info!(mail = message.id, kind = %message.kind, "message sent")
        }
        Attempt::Temporary(why) => tracing::warn!(
            mail = message.id,
            attempt = message.attempts + 1,
            error = %masked_addresses(why),
            "message not sent; will retry"
        ),
        Attempt::Permanent(why) => tracing::error!(
            mail = message.id,
            kind = %message.kind,
            error = %masked_addresses(why),
            "message refused for good; marked failed"
        ),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn addresses_in_a_logged_reason_are_masked() {
        assert_eq!(
            super::masked_addresses("550 5.1.1 <ada@example.org>: Recipient address rejected"),
            "550 5.1.1 <a\u{2026}@example.org>: Recipient address rejected"
        );
        assert_eq!(
            super::masked_addresses("connection refused"),
            "connection refused"
        );
    }
}
