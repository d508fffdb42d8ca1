//! A person's right to be forgotten, and keeping no more than the law asks. The privacy
//! policy promises deletion on request: staff erase a person by e-mail, which deletes their
//! contact messages, volunteer and newsletter signups, the consent records of every number
//! they gave, the mail about them (receipts too), and strips their details from gifts that
//! were never paid and from their monthly plans (canceled at once). Completed gifts keep
//! what federal law requires of a contributor's record (name, address, occupation,
//! employer, date, amount) and nothing else of theirs: their address becomes a keyed hash. Gifts that were never paid lose
//! their details on their own [`RETENTION`] after they ended.
//!
//! What lives outside the database goes after the write: the outbox's copies of mail about
//! them (`Mail::erase_from_outbox`) and the Stripe customer that kept their card
//! (`Erased::stripe_customers`, deleted by the caller).
//!
//! Addresses are matched as Rust lower-cases them, never with SQLite's `lower()`, which
//! leaves every letter outside ASCII as it is (`ÄNNE@…` would never match `änne@…`).

use jiff::{SignedDuration, Timestamp};
use rusqlite::{Connection, params};

use crate::domain::clock::sql_time;

/// How long an unpaid gift (failed, canceled, expired) keeps its donor's details.
pub const RETENTION: SignedDuration = SignedDuration::from_hours(24 * 30);

/// What erasing one person did.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Erased {
    pub contacts: usize,
    pub volunteers: usize,
    pub newsletters: usize,
    /// Their RSVPs to events (a seat they held goes to whoever waits).
    pub rsvps: usize,
    /// Unpaid gifts whose details were removed.
    pub donations_redacted: usize,
    /// Completed gifts, kept whole as the law requires.
    pub donations_kept: usize,
    /// Gifts still being paid (set up in the last minutes): erase again once they end.
    pub donations_in_progress: usize,
    /// Messages about them removed from the mail queue (their outbox copies go too).
    #[serde(skip)]
    pub mail: Vec<i64>,
    /// Their monthly plans' Stripe customers (card and address), to delete at Stripe.
    #[serde(skip)]
    pub stripe_customers: Vec<(i64, String)>,
    /// RSVPs moved up into the seats theirs held, to be told "You're in".
    #[serde(skip)]
    pub moved_up: Vec<i64>,
}

impl Erased {
    /// Adds what erasing another of the person's addresses did.
    pub fn add(&mut self, other: Erased) {
        self.contacts += other.contacts;
        self.volunteers += other.volunteers;
        self.newsletters += other.newsletters;
        self.rsvps += other.rsvps;
        self.moved_up.extend(other.moved_up);
        self.donations_redacted += other.donations_redacted;
        self.donations_kept += other.donations_kept;
        self.donations_in_progress += other.donations_in_progress;
        self.mail.extend(other.mail);
        self.stripe_customers.extend(other.stripe_customers);
    }

    pub fn is_empty(&self) -> bool {
        *self == Erased::default()
    }
}

/// The columns a redaction clears, and what it leaves: amount, year, status, purpose.
const REDACT: &str = "donor_name = 'Erased', donor_first_name = '', donor_last_name = '', \
     donor_email = '', donor_address = '', donor_city = '', donor_state = '', \
     donor_zip_code = '', donor_occupation = NULL, donor_employer = NULL";

/// An address as erasure compares it: trimmed, and lower case as Rust (Unicode) has it.
pub fn fold(email: &str) -> String {
    email.trim().to_lowercase()
}

/// The rows of `table` whose `column` is `email` once [`fold`]ed.
fn rows_of(tx: &Connection, table: &str, column: &str, email: &str) -> rusqlite::Result<Vec<i64>> {
    let mut stmt = tx.prepare(&format!(
        "SELECT id, {column} FROM {table} WHERE {column} IS NOT NULL AND {column} != ''"
    ))?;
    let rows = stmt.query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)))?;
    let mut found = Vec::new();
    for row in rows {
        let (id, value) = row?;
        if fold(&value) == email {
            found.push(id);
        }
    }
    Ok(found)
}

/// Runs `sql` (with `?1` the row id) for each of `ids`; returns the rows it changed.
fn each(tx: &Connection, sql: &str, ids: &[i64]) -> rusqlite::Result<usize> {
    let mut stmt = tx.prepare(sql)?;
    let mut changed = 0;
    for id in ids {
        changed += stmt.execute([id])?;
    }
    Ok(changed)
}

