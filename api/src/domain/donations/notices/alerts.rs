//! Alerts to `STAFF_EMAIL` about money: a card issuer opened a dispute on a gift (staff must
//! answer it at Stripe before its deadline), or a refund failed after it was made (the money
//! did not go back). Each is queued once, in the write that recorded what happened.

use jiff::Timestamp;
use rusqlite::{Connection, OptionalExtension};

use super::receipt::usd;
use crate::domain::mail::Mail;
use crate::domain::mail::staff_alert::{Alert, alert};

/// The gift an alert is about.
struct Gift {
    name: String,
    email: String,
    cents: i64,
    created_at: String,
}

fn gift(conn: &Connection, donation_id: i64) -> rusqlite::Result<Option<Gift>> {
    conn.query_row(
        "SELECT donor_name, donor_email, amount_cents, created_at FROM donations WHERE id = ?1",
        [donation_id],
        |r| {
            Ok(Gift {
                name: r.get(0)?,
                email: r.get(1)?,
                cents: r.get(2)?,
                created_at: r.get(3)?,
            })
        },
    )
    .optional()
}

fn day(mail: &Mail, utc: &str, now: Timestamp) -> String {
    utc.parse::<Timestamp>()
        .unwrap_or(now)
        .to_zoned_datetime(mail.tz.clone())
        .strftime("%B %-d, %Y")
        .to_string()
}

/// Queues an alert about `cents` of gift `donation_id`, its texts filled with the donor's
/// name, the gift's amount and date, `amount`, the admin link and `extra`; `(event_key,
/// subject, body)` name the event and its texts. `false` when the gift is gone.
fn about_gift(
    mail: &Mail,
    conn: &Connection,
    (donation_id, cents): (i64, i64),
    extra: &[(&str, &str)],
    (event_key, subject, body): (&str, &str, &str),
    now: Timestamp,
) -> rusqlite::Result<bool> {
    let Some(g) = gift(conn, donation_id)? else {
        return Ok(false);
    };
    let admin = mail.link("/admin/dashboard?tab=donations");
    let (amount, gift_amount, gift_date) =
        (usd(cents), usd(g.cents), day(mail, &g.created_at, now));
    let mut values = vec![
        ("donorName", g.name.as_str()),
        ("giftAmount", gift_amount.as_str()),
        ("giftDate", gift_date.as_str()),
        ("amount", amount.as_str()),
        ("adminUrl", admin.as_str()),
    ];
    values.extend_from_slice(extra);
    alert(
        mail,
        conn,
        &Alert {
            event_key,
            about: &g.email,
            reply_to: None,
            subject: &mail.fill(subject, &values),
            body: &mail.fill(body, &values),
        },
        now,
    )
}

/// Queues the alert for dispute `id` (Stripe's); call inside the write that first recorded it.
pub fn dispute(mail: &Mail, conn: &Connection, id: &str, now: Timestamp) -> rusqlite::Result<bool> {
    let dispute: Option<(i64, i64, String, String)> = conn
        .query_row(
            "SELECT donation_id, amount_cents, reason, status FROM donation_disputes WHERE id = ?1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )
        .optional()?;
    let Some((donation_id, cents, reason, status)) = dispute else {
        return Ok(false);
    };
    let (reason, status) = (reason.replace('_', " "), status.replace('_', " "));
    let t = &mail.texts.staff_alert;
    about_gift(
        mail,
        conn,
        (donation_id, cents),
        &[("reason", reason.as_str()), ("status", status.as_str())],
        (
            &format!("dispute:{id}"),
            &t.dispute_subject,
            &t.dispute_body,
        ),
        now,
    )
}

/// Queues the alert that refund `id` (our row) failed; call inside the write that recorded
/// the failure.
pub fn refund_failed(
    mail: &Mail,
    conn: &Connection,
    id: i64,
    now: Timestamp,
) -> rusqlite::Result<bool> {
    let refund: Option<(i64, i64)> = conn
        .query_row(
            "SELECT donation_id, amount_cents FROM donation_refunds WHERE id = ?1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    let Some((donation_id, cents)) = refund else {
        return Ok(false);
    };
    let t = &mail.texts.staff_alert;
    about_gift(
        mail,
        conn,
        (donation_id, cents),
        &[],
        (
            &format!("refund-failed:{id}"),
            &t.refund_failed_subject,
            &t.refund_failed_body,
        ),
        now,
    )
}
