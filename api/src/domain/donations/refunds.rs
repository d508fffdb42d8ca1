//! Money that goes back: refunds (asked for in the admin or made in Stripe's dashboard) and
//! disputes, in the `donation_refunds` and `donation_disputes` tables.
//!
//! Every refund is keyed by Stripe's refund id, so the admin's refund, the `charge.refunded`
//! event it causes, a replay of that event and a `refund.updated` arriving first all land on
//! one row. A row's status only moves forward (see [`rank`]), so events applied in any order
//! leave the same result. A lost dispute is a refund too (a chargeback, keyed by the
//! dispute's id); a won one leaves the gift as it was.

use generator::forms::Invalid;
use jiff::Timestamp;
use jiff::tz::TimeZone;
use rusqlite::{Connection, OptionalExtension, params};
use serde_json::Value;

use super::disputes::{DisputeRecorded, StripeDispute, open_dispute, record_dispute};
use super::store::{self, counts};
use crate::domain::clock::sql_time;

/// The longest reason staff may give.
pub const REASON_MAX: usize = 500;

/// How far along a refund is; a row never moves to a lower rank. Ours first (asked for, or
/// our call failed), then Stripe's: on its way, done, and the ends that undo it.
fn rank(status: &str) -> u8 {
    match status {
        "requested" | "error" => 0,
        "pending" | "requires_action" => 1,
        "succeeded" => 2,
        // A refund can fail after it succeeded (the card was closed): that is its last word.
        _ => 3,
    }
}

/// Stripe's refund statuses we store as they are; anything else (a future one) is kept out.
fn stripe_status(status: &str) -> Option<&'static str> {
    Some(match status {
        "pending" => "pending",
        "requires_action" => "requires_action",
        "succeeded" => "succeeded",
        "failed" => "failed",
        "canceled" => "canceled",
        _ => return None,
    })
}

/// Dollars as staff typed them (a JSON number or a string such as `"12.50"`) to cents: more
/// than zero, at most two decimals, computed exactly.
pub fn parse_amount(value: Option<&Value>) -> Result<i64, Invalid> {
    let bad = |message: &str| Invalid {
        field: Some("amount"),
        message: message.into(),
    };
    let text = match value {
        Some(Value::Number(n)) => n.to_string(),
        Some(Value::String(s)) => s.trim().trim_start_matches('$').to_owned(),
        None | Some(Value::Null) => return Err(bad("Enter the amount to refund.")),
        Some(_) => return Err(bad("The amount must be a number of dollars.")),
    };
    let malformed = || bad("The amount must be dollars and cents, such as 25 or 12.50.");
    if text.starts_with('-') {
        return Err(bad("The amount must be more than zero."));
    }
    let (whole, fraction) = text.split_once('.').unwrap_or((&text, ""));
    let fraction = fraction.trim_end_matches('0');
    if (whole.is_empty() && fraction.is_empty())
        || !whole.bytes().all(|b| b.is_ascii_digit())
        || fraction.len() > 2
        || !fraction.bytes().all(|b| b.is_ascii_digit())
    {
        return Err(malformed());
    }
    let whole: i64 = if whole.is_empty() {
        0
    } else {
        whole.parse().map_err(|_| malformed())?
    };
    let fraction: i64 = format!("{fraction:0<2}").parse().map_err(|_| malformed())?;
    let cents = whole
        .checked_mul(100)
        .and_then(|c| c.checked_add(fraction))
        .ok_or_else(malformed)?;
    if cents <= 0 {
        return Err(bad("The amount must be more than zero."));
    }
    Ok(cents)
}

/// Staff's reason for a refund: required, one paragraph at most [`REASON_MAX`] characters.
pub fn parse_reason(value: Option<&Value>) -> Result<String, Invalid> {
    staff_reason(value, "Give the reason for the refund.")
}

/// A reason staff must give for an action on money (a refund, canceling a monthly gift):
/// plain text of at most [`REASON_MAX`] characters; `missing` says what to do without one.
pub fn staff_reason(value: Option<&Value>, missing: &str) -> Result<String, Invalid> {
    let reason = value.and_then(Value::as_str).map(str::trim).unwrap_or("");
    let bad = |message: &str| Invalid {
        field: Some("reason"),
        message: message.into(),
    };
    if reason.is_empty() {
        return Err(bad(missing));
    }
    if reason.chars().count() > REASON_MAX {
        return Err(bad(&format!(
            "The reason must be at most {REASON_MAX} characters."
        )));
    }
    if reason.chars().any(|c| c.is_control() && c != '\n') {
        return Err(bad("The reason must be plain text."));
    }
    Ok(reason.to_owned())
}

