//! Posts mailed to the newsletter list.
//!
//! A send is a `broadcasts` row holding the message as staff previewed it (subject, HTML,
//! text). When it starts, the list is frozen in the same transaction: one
//! `broadcast_recipients` row per confirmed subscriber not on the suppression list. Each
//! row then moves once from `queued` to `sent`, `failed` or `excluded` (an unsubscribe or a
//! suppression that came after the freeze), keeping the SMTP server's answer, so the counts
//! always add up to the recipients and a restart carries on where the last run stopped
//! ([`deliver`]). A post already sent is sent again only to those it did not reach, and only
//! when staff ask for that (`again`).

pub mod deliver;

use jiff::{SignedDuration, Timestamp};
use rusqlite::{Connection, OptionalExtension as _, params};
use serde::Serialize;

use crate::domain::clock::sql_time;

/// A scheduled send this late (the server was down at its time) waits for staff.
pub const MISSED_AFTER: SignedDuration = SignedDuration::from_hours(1);

/// Who a new send of post `?1` goes to, as `FROM … WHERE …` over `newsletter_signups s`:
/// confirmed, not on the suppression list, and for a send `again` (`?2` = 1) not reached by
/// an earlier send of the same post. One row per address (its oldest signup names the
/// unsubscribe link).
const AUDIENCE: &str = "FROM newsletter_signups s \
     WHERE s.status = 'confirmed' \
     AND NOT EXISTS (SELECT 1 FROM mail_suppressions m WHERE m.email = lower(s.email)) \
     AND (?2 = 0 OR NOT EXISTS (SELECT 1 FROM broadcast_recipients r \
         JOIN broadcasts b ON b.id = r.broadcast_id \
         WHERE b.post_id = ?1 AND r.email = lower(s.email) AND r.status = 'sent'))";

/// How many a send of `post` would go to now.
pub fn audience(conn: &Connection, post: i64, again: bool) -> rusqlite::Result<i64> {
    conn.query_row(
        &format!("SELECT COUNT(DISTINCT lower(s.email)) {AUDIENCE}"),
        params![post, again],
        |r| r.get(0),
    )
}

/// Whether `post` was mailed already (a send that started, or one waiting for its time).
pub fn already_sent(conn: &Connection, post: i64) -> rusqlite::Result<bool> {
    conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM broadcasts WHERE post_id = ?1 AND status != 'cancelled')",
        [post],
        |r| r.get(0),
    )
}

/// A new send.
pub struct New<'a> {
    pub post: i64,
    pub subject: &'a str,
    pub html: &'a str,
    pub text: &'a str,
    pub again: bool,
    /// None: now.
    pub at: Option<Timestamp>,
    pub by: Option<i64>,
}

/// Makes the send; one that starts now freezes its recipients in the same write. Returns
/// its id. Call inside one write (with the checks the caller made).
pub fn create(conn: &Connection, new: &New<'_>, now: Timestamp) -> rusqlite::Result<i64> {
    let scheduled = new.at.is_some_and(|at| at > now);
    conn.execute(
        "INSERT INTO broadcasts (post_id, subject, html, text, status, again, scheduled_for, \
             created_by, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        params![
            new.post,
            new.subject,
            new.html,
            new.text,
            if scheduled { "scheduled" } else { "sending" },
            new.again,
            new.at.map(sql_time),
            new.by,
            sql_time(now),
        ],
    )?;
    let id = conn.last_insert_rowid();
    if !scheduled {
        freeze(conn, id, now)?;
    }
    Ok(id)
}

