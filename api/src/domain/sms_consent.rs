//! Consent to automated texts, kept so it would stand up (TCPA): a grant is recorded only when
//! a visitor ticks the separate box, with the number, the time, the form, the address and
//! browser it came from, and the version of the words beside the box; staff record a
//! revocation when someone says stop by text, phone or mail. Records are only ever added
//! (the table's trigger refuses changes); a number's latest record is its state, and a
//! revoked number leaves every export at once (the `sms_state` view, used by
//! `routes/admin/submissions.rs`).

use std::net::IpAddr;

use generator::content::TextConsent;
use generator::forms;
use jiff::Timestamp;
use rusqlite::{Connection, OptionalExtension as _, params};

use super::clock::sql_time;

/// Where a ticked box came from.
pub struct Grant<'a> {
    /// The number as the visitor typed it (already checked by the form's rules).
    pub phone: &'a str,
    /// The form's slug.
    pub form: &'static str,
    pub ip: IpAddr,
    pub user_agent: Option<&'a str>,
    /// The words beside the box.
    pub words: &'a TextConsent,
    pub at: Timestamp,
}

/// Records a ticked box; call inside the write that stores the signup.
pub fn grant(tx: &Connection, grant: &Grant<'_>) -> rusqlite::Result<()> {
    let Some(phone) = forms::e164(grant.phone) else {
        // The form's rules refuse such a number before it gets here.
        return Ok(());
    };
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
        "INSERT INTO sms_consents (phone, action, at, source, ip, user_agent, disclosure_version) \
         VALUES (?1, 'granted', ?2, ?3, ?4, ?5, ?6)",
        params![
            phone,
            at,
            grant.form,
            grant.ip.to_string(),
            user_agent,
            version
        ],
    )?;
    Ok(())
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

/// Deletes the consent records of the numbers in `phones` (E.164): erasure on request is the
/// one reason records go.
pub fn erase(tx: &Connection, phones: &[String]) -> rusqlite::Result<usize> {
    let mut erased = 0;
    for phone in phones {
        erased += tx.execute("DELETE FROM sms_consents WHERE phone = ?1", [phone])?;
    }
    Ok(erased)
}
