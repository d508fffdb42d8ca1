//! The donor's refund notice, queued in the write that records the refund as made (by the
//! admin's call to Stripe or by Stripe's event, whichever comes first), once per refund. A
//! lost dispute is recorded as a refund too, but sends nothing: the donor's bank started it
//! and has told them.

use jiff::Timestamp;
use rusqlite::{Connection, OptionalExtension};

use super::receipt::usd;
use crate::domain::donations;
use crate::domain::mail::Mail;
use crate::domain::mail::message::Person;
use crate::domain::mail::queue::{self, Kind};

/// What the notice says about one refund.
struct Refunded {
    name: String,
    email: String,
    cents: i64,
    gift_cents: i64,
    gift_at: String,
    receipt: Option<String>,
    refunded_at: String,
    year: i16,
    /// `limit` for the server's own refund of what passed the year's limit.
    origin: String,
    /// The gift's row.
    gift: i64,
}

/// Queues the notice of refund `id` (our row); `false` when there is none to send (a
/// chargeback, a refund that does not count, or one already notified). Call inside the
/// write that recorded the refund as made.
pub fn queue(mail: &Mail, conn: &Connection, id: i64, now: Timestamp) -> rusqlite::Result<bool> {
    let refund = conn
        .query_row(
            &format!(
                "SELECT d.donor_name, d.donor_email, r.amount_cents, d.amount_cents, d.created_at, \
                        d.receipt_number, r.refunded_at, d.contribution_year, r.origin, d.id \
                 FROM donation_refunds r JOIN donations d ON d.id = r.donation_id \
                 WHERE r.id = ?1 AND r.kind = 'refund' AND r.status IN {}",
                donations::store::COUNTED
            ),
            [id],
            |r| {
                Ok(Refunded {
                    name: r.get(0)?,
                    email: r.get(1)?,
                    cents: r.get(2)?,
                    gift_cents: r.get(3)?,
                    gift_at: r.get(4)?,
                    receipt: r.get(5)?,
                    gift: r.get(9)?,
                    refunded_at: r.get(6)?,
                    year: r.get(7)?,
                    origin: r.get(8)?,
                })
            },
        )
        .optional()?;
    let Some(refund) = refund else {
        return Ok(false);
    };
    let day = |utc: &str| {
        utc.parse::<Timestamp>()
            .unwrap_or(now)
            .to_zoned_datetime(mail.tz.clone())
            .strftime("%B %-d, %Y")
            .to_string()
    };
    let giver = donations::giver_of(conn, refund.gift, &refund.email)?;
    let year_total = donations::totals(conn, giver, refund.year, now)?.completed;
    let limit = usd(mail.limit_cents(refund.year).unwrap_or_default());
    let (amount, gift_amount, gift_date, date, year, total) = (
        usd(refund.cents),
        usd(refund.gift_cents),
        day(&refund.gift_at),
        day(&refund.refunded_at),
        refund.year.to_string(),
        usd(year_total),
    );
    let values = [
        ("donorName", refund.name.as_str()),
        ("amount", amount.as_str()),
        ("giftAmount", gift_amount.as_str()),
        ("giftDate", gift_date.as_str()),
        (
            "receiptNumber",
            refund.receipt.as_deref().unwrap_or("not numbered"),
        ),
        ("date", date.as_str()),
        ("year", year.as_str()),
        ("yearTotal", total.as_str()),
        ("limit", limit.as_str()),
    ];
    // What passed the year's limit has its own notice: the donor did not ask for it.
    let t = if refund.origin == "limit" {
        &mail.texts.limit_refund
    } else {
        &mail.texts.refund
    };
    let to = Person {
        name: Some(&refund.name),
        email: &refund.email,
    };
    let subject = mail.fill(&t.subject, &values);
    let body = mail.fill(&t.body, &values);
    let Some(built) = mail.compose(Kind::RefundNotice, to, None, &subject, &body, None) else {
        return Ok(false);
    };
    queue::enqueue(
        conn,
        &format!("refund:{id}"),
        Kind::RefundNotice,
        &refund.email,
        &built,
        now,
    )
}
