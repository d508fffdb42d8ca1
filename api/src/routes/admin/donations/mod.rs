//! Donations, as staff see them: a sortable list and an export, refunds ([`refund`]), and
//! the treasurer's reports ([`reports`]: donors over the limit, Schedules A and B). There
//! is no delete: a donation record is the party's evidence under federal law.

mod refund;
mod reports;

use std::collections::HashMap;

use warp::filters::BoxedFilter;
use warp::http::StatusCode;
use warp::reply::Response;
use warp::{Filter, Rejection};

use super::downloads;
use super::{dollars, json};
use crate::domain::audit::{self, Action};
use crate::domain::auth::Admin;
use crate::domain::donations::Ledger;
use crate::domain::donations::store::{self, Gift, SortBy};
use crate::domain::export::{self, Sheet};
use crate::domain::staff::Cap;
use crate::http::error::ApiError;
use crate::state::AppState;

/// How the list is ordered: `?sortBy=name|amount|date&sortOrder=asc|desc`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Order {
    by: SortBy,
    descending: bool,
}

impl Order {
    fn from_query(query: &HashMap<String, String>) -> Result<Order, ApiError> {
        let by = match query.get("sortBy").map(String::as_str) {
            None | Some("date") => SortBy::Date,
            Some("name") => SortBy::Name,
            Some("amount") => SortBy::Amount,
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
        Ok(Order { by, descending })
    }
}

pub fn routes(state: AppState) -> BoxedFilter<(Response,)> {
    let ledger = state.ledger();
    let admin = |cap| super::allowed(state.clone(), cap);
    let refund = refund::routes(state.clone());
    let reports = reports::routes(state.clone());
    let list = warp::path!("donations")
        .and(warp::get())
        .and(admin(Cap::DonationsRead))
        .and(warp::query::<HashMap<String, String>>())
        .and_then({
            let ledger = ledger.clone();
            move |admin: Admin, query| list(ledger.clone(), admin, query)
        });
    let export = warp::path!("donations" / "export")
        .and(warp::get())
        .and(admin(Cap::DonationsExport))
        .and_then(move |admin: Admin| export(ledger.clone(), admin));
    list.or(export)
        .unify()
        .or(refund)
        .unify()
        .or(reports)
        .unify()
        .boxed()
}

/// One gift, as the list shows it.
async fn donation(ledger: &Ledger, id: i64) -> Result<Option<Gift>, ApiError> {
    ledger
        .db
        .read(move |c| store::gift(c, id))
        .await
        .map_err(ApiError::from)
}

/// GET /api/admin/donations?sortBy&sortOrder (default: date, newest first)
async fn list(
    ledger: Ledger,
    admin: Admin,
    query: HashMap<String, String>,
) -> Result<Response, Rejection> {
    let order = Order::from_query(&query)?;
    let list = ledger
        .db
        .read(move |c| store::gifts(c, order.by, order.descending))
        .await?;
    audit::record_access(&ledger.db, Action::View, "donations", admin.by()).await?;
    Ok(json(StatusCode::OK, &list))
}

/// GET /api/admin/donations/export: every donation, newest first, with the donor's
/// year-to-date total at each gift, whether it must be itemised (above the threshold), and
/// what went back of it.
async fn export(ledger: Ledger, admin: Admin) -> Result<Response, Rejection> {
    let rows = ledger.db.read(store::export_rows).await?;
    audit::record_access(&ledger.db, Action::Export, "donations", admin.by()).await?;
    let site = &ledger.site;
    let threshold = i64::from(site.donations.itemization_threshold) * 100;
    let rows = rows
        .into_iter()
        .map(|row| {
            let d = row.gift;
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
    Ok(downloads::response(site, &sheet)?)
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
                by: SortBy::Date,
                descending: true
            }
        );
        assert_eq!(
            Order::from_query(&query(&[("sortBy", "amount"), ("sortOrder", "asc")])).unwrap(),
            Order {
                by: SortBy::Amount,
                descending: false
            }
        );
        let err = Order::from_query(&query(&[("sortBy", "id; DROP TABLE donations")])).unwrap_err();
        assert!(err.to_string().contains("name, amount or date"));
        assert!(Order::from_query(&query(&[("sortOrder", "up")])).is_err());
    }
}
