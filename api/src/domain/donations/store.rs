//! The money's tables as the rest of the server reads them: every query that code outside
//! `domain::donations` makes on `donations`, `donation_refunds`, `donation_disputes`,
//! `donation_plans`, `stripe_events` and `receipt_counters` is here, and so is the one
//! expression for what was refunded of a gift ([`refunded`]) with each list of refund
//! statuses, written once. A rule such as "a lost dispute counts like a refund" changes
//! here.
//!
//! The queries the people's side makes (who gave, from which address, under which
//! contributor) are in [`people`].
//!
//! What was refunded of a gift is asked four ways, each on purpose:
//! - [`refunded_counted`]: the money that is going or has gone back (staff's list, the
//!   treasurer's reports, the over-the-limit list, a chargeback's "what is left");
//! - [`refunded_held`]: that and the refunds asked for and not yet answered, which nobody
//!   may give back again nor count as kept (what is left to refund, the limit at payment);
//! - [`refunded_in_year`]: counted refunds made in the gift's own year (a donor's yearly
//!   total: a later year's refund is that year's disbursement and changes neither year);
//! - [`refunded_before`]: counted refunds of that year made before a given gift (the FEC's
//!   year-to-date aggregate as of each gift).

use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;

pub mod people;

/// Refund statuses that mean the money is going or has gone back: they lower a donor's total.
const COUNTED_STATUSES: [&str; 3] = ["pending", "requires_action", "succeeded"];
/// [`COUNTED_STATUSES`] as SQL (a test keeps the two the same).
pub const COUNTED: &str = "('pending', 'requires_action', 'succeeded')";
/// [`COUNTED`] and the refunds asked for and not yet answered (`requested`): what a gift no
/// longer holds.
pub const HELD: &str = "('requested', 'pending', 'requires_action', 'succeeded')";

/// Whether a refund with `status` counts ([`COUNTED`]), for code that holds a refund's
/// status rather than a query.
pub fn counts(status: &str) -> bool {
    COUNTED_STATUSES.contains(&status)
}

/// SQL for the cents refunded of gift `gift` (an alias of `donations`) by refunds whose status
/// is in `statuses` and that meet `and` (more conditions on the refund `r`, each starting
/// ` AND `, or nothing).
pub fn refunded(gift: &str, statuses: &str, and: &str) -> String {
    format!(
        "COALESCE((SELECT SUM(r.amount_cents) FROM donation_refunds r \
         WHERE r.donation_id = {gift}.id AND r.status IN {statuses}{and}), 0)"
    )
}

/// What went or is going back of `gift`.
pub fn refunded_counted(gift: &str) -> String {
    refunded(gift, COUNTED, "")
}

/// What `gift` no longer holds: [`refunded_counted`] and refunds still being asked for.
pub fn refunded_held(gift: &str) -> String {
    refunded(gift, HELD, "")
}

/// What went back of `gift` in the year `year` names (an SQL expression, a parameter such
/// as `?2`): a donor's total for a year is net of that year's refunds only.
pub fn refunded_in_year(gift: &str, year: &str) -> String {
    refunded(gift, COUNTED, &format!(" AND r.refund_year = {year}"))
}

/// What went back of `gift` in `of`'s year before gift `of` was received (`of` an alias of
/// the gift reported): the FEC's aggregate is as of each gift.
pub fn refunded_before(gift: &str, of: &str) -> String {
    refunded(
        gift,
        COUNTED,
        &format!(" AND r.refund_year = {of}.contribution_year AND r.refunded_at < {of}.created_at"),
    )
}

/// Gifts of `donations` (unaliased) by the contributor whose root is `?1`: the law's count.
pub const OF_CONTRIBUTOR: &str =
    "contributor_id IN (SELECT c.id FROM contributors c WHERE c.root_id = ?1)";
/// [`OF_CONTRIBUTOR`], made from the addresses of supporter `?5` only.
pub const OF_CONTRIBUTOR_VIA: &str = "contributor_id IN (SELECT c.id FROM contributors c WHERE c.root_id = ?1) \
     AND email_id IN (SELECT e.id FROM supporter_emails e WHERE e.supporter_id = ?5)";

