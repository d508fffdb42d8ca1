//! Newsletter double opt-in. A signup stores the address as `pending` and mails a link to
//! confirm (valid 7 days); the link's page confirms with a POST, so a mail scanner that
//! fetches links confirms nothing. Confirming records the time and the consent text's
//! version and sends a welcome that carries a one-click unsubscribe (RFC 8058).
//!
//! A known address is answered like a new one and no row changes that anyone can see: a
//! pending or unsubscribed address is owed a new confirmation mail, a confirmed one nothing.
//!
//! The signup's write only records that a confirmation is owed (one column of its row):
//! the forms' writes all wait on one writer, and building and queuing a message there cost
//! a signup more than storing it. The mail sender queues what is owed in its own writes
//! ([`queue_owed`]), oldest first: at most [`CONFIRMATIONS_PER_NETWORK_HOUR`] an hour for
//! the signups from one network (an IPv4 /24, an IPv6 /64), three a day to one mailbox
//! however its address is spelt, and a ceiling for everyone (`CONFIRMATIONS_PER_HOUR`,
//! default [`CONFIRMATIONS_PER_HOUR`], sized for a viral evening), so the form cannot be
//! used to flood someone or make the party a spam cannon, while a real crowd from many
//! networks is not held up by one abuser. Past a network's share or the ceiling a
//! confirmation waits for the next hour instead of being dropped; staff are told when the
//! ceiling is reached.

use std::sync::Arc;

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
/// Confirmation mails the site sends in an hour, to everyone, unless `CONFIRMATIONS_PER_HOUR`
/// says otherwise: a flood of signups from many networks cannot make the party's mail
/// server a spam cannon (nor burn its reputation), and a viral evening (a debate, a news
/// story: thousands of readers in minutes) is well inside it. Past it a confirmation waits
/// for the next hour, in order, and staff are told.
pub const CONFIRMATIONS_PER_HOUR: i64 = 20_000;
/// Confirmation mails the signups from one network (an IPv4 /24, an IPv6 /64) get in an
/// hour: a table at a rally on one Wi-Fi fits, and one abuser cannot take the hour's
/// ceiling from everyone else. Past it that network's wait for the next hour.
pub const CONFIRMATIONS_PER_NETWORK_HOUR: i64 = 50;
/// How long a confirmation may wait to be queued. Past that the backlog is a flood, not
/// readers: the signup stays pending without one (signing up again sends one).
pub const CONFIRMATION_BACKLOG_HOURS: i64 = 24;
/// Owed confirmations queued in one of the sender's writes: small enough that the forms'
/// writes queued behind it wait a millisecond or so, not the tens that 500 took (their
/// p99); the sender comes round again as soon as those are sent (1,000 an hour is 40
/// writes).
const QUEUE_AT_ONCE: i64 = 25;

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
/// caller must answer every signup alike. The statements are kept prepared: every signup
/// runs them inside the one writer.
pub fn sign_up(
    conn: &Connection,
    email: &str,
    phone: Option<&str>,
    zip: &str,
    network: &str,
    now: Timestamp,
) -> rusqlite::Result<()> {
    // A known address keeps its details and is owed a confirmation unless confirmed (one
    // owed however often it signs up); one statement either way, so a known address
    // answers no faster than a new one. The signup is keyed by its address's row, which
    // grows as addresses arrive: a new signup only appends to its indexes (V16).
    let email_id = people::link(conn, email, now)?;
    // A confirmation already owed keeps its network and its first asking (SET reads the
    // row as it was).
    conn.prepare_cached(
        "INSERT INTO newsletter_signups (email, phone, zip_code, status, phone_e164, email_id, \
         confirm_owed_since, confirm_asked_at, confirm_network) \
         VALUES (?1, ?2, ?3, 'pending', ?4, ?5, ?6, ?6, ?7) \
         ON CONFLICT (email_id) DO UPDATE SET \
         confirm_network = CASE WHEN status = 'confirmed' OR confirm_owed_since IS NOT NULL \
         THEN confirm_network ELSE excluded.confirm_network END, \
         confirm_asked_at = CASE WHEN status = 'confirmed' THEN NULL \
         WHEN confirm_owed_since IS NOT NULL THEN confirm_asked_at ELSE excluded.confirm_asked_at END, \
         confirm_owed_since = CASE WHEN status = 'confirmed' \
         THEN NULL ELSE COALESCE(confirm_owed_since, excluded.confirm_owed_since) END",
    )?
    .execute(params![
        email,
        phone,
        zip,
        phone.and_then(generator::forms::e164),
        email_id,
        sql_time(now),
        network
    ])?;
    Ok(())
}

