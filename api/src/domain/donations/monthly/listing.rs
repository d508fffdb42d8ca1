//! Monthly gifts as staff see them: each plan that started (its first gift was paid) with
//! its donor, amount, status, next charge and what it has given, for the Recurring tab and
//! its export.

use rusqlite::Connection;
use serde::Serialize;

use crate::domain::donations::store;

/// One plan on the wire.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlanRow {
    pub id: i64,
    pub donor_name: String,
    pub donor_email: String,
    /// Dollars with two decimals: "25.00".
    pub amount: String,
    /// `active`, `retrying`, `paused`, `inactive` or `canceled`.
    pub status: String,
    /// When the next charge (or retry) is made, while one is planned.
    pub next_charge_at: Option<String>,
    /// Until when a plan paused at the year's limit waits.
    pub paused_until: Option<String>,
    /// What its completed gifts came to, less what went back.
    pub total_given: String,
    pub gifts: i64,
    /// What the card processor said last (a decline), or why it paused.
    pub last_error: Option<String>,
    pub created_at: String,
    pub canceled_at: Option<String>,
    /// `donor` or `staff`.
    pub canceled_by: Option<String>,
    pub cancel_reason: Option<String>,
}

fn query(where_clause: &str) -> String {
    format!(
        "SELECT p.id, d.donor_name, p.donor_email, p.amount_cents, p.status, p.next_attempt_at, \
                p.paused_until, \
                (SELECT COALESCE(SUM(g.amount_cents - {refunded}), 0) \
                 FROM donations g WHERE g.plan_id = p.id AND g.status = 'completed'), \
                (SELECT COUNT(*) FROM donations g WHERE g.plan_id = p.id AND g.status = 'completed'), \
                p.last_error, p.created_at, p.canceled_at, p.canceled_by, p.cancel_reason \
         FROM donation_plans p JOIN donations d ON d.plan_id = p.id AND d.plan_charge = 0 \
         {where_clause}",
        refunded = store::refunded_counted("g")
    )
}

fn row(r: &rusqlite::Row<'_>) -> rusqlite::Result<PlanRow> {
    Ok(PlanRow {
        id: r.get(0)?,
        donor_name: r.get(1)?,
        donor_email: r.get(2)?,
        amount: dollars(r.get(3)?),
        status: r.get(4)?,
        next_charge_at: r.get(5)?,
        paused_until: r.get(6)?,
        total_given: dollars(r.get(7)?),
        gifts: r.get(8)?,
        last_error: r.get(9)?,
        created_at: r.get(10)?,
        canceled_at: r.get(11)?,
        canceled_by: r.get(12)?,
        cancel_reason: r.get(13)?,
    })
}

/// Cents as the admin API shows money: "25.00".
fn dollars(cents: i64) -> String {
    format!("{}.{:02}", cents / 100, (cents % 100).abs())
}

/// Every plan that started, newest first (a plan whose first gift was never paid is not a
/// plan anyone gives through).
pub fn all(conn: &Connection) -> rusqlite::Result<Vec<PlanRow>> {
    conn.prepare(&query(
        "WHERE p.status != 'pending' ORDER BY p.created_at DESC, p.id DESC",
    ))?
    .query_map([], row)?
    .collect()
}

/// Plan `id`, as the list shows it.
pub fn one(conn: &Connection, id: i64) -> rusqlite::Result<Option<PlanRow>> {
    use rusqlite::OptionalExtension as _;
    conn.query_row(&query("WHERE p.id = ?1"), [id], row)
        .optional()
}