/// A gift as staff's Donations tab shows it (`GET /api/admin/donations`).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Gift {
    pub id: i64,
    /// Dollars with two decimals ("25.00").
    pub amount: String,
    pub donor_name: String,
    pub donor_email: String,
    pub donor_address: String,
    pub donor_city: String,
    pub donor_state: String,
    pub donor_zip_code: String,
    pub donor_occupation: Option<String>,
    pub donor_employer: Option<String>,
    pub contribution_purpose: Option<String>,
    pub citizenship_confirmed: bool,
    pub status: String,
    pub payment_intent_id: Option<String>,
    pub created_at: String,
    pub updated_at: String,
    /// When an unpaid gift lost its donor's details (erasure, or 30 days on).
    pub redacted_at: Option<String>,
    /// What went back of it (refunds and lost disputes), in dollars ("0.00" for none).
    pub refunded: String,
    /// When the latest of those was made.
    pub refunded_at: Option<String>,
    /// What staff may still refund: the amount less every refund asked for, on its way or
    /// made; "0.00" unless completed and not under an open dispute.
    pub refundable: String,
    /// The latest dispute's status (Stripe's), if any.
    pub dispute_status: Option<String>,
    /// The monthly gift it is a charge of, if any.
    pub plan_id: Option<i64>,
    /// Who made the latest refund counted in `refunded`, when staff made it from the admin
    /// (their name, else their address); `None` for Stripe's dashboard and the limit's own.
    pub refunded_by: Option<String>,
}

/// Money as the spec shows it: cents to `"25.00"`.
pub fn dollars(cents: i64) -> String {
    format!("{}.{:02}", cents / 100, (cents % 100).abs())
}

/// The columns [`gift_of`] reads from `donations d`, in its order; queries may add more after
/// them (from [`GIFT_COLUMNS`] on).
fn gift_columns() -> String {
    format!(
        "d.id, d.amount_cents, d.donor_name, d.donor_email, d.donor_address, d.donor_city, \
         d.donor_state, d.donor_zip_code, d.donor_occupation, d.donor_employer, \
         d.contribution_purpose, d.citizenship_confirmed, d.status, d.payment_intent_id, \
         d.created_at, d.updated_at, d.redacted_at, {counted}, \
         (SELECT MAX(r.refunded_at) FROM donation_refunds r \
          WHERE r.donation_id = d.id AND r.status IN {COUNTED}), {held}, \
         (SELECT s.status FROM donation_disputes s WHERE s.donation_id = d.id \
          ORDER BY s.opened_at DESC LIMIT 1), d.plan_id, \
         (SELECT COALESCE(NULLIF(u.name, ''), u.email) FROM donation_refunds r \
          JOIN users u ON u.id = r.refunded_by \
          WHERE r.donation_id = d.id AND r.status IN {COUNTED} \
          ORDER BY r.refunded_at DESC, r.id DESC LIMIT 1)",
        counted = refunded_counted("d"),
        held = refunded_held("d"),
    )
}

/// How many columns [`gift_columns`] has.
const GIFT_COLUMNS: usize = 23;

fn gift_of(r: &rusqlite::Row) -> rusqlite::Result<Gift> {
    let amount: i64 = r.get(1)?;
    let status: String = r.get(12)?;
    let dispute_status: Option<String> = r.get(20)?;
    let disputed = dispute_status
        .as_deref()
        .is_some_and(|s| !matches!(s, "won" | "lost" | "prevented" | "warning_closed"));
    let refundable = if status == "completed" && !disputed {
        (amount - r.get::<_, i64>(19)?).max(0)
    } else {
        0
    };
    Ok(Gift {
        id: r.get(0)?,
        amount: dollars(amount),
        donor_name: r.get(2)?,
        donor_email: r.get(3)?,
        donor_address: r.get(4)?,
        donor_city: r.get(5)?,
        donor_state: r.get(6)?,
        donor_zip_code: r.get(7)?,
        donor_occupation: r.get(8)?,
        donor_employer: r.get(9)?,
        contribution_purpose: r.get(10)?,
        citizenship_confirmed: r.get(11)?,
        status,
        payment_intent_id: r.get(13)?,
        created_at: r.get(14)?,
        updated_at: r.get(15)?,
        redacted_at: r.get(16)?,
        refunded: dollars(r.get(17)?),
        refunded_at: r.get(18)?,
        refundable: dollars(refundable),
        dispute_status,
        plan_id: r.get(21)?,
        refunded_by: r.get(22)?,
    })
}

/// How staff sort the list: one of the fixed columns, never text from a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortBy {
    Name,
    Amount,
    Date,
}

impl SortBy {
    fn column(self) -> &'static str {
        match self {
            SortBy::Name => "donor_name COLLATE NOCASE",
            SortBy::Amount => "amount_cents",
            SortBy::Date => "created_at",
        }
    }
}

/// Every gift, sorted.
pub fn gifts(conn: &Connection, by: SortBy, descending: bool) -> rusqlite::Result<Vec<Gift>> {
    let dir = if descending { "DESC" } else { "ASC" };
    let sql = format!(
        "SELECT {} FROM donations d ORDER BY d.{} {dir}, d.id {dir}",
        gift_columns(),
        by.column(),
    );
    let mut stmt = conn.prepare(&sql)?;
    stmt.query_map([], gift_of)?.collect()
}