/// Whether confirmations are owed that [`queue_owed`] would queue `now` (a read, so the
/// sender writes only when there is something to do).
pub fn owed(conn: &Connection, now: Timestamp, per_hour: i64) -> rusqlite::Result<bool> {
    let owed: bool = conn
        .prepare_cached(
            "SELECT EXISTS (SELECT 1 FROM newsletter_signups WHERE confirm_owed_since IS NOT NULL \
             AND confirm_owed_since <= ?1)",
        )?
        .query_row([sql_time(now)], |r| r.get(0))?;
    Ok(owed && room_this_hour(conn, now, per_hour)? > 0)
}

/// The hour (UTC, `2026-11-29T14`) `now` is in, as the counts name it.
fn hour_of(now: Timestamp) -> String {
    now.strftime("%Y-%m-%dT%H").to_string()
}

/// The start of the hour after `now`'s: when a network that had its share may go again.
fn next_hour(now: Timestamp) -> Timestamp {
    let secs = now.as_second();
    Timestamp::from_second(secs - secs.rem_euclid(3600) + 3600).unwrap_or(now)
}

fn room_this_hour(conn: &Connection, now: Timestamp, per_hour: i64) -> rusqlite::Result<i64> {
    let sent: i64 = conn
        .prepare_cached(
            "SELECT COALESCE((SELECT sent FROM confirm_mail_counts WHERE mailbox_key = '*' \
             AND period = ?1), 0)",
        )?
        .query_row([hour_of(now)], |r| r.get(0))?;
    Ok(per_hour - sent)
}

/// What one of the sender's writes did with the confirmations owed.
#[derive(Debug, Default, Clone, Copy)]
struct Queued {
    queued: usize,
    /// Put off to the next hour: their network had its share.
    deferred: usize,
    /// This write filled the hour's ceiling.
    filled: bool,
}

/// Queues the confirmations owed, oldest first, as many as the hour has room for (at most
/// [`QUEUE_AT_ONCE`]); one whose network had its share this hour waits for the next; one
/// whose mailbox had its three today, or that waited longer than
/// [`CONFIRMATION_BACKLOG_HOURS`] since it was asked for, is no longer owed and is not
/// sent. Call inside one write (the sender's).
fn queue_owed(mail: &Owed, conn: &Connection, now: Timestamp) -> rusqlite::Result<Queued> {
    let mut done = Queued::default();
    let room = room_this_hour(conn, now, mail.per_hour)?.min(QUEUE_AT_ONCE);
    if room <= 0 {
        return Ok(done);
    }
    let at = sql_time(now);
    let hour = hour_of(now);
    let owed: Vec<(i64, String, String, i64, Option<String>)> = conn
        .prepare_cached(
            "SELECT id, email, COALESCE(confirm_asked_at, confirm_owed_since), link_epoch, \
             confirm_network FROM newsletter_signups \
             WHERE confirm_owed_since IS NOT NULL AND confirm_owed_since <= ?1 \
             ORDER BY confirm_owed_since, id LIMIT ?2",
        )?
        .query_map(params![at, room], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
        })?
        .collect::<rusqlite::Result<_>>()?;
    let too_old = sql_time(now - jiff::SignedDuration::from_hours(CONFIRMATION_BACKLOG_HOURS));
    let today = now.to_zoned_datetime(mail.tz.clone()).date().to_string();
    let later = sql_time(next_hour(now));
    let (from, subject) = (&mail.from, &mail.subject);
    let mut dropped = 0usize;
    // A count goes up unless it reached `limit` (then no row comes back).
    let take = |key: &str, period: &str, limit: i64| -> rusqlite::Result<Option<i64>> {
        conn.prepare_cached(
            "INSERT INTO confirm_mail_counts (mailbox_key, period, sent) VALUES (?1, ?2, 1) \
             ON CONFLICT (mailbox_key, period) DO UPDATE SET sent = sent + 1 WHERE sent < ?3 \
             RETURNING sent",
        )?
        .query_row(params![key, period, limit], |r| r.get::<_, i64>(0))
        .optional()
    };
    for (id, email, asked, epoch, network) in owed {
        if asked < too_old {
            conn.prepare_cached(
                "UPDATE newsletter_signups SET confirm_owed_since = NULL WHERE id = ?1",
            )?
            .execute([id])?;
            dropped += 1;
            continue;
        }
        // The network's share first: a confirmation put off keeps its mailbox's three.
        if let Some(network) = &network
            && take(
                &format!("net:{network}"),
                &hour,
                CONFIRMATIONS_PER_NETWORK_HOUR,
            )?
            .is_none()
        {
            conn.prepare_cached(
                "UPDATE newsletter_signups SET confirm_owed_since = ?2 WHERE id = ?1",
            )?
            .execute(params![id, later])?;
            done.deferred += 1;
            continue;
        }
        conn.prepare_cached(
            "UPDATE newsletter_signups SET confirm_owed_since = NULL WHERE id = ?1",
        )?
        .execute([id])?;
        let key = mail.tokens.key_of("confirm-mailbox", &mailbox(&email));
        let Some(n) = take(&key, &today, CONFIRMATIONS_PER_DAY)? else {
            continue;
        };
        // Written when it is sent ([`write_confirmation`]), outside the one writer.
        let head = queue::Head {
            envelope_from: from,
            to: &email,
            subject,
        };
        // The link epoch goes in the key: the link is made when the message is written.
        let event = format!("newsletter-confirm:{id}:{today}:{n}:{epoch}");
        queue::enqueue_unwritten(conn, &event, Kind::NewsletterConfirm, &email, &head, now)?;
        done.queued += 1;
    }
    if dropped > 0 {
        tracing::warn!(
            dropped,
            "newsletter confirmations waited more than {CONFIRMATION_BACKLOG_HOURS} hours for room; not sent"
        );
    }
    if done.queued > 0 {
        let queued = done.queued as i64;
        let sent: i64 = conn
            .prepare_cached(
                "INSERT INTO confirm_mail_counts (mailbox_key, period, sent) VALUES ('*', ?1, ?2) \
                 ON CONFLICT (mailbox_key, period) DO UPDATE SET sent = sent + ?2 RETURNING sent",
            )?
            .query_row(params![hour, queued], |r| r.get(0))?;
        if sent == queued {
            forget_old_counts(conn, now)?;
        }
        done.filled = sent >= mail.per_hour;
    }
    Ok(done)
}