/// The keyed hashes erasure leaves behind instead of what it erases.
pub struct Keys<'a> {
    /// Keys a number whose stop must outlive its records (see `sms_consent::erase`).
    pub phone: &'a dyn Fn(&str) -> String,
    /// Keys an address for the suppression list (`people::forget`).
    pub email: &'a dyn Fn(&str) -> String,
}

/// Erases `email` (any case); call inside one write.
pub fn erase(
    tx: &Connection,
    email: &str,
    keys: &Keys,
    now: Timestamp,
) -> rusqlite::Result<Erased> {
    let email = fold(email);
    let contacts = rows_of(tx, "contact_messages", "email", &email)?;
    let volunteers = rows_of(tx, "volunteer_signups", "email", &email)?;
    let newsletters = rows_of(tx, "newsletter_signups", "email", &email)?;
    let gifts = rows_of(tx, "donations", "donor_email", &email)?;
    let plans = rows_of(tx, "donation_plans", "donor_email", &email)?;
    let mail = rows_of(tx, "mail_queue", "about", &email)?;
    let rsvps = rows_of(tx, "event_rsvps", "email", &email)?;
    let rsvp_requests = rows_of(tx, "event_rsvp_requests", "email", &email)?;
    // Their numbers' consent records go with them: kept as evidence for as long as the party
    // may text a number, and after erasure it may not.
    let mut phones = Vec::new();
    for (table, ids) in [
        ("volunteer_signups", &volunteers),
        ("newsletter_signups", &newsletters),
        ("event_rsvps", &rsvps),
    ] {
        let mut stmt = tx.prepare(&format!("SELECT phone_e164 FROM {table} WHERE id = ?1"))?;
        for id in ids {
            if let Some(phone) = stmt.query_row([id], |r| r.get::<_, Option<String>>(0))? {
                phones.push(phone);
            }
        }
    }
    super::sms_consent::erase(tx, &email, &phones, keys.phone, now)?;
    // A person who asked to be forgotten is never charged again, and their plans keep no
    // trace of them (the gifts they made stay, as the law requires).
    let mut stripe_customers = Vec::new();
    {
        let mut stmt = tx.prepare("SELECT stripe_customer FROM donation_plans WHERE id = ?1")?;
        for id in &plans {
            if let Some(customer) = stmt.query_row([id], |r| r.get::<_, Option<String>>(0))? {
                stripe_customers.push((*id, customer));
            }
        }
    }
    let at = sql_time(now);
    for id in &plans {
        tx.execute(
            "UPDATE donation_plans SET status = 'canceled', next_attempt_at = NULL, \
                 canceled_at = COALESCE(canceled_at, ?2), canceled_by = COALESCE(canceled_by, 'staff'), \
                 cancel_reason = CASE WHEN status = 'canceled' THEN cancel_reason ELSE 'Erased on request' END, \
                 donor_email = '', payment_method = NULL, last_error = NULL, updated_at = ?2 \
             WHERE id = ?1",
            params![id, at],
        )?;
    }
    let contacts = each(tx, "DELETE FROM contact_messages WHERE id = ?1", &contacts)?;
    let volunteers = each(
        tx,
        "DELETE FROM volunteer_signups WHERE id = ?1",
        &volunteers,
    )?;
    let newsletters = each(
        tx,
        "DELETE FROM newsletter_signups WHERE id = ?1",
        &newsletters,
    )?;
    // Their RSVPs go; the seats they held go to whoever waits, in line order.
    let mut moved_up = Vec::new();
    let mut events = Vec::new();
    {
        let mut stmt =
            tx.prepare("DELETE FROM event_rsvps WHERE id = ?1 RETURNING event_id, status")?;
        for id in &rsvps {
            let (event, status): (i64, String) =
                stmt.query_row([id], |r| Ok((r.get(0)?, r.get(1)?)))?;
            if status == "going" && !events.contains(&event) {
                events.push(event);
            }
        }
    }
    for event in events {
        moved_up.extend(super::events::seats::promote(tx, event, now)?);
    }
    // RSVPs still waiting for their mailbox held nothing: they just go.
    each(
        tx,
        "DELETE FROM event_rsvp_requests WHERE id = ?1",
        &rsvp_requests,
    )?;
    let rsvps = rsvps.len() + rsvp_requests.len();
    // The messages about them go too (staff alerts quote what they wrote), their receipts
    // and refund notices included: the record the law keeps is the gift's row (name,
    // address, occupation, employer, date, amount), not the mail that told them of it.
    let mut removed_mail = Vec::new();
    {
        let mut stmt = tx.prepare("DELETE FROM mail_queue WHERE id = ?1")?;
        for id in &mail {
            if stmt.execute([id])? > 0 {
                removed_mail.push(*id);
            }
        }
    }
    // Their place in the list's sends (what was sent to them, and when) and their entry on
    // the suppression list go too: the erased-address hash keeps list mail away.
    tx.execute(
        "DELETE FROM broadcast_recipients WHERE email = ?1",
        [&email],
    )?;
    super::mail::suppressions::erase(tx, &email)?;
    let mut donations_redacted = 0;
    {
        let mut stmt = tx.prepare(&format!(
            "UPDATE donations SET {REDACT}, redacted_at = ?2, updated_at = ?2 \
             WHERE id = ?1 AND status IN ('failed', 'canceled', 'expired')"
        ))?;
        for id in &gifts {
            donations_redacted += stmt.execute(params![id, at])?;
        }
    }
    // The gifts the law keeps keep their FEC fields and lose the address they came from: a
    // keyed hash stands in for it, so one donor's gifts still count together (a gift with
    // no contributor yet is totalled by its address) and nobody can read it back.
    {
        let kept = format!("erased:{}", (keys.email)(&email));
        let mut stmt = tx.prepare(
            "UPDATE donations SET donor_email = ?2, updated_at = ?3 \
             WHERE id = ?1 AND status = 'completed'",
        )?;
        for id in &gifts {
            stmt.execute(params![id, kept, at])?;
        }
    }
    // The person's record goes; the gifts the law keeps keep their FEC fields, unlinked.
    super::people::forget(tx, &email, &(keys.email)(&email), now)?;
    // The People index only marks their trigrams deleted (its triggers queue that, and
    // settling hands it to the index now rather than at the commit); they stay in its
    // pages, readable in the file, until a merge. Merging the index whole now takes them
    // out in this write (secure_delete then zeroes the pages they were on). Its cost grows
    // with the list (bench/people.mjs measures it at 100,000); an erasure is rare.
    crate::store::settle::settle(tx)?;
    tx.execute(
        "INSERT INTO people_search (people_search) VALUES ('optimize')",
        [],
    )?;
    let count = |status: &str| -> rusqlite::Result<usize> {
        let mut stmt = tx.prepare("SELECT status = ?2 FROM donations WHERE id = ?1")?;
        let mut n = 0;
        for id in &gifts {
            if stmt.query_row(params![id, status], |r| r.get::<_, bool>(0))? {
                n += 1;
            }
        }
        Ok(n)
    };
    Ok(Erased {
        contacts,
        volunteers,
        newsletters,
        rsvps,
        donations_redacted,
        donations_kept: count("completed")?,
        donations_in_progress: count("pending")?,
        mail: removed_mail,
        stripe_customers,
        moved_up,
    })
}

/// The Stripe customer of erased plan `plan` is deleted at Stripe: the plan forgets it.
pub fn customer_deleted(tx: &Connection, plan: i64) -> rusqlite::Result<()> {
    tx.execute(
        "UPDATE donation_plans SET stripe_customer = NULL WHERE id = ?1",
        [plan],
    )
    .map(|_| ())
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
                erase(
                    tx,
                    " ANN@example.org ",
                    &Keys {
                        phone: &|p: &str| format!("key:{p}"),
                        email: &|e: &str| format!("key:{e}"),
                    },
                    now,
                )
            })
            .await
            .unwrap();
        assert_eq!(
            erased,
            Erased {
                contacts: 1,
                volunteers: 1,
                newsletters: 1,
                rsvps: 0,
                donations_redacted: 1,
                donations_kept: 1,
                donations_in_progress: 1,
                mail: Vec::new(),
                stripe_customers: Vec::new(),
                moved_up: Vec::new(),
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
