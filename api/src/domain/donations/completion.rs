//! What follows a gift's completion, whoever completes it (Stripe's event, the donor's return
//! page, a monthly charge): kept apart from the donation rules, which the receipt itself
//! reads, so neither depends on the other.

use jiff::Timestamp;
use rusqlite::Connection;

use super::notices::{info_request, receipt};
use crate::domain::donations;
use crate::domain::donations::monthly;
use crate::domain::mail::Mail;

/// What a completion set in motion beyond its own write.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Followed {
    /// The gift took its donor past the year's limit: a refund of the excess is stored for
    /// `LimitRefunder` to make (wake it).
    pub limit_refund: Option<i64>,
}

/// What follows a gift's completion, in the write that completed it (by Stripe's event, the
/// donor's return or a monthly charge): its plan moves on, its receipt is queued (it names
/// the plan's next date), whatever it gave past the year's limit is set to go back
/// (`donations::hold_to_limit`), and a donor whose year it takes past the itemisation
/// threshold without occupation or employer is asked for them. Once: a gift is completed
/// once, and numbered once.
pub fn completed(
    mail: &Mail,
    conn: &Connection,
    id: i64,
    payment_method: Option<&str>,
    now: Timestamp,
    tz: &jiff::tz::TimeZone,
) -> rusqlite::Result<Followed> {
    // Who gave it (the FEC's individual) is known before anything counts their year.
    donations::contributors::assign(conn, id, now)?;
    monthly::on_completed(conn, id, payment_method, now, tz)?;
    receipt::queue(mail, conn, id, now)?;
    let limit_refund = donations::hold_to_limit(conn, &mail.donation_rules, tz, id, now)?;
    info_request::after_gift(mail, conn, id, now)?;
    Ok(Followed { limit_refund })
}
