//! What follows a gift's completion, whoever completes it (Stripe's event, the donor's return
//! page, a monthly charge): kept apart from the donation rules, which the receipt itself
//! reads, so neither depends on the other.

use jiff::Timestamp;
use rusqlite::Connection;

use crate::domain::mail::{Mail, receipt};
use crate::domain::plans;

/// What follows a gift's completion, in the write that completed it (by Stripe's event, the
/// donor's return or a monthly charge): its plan moves on, then its receipt is queued (it
/// names the plan's next date). Once: a gift is completed once, and numbered once.
pub fn completed(
    mail: &Mail,
    conn: &Connection,
    id: i64,
    payment_method: Option<&str>,
    now: Timestamp,
    tz: &jiff::tz::TimeZone,
) -> rusqlite::Result<()> {
    plans::on_completed(conn, id, payment_method, now, tz)?;
    receipt::queue(mail, conn, id, now)?;
    Ok(())
}
