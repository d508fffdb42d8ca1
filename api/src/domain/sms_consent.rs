//! Consent to automated texts, kept so it would stand up (TCPA): a grant is recorded only when
//! a visitor ticks the separate box, with the number, the time, the form, the address and
//! browser it came from, the signup's e-mail and the version of the words beside the box;
//! staff record a revocation when someone says stop by text, phone or mail. Records are only
//! ever added (the table's trigger refuses changes); a number's latest record is its state,
//! and a revoked number leaves every export at once (the `sms_state` view, used by
//! `routes/admin/submissions.rs`).
//!
//! A stop is for good: a signup form with the box ticked cannot take it back (anyone can
//! type anyone's number, and every later text would break the law). Only staff record a
//! number's consent again ([`regrant`], audited by the caller), when its owner asks them.
//! Erasing a person removes their records but keeps each stop as a keyed hash of the number
//! (`sms_revocations`), which names nobody and still refuses a stranger's ticked box.

use std::net::IpAddr;

use generator::content::TextConsent;
use generator::forms;
use jiff::Timestamp;
use rusqlite::{Connection, OptionalExtension as _, params};

use super::clock::sql_time;

/// What [`crate::domain::mail::tokens::Tokens::key_of`] is asked for to key a number.
pub const KEY_PURPOSE: &str = "sms-phone";

/// Where a ticked box came from.
pub struct Grant<'a> {
    /// The number as the visitor typed it (already checked by the form's rules).
    pub phone: &'a str,
    /// The signup's e-mail, so erasing its person removes this record.
    pub email: &'a str,
    /// The number's keyed hash (its E.164 form, [`KEY_PURPOSE`]): a stop kept after erasure.
    pub phone_key: &'a dyn Fn(&str) -> String,
    /// The form's slug.
    pub form: &'static str,
    pub ip: IpAddr,
    pub user_agent: Option<&'a str>,
    /// The words beside the box.
    pub words: &'a TextConsent,
    pub at: Timestamp,
}

/// Whether `phone` (E.164) said stop: its latest record, or a stop kept after erasure.
fn stopped(tx: &Connection, phone: &str, key: &str) -> rusqlite::Result<bool> {
    let latest: Option<String> = tx
        .query_row(
            "SELECT action FROM sms_consents WHERE phone = ?1 ORDER BY id DESC LIMIT 1",
            [phone],
            |r| r.get(0),
        )
        .optional()?;
    if latest.as_deref() == Some("revoked") {
        return Ok(true);
    }
    tx.query_row(
        "SELECT EXISTS (SELECT 1 FROM sms_revocations WHERE phone_key = ?1)",
        [key],
        |r| r.get(0),
    )
}

/// Records a ticked box, unless the number said stop (then nothing is recorded: only staff
/// can record its consent again); call inside the write that stores the signup. `true`
/// when the grant was recorded.
pub fn grant(tx: &Connection, grant: &Grant<'_>) -> rusqlite::Result<bool> {
    let Some(phone) = forms::e164(grant.phone) else {
        // The form's rules refuse such a number before it gets here.
        return Ok(false);
    };
    if stopped(tx, &phone, &(grant.phone_key)(&phone))? {
        return Ok(false);
    }
    let at = sql_time(grant.at);
    let version = grant.words.version();
    tx.execute(
        "INSERT INTO sms_disclosures (version, label, disclosure, first_recorded_at) \
         VALUES (?1, ?2, ?3, ?4) ON CONFLICT (version) DO NOTHING",
        params![version, grant.words.label, grant.words.disclosure, at],
    )?;
    // A browser's description, bounded: it is evidence, not a place to store a novel.
    let user_agent = grant.user_agent.map(|ua| {
        ua.chars()
            .filter(|c| !c.is_control())
            .take(512)
            .collect::<String>()
    });
    tx.execute(
        "INSERT INTO sms_consents (phone, action, at, source, ip, user_agent, disclosure_version, email) \
         VALUES (?1, 'granted', ?2, ?3, ?4, ?5, ?6, ?7)",
        params![
            phone,
            at,
            grant.form,
            grant.ip.to_string(),
            user_agent,
            version,
            grant.email.trim().to_lowercase()
        ],
    )?;
    Ok(true)
}