/// Freezes the recipients of send `id` and marks it sending; returns how many. Call inside
/// one write.
pub fn freeze(conn: &Connection, id: i64, now: Timestamp) -> rusqlite::Result<i64> {
    let (post, again): (Option<i64>, bool) = conn.query_row(
        "SELECT post_id, again FROM broadcasts WHERE id = ?1",
        [id],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    let at = sql_time(now);
    let frozen = conn.execute(
        &format!(
            "INSERT INTO broadcast_recipients (broadcast_id, signup_id, email, next_attempt_at) \
             SELECT ?3, MIN(s.id), lower(s.email), ?4 {AUDIENCE} GROUP BY lower(s.email)"
        ),
        params![post.unwrap_or(0), again, id, at],
    )?;
    conn.execute(
        "UPDATE broadcasts SET status = 'sending', started_at = ?2, recipients = ?3 WHERE id = ?1",
        params![id, at, frozen as i64],
    )?;
    // A list that was empty by the time it started has nothing to wait for.
    finish_if_done(conn, &[id], now)?;
    Ok(frozen as i64)
}

/// Marks the sends among `ids` whose every recipient has an outcome as sent.
pub fn finish_if_done(conn: &Connection, ids: &[i64], now: Timestamp) -> rusqlite::Result<()> {
    let mut stmt = conn.prepare_cached(
        "UPDATE broadcasts SET status = 'sent', finished_at = ?2 WHERE id = ?1 \
         AND status = 'sending' AND NOT EXISTS \
         (SELECT 1 FROM broadcast_recipients WHERE broadcast_id = ?1 AND status = 'queued')",
    )?;
    for id in ids {
        stmt.execute(params![id, sql_time(now)])?;
    }
    Ok(())
}

/// Whether [`start_due`] has anything to do `now` (a read: the sender asks each pass, and
/// a write each pass competed with the forms' writes).
pub fn any_due(conn: &Connection, now: Timestamp) -> rusqlite::Result<bool> {
    conn.prepare_cached(
        "SELECT EXISTS (SELECT 1 FROM broadcasts WHERE status = 'scheduled' AND scheduled_for <= ?1)",
    )?
    .query_row([sql_time(now)], |r| r.get(0))
}

/// Starts the scheduled sends whose time has come; those more than [`MISSED_AFTER`] late
/// become `missed` and wait for staff. Returns how many started. Call inside one write.
pub fn start_due(conn: &Connection, now: Timestamp) -> rusqlite::Result<usize> {
    conn.execute(
        "UPDATE broadcasts SET status = 'missed' WHERE status = 'scheduled' AND scheduled_for < ?1",
        [sql_time(now - MISSED_AFTER)],
    )?;
    let due: Vec<i64> = conn
        .prepare(
            "SELECT id FROM broadcasts WHERE status = 'scheduled' AND scheduled_for <= ?1 ORDER BY scheduled_for",
        )?
        .query_map([sql_time(now)], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    for id in &due {
        freeze(conn, *id, now)?;
    }
    Ok(due.len())
}

/// Puts the failed recipients of send `id` that are not on the suppression list back in
/// the queue ("Retry the remaining N"); returns how many.
pub fn retry_failed(conn: &Connection, id: i64, now: Timestamp) -> rusqlite::Result<usize> {
    let at = sql_time(now);
    let again = conn.execute(
        "UPDATE broadcast_recipients SET status = 'queued', attempts = 0, next_attempt_at = ?2, \
             done_at = NULL WHERE broadcast_id = ?1 AND status = 'failed' \
             AND NOT EXISTS (SELECT 1 FROM mail_suppressions m WHERE m.email = broadcast_recipients.email)",
        params![id, at],
    )?;
    if again > 0 {
        conn.execute(
            "UPDATE broadcasts SET status = 'sending', finished_at = NULL WHERE id = ?1",
            [id],
        )?;
    }
    Ok(again)
}

/// Excludes `email`'s queued messages (an unsubscribe takes effect for sends under way, in
/// the same request). Call inside the unsubscribe's write.
pub fn exclude(conn: &Connection, email: &str, why: &str, now: Timestamp) -> rusqlite::Result<()> {
    conn.execute(
        "UPDATE broadcast_recipients SET status = 'excluded', answer = ?2, done_at = ?3 \
         WHERE email = ?1 AND status = 'queued'",
        params![email.trim().to_lowercase(), why, sql_time(now)],
    )?;
    Ok(())
}

/// A send as staff see it: its counts add up to `recipients`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    pub id: i64,
    pub post_id: Option<i64>,
    pub subject: String,
    pub status: String,
    pub again: bool,
    pub scheduled_for: Option<String>,
    pub recipients: i64,
    pub queued: i64,
    pub sent: i64,
    pub failed: i64,
    pub excluded: i64,
    /// Failed and not on the suppression list: what "Retry the remaining N" would send.
    pub retryable: i64,
    pub created_at: String,
    pub created_by: Option<String>,
    pub started_at: Option<String>,
    pub finished_at: Option<String>,
}

const SUMMARY: &str = "SELECT b.id, b.post_id, b.subject, b.status, b.again, b.scheduled_for, \
     b.recipients, \
     (SELECT COUNT(*) FROM broadcast_recipients r WHERE r.broadcast_id = b.id AND r.status = 'queued'), \
     (SELECT COUNT(*) FROM broadcast_recipients r WHERE r.broadcast_id = b.id AND r.status = 'sent'), \
     (SELECT COUNT(*) FROM broadcast_recipients r WHERE r.broadcast_id = b.id AND r.status = 'failed'), \
     (SELECT COUNT(*) FROM broadcast_recipients r WHERE r.broadcast_id = b.id AND r.status = 'excluded'), \
     (SELECT COUNT(*) FROM broadcast_recipients r WHERE r.broadcast_id = b.id AND r.status = 'failed' \
         AND NOT EXISTS (SELECT 1 FROM mail_suppressions m WHERE m.email = r.email)), \
     b.created_at, u.name, b.started_at, b.finished_at \
     FROM broadcasts b LEFT JOIN users u ON u.id = b.created_by";

fn summary_of(r: &rusqlite::Row<'_>) -> rusqlite::Result<Summary> {
    Ok(Summary {
        id: r.get(0)?,
        post_id: r.get(1)?,
        subject: r.get(2)?,
        status: r.get(3)?,
        again: r.get(4)?,
        scheduled_for: r.get(5)?,
        recipients: r.get(6)?,
        queued: r.get(7)?,
        sent: r.get(8)?,
        failed: r.get(9)?,
        excluded: r.get(10)?,
        retryable: r.get(11)?,
        created_at: r.get(12)?,
        created_by: r.get(13)?,
        started_at: r.get(14)?,
        finished_at: r.get(15)?,
    })
}

/// Send `id`.
pub fn summary(conn: &Connection, id: i64) -> rusqlite::Result<Option<Summary>> {
    conn.query_row(&format!("{SUMMARY} WHERE b.id = ?1"), [id], summary_of)
        .optional()
}

/// The newest 100 sends, or those of one post.
pub fn list(conn: &Connection, post: Option<i64>) -> rusqlite::Result<Vec<Summary>> {
    let mut stmt = conn.prepare(&format!(
        "{SUMMARY} WHERE ?1 IS NULL OR b.post_id = ?1 ORDER BY b.id DESC LIMIT 100"
    ))?;
    stmt.query_map([post], summary_of)?.collect()
}

/// One recipient's outcome, for staff looking into a failure.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Outcome {
    pub email: String,
    pub status: String,
    pub attempts: i64,
    pub answer: Option<String>,
    pub done_at: Option<String>,
}

