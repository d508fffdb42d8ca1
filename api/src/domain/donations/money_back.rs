//! What follows a refund or a dispute once it is recorded, in the same write: the donor's
//! refund notice, staff's alert, and the audit row for what Stripe reported on its own
//! (staff's own refunds are audited where they make them, with their reason). The admin's
//! refund route and the webhook both call this, so whichever records a refund first sends
//! its notice, and the mail queue's event key keeps it to one.

use jiff::Timestamp;
use rusqlite::Connection;

use super::notices::{alerts as money_alerts, refund as refund_notice};
use crate::domain::audit::{self, Action};
use crate::domain::donations::disputes::DisputeRecorded;
use crate::domain::donations::notices::receipt::usd;
use crate::domain::donations::refunds::Recorded;
use crate::domain::mail::Mail;

/// Follows recorded refund `recorded`; `true` when mail was queued (wake the sender).
pub fn after_refund(
    mail: &Mail,
    conn: &Connection,
    recorded: &Recorded,
    stripe_id: &str,
    now: Timestamp,
) -> rusqlite::Result<bool> {
    let Recorded::Refund {
        id,
        donation_id,
        origin,
        newly_counted,
        newly_failed,
        recovered,
    } = recorded
    else {
        return Ok(false);
    };
    let mut queued = false;
    if *newly_counted {
        queued |= refund_notice::queue(mail, conn, *id, now)?;
        // Staff audit their own refunds where they make them, with their reason; the rest
        // are audited here, once they count.
        if origin == "stripe" || origin == "limit" || *recovered {
            let cents: i64 = conn.query_row(
                "SELECT amount_cents FROM donation_refunds WHERE id = ?1",
                [id],
                |r| r.get(0),
            )?;
            let detail = if origin == "limit" {
                format!(
                    "{} refunded automatically, over the year's limit ({stripe_id})",
                    usd(cents)
                )
            } else {
                format!("{} refunded in Stripe ({stripe_id})", usd(cents))
            };
            audit::record_detailed(
                conn,
                Action::Refund,
                &format!("donation:{donation_id}"),
                None,
                &detail,
            )?;
        }
    }
    if *newly_failed {
        queued |= money_alerts::refund_failed(mail, conn, *id, now)?;
        audit::record_detailed(
            conn,
            Action::Refund,
            &format!("donation:{donation_id}"),
            None,
            &format!("refund {stripe_id} failed at Stripe"),
        )?;
    }
    Ok(queued)
}

/// Follows recorded dispute `dispute_id`; `true` when mail was queued.
pub fn after_dispute(
    mail: &Mail,
    conn: &Connection,
    dispute_id: &str,
    recorded: &DisputeRecorded,
    now: Timestamp,
) -> rusqlite::Result<bool> {
    let DisputeRecorded::Dispute {
        donation_id,
        new,
        closed_now,
        status,
        chargeback,
        ..
    } = recorded
    else {
        return Ok(false);
    };
    let mut queued = false;
    let target = format!("donation:{donation_id}");
    if *new {
        queued |= money_alerts::dispute(mail, conn, dispute_id, now)?;
        audit::record_detailed(
            conn,
            Action::Dispute,
            &target,
            None,
            &format!("dispute {dispute_id} opened ({status})"),
        )?;
    }
    if *closed_now {
        audit::record_detailed(
            conn,
            Action::Dispute,
            &target,
            None,
            &format!("dispute {dispute_id} closed: {status}"),
        )?;
    }
    if let Some(refund) = chargeback {
        let cents: i64 = conn.query_row(
            "SELECT amount_cents FROM donation_refunds WHERE id = ?1",
            [refund],
            |r| r.get(0),
        )?;
        audit::record_detailed(
            conn,
            Action::Refund,
            &target,
            None,
            &format!("{} lost to dispute {dispute_id}", usd(cents)),
        )?;
    }
    Ok(queued)
}