/// What [`queue_owed`] needs of [`Mail`], to take into the writer.
struct Owed {
    tz: jiff::tz::TimeZone,
    tokens: Tokens,
    from: String,
    subject: String,
    per_hour: i64,
}

impl Mail {
    /// Queues the confirmations owed ([`queue_owed`]); a write only when some are owed and
    /// the hour has room. Returns how many were queued.
    pub(super) async fn queue_owed_confirmations(&self) -> usize {
        let now = self.clock.now();
        let per_hour = self.confirmations_per_hour;
        match self.db.read(move |c| owed(c, now, per_hour)).await {
            Ok(true) => {}
            Ok(false) => return 0,
            Err(e) => {
                tracing::warn!(error = %e, "could not read the confirmations owed");
                return 0;
            }
        }
        let cx = Arc::new(Owed {
            tz: self.tz.clone(),
            tokens: self.tokens.clone(),
            from: self.from.email.to_string(),
            subject: self.fill(&self.texts.newsletter.confirm_subject, &[]),
            per_hour,
        });
        // A write that only put off one network's confirmations goes round again at once:
        // those behind them, from other networks, must not wait for the next wake.
        loop {
            let cx = cx.clone();
            match self.db.write(move |tx| queue_owed(&cx, tx, now)).await {
                Ok(done) if done.queued == 0 && done.deferred > 0 => continue,
                Ok(done) => {
                    if done.filled {
                        self.tell_staff_the_ceiling_was_reached(now).await;
                    }
                    return done.queued;
                }
                Err(e) => {
                    tracing::error!(error = %e, "could not queue the confirmations owed");
                    return 0;
                }
            }
        }
    }

