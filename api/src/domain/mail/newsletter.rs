//! Newsletter double opt-in. A signup stores the address as `pending` and mails a link to
//! confirm (valid 7 days); the link's page confirms with a POST, so a mail scanner that
//! fetches links confirms nothing. Confirming records the time and the consent text's
//! version and sends a welcome that carries a one-click unsubscribe (RFC 8058).
//!
//! A known address is answered like a new one and no row changes that anyone can see: a
//! pending or unsubscribed address gets a new confirmation mail (at most three a day, so
//! the form cannot be used to flood someone), a confirmed one nothing.

use jiff::Timestamp;
use rusqlite::{Connection, OptionalExtension, params};

use super::Mail;
use super::message::Person;
use super::queue::{self, Kind};
use super::tokens::{Confirm, Tokens};
use crate::domain::clock::sql_time;

/// Confirmation mails one address may be sent in a day (the party's date).
pub const CONFIRMATIONS_PER_DAY: i64 = 3;

/// A signup for `email`; call inside one write. Nothing about the outcome is returned: the
/// caller must answer every signup alike.
pub fn sign_up(
    mail: &Mail,
    conn: &Connection,
    email: &str,
    phone: Option<&str>,
    zip: &str,
    now: Timestamp,
) -> rusqlite::Result<()> {
    let existing: Option<(i64, String, Option<String>, i64)> = conn
        .query_row(
            "SELECT id, status, confirm_mails_day, confirm_mails_sent FROM newsletter_signups \
             WHERE email = ?1",
            [email],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )
        .optional()?;
    match existing {
        Some((id, status, day, sent)) => {
            // Changes nothing visible, but writes as an insert does: a known address must
            // not answer faster.
            conn.execute(
                "UPDATE newsletter_signups SET updated_at = updated_at WHERE id = ?1",
                [id],
            )?;
            if status != "confirmed" {
                send_confirmation(mail, conn, id, email, (day, sent), now)?;
            }
        }
        None => {
            let id: i64 = conn.query_row(
                "INSERT INTO newsletter_signups (email, phone, zip_code, status, phone_e164) \
                 VALUES (?1, ?2, ?3, 'pending', ?4) RETURNING id",
                params![email, phone, zip, phone.and_then(generator::forms::e164)],
                |r| r.get(0),
            )?;
            send_confirmation(mail, conn, id, email, (None, 0), now)?;
        }
    }
    Ok(())
}

/// Queues a confirmation mail unless the address had its three today.
fn send_confirmation(
    mail: &Mail,
    conn: &Connection,
    id: i64,
    email: &str,
    (day, sent): (Option<String>, i64),
    now: Timestamp,
) -> rusqlite::Result<()> {
    let today = now.to_zoned_datetime(mail.tz.clone()).date().to_string();
    let sent_today = if day.as_deref() == Some(today.as_str()) {
        sent
    } else {
        0
    };
    if sent_today >= CONFIRMATIONS_PER_DAY {
        return Ok(());
    }
    conn.execute(
        "UPDATE newsletter_signups SET confirm_mails_day = ?2, confirm_mails_sent = ?3 WHERE id = ?1",
        params![id, today, sent_today + 1],
    )?;
    let url = mail.link(&format!(
        "/newsletter/confirm/{}",
        mail.tokens.confirm(id, email, now)
    ));
    let n = &mail.texts.newsletter;
    let subject = mail.fill(&n.confirm_subject, &[]);
    let body = mail.fill(&n.confirm_body, &[("confirmUrl", &url)]);
    let to = Person { name: None, email };
    if let Some(built) = mail.compose(Kind::NewsletterConfirm, to, None, &subject, &body, None) {
        let key = format!("newsletter-confirm:{id}:{today}:{}", sent_today + 1);
        queue::enqueue(conn, &key, Kind::NewsletterConfirm, email, &built, now)?;
    }
    Ok(())
}

