//! Donations, as staff see them: a sortable list and an export, refunds ([`refund`]), and
//! the treasurer's reports ([`reports`]: donors over the limit, Schedules A and B). There
//! is no delete: a donation record is the party's evidence under federal law.

mod refund;
mod reports;

use std::collections::HashMap;

use serde::Serialize;
use warp::filters::BoxedFilter;
use warp::http::StatusCode;
use warp::reply::Response;
use warp::{Filter, Rejection};

use super::{dollars, json};
use crate::domain::audit::{self, Action};
use crate::domain::auth::Admin;
use crate::domain::donations::fec::schedules::aggregate_sql;
use crate::domain::donations::refunds::COUNTED;
use crate::domain::export::{self, Sheet};
use crate::http::error::ApiError;
use crate::state::{AppState, Ledger};

/// A donation on the wire (spec §3, "Donation (admin)").
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Donation {
    id: i64,
    /// Dollars with two decimals, as a string: "25.00".
    amount: String,
    donor_name: String,
    donor_email: String,
    donor_address: String,
    donor_city: String,
    donor_state: String,
    donor_zip_code: String,
    donor_occupation: Option<String>,
    donor_employer: Option<String>,
    /// Snake-case words: `general_party_use`.
    contribution_purpose: Option<String>,
    citizenship_confirmed: bool,
    status: String,
    payment_intent_id: Option<String>,
    created_at: String,
    updated_at: String,
    /// When the donor's details were removed (an unpaid gift, on request or after 30 days).
    redacted_at: Option<String>,
    /// Dollars gone back to the donor: refunds on their way or made, and a lost dispute.
    refunded: String,
    /// When the last of them was made.
    refunded_at: Option<String>,
    /// Dollars staff may still refund: none unless completed and not disputed.
    refundable: String,
    /// Stripe's status of the gift's latest dispute (`needs_response`, `won`, `lost`…).
    dispute_status: Option<String>,
    /// The monthly gift it came from, if it did.
    plan_id: Option<i64>,
}

/// How the list is ordered: `?sortBy=name|amount|date&sortOrder=asc|desc`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Order {
    column: &'static str,
    descending: bool,
}

impl Order {
    fn from_query(query: &HashMap<String, String>) -> Result<Order, ApiError> {
        let column = match query.get("sortBy").map(String::as_str) {
            None | Some("date") => "created_at",
            Some("name") => "donor_name COLLATE NOCASE",
            Some("amount") => "amount_cents",
            Some(other) => {
                return Err(ApiError::BadRequest(format!(
                    "sortBy must be name, amount or date (not {other:?})."
                )));
            }
        };
        let descending = match query.get("sortOrder").map(String::as_str) {
            None | Some("desc") => true,
            Some("asc") => false,
            Some(other) => {
                return Err(ApiError::BadRequest(format!(
                    "sortOrder must be asc or desc (not {other:?})."
                )));
            }
        };
        Ok(Order { column, descending })
    }
}

pub fn routes(state: AppState) -> BoxedFilter<(Response,)> {
    let ledger = state.ledger();
    let admin = super::signed_in(state.clone());
    let refund = refund::routes(state.clone());
    let reports = reports::routes(state.clone());
    let list = warp::path!("donations")
        .and(warp::get())
        .and(admin.clone())
        .and(warp::query::<HashMap<String, String>>())
        .and_then({
            let ledger = ledger.clone();
            move |admin: Admin, query| list(ledger.clone(), admin, query)
        });
    let export = warp::path!("donations" / "export")
        .and(warp::get())
        .and(admin)
        .and_then(move |admin: Admin| export(ledger.clone(), admin));
    list.or(export)
        .unify()
        .or(refund)
        .unify()
        .or(reports)
        .unify()
        .boxed()
}

/// The columns [`donation_from_row`] reads from `donations d`, in its order; queries may
/// add more after them.
fn donation_columns() -> String {
    format!(
        "d.id, d.amount_cents, d.donor_name, d.donor_email, d.donor_address, d.donor_city, \
         d.donor_state, d.donor_zip_code, d.donor_occupation, d.donor_employer, \
         d.contribution_purpose, d.citizenship_confirmed, d.status, d.payment_intent_id, \
         d.created_at, d.updated_at, d.redacted_at, \
         (SELECT COALESCE(SUM(r.amount_cents), 0) FROM donation_refunds r \
          WHERE r.donation_id = d.id AND r.status IN {COUNTED}), \
         (SELECT MAX(r.refunded_at) FROM donation_refunds r \
          WHERE r.donation_id = d.id AND r.status IN {COUNTED}), \
         (SELECT COALESCE(SUM(r.amount_cents), 0) FROM donation_refunds r \
          WHERE r.donation_id = d.id AND r.status IN ('requested', 'pending', 'requires_action', 'succeeded')), \
         (SELECT s.status FROM donation_disputes s WHERE s.donation_id = d.id \
          ORDER BY s.opened_at DESC LIMIT 1), d.plan_id"
    )
}

/// How many columns [`donation_columns`] has.
const DONATION_COLUMN_COUNT: usize = 22;

fn donation_from_row(r: &rusqlite::Row) -> rusqlite::Result<Donation> {
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
    Ok(Donation {
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
    })
}