/// Staff record that the owner of `phone` (E.164) asked to get texts again (`note`: how and
/// when; required), under the words now beside the box. The stop kept after an erasure goes.
/// Returns whether the number had said stop. Call inside one write, with the audit row.
pub fn regrant(
    tx: &Connection,
    phone: &str,
    phone_key: &str,
    words: &TextConsent,
    note: &str,
    at: Timestamp,
) -> rusqlite::Result<bool> {
    let was_stopped = stopped(tx, phone, phone_key)?;
    let at = sql_time(at);
    let version = words.version();
    tx.execute(
        "INSERT INTO sms_disclosures (version, label, disclosure, first_recorded_at) \
         VALUES (?1, ?2, ?3, ?4) ON CONFLICT (version) DO NOTHING",
        params![version, words.label, words.disclosure, at],
    )?;
    tx.execute(
        "INSERT INTO sms_consents (phone, action, at, source, disclosure_version, method, note) \
         VALUES (?1, 'granted', ?2, 'staff', ?3, 'staff', ?4)",
        params![phone, at, version, note],
    )?;
    tx.execute(
        "DELETE FROM sms_revocations WHERE phone_key = ?1",
        [phone_key],
    )?;
    Ok(was_stopped)
}

/// How someone told the party to stop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// Replied STOP (the texting service reported it).
    Text,
    Phone,
    /// By letter or e-mail.
    Mail,
    Other,
}

impl Method {
    pub const ALL: [Method; 4] = [Method::Text, Method::Phone, Method::Mail, Method::Other];

    pub fn as_str(self) -> &'static str {
        match self {
            Method::Text => "text",
            Method::Phone => "phone",
            Method::Mail => "mail",
            Method::Other => "other",
        }
    }

    pub fn parse(value: &str) -> Option<Method> {
        Method::ALL.into_iter().find(|m| m.as_str() == value)
    }
}

/// Records that `phone` (E.164) said stop. Returns whether the number had agreed until now
/// (a second revocation is still recorded: it is what staff were told).
pub fn revoke(
    tx: &Connection,
    phone: &str,
    method: Method,
    note: Option<&str>,
    at: Timestamp,
) -> rusqlite::Result<bool> {
    let was: Option<String> = tx
        .query_row(
            "SELECT action FROM sms_consents WHERE phone = ?1 ORDER BY id DESC LIMIT 1",
            [phone],
            |r| r.get(0),
        )
        .optional()?;
    tx.execute(
        "INSERT INTO sms_consents (phone, action, at, source, method, note) \
         VALUES (?1, 'revoked', ?2, 'staff', ?3, ?4)",
        params![phone, sql_time(at), method.as_str(), note],
    )?;
    Ok(was.as_deref() == Some("granted"))
}

/// Deletes the consent records of erased person `email` and of the numbers in `phones`
/// (E.164): erasure on request is the one reason records go. A number whose last word was
/// stop keeps that as its keyed hash (`phone_key`), so no signup can agree for it again.
pub fn erase(
    tx: &Connection,
    email: &str,
    phones: &[String],
    phone_key: &dyn Fn(&str) -> String,
    now: Timestamp,
) -> rusqlite::Result<usize> {
    let mut numbers: Vec<String> = tx
        .prepare("SELECT DISTINCT phone FROM sms_consents WHERE email = ?1")?
        .query_map([email], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    numbers.extend(phones.iter().cloned());
    numbers.sort();
    numbers.dedup();
    let mut erased = 0;
    for phone in &numbers {
        if stopped(tx, phone, &phone_key(phone))? {
            tx.execute(
                "INSERT INTO sms_revocations (phone_key, revoked_at) VALUES (?1, ?2) \
                 ON CONFLICT (phone_key) DO NOTHING",
                params![phone_key(phone), sql_time(now)],
            )?;
        }
        // Their own grants (and those from before grants named a signup) go. Staff's
        // records of the number go too, unless someone else gave it: then their stop still
        // stands over the other person's older grant.
        erased += tx.execute(
            "DELETE FROM sms_consents WHERE phone = ?1 AND (email = ?2 OR (email IS NULL \
                 AND NOT EXISTS (SELECT 1 FROM sms_consents o WHERE o.phone = ?1 \
                     AND o.email IS NOT NULL AND o.email != ?2)))",
            params![phone, email],
        )?;
    }
    Ok(erased)
}
