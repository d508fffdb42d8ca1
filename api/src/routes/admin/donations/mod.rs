//! Donations, as staff see them: a sortable list and an export. There is no delete: a
//! donation record is the party's evidence under federal law.

use std::collections::HashMap;

use serde::Serialize;
use warp::filters::BoxedFilter;
use warp::http::StatusCode;
use warp::reply::Response;
use warp::{Filter, Rejection};

use super::{dollars, json};
use crate::domain::audit::{self, Action};
use crate::domain::auth::Admin;
use crate::domain::export::{self, Sheet};
use crate::http::error::ApiError;
use crate::state::AppState;

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
    let admin = super::signed_in(state.clone());
    let list = warp::path!("donations")
        .and(warp::get())
        .and(admin.clone())
        .and(warp::query::<HashMap<String, String>>())
        .and_then({
            let state = state.clone();
            move |admin: Admin, query| list(state.clone(), admin, query)
        });
    let export = warp::path!("donations" / "export")
        .and(warp::get())
        .and(admin)
        .and_then(move |admin: Admin| export(state.clone(), admin));
    list.or(export).unify().boxed()
}

/// The columns [`donation_from_row`] reads, in its order; queries may add more after them.
const DONATION_COLUMNS: &str = "id, amount_cents, donor_name, donor_email, donor_address, \
     donor_city, donor_state, donor_zip_code, donor_occupation, donor_employer, \
     contribution_purpose, citizenship_confirmed, status, payment_intent_id, created_at, updated_at, \
     redacted_at";

fn donation_from_row(r: &rusqlite::Row) -> rusqlite::Result<Donation> {
    Ok(Donation {
        id: r.get(0)?,
        amount: dollars(r.get(1)?),
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
        status: r.get(12)?,
        payment_intent_id: r.get(13)?,
        created_at: r.get(14)?,
        updated_at: r.get(15)?,
        redacted_at: r.get(16)?,
    })
}

async fn donations(state: &AppState, order: Order) -> Result<Vec<Donation>, ApiError> {
    // The ORDER BY comes from the fixed choices above, never from the request's text.
    let sql = format!(
        "SELECT {DONATION_COLUMNS} FROM donations ORDER BY {} {dir}, id {dir}",
        order.column,
        dir = if order.descending { "DESC" } else { "ASC" }
    );
    state
        .db
        .read(move |c| {
            let mut stmt = c.prepare(&sql)?;
            stmt.query_map([], donation_from_row)?.collect()
        })
        .await
}

/// GET /api/admin/donations?sortBy&sortOrder (default: date, newest first)
async fn list(
    state: AppState,
    admin: Admin,
    query: HashMap<String, String>,
) -> Result<Response, Rejection> {
    let order = Order::from_query(&query)?;
    let list = donations(&state, order).await?;
    audit::record_access(&state.db, Action::View, "donations", admin.ip).await?;
    Ok(json(StatusCode::OK, &list))
}

/// One row of the export: the gift, and what the treasurer's FEC report (Schedule A) needs
/// beside it.
struct ExportRow {
    donation: Donation,
    first_name: String,
    last_name: String,
    year: i64,
    /// The donor's completed gifts in the gift's year up to and including it, in cents.
    aggregate: i64,
}

/// GET /api/admin/donations/export: every donation, newest first, with the donor's
/// year-to-date total at each gift and whether it must be itemised (above the threshold).
async fn export(state: AppState, admin: Admin) -> Result<Response, Rejection> {
    let rows = state
        .db
        .read(|c| {
            let mut stmt = c.prepare(&format!(
                "SELECT {DONATION_COLUMNS}, donor_first_name, donor_last_name, contribution_year, \
                 SUM(CASE WHEN status = 'completed' THEN amount_cents ELSE 0 END) OVER ( \
                     PARTITION BY donor_email, contribution_year ORDER BY created_at, id \
                     ROWS UNBOUNDED PRECEDING) \
                 FROM donations ORDER BY created_at DESC, id DESC"
            ))?;
            stmt.query_map([], |r| {
                Ok(ExportRow {
                    donation: donation_from_row(r)?,
                    first_name: r.get(17)?,
                    last_name: r.get(18)?,
                    year: r.get(19)?,
                    aggregate: r.get(20)?,
                })
            })?
            .collect::<rusqlite::Result<Vec<_>>>()
        })
        .await?;
    audit::record_access(&state.db, Action::Export, "donations", admin.ip).await?;
    let site = &state.site;
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
