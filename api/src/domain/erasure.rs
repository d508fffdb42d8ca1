//! A person's right to be forgotten, and keeping no more than the law asks. The privacy
//! policy promises deletion on request: staff erase a person by e-mail, which deletes their
//! contact messages, volunteer and newsletter signups, and strips their details from gifts
//! that were never paid. Completed gifts stay whole: federal law requires the committee to
//! keep contributors' records. Gifts that were never paid lose their details on their own
//! [`RETENTION`] after they ended.

use jiff::{SignedDuration, Timestamp};
use rusqlite::{Connection, params};

use crate::domain::clock::sql_time;

/// How long an unpaid gift (failed, canceled, expired) keeps its donor's details.
pub const RETENTION: SignedDuration = SignedDuration::from_hours(24 * 30);

/// What erasing one person did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Erased {
    pub contacts: usize,
    pub volunteers: usize,
    pub newsletters: usize,
    /// Unpaid gifts whose details were removed.
    pub donations_redacted: usize,
    /// Completed gifts, kept whole as the law requires.
    pub donations_kept: usize,
    /// Gifts still being paid (set up in the last minutes): erase again once they end.
    pub donations_in_progress: usize,
}

impl Erased {
    pub fn is_empty(&self) -> bool {
        *self == Erased::default()
    }
}

/// The columns a redaction clears, and what it leaves: amount, year, status, purpose.
const REDACT: &str = "donor_name = 'Erased', donor_first_name = '', donor_last_name = '', \
     donor_email = '', donor_address = '', donor_city = '', donor_state = '', \
     donor_zip_code = '', donor_occupation = NULL, donor_employer = NULL";