/// Why a refund cannot be asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refused {
    /// No such gift.
    NotFound,
    /// The gift is not in a state to refund (pending, failed, disputed…): a conflict.
    NotRefundable(String),
    /// More than is left to refund: a bad amount.
    TooMuch { refundable_cents: i64 },
}

/// A refund stored as `requested`, about to be sent to Stripe.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Requested {
    pub id: i64,
    pub donation_id: i64,
    pub payment_intent: String,
    pub created_at: String,
}

/// What is left to refund of gift `id`: its amount less every refund that is asked for, on
/// its way or done.
pub fn refundable(conn: &Connection, id: i64) -> rusqlite::Result<i64> {
    conn.query_row(
        &format!(
            "SELECT d.amount_cents - {} FROM donations d WHERE d.id = ?1",
            store::refunded_held("d")
        ),
        [id],
        |r| r.get(0),
    )
}

/// Stores staff's refund of `cents` from gift `id` as `requested`, if the gift allows it:
/// completed, paid through Stripe, not disputed, and with that much left. Call inside one
/// write, so two staff refunding at once cannot both take the last dollars.
pub fn request(
    conn: &Connection,
    tz: &TimeZone,
    id: i64,
    cents: i64,
    (reason, by): (&str, Option<i64>),
    now: Timestamp,
) -> rusqlite::Result<Result<Requested, Refused>> {
    let gift: Option<(String, Option<String>)> = conn
        .query_row(
            "SELECT status, payment_intent_id FROM donations WHERE id = ?1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    let Some((status, intent)) = gift else {
        return Ok(Err(Refused::NotFound));
    };
    if status != "completed" {
        return Ok(Err(Refused::NotRefundable(format!(
            "Only a completed gift can be refunded; this one is {status}."
        ))));
    }
    let Some(intent) = intent else {
        return Ok(Err(Refused::NotRefundable(
            "This gift was not paid through Stripe, so it cannot be refunded here.".into(),
        )));
    };
    if open_dispute(conn, id)? {
        return Ok(Err(Refused::NotRefundable(
            "This gift is disputed: its money is with the card issuer until the dispute closes."
                .into(),
        )));
    }
    let left = refundable(conn, id)?;
    if cents > left {
        return Ok(Err(Refused::TooMuch {
            refundable_cents: left.max(0),
        }));
    }
    let at = sql_time(now);
    // Staff pressing Refund again after our call to Stripe failed: the same amount takes
    // that request up again, with its idempotency key, so if the first call did reach Stripe
    // (the answer was lost, not the refund) Stripe answers with that refund instead of
    // making a second. Stripe keeps keys for 24 hours.
    let retried: Option<(i64, String)> = conn
        .query_row(
            "SELECT id, created_at FROM donation_refunds WHERE donation_id = ?1 \
             AND origin = 'admin' AND status = 'error' AND stripe_id IS NULL \
             AND amount_cents = ?2 AND created_at > ?3 ORDER BY id DESC LIMIT 1",
            params![
                id,
                cents,
                sql_time(now - jiff::SignedDuration::from_hours(23))
            ],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    if let Some((again, created_at)) = retried {
        conn.execute(
            "UPDATE donation_refunds SET status = 'requested', reason = ?2, updated_at = ?3, \
             refunded_by = ?4 WHERE id = ?1",
            params![again, reason, at, by],
        )?;
        return Ok(Ok(Requested {
            id: again,
            donation_id: id,
            payment_intent: intent,
            created_at,
        }));
    }
    let row = conn.query_row(
        "INSERT INTO donation_refunds (donation_id, kind, origin, amount_cents, status, reason, \
             refunded_at, refund_year, created_at, updated_at, refunded_by) \
         VALUES (?1, 'refund', 'admin', ?2, 'requested', ?3, ?4, ?5, ?4, ?4, ?6) RETURNING id, created_at",
        params![id, cents, reason, at, year_of(tz, now), by],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    Ok(Ok(Requested {
        id: row.0,
        donation_id: id,
        payment_intent: intent,
        created_at: row.1,
    }))
}

/// Stores the refund of `cents` of completed gift `id`, the part that took its donor past
/// `year`'s limit of `limit_cents` (see `donations::hold_to_limit`), as `requested`, of origin
/// `limit`: the server's own refund, made at Stripe by `limit_refunds`. Call inside the write
/// that completed the gift. Returns the row's id.
pub fn request_over_limit(
    conn: &Connection,
    tz: &TimeZone,
    id: i64,
    cents: i64,
    year: i16,
    limit_cents: i64,
    now: Timestamp,
) -> rusqlite::Result<i64> {
    let at = sql_time(now);
    let reason = format!(
        "Over the {year} limit of ${}: the excess is refunded automatically",
        generator::donations::format_dollars(limit_cents)
    );
    conn.query_row(
        "INSERT INTO donation_refunds (donation_id, kind, origin, amount_cents, status, reason, \
             refunded_at, refund_year, created_at, updated_at) \
         VALUES (?1, 'refund', 'limit', ?2, 'requested', ?3, ?4, ?5, ?4, ?4) RETURNING id",
        params![id, cents, reason, at, year_of(tz, now)],
        |r| r.get(0),
    )
}

/// Our call to Stripe for request `id` failed: it no longer holds its amount. (Should Stripe
/// have made the refund after all, its event finds this row by the id in its metadata.)
pub fn request_failed(conn: &Connection, id: i64, now: Timestamp) -> rusqlite::Result<()> {
    conn.execute(
        "UPDATE donation_refunds SET status = 'error', updated_at = ?2 \
         WHERE id = ?1 AND status = 'requested'",
        params![id, sql_time(now)],
    )
    .map(|_| ())
}

/// A refund as Stripe reports it (the refunds API's answer, a refund event, or the list of
/// a charge's refunds).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StripeRefund {
    pub id: String,
    pub amount_cents: i64,
    pub status: String,
    /// When Stripe made it: the date the money went back.
    pub created: Timestamp,
    pub payment_intent: Option<String>,
    /// Our `requested` row, from the refund's metadata (`refund_request`).
    pub request: Option<i64>,
    /// Stripe's reason code (`requested_by_customer`…), for refunds made in its dashboard.
    pub reason: Option<String>,
}

/// What recording a refund did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Recorded {
    /// No gift of ours has this payment (another integration on the same Stripe account).
    Unknown,
    Refund {
        /// Our row.
        id: i64,
        donation_id: i64,
        origin: String,
        /// The money now counts as gone back (it did not before): tell the donor.
        newly_counted: bool,
        /// The refund failed or was canceled after being asked for: tell staff.
        newly_failed: bool,
        /// Staff's refund whose call to Stripe failed, made by Stripe after all: its audit
        /// row is written now, as for a refund Stripe made on its own.
        recovered: bool,
    },
}