/// The signup a link names, if the link is signed for its address.
fn signup_of(
    conn: &Connection,
    id: Option<i64>,
) -> rusqlite::Result<Option<(i64, String, String)>> {
    let Some(id) = id else { return Ok(None) };
    conn.query_row(
        "SELECT id, email, status FROM newsletter_signups WHERE id = ?1",
        [id],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
    )
    .optional()
}

/// What a confirmation link says now (for the page that shows the button; changes nothing).
pub fn check_confirm(
    mail: &Mail,
    conn: &Connection,
    token: &str,
    now: Timestamp,
) -> rusqlite::Result<Confirm> {
    Ok(match signup_of(conn, Tokens::confirm_id(token))? {
        Some((id, email, _)) => mail.tokens.check_confirm(token, id, &email, now),
        None => Confirm::Invalid,
    })
}

/// Confirms the signup a valid link names, recording the time and the consent version, and
/// queues the welcome; confirming twice changes nothing. Call inside one write.
pub fn confirm(
    mail: &Mail,
    conn: &Connection,
    token: &str,
    now: Timestamp,
) -> rusqlite::Result<Confirm> {
    let Some((id, email, status)) = signup_of(conn, Tokens::confirm_id(token))? else {
        return Ok(Confirm::Invalid);
    };
    let state = mail.tokens.check_confirm(token, id, &email, now);
    if state != Confirm::Valid || status == "confirmed" {
        return Ok(state);
    }
    let at = sql_time(now);
    conn.execute(
        "UPDATE newsletter_signups SET status = 'confirmed', confirmed_at = ?2, \
             unsubscribed_at = NULL, consent_version = ?3, updated_at = ?2 WHERE id = ?1",
        params![id, at, mail.texts.newsletter.consent_version],
    )?;
    let unsubscribe = unsubscribe_url(mail, id, &email);
    let n = &mail.texts.newsletter;
    let subject = mail.fill(&n.welcome_subject, &[]);
    let body = mail.fill(&n.welcome_body, &[("unsubscribeUrl", &unsubscribe)]);
    let to = Person {
        name: None,
        email: &email,
    };
    if let Some(built) = mail.compose(
        Kind::NewsletterWelcome,
        to,
        None,
        &subject,
        &body,
        Some(&unsubscribe),
    ) {
        let key = format!("newsletter-welcome:{id}:{at}");
        queue::enqueue(conn, &key, Kind::NewsletterWelcome, &email, &built, now)?;
    }
    Ok(Confirm::Valid)
}

/// The one-click unsubscribe address every newsletter message carries.
pub fn unsubscribe_url(mail: &Mail, id: i64, email: &str) -> String {
    mail.link(&format!(
        "/newsletter/unsubscribe/{}",
        mail.tokens.unsubscribe(id, email)
    ))
}

/// Whether an unsubscribe link is good (for the page; changes nothing).
pub fn check_unsubscribe(mail: &Mail, conn: &Connection, token: &str) -> rusqlite::Result<bool> {
    Ok(signup_of(conn, Tokens::unsubscribe_id(token))?
        .is_some_and(|(id, email, _)| mail.tokens.check_unsubscribe(token, id, &email)))
}

/// Unsubscribes the signup a good link names, and drops its newsletter mail not yet sent;
/// `false` for a bad link. Unsubscribing twice changes nothing. Call inside one write.
pub fn unsubscribe(
    mail: &Mail,
    conn: &Connection,
    token: &str,
    now: Timestamp,
) -> rusqlite::Result<bool> {
    let Some((id, email, status)) = signup_of(conn, Tokens::unsubscribe_id(token))? else {
        return Ok(false);
    };
    if !mail.tokens.check_unsubscribe(token, id, &email) {
        return Ok(false);
    }
    if status != "unsubscribed" {
        conn.execute(
            "UPDATE newsletter_signups SET status = 'unsubscribed', unsubscribed_at = ?2, \
                 updated_at = ?2 WHERE id = ?1",
            params![id, sql_time(now)],
        )?;
        conn.execute(
            "DELETE FROM mail_queue WHERE about = ?1 AND kind = 'newsletter_welcome' AND status = 'queued'",
            [email.to_lowercase()],
        )?;
    }
    Ok(true)
}