/// One gift, as the list shows it.
pub fn gift(conn: &Connection, id: i64) -> rusqlite::Result<Option<Gift>> {
    conn.query_row(
        &format!("SELECT {} FROM donations d WHERE d.id = ?1", gift_columns()),
        [id],
        gift_of,
    )
    .optional()
}

/// SQL for the aggregate as of gift `d` (a `donations d` row), in cents: each of its
/// contributor's completed gifts of that year (from any address: the FEC aggregates per
/// individual) up to and including it, less what went back of it in that
/// year before `d` (a refund is never dated before its own gift, so only gifts up to `d` can
/// have one).
pub fn aggregate_sql() -> String {
    format!(
        "(SELECT COALESCE(SUM(h.amount_cents - {refunded}), 0) FROM donations h \
          WHERE (h.contributor_id IN (SELECT k.id FROM contributors k WHERE k.root_id = \
                    (SELECT j.root_id FROM contributors j WHERE j.id = d.contributor_id)) \
                 OR (d.contributor_id IS NULL AND h.donor_email = d.donor_email)) \
            AND h.contribution_year = d.contribution_year \
            AND h.status = 'completed' \
            AND (h.created_at < d.created_at OR (h.created_at = d.created_at AND h.id <= d.id)))",
        refunded = refunded_before("h", "d")
    )
}

/// A row of the donations export: the gift, and what the treasurer's FEC report (Schedule
/// A) needs beside it.
#[derive(Debug, Clone)]
pub struct ExportRow {
    pub gift: Gift,
    pub first_name: String,
    pub last_name: String,
    pub year: i64,
    /// The donor's year-to-date aggregate as of the gift, in cents
    /// ([`aggregate_sql`]).
    pub aggregate: i64,
}

/// Every gift, newest first, for the export.
pub fn export_rows(conn: &Connection) -> rusqlite::Result<Vec<ExportRow>> {
    let sql = format!(
        "SELECT {}, d.donor_first_name, d.donor_last_name, d.contribution_year, {} \
         FROM donations d ORDER BY d.created_at DESC, d.id DESC",
        gift_columns(),
        aggregate_sql()
    );
    let mut stmt = conn.prepare(&sql)?;
    let n = GIFT_COLUMNS;
    stmt.query_map([], |r| {
        Ok(ExportRow {
            gift: gift_of(r)?,
            first_name: r.get(n)?,
            last_name: r.get(n + 1)?,
            year: r.get(n + 2)?,
            aggregate: r.get(n + 3)?,
        })
    })?
    .collect()
}

/// A gift's status and its PaymentIntent, if it exists.
pub fn status_and_intent(
    conn: &Connection,
    id: i64,
) -> rusqlite::Result<Option<(String, Option<String>)>> {
    conn.query_row(
        "SELECT status, payment_intent_id FROM donations WHERE id = ?1",
        [id],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
    .optional()
}

/// Whether gift `id` is completed.
pub fn is_completed(conn: &Connection, id: i64) -> rusqlite::Result<bool> {
    Ok(status_and_intent(conn, id)?.is_some_and(|(status, _)| status == "completed"))
}

/// The gift of plan `plan`'s charge `n`, if it was tried and not paid (a decline, or an
/// answer still to come): what a new card pays first.
pub fn unpaid_charge(conn: &Connection, plan: i64, n: i64) -> rusqlite::Result<Option<i64>> {
    conn.query_row(
        "SELECT id FROM donations WHERE plan_id = ?1 AND plan_charge = ?2 \
         AND status IN ('failed', 'pending')",
        params![plan, n],
        |r| r.get(0),
    )
    .optional()
}

/// Whether Stripe's event `id` was applied before.
pub fn event_seen(conn: &Connection, id: &str) -> rusqlite::Result<bool> {
    conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM stripe_events WHERE id = ?1)",
        [id],
        |r| r.get(0),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_list_of_statuses_is_one_list() {
        let sql = |list: &[&str]| {
            let quoted: Vec<String> = list.iter().map(|s| format!("'{s}'")).collect();
            format!("({})", quoted.join(", "))
        };
        assert_eq!(COUNTED, sql(&COUNTED_STATUSES));
        let mut held = vec!["requested"];
        held.extend(COUNTED_STATUSES);
        assert_eq!(HELD, sql(&held));
        assert!(counts("succeeded") && !counts("requested") && !counts("failed"));
    }
}
