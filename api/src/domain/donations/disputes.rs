//! Disputes (chargebacks) as Stripe reports them, in `donation_disputes`. A new one marks the
//! gift disputed (it cannot be refunded meanwhile: the issuer holds the money); a lost one
//! is recorded as a refund of what is left of the gift (a chargeback, keyed by the dispute's
//! id, dated when it was lost); a won one leaves the gift as it was. A dispute's status only
//! moves from open to closed, so its events count once in any order.

use jiff::Timestamp;
use rusqlite::{Connection, OptionalExtension, params};

use crate::domain::clock::sql_time;

/// Whether gift `id` has a dispute that is not closed.
pub fn open_dispute(conn: &Connection, id: i64) -> rusqlite::Result<bool> {
    conn.query_row(
        &format!(
            "SELECT EXISTS (SELECT 1 FROM donation_disputes WHERE donation_id = ?1 AND status NOT IN {CLOSED})"
        ),
        [id],
        |r| r.get(0),
    )
}

/// Dispute statuses that end it.
const CLOSED: &str = "('won', 'lost', 'prevented', 'warning_closed')";

fn closed(status: &str) -> bool {
    matches!(status, "won" | "lost" | "prevented" | "warning_closed")
}

/// A dispute as Stripe reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StripeDispute {
    pub id: String,
    pub amount_cents: i64,
    pub reason: String,
    pub status: String,
    pub created: Timestamp,
    pub payment_intent: Option<String>,
}

/// What recording a dispute did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DisputeRecorded {
    Unknown,
    Dispute {
        donation_id: i64,
        /// Seen for the first time: alert staff.
        new: bool,
        /// Closed by this event (won, lost…).
        closed_now: bool,
        /// Its status now (after this event, or as it was when the event is stale).
        status: String,
        /// It was lost just now (by this event).
        lost_now: bool,
        /// The chargeback recorded for it, as a refund (see `refunds::apply_dispute`).
        chargeback: Option<i64>,
    },
}

/// Records (or closes) Stripe's dispute `d`, reported by an event made at `event_at` (the
/// closing date of a dispute closed by it); call inside one write (through
/// `refunds::apply_dispute`, which records a lost one's chargeback with it). An open status never
/// reopens a closed dispute, so a late `created` after `closed` changes nothing.
pub fn record_dispute(
    conn: &Connection,
    d: &StripeDispute,
    event_at: Timestamp,
    now: Timestamp,
) -> rusqlite::Result<DisputeRecorded> {
    let donation: Option<i64> = match &d.payment_intent {
        Some(intent) => conn
            .query_row(
                "SELECT id FROM donations WHERE payment_intent_id = ?1",
                [intent],
                |row| row.get(0),
            )
            .optional()?,
        None => None,
    };
    let Some(donation_id) = donation else {
        return Ok(DisputeRecorded::Unknown);
    };
    let at = sql_time(now);
    let closed_at = closed(&d.status).then(|| sql_time(event_at));
    let old: Option<String> = conn
        .query_row(
            "SELECT status FROM donation_disputes WHERE id = ?1",
            [&d.id],
            |r| r.get(0),
        )
        .optional()?;
    let status = match &old {
        None => {
            conn.execute(
                "INSERT INTO donation_disputes (id, donation_id, amount_cents, reason, status, \
                     opened_at, closed_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                params![
                    d.id,
                    donation_id,
                    d.amount_cents,
                    d.reason,
                    d.status,
                    sql_time(d.created),
                    closed_at,
                    at
                ],
            )?;
            d.status.clone()
        }
        Some(old) if closed(old) => old.clone(),
        Some(_) => {
            conn.execute(
                "UPDATE donation_disputes SET status = ?2, closed_at = ?3, amount_cents = ?4, \
                     updated_at = ?5 WHERE id = ?1",
                params![d.id, d.status, closed_at, d.amount_cents, at],
            )?;
            d.status.clone()
        }
    };
    let closed_now = closed(&status) && !old.as_deref().is_some_and(closed);
    let lost_now = status == "lost" && old.as_deref() != Some("lost");
    Ok(DisputeRecorded::Dispute {
        donation_id,
        new: old.is_none(),
        closed_now,
        lost_now,
        status,
        chargeback: None,
    })
}
