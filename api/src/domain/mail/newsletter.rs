//! Newsletter double opt-in. A signup stores the address as `pending` and mails a link to
//! confirm (valid 7 days); the link's page confirms with a POST, so a mail scanner that
//! fetches links confirms nothing. Confirming records the time and the consent text's
//! version and sends a welcome that carries a one-click unsubscribe (RFC 8058).
//!
//! A known address is answered like a new one and no row changes that anyone can see: a
//! pending or unsubscribed address gets a new confirmation mail (at most three a day to one
//! mailbox however its address is spelt, and a few hundred an hour in all, so the form
//! cannot be used to flood someone), a confirmed one nothing.

use jiff::Timestamp;
use rusqlite::{Connection, OptionalExtension, params};

use super::Mail;
use super::message::Person;
use super::queue::{self, Kind};
use super::tokens::{Confirm, Tokens};
use crate::domain::clock::sql_time;
use crate::domain::people;

/// Confirmation mails one mailbox may be sent in a day (the party's date), however its
/// address is spelt ([`mailbox`]).
pub const CONFIRMATIONS_PER_DAY: i64 = 3;
/// Confirmation mails the site sends in an hour, to everyone: a flood of signups from many
/// networks cannot make the party's mail server a spam cannon (nor burn its reputation).
pub const CONFIRMATIONS_PER_HOUR: i64 = 300;

/// The mailbox an address delivers to, as the common mail systems read it: lower case,
/// without a `+tag` (sub-addressing), and for Gmail without dots (`Ann.Lee+news@GMail.com`
/// and `annlee@gmail.com` are one mailbox).
pub fn mailbox(email: &str) -> String {
    let email = email.trim().to_lowercase();
    let Some((local, domain)) = email.rsplit_once('@') else {
        return email;
    };
    let local = local.split('+').next().unwrap_or(local);
    match domain {
        "gmail.com" | "googlemail.com" => format!("{}@gmail.com", local.replace('.', "")),
        _ => format!("{local}@{domain}"),
    }
}

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
    let existing: Option<(i64, String)> = conn
        .query_row(
            "SELECT id, status FROM newsletter_signups WHERE email = ?1",
            [email],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    match existing {
        Some((id, status)) => {
            // Changes nothing visible, but writes as an insert does: a known address must
            // not answer faster.
            conn.execute(
                "UPDATE newsletter_signups SET updated_at = updated_at WHERE id = ?1",
                [id],
            )?;
            if status != "confirmed" {
                send_confirmation(mail, conn, id, email, now)?;
            }
        }
        None => {
            let id: i64 = conn.query_row(
                "INSERT INTO newsletter_signups (email, phone, zip_code, status, phone_e164, email_id) \
                 VALUES (?1, ?2, ?3, 'pending', ?4, ?5) RETURNING id",
                params![
                    email,
                    phone,
                    zip,
                    phone.and_then(generator::forms::e164),
                    crate::domain::people::link(conn, email, now)?
                ],
                |r| r.get(0),
            )?;
            send_confirmation(mail, conn, id, email, now)?;
        }
    }
    Ok(())
}

/// Queues a confirmation mail unless its mailbox had its three today or the site its
/// hour's worth.
fn send_confirmation(
    mail: &Mail,
    conn: &Connection,
    id: i64,
    email: &str,
    now: Timestamp,
) -> rusqlite::Result<()> {
    let local = now.to_zoned_datetime(mail.tz.clone());
    let today = local.date().to_string();
    let hour = local.strftime("%Y-%m-%dT%H").to_string();
    let key = mail.tokens.key_of("confirm-mailbox", &mailbox(email));
    let count = |key: &str, period: &str| -> rusqlite::Result<i64> {
        conn.query_row(
            "SELECT COALESCE((SELECT sent FROM confirm_mail_counts WHERE mailbox_key = ?1 AND period = ?2), 0)",
            params![key, period],
            |r| r.get(0),
        )
    };
    let sent_today = count(&key, &today)?;
    if sent_today >= CONFIRMATIONS_PER_DAY {
        return Ok(());
    }
    if count("*", &hour)? >= CONFIRMATIONS_PER_HOUR {
        tracing::warn!("newsletter confirmations over the hour's cap; this one is not sent");
        return Ok(());
    }
    for (key, period) in [(key.as_str(), today.as_str()), ("*", hour.as_str())] {
        conn.execute(
            "INSERT INTO confirm_mail_counts (mailbox_key, period, sent) VALUES (?1, ?2, 1) \
             ON CONFLICT (mailbox_key, period) DO UPDATE SET sent = sent + 1",
            params![key, period],
        )?;
    }
    // Yesterday's counts are no use any more.
    conn.execute(
        "DELETE FROM confirm_mail_counts WHERE period < ?1",
        [local
            .yesterday()
            .map(|d| d.date().to_string())
            .unwrap_or_default()],
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
        let event = format!("newsletter-confirm:{id}:{today}:{}", sent_today + 1);
        queue::enqueue(conn, &event, Kind::NewsletterConfirm, email, &built, now)?;
    }
    Ok(())
}