    /// Once an hour at most: the confirmations reached `CONFIRMATIONS_PER_HOUR`, and the
    /// rest wait.
    async fn tell_staff_the_ceiling_was_reached(&self, now: Timestamp) {
        let hour = hour_of(now);
        tracing::warn!(
            ceiling = self.confirmations_per_hour,
            %hour,
            "newsletter confirmations reached the hour's ceiling; the rest wait for the next hour"
        );
        let body = format!(
            "The newsletter's confirmation mails reached this hour's ceiling of {} (CONFIRMATIONS_PER_HOUR). \
             The signups still waiting get theirs from the next hour on, oldest first; one that waits more \
             than {CONFIRMATION_BACKLOG_HOURS} hours is not sent (signing up again sends it).\n\n\
             If this is a real crowd of readers, raise CONFIRMATIONS_PER_HOUR and restart the server. \
             If it is a flood of made-up addresses, nothing needs doing: the ceiling is holding it.",
            self.confirmations_per_hour
        );
        let key = format!("confirm-ceiling:{hour}");
        let alert = super::staff_alert::Alert {
            event_key: &key,
            about: "",
            reply_to: None,
            subject: "Newsletter confirmations reached the hour's ceiling",
            body: &body,
        };
        let Some(built) = super::staff_alert::built(self, &alert) else {
            return;
        };
        let queued = self
            .db
            .write(move |tx| queue::enqueue(tx, &key, Kind::StaffAlert, "", &built, now))
            .await;
        match queued {
            Ok(true) => self.wake(),
            Ok(false) => {}
            Err(e) => {
                tracing::error!(error = %e, "could not tell staff the confirmations' ceiling was reached")
            }
        }
    }
}

/// Writes the confirmation `due` holds the place of: its link made when it was queued
/// (good for seven days from then), its Message-ID the same however often it is sent. The
/// signup is named by the queue's event (`newsletter-confirm:{id}:…`). `None` when it
/// cannot be written: it is then marked failed, never sent empty.
pub fn write_confirmation(mail: &Mail, due: &queue::Due) -> Option<super::message::Built> {
    let mut parts = due
        .event_key
        .strip_prefix("newsletter-confirm:")?
        .split(':');
    let id: i64 = parts.next()?.parse().ok()?;
    // `{id}:{day}:{n}:{epoch}`; a key queued before epochs has none (epoch 0).
    let epoch: i64 = parts.nth(2).and_then(|e| e.parse().ok()).unwrap_or(0);
    let queued: Timestamp = due.created_at.parse().ok()?;
    let url = mail.link(&format!(
        "/newsletter/confirm/{}",
        mail.tokens.confirm(id, &due.to, queued, epoch)
    ));
    let n = &mail.texts.newsletter;
    let subject = mail.fill(&n.confirm_subject, &[]);
    let body = mail.fill(&n.confirm_body, &[("confirmUrl", &url)]);
    let to = Person {
        name: None,
        email: &due.to,
    };
    let kind = Kind::NewsletterConfirm;
    let message_id = mail.message_id_of(kind, &due.event_key);
    mail.compose_as(kind, message_id, to, None, &subject, &body, None)
}

/// Deletes the counts no longer of use: hours gone, and days before yesterday (in any time
/// zone). Run by the first confirmation queued in an hour: it reads the whole table.
fn forget_old_counts(conn: &Connection, now: Timestamp) -> rusqlite::Result<()> {
    let days_ago = now
        .checked_sub(jiff::SignedDuration::from_hours(48))
        .unwrap_or(now)
        .strftime("%Y-%m-%d")
        .to_string();
    conn.execute(
        "DELETE FROM confirm_mail_counts WHERE (mailbox_key = '*' AND period < ?1) \
         OR (mailbox_key != '*' AND period < ?2)",
        params![hour_of(now), days_ago],
    )?;
    Ok(())
}

/// A signup as its links read it: id, address, status, and its link epoch.
type Signup = (i64, String, String, i64);

/// The signup a link names, if the link is signed for its address.
fn signup_of(conn: &Connection, id: Option<i64>) -> rusqlite::Result<Option<Signup>> {
    let Some(id) = id else { return Ok(None) };
    conn.query_row(
        "SELECT id, email, status, link_epoch FROM newsletter_signups WHERE id = ?1",
        [id],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
    )
    .optional()
}

/// What confirmation link `token` says of its signup: a link mailed before the address
/// last unsubscribed (an earlier link epoch) is out of date, like an expired one, however
/// soon after it the unsubscribe came (a person who unsubscribed signs up again to get a
/// new link; an old one in their mailbox must not subscribe them again: CAN-SPAM).
fn confirm_state(mail: &Mail, signup: &Signup, token: &str, now: Timestamp) -> Confirm {
    let (id, email, _, epoch) = signup;
    mail.tokens.check_confirm(token, *id, email, now, *epoch)
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
                 updated_at = ?2, link_epoch = link_epoch + 1 WHERE id = ?1",
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