/// Erases `email` (any case); call inside one write.
pub fn erase(tx: &Connection, email: &str, now: Timestamp) -> rusqlite::Result<Erased> {
    let email = email.trim().to_lowercase();
    let delete = |table: &str| {
        tx.execute(
            &format!("DELETE FROM {table} WHERE lower(email) = ?1"),
            [&email],
        )
    };
    // Their numbers' consent records go with them: kept as evidence for as long as the party
    // may text a number, and after erasure it may not.
    let phones: Vec<String> = tx
        .prepare(
            "SELECT phone_e164 FROM volunteer_signups WHERE lower(email) = ?1 AND phone_e164 IS NOT NULL \
             UNION SELECT phone_e164 FROM newsletter_signups WHERE lower(email) = ?1 AND phone_e164 IS NOT NULL",
        )?
        .query_map([&email], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    super::sms_consent::erase(tx, &phones)?;
    // A person who asked to be forgotten is never charged again.
    super::plans::cancel_all_of(tx, &email, now)?;
    let contacts = delete("contact_messages")?;
    let volunteers = delete("volunteer_signups")?;
    let newsletters = delete("newsletter_signups")?;
    // The messages about them go too (staff alerts quote what they wrote), but for the
    // receipts and refund notices of completed gifts, which are part of the record the law
    // keeps.
    tx.execute(
        "DELETE FROM mail_queue WHERE about = ?1 AND kind NOT IN ('receipt', 'refund_notice')",
        [&email],
    )?;
    let donations_redacted = tx.execute(
        &format!(
            "UPDATE donations SET {REDACT}, redacted_at = ?2, updated_at = ?2 \
             WHERE donor_email = ?1 AND status IN ('failed', 'canceled', 'expired')"
        ),
        params![email, sql_time(now)],
    )?;
    let count = |status: &str| -> rusqlite::Result<usize> {
        tx.query_row(
            "SELECT COUNT(*) FROM donations WHERE donor_email = ?1 AND status = ?2",
            params![email, status],
            |r| r.get::<_, i64>(0),
        )
        .map(|n| n as usize)
    };
    Ok(Erased {
        contacts,
        volunteers,
        newsletters,
        donations_redacted,
        donations_kept: count("completed")?,
        donations_in_progress: count("pending")?,
    })
}

/// Removes the details of unpaid gifts that ended more than [`RETENTION`] before `now`;
/// returns how many. Call inside one write.
pub fn redact_stale(tx: &Connection, now: Timestamp) -> rusqlite::Result<usize> {
    tx.execute(
        &format!(
            "UPDATE donations SET {REDACT}, redacted_at = ?2 \
             WHERE status IN ('failed', 'canceled', 'expired') AND redacted_at IS NULL \
             AND updated_at <= ?1"
        ),
        params![sql_time(now - RETENTION), sql_time(now)],
    )
}

/// An e-mail address for the audit log: enough to match a request to ("j…@example.org"),
/// not the address the person asked to have forgotten.
pub fn audit_target(email: &str) -> String {
    format!("person:{}", crate::http::redact::email(email.trim()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::db::Db;

    #[tokio::test]
    async fn a_person_is_erased_but_their_completed_gifts_stay_whole() {
        let db = Db::open_in_memory().unwrap();
        let now = Timestamp::now();
        let erased = db
            .write(move |tx| {
                tx.execute_batch(
                    "INSERT INTO contact_messages (name, email, subject, message) VALUES
                       ('Ann', 'Ann@Example.org', 'Hi', 'Please forget me'),
                       ('Bo', 'bo@example.org', 'Hi', 'Keep me');
                     INSERT INTO volunteer_signups (name, email, zip_code) VALUES ('Ann', 'ann@example.org', '12345');
                     INSERT INTO newsletter_signups (email, zip_code) VALUES ('ANN@example.org', '12345');
                     INSERT INTO donations (amount_cents, donor_name, donor_email, donor_address, donor_city, donor_state, donor_zip_code, status)
                     VALUES (2500, 'Ann Lee', 'ann@example.org', '1 Main St', 'Springfield', 'IL', '62701', 'completed'),
                            (4000, 'Ann Lee', 'ann@example.org', '1 Main St', 'Springfield', 'IL', '62701', 'failed'),
                            (4100, 'Ann Lee', 'ann@example.org', '1 Main St', 'Springfield', 'IL', '62701', 'pending');",
                )?;
                erase(tx, " ANN@example.org ", now)
            })
            .await
            .unwrap();
        assert_eq!(
            erased,
            Erased {
                contacts: 1,
                volunteers: 1,
                newsletters: 1,
                donations_redacted: 1,
                donations_kept: 1,
                donations_in_progress: 1,
            }
        );
        let rows: Vec<(i64, String, String, Option<String>)> = db
            .read(|c| {
                let mut stmt = c.prepare(
                    "SELECT amount_cents, donor_name, donor_address, redacted_at FROM donations ORDER BY id",
                )?;
                stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
                    .collect()
            })
            .await
            .unwrap();
        assert_eq!(
            (rows[0].1.as_str(), rows[0].2.as_str()),
            ("Ann Lee", "1 Main St")
        );
        assert_eq!(
            (rows[1].0, rows[1].1.as_str(), rows[1].2.as_str()),
            (4000, "Erased", "")
        );
        assert!(rows[1].3.is_some());
        assert_eq!(
            rows[2].1, "Ann Lee",
            "a gift still being paid is left for now"
        );
        let others: i64 = db
            .read(|c| c.query_row("SELECT COUNT(*) FROM contact_messages", [], |r| r.get(0)))
            .await
            .unwrap();
        assert_eq!(others, 1, "Bo's message stays");
    }

    #[tokio::test]
    async fn unpaid_gifts_lose_their_details_thirty_days_after_they_end() {
        let db = Db::open_in_memory().unwrap();
        let now = Timestamp::now();
        let ended = sql_time(now);
        db.write(move |tx| {
            tx.execute(
                "INSERT INTO donations (amount_cents, donor_name, donor_email, donor_address, donor_city, donor_state, donor_zip_code, status, updated_at)
                 VALUES (100, 'Cy', 'cy@example.org', 'x', 'y', 'IL', '62701', 'expired', ?1),
                        (100, 'Cy', 'cy@example.org', 'x', 'y', 'IL', '62701', 'completed', ?1)",
                [&ended],
            )
        })
        .await
        .unwrap();
        let later = now + RETENTION - SignedDuration::from_secs(60);
        assert_eq!(
            db.write(move |tx| redact_stale(tx, later)).await.unwrap(),
            0
        );
        let due = now + RETENTION;
        assert_eq!(db.write(move |tx| redact_stale(tx, due)).await.unwrap(), 1);
        assert_eq!(
            db.write(move |tx| redact_stale(tx, due)).await.unwrap(),
            0,
            "once"
        );
        let names: Vec<String> = db
            .read(|c| {
                let mut stmt = c.prepare("SELECT donor_name FROM donations ORDER BY id")?;
                stmt.query_map([], |r| r.get(0))?.collect()
            })
            .await
            .unwrap();
        assert_eq!(names, ["Erased", "Cy"]);
    }
}