/// Records (or moves forward) Stripe's refund `r`; call inside one write.
pub fn record(
    conn: &Connection,
    tz: &TimeZone,
    r: &StripeRefund,
    now: Timestamp,
) -> rusqlite::Result<Recorded> {
    let Some(status) = stripe_status(&r.status) else {
        tracing::warn!(refund = %r.id, status = %r.status, "a refund status we do not know; left as it was");
        return Ok(Recorded::Unknown);
    };
    let donation = match &r.payment_intent {
        Some(intent) => conn
            .query_row(
                "SELECT id FROM donations WHERE payment_intent_id = ?1",
                [intent],
                |row| row.get::<_, i64>(0),
            )
            .optional()?,
        None => None,
    };
    // This refund's row: by Stripe's id, else the admin's request it names (of the same gift).
    let row = |row: &rusqlite::Row| Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?));
    let mut existing: Option<(i64, i64, String, String)> = conn
        .query_row(
            "SELECT id, donation_id, status, origin FROM donation_refunds WHERE stripe_id = ?1",
            [&r.id],
            row,
        )
        .optional()?;
    if existing.is_none() && r.request.is_some() {
        existing = conn
            .query_row(
                "SELECT id, donation_id, status, origin FROM donation_refunds \
                 WHERE id = ?1 AND stripe_id IS NULL AND donation_id = ?2",
                params![r.request, donation],
                row,
            )
            .optional()?;
    }
    let at = sql_time(now);
    // Stripe dates to the second, we to the millisecond: a refund in the same second as its
    // gift (or on a skewed clock) is dated with the gift, never before it.
    let refunded_at = |donation_id: i64| -> rusqlite::Result<String> {
        let gift: String = conn.query_row(
            "SELECT created_at FROM donations WHERE id = ?1",
            [donation_id],
            |row| row.get(0),
        )?;
        Ok(sql_time(r.created).max(gift))
    };
    match existing {
        Some((id, donation_id, old, origin)) => {
            let moves = rank(status) > rank(&old);
            conn.execute(
                "UPDATE donation_refunds SET stripe_id = ?2, \
                     status = CASE WHEN ?3 THEN ?4 ELSE status END, \
                     amount_cents = ?5, refunded_at = ?6, refund_year = ?7, updated_at = ?8 \
                 WHERE id = ?1",
                params![
                    id,
                    r.id,
                    moves,
                    status,
                    r.amount_cents,
                    refunded_at(donation_id)?,
                    year_of(tz, r.created),
                    at
                ],
            )?;
            let now_status = if moves { status } else { old.as_str() };
            Ok(Recorded::Refund {
                id,
                donation_id,
                origin,
                newly_counted: counts(now_status) && !counts(&old),
                newly_failed: moves && rank(status) == 3 && old != "error",
                recovered: old == "error" && counts(now_status),
            })
        }
        None => {
            let Some(donation_id) = donation else {
                return Ok(Recorded::Unknown);
            };
            let reason = match r.reason.as_deref() {
                Some(code) => format!("Refunded in Stripe ({})", code.replace('_', " ")),
                None => "Refunded in Stripe".to_owned(),
            };
            let id: i64 = conn.query_row(
                "INSERT INTO donation_refunds (donation_id, stripe_id, kind, origin, amount_cents, \
                     status, reason, refunded_at, refund_year, created_at, updated_at) \
                 VALUES (?1, ?2, 'refund', 'stripe', ?3, ?4, ?5, ?6, ?7, ?8, ?8) RETURNING id",
                params![
                    donation_id,
                    r.id,
                    r.amount_cents,
                    status,
                    reason,
                    refunded_at(donation_id)?,
                    year_of(tz, r.created),
                    at
                ],
                |row| row.get(0),
            )?;
            Ok(Recorded::Refund {
                id,
                donation_id,
                origin: "stripe".into(),
                newly_counted: counts(status),
                newly_failed: false,
                recovered: false,
            })
        }
    }
}