async fn donations(ledger: &Ledger, order: Order) -> Result<Vec<Donation>, ApiError> {
    // The ORDER BY comes from the fixed choices above, never from the request's text.
    let sql = format!(
        "SELECT {} FROM donations d ORDER BY d.{} {dir}, d.id {dir}",
        donation_columns(),
        order.column,
        dir = if order.descending { "DESC" } else { "ASC" }
    );
    ledger
        .db
        .read(move |c| {
            let mut stmt = c.prepare(&sql)?;
            stmt.query_map([], donation_from_row)?.collect()
        })
        .await
}

/// One gift, as the list shows it.
async fn donation(ledger: &Ledger, id: i64) -> Result<Option<Donation>, ApiError> {
    let sql = format!(
        "SELECT {} FROM donations d WHERE d.id = ?1",
        donation_columns()
    );
    ledger
        .db
        .read(move |c| {
            use rusqlite::OptionalExtension as _;
            c.query_row(&sql, [id], donation_from_row).optional()
        })
        .await
}

/// GET /api/admin/donations?sortBy&sortOrder (default: date, newest first)
async fn list(
    ledger: Ledger,
    admin: Admin,
    query: HashMap<String, String>,
) -> Result<Response, Rejection> {
    let order = Order::from_query(&query)?;
    let list = donations(&ledger, order).await?;
    audit::record_access(&ledger.db, Action::View, "donations", admin.ip).await?;
    Ok(json(StatusCode::OK, &list))
}

/// One row of the export: the gift, and what the treasurer's FEC report (Schedule A) needs
/// beside it.
struct ExportRow {
    donation: Donation,
    first_name: String,
    last_name: String,
    year: i64,
    /// The donor's completed gifts in the gift's year up to and including it, less what was
    /// refunded to them that year before it, in cents.
    aggregate: i64,
}

/// GET /api/admin/donations/export: every donation, newest first, with the donor's
/// year-to-date total at each gift, whether it must be itemised (above the threshold), and
/// what went back of it.
async fn export(ledger: Ledger, admin: Admin) -> Result<Response, Rejection> {
    let sql = format!(
        "SELECT {}, d.donor_first_name, d.donor_last_name, d.contribution_year, {} \
         FROM donations d ORDER BY d.created_at DESC, d.id DESC",
        donation_columns(),
        aggregate_sql()
    );
    let rows = ledger
        .db
        .read(move |c| {
            let mut stmt = c.prepare(&sql)?;
            let n = DONATION_COLUMN_COUNT;
            stmt.query_map([], |r| {
                Ok(ExportRow {
                    donation: donation_from_row(r)?,
                    first_name: r.get(n)?,
                    last_name: r.get(n + 1)?,
                    year: r.get(n + 2)?,
                    aggregate: r.get(n + 3)?,
                })
            })?
            .collect::<rusqlite::Result<Vec<_>>>()
        })
        .await?;
    audit::record_access(&ledger.db, Action::Export, "donations", admin.ip).await?;
    let site = &ledger.site;
    let threshold = i64::from(site.donations.itemization_threshold) * 100;
    let rows = rows
        .into_iter()
        .map(|row| {
            let d = row.donation;
            let itemize = d.status == "completed" && row.aggregate > threshold;
            vec![
                d.id.to_string(),
                export::local_time(site, Some(&d.created_at)),
                d.amount,
                d.status,
                d.donor_name,
                row.first_name,
                row.last_name,
                d.donor_email,
                d.donor_address,
                d.donor_city,
                d.donor_state,
                d.donor_zip_code,
                d.donor_occupation.unwrap_or_default(),
                d.donor_employer.unwrap_or_default(),
                d.contribution_purpose
                    .as_deref()
                    .map(export::words)
                    .unwrap_or_default(),
                if d.citizenship_confirmed { "Yes" } else { "No" }.into(),
                row.year.to_string(),
                dollars(row.aggregate),
                if itemize { "Yes" } else { "No" }.into(),
                d.payment_intent_id.unwrap_or_default(),
                export::local_time(site, Some(&d.updated_at)),
                d.refunded,
                export::local_time(site, d.refunded_at.as_deref()),
                d.dispute_status
                    .as_deref()
                    .map(export::words)
                    .unwrap_or_default(),
            ]
        })
        .collect();
    let sheet = Sheet {
        kind: "donations",
        headers: vec![
            "ID",
            "Date",
            "Amount",
            "Status",
            "Donor Name",
            "First Name",
            "Last Name",
            "Email",
            "Address",
            "City",
            "State",
            "ZIP Code",
            "Occupation",
            "Employer",
            "Purpose",
            "Citizenship",
            "Election Year",
            "Year-to-Date Aggregate",
            "Itemize",
            "Payment Intent",
            "Updated",
            "Refunded",
            "Refunded At",
            "Dispute",
        ],
        rows,
    };
    Ok(export::response(site, &sheet)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(pairs: &[(&str, &str)]) -> HashMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn sorting_is_chosen_from_fixed_columns() {
        assert_eq!(
            Order::from_query(&query(&[])).unwrap(),
            Order {
                column: "created_at",
                descending: true
            }
        );
        assert_eq!(
            Order::from_query(&query(&[("sortBy", "amount"), ("sortOrder", "asc")])).unwrap(),
            Order {
                column: "amount_cents",
                descending: false
            }
        );
        let err = Order::from_query(&query(&[("sortBy", "id; DROP TABLE donations")])).unwrap_err();
        assert!(err.to_string().contains("name, amount or date"));
        assert!(Order::from_query(&query(&[("sortOrder", "up")])).is_err());
    }
}