/// A signup as its links read it: id, address, status, and when it was unsubscribed.
type Signup = (i64, String, String, Option<String>);

/// The signup a link names, if the link is signed for its address.
fn signup_of(conn: &Connection, id: Option<i64>) -> rusqlite::Result<Option<Signup>> {
    let Some(id) = id else { return Ok(None) };
    conn.query_row(
        "SELECT id, email, status, unsubscribed_at FROM newsletter_signups WHERE id = ?1",
        [id],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
    )
    .optional()
}

/// What confirmation link `token` says of its signup: a link made before the address
/// unsubscribed is out of date, like an expired one (a person who unsubscribed signs up
/// again to get a new link; an old one in their mailbox must not subscribe them again).
fn confirm_state(mail: &Mail, signup: &Signup, token: &str, now: Timestamp) -> Confirm {
    let (id, email, _, unsubscribed_at) = signup;
    let state = mail.tokens.check_confirm(token, *id, email, now);
    let issued = Tokens::confirm_issued(token);
    let unsubscribed = unsubscribed_at
        .as_deref()
        .and_then(|t| t.parse::<Timestamp>().ok());
    match (state, issued, unsubscribed) {
        // Links carry whole seconds: one made in the second of the unsubscribe is the new one.
        (Confirm::Valid, Some(issued), Some(unsubscribed))
            if issued.as_second() < unsubscribed.as_second() =>
        {
            Confirm::Expired
        }
        _ => state,
    }
}

/// What a confirmation link says now (for the page that shows the button; changes nothing).
pub fn check_confirm(
    mail: &Mail,
    conn: &Connection,
    token: &str,
    now: Timestamp,
) -> rusqlite::Result<Confirm> {
    Ok(match signup_of(conn, Tokens::confirm_id(token))? {
        Some(signup) => confirm_state(mail, &signup, token, now),
        None => Confirm::Invalid,
    })
}

/// Confirms the signup a valid link names, recording the time and the consent version, and
/// queues the welcome; confirming twice changes nothing. A confirmed address's history of
/// unsubscribing stays as it was. Call inside one write.
pub fn confirm(
    mail: &Mail,
    conn: &Connection,
    token: &str,
    now: Timestamp,
) -> rusqlite::Result<Confirm> {
    let Some(signup) = signup_of(conn, Tokens::confirm_id(token))? else {
        return Ok(Confirm::Invalid);
    };
    let state = confirm_state(mail, &signup, token, now);
    let (id, email, status, _) = signup;
    if state != Confirm::Valid || status == "confirmed" {
        return Ok(state);
    }
    let at = sql_time(now);
    conn.execute(
        "UPDATE newsletter_signups SET status = 'confirmed', confirmed_at = ?2, \
             consent_version = ?3, updated_at = ?2 WHERE id = ?1",
        params![id, at, mail.texts.newsletter.consent_version],
    )?;
    // An address that was erased on request and now confirms a signup has given its consent
    // anew: it is no longer suppressed.
    let key = mail
        .tokens
        .key_of(people::SUPPRESS_PURPOSE, &people::normalise(&email));
    people::unsuppress(conn, &key)?;
    // Nor is an address that had unsubscribed (a bounce or a complaint stays until staff
    // lift it).
    super::suppressions::resubscribed(conn, &email)?;
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
        .is_some_and(|(id, email, _, _)| mail.tokens.check_unsubscribe(token, id, &email)))
}

/// Unsubscribes the signup a good link names, and drops its newsletter mail not yet sent;
/// `false` for a bad link. Unsubscribing twice changes nothing. Call inside one write.
pub fn unsubscribe(
    mail: &Mail,
    conn: &Connection,
    token: &str,
    now: Timestamp,
) -> rusqlite::Result<bool> {
    let Some((id, email, status, _)) = signup_of(conn, Tokens::unsubscribe_id(token))? else {
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
        // Posts to the list still queued for them will not go, from this very request.
        super::broadcast::exclude(conn, &email, "unsubscribed", now)?;
        super::suppressions::add(
            conn,
            &email,
            super::suppressions::Reason::Unsubscribed,
            None,
            None,
            now,
        )?;
    }
    Ok(true)
}