/// Records Stripe's dispute `d` (see `disputes::record_dispute`) and, when this event lost
/// it, its chargeback as a refund; call inside one write.
pub fn apply_dispute(
    conn: &Connection,
    tz: &TimeZone,
    d: &StripeDispute,
    event_at: Timestamp,
    now: Timestamp,
) -> rusqlite::Result<DisputeRecorded> {
    let mut recorded = record_dispute(conn, d, event_at, now)?;
    if let DisputeRecorded::Dispute {
        donation_id,
        lost_now: true,
        chargeback,
        ..
    } = &mut recorded
    {
        *chargeback = self::chargeback(conn, tz, *donation_id, d, event_at, now)?;
    }
    Ok(recorded)
}

/// A lost dispute as a refund of what is left of the gift (at most the disputed amount),
/// dated when it was lost; `None` when nothing is left.
fn chargeback(
    conn: &Connection,
    tz: &TimeZone,
    donation_id: i64,
    d: &StripeDispute,
    lost_at: Timestamp,
    now: Timestamp,
) -> rusqlite::Result<Option<i64>> {
    let left: i64 = conn.query_row(
        &format!(
            "SELECT d.amount_cents - {} FROM donations d WHERE d.id = ?1",
            store::refunded_counted("d")
        ),
        [donation_id],
        |r| r.get(0),
    )?;
    let cents = d.amount_cents.min(left);
    if cents <= 0 {
        return Ok(None);
    }
    let at = sql_time(now);
    conn.query_row(
        "INSERT INTO donation_refunds (donation_id, stripe_id, kind, origin, amount_cents, status, \
             reason, refunded_at, refund_year, created_at, updated_at) \
         VALUES (?1, ?2, 'chargeback', 'stripe', ?3, 'succeeded', ?4, ?5, ?6, ?7, ?7) \
         ON CONFLICT (stripe_id) DO NOTHING RETURNING id",
        params![
            donation_id,
            d.id,
            cents,
            format!("Dispute lost ({})", d.reason.replace('_', " ")),
            sql_time(lost_at),
            year_of(tz, lost_at),
            at
        ],
        |r| r.get(0),
    )
    .optional()
}

fn year_of(tz: &TimeZone, at: Timestamp) -> i16 {
    at.to_zoned_datetime(tz.clone()).year()
}

#[cfg(test)]
mod tests;