/// The recipients of send `id` with status `status` (failed and excluded are what staff
/// look into), at most 500.
pub fn outcomes(conn: &Connection, id: i64, status: &str) -> rusqlite::Result<Vec<Outcome>> {
    let mut stmt = conn.prepare(
        "SELECT email, status, attempts, answer, done_at FROM broadcast_recipients \
         WHERE broadcast_id = ?1 AND status = ?2 ORDER BY id LIMIT 500",
    )?;
    stmt.query_map(params![id, status], |r| {
        Ok(Outcome {
            email: r.get(0)?,
            status: r.get(1)?,
            attempts: r.get(2)?,
            answer: r.get(3)?,
            done_at: r.get(4)?,
        })
    })?
    .collect()
}

/// How many recipients of send `id` with status `status` got each answer, for a role that
/// may see the send's counts but not the list's addresses (an Editor: the newsletter list
/// is `submissions.read`'s). Addresses a server's answer quotes are masked.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Reason {
    pub answer: Option<String>,
    pub count: i64,
}

pub fn reasons(conn: &Connection, id: i64, status: &str) -> rusqlite::Result<Vec<Reason>> {
    let mut stmt = conn.prepare(
        "SELECT answer, COUNT(*) FROM broadcast_recipients \
         WHERE broadcast_id = ?1 AND status = ?2 GROUP BY answer ORDER BY COUNT(*) DESC, answer",
    )?;
    let rows: Vec<(Option<String>, i64)> = stmt
        .query_map(params![id, status], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?;
    // Masking can make two answers one ("550 <a@x.org> unknown" and "550 <b@x.org> unknown").
    let mut merged: Vec<Reason> = Vec::new();
    for (answer, count) in rows {
        let answer = answer.map(|a| without_addresses(&a));
        match merged.iter_mut().find(|r| r.answer == answer) {
            Some(r) => r.count += count,
            None => merged.push(Reason { answer, count }),
        }
    }
    merged.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.answer.cmp(&b.answer)));
    Ok(merged)
}

/// `text` with every word that holds an `@` (an address an SMTP answer quotes) replaced.
fn without_addresses(text: &str) -> String {
    text.split(' ')
        .map(|word| {
            if word.contains('@') {
                "[address]"
            } else {
                word
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod reason_tests {
    #[test]
    fn an_answer_never_names_an_address() {
        assert_eq!(
            super::without_addresses("550 5.1.1 <ann@example.org>: Recipient address rejected"),
            "550 5.1.1 [address] Recipient address rejected"
        );
        assert_eq!(super::without_addresses("unsubscribed"), "unsubscribed");
    }
}
