//! The treasurer's reports:
//! - GET /api/admin/donations/attention: donors over a year's limit, with the days left of
//!   the 60 the committee has to refund the excess;
//! - GET /api/admin/donations/schedule-a?from&to&format=csv|fec: contributions received
//!   (`SA11AI`), with each donor's year-to-date aggregate as of each gift;
//! - GET /api/admin/donations/schedule-b?from&to&format=csv|fec: refunds and lost disputes
//!   (`SB28A`), each tied to the gift it returns.
//!
//! The CSV has every row, with whether it must be itemized; the `.fec` file only the
//! itemized ones, as the FEC's electronic format wants them (see `domain::fec`).

use std::collections::HashMap;

use warp::filters::BoxedFilter;
use warp::http::StatusCode;
use warp::reply::Response;
use warp::{Filter, Rejection};

use super::super::downloads;
use super::super::json;
use crate::domain::audit::{self, Action};
use crate::domain::auth::Admin;
use crate::domain::donations::Ledger;
use crate::domain::donations::attention;
use crate::domain::donations::fec::schedules::{self, Range};
use crate::domain::donations::fec::{self, SA_FIELDS, SB_FIELDS};
use crate::domain::export::{self, Sheet};
use crate::domain::staff::Cap;
use crate::http::error::ApiError;
use crate::state::AppState;

/// What the reports read: the gifts, the party's rules and time zone, the committee's FEC id.
#[derive(Clone)]
struct Books {
    ledger: Ledger,
    fec_committee_id: Option<String>,
}

pub fn routes(state: AppState) -> BoxedFilter<(Response,)> {
    let admin = |cap| super::super::allowed(state.clone(), cap);
    let books = Books {
        ledger: state.ledger(),
        fec_committee_id: state.config.fec_committee_id.clone(),
    };
    let attention = warp::path!("donations" / "attention")
        .and(warp::get())
        .and(admin(Cap::DonationsRead))
        .and_then({
            let ledger = books.ledger.clone();
            move |admin| over_limit(ledger.clone(), admin)
        });
    let schedule = warp::path!("donations" / "schedule-a")
        .map(|| Schedule::A)
        .or(warp::path!("donations" / "schedule-b").map(|| Schedule::B))
        .unify()
        .and(warp::get())
        .and(admin(Cap::DonationsExport))
        .and(warp::query::<HashMap<String, String>>())
        .and_then(move |which, admin, query| schedule(books.clone(), which, admin, query));
    attention.or(schedule).unify().boxed()
}

/// GET /api/admin/donations/attention
async fn over_limit(ledger: Ledger, admin: Admin) -> Result<Response, Rejection> {
    let (rules, tz, now) = (
        ledger.site.donations.clone(),
        ledger.site.tz(),
        ledger.clock.now(),
    );
    let found = ledger
        .db
        .read(move |c| attention::over_limit(c, &rules, &tz, now))
        .await?;
    audit::record_access(&ledger.db, Action::View, "donations-over-limit", admin.by()).await?;
    let body: Vec<_> = found
        .into_iter()
        .map(|o| {
            serde_json::json!({
                "donorName": o.donor_name,
                "donorEmail": o.donor_email,
                "year": o.year,
                "total": super::super::dollars(o.net_cents),
                "limit": super::super::dollars(o.limit_cents),
                "excess": super::super::dollars(o.excess_cents),
                "overSince": o.over_since,
                "deadline": o.deadline,
                "daysLeft": o.days_left,
            })
        })
        .collect();
    Ok(json(StatusCode::OK, &body))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Schedule {
    A,
    B,
}

async fn schedule(
    books: Books,
    which: Schedule,
    admin: Admin,
    query: HashMap<String, String>,
) -> Result<Response, Rejection> {
    let range = Range::parse(
        query.get("from").map(String::as_str),
        query.get("to").map(String::as_str),
    )
    .map_err(ApiError::BadRequest)?;
    let fec_file = match query.get("format").map(String::as_str) {
        None | Some("csv") => false,
        Some("fec") => true,
        Some(other) => {
            return Err(ApiError::BadRequest(format!(
                "format must be csv or fec (not {other:?})."
            ))
            .into());
        }
    };
    let committee = match (&books.fec_committee_id, fec_file) {
        (Some(id), _) => id.clone(),
        (None, false) => String::new(),
        (None, true) => {
            return Err(ApiError::Conflict(
                "Set FEC_COMMITTEE_ID (the committee's FEC id) to export .fec files; the CSV needs none."
                    .into(),
            )
            .into());
        }
    };
    let (rules, tz) = (books.ledger.site.donations.clone(), books.ledger.site.tz());
    let (kind, letter) = match which {
        Schedule::A => ("schedule-a", "a"),
        Schedule::B => ("schedule-b", "b"),
    };
    let name = format!(
        "{}-schedule-{letter}-{}.{}",
        books.ledger.site.abbreviation,
        range.label(),
        if fec_file { "fec" } else { "csv" }
    );
    let (records, sheet) = match which {
        Schedule::A => {
            let rows = books
                .ledger
                .db
                .read(move |c| schedules::contributions(c, &rules, &tz, &range))
                .await?;
            let records: Vec<Vec<String>> = rows
                .iter()
                .filter(|c| c.itemized)
                .map(|c| schedules::sa11ai(&committee, c))
                .collect();
            (records, schedule_a_sheet(&rows))
        }
        Schedule::B => {
            let rows = books
                .ledger
                .db
                .read(move |c| schedules::refunds(c, &rules, &tz, &range))
                .await?;
            let records: Vec<Vec<String>> = rows
                .iter()
                .filter(|r| r.itemized)
                .map(|r| schedules::sb28a(&committee, r))
                .collect();
            (records, schedule_b_sheet(&rows))
        }
    };
    audit::record_access(&books.ledger.db, Action::Export, kind, admin.by()).await?;
    if !fec_file {
        return Ok(downloads::csv_named(&name, &sheet)?);
    }
    let fields: &[fec::Field] = match which {
        Schedule::A => &SA_FIELDS,
        Schedule::B => &SB_FIELDS,
    };
    for record in &records {
        // Our records are cut to the format as they are made; one that still breaks it
        // (a gift stored without a name, say) is for a person to fix, not to file.
        fec::validate(fields, record).map_err(|why| {
            ApiError::Conflict(format!("Transaction {} cannot be filed: {why}.", record[2]))
        })?;
    }
    let header = fec::header(&books.ledger.site.name, env!("CARGO_PKG_VERSION"));
    let body = fec::file(&header, &records).into_bytes();
    Ok(downloads::download(
        &name,
        "text/plain; charset=us-ascii",
        body,
    )?)
}

fn yes(b: bool) -> String {
    if b { "Yes" } else { "No" }.into()
}

fn schedule_a_sheet(rows: &[schedules::Contribution]) -> Sheet {
    let rows = rows
        .iter()
        .map(|c| {
            let p = &c.person;
            vec![
                "SA11AI".into(),
                schedules::contribution_id(c.donation_id),
                "IND".into(),
                p.last.clone(),
                p.first.clone(),
                p.street1.clone(),
                p.street2.clone(),
                p.city.clone(),
                p.state.clone(),
                p.zip.clone(),
                c.date.to_string(),
                fec::amount(c.cents),
                fec::amount(c.aggregate_cents),
                fec::text(&c.employer, 38),
                fec::text(&c.occupation, 38),
                c.purpose.as_deref().map(export::words).unwrap_or_default(),
                yes(c.itemized),
                fec::amount(c.refunded_cents),
                c.donation_id.to_string(),
            ]
        })
        .collect();
    Sheet {
        kind: "schedule-a",
        headers: vec![
            "Form Type",
            "Transaction ID",
            "Entity Type",
            "Contributor Last Name",
            "Contributor First Name",
            "Contributor Street 1",
            "Contributor Street 2",
            "Contributor City",
            "Contributor State",
            "Contributor ZIP",
            "Contribution Date",
            "Contribution Amount",
            "Contribution Aggregate",
            "Contributor Employer",
            "Contributor Occupation",
            "Designation",
            "Itemized",
            "Refunded So Far",
            "Donation ID",
        ],
        rows,
    }
}

fn schedule_b_sheet(rows: &[schedules::Refund]) -> Sheet {
    let rows = rows
        .iter()
        .map(|r| {
            let p = &r.person;
            vec![
                "SB28A".into(),
                schedules::refund_id(r.refund_id),
                schedules::contribution_id(r.donation_id),
                "SA11AI".into(),
                "IND".into(),
                p.last.clone(),
                p.first.clone(),
                p.street1.clone(),
                p.street2.clone(),
                p.city.clone(),
                p.state.clone(),
                p.zip.clone(),
                r.date.to_string(),
                fec::amount(r.cents),
                schedules::refund_purpose(r),
                r.gift_date.to_string(),
                fec::amount(r.gift_cents),
                if r.chargeback {
                    "Lost dispute"
                } else {
                    "Refund"
                }
                .into(),
                yes(r.itemized),
                r.donation_id.to_string(),
            ]
        })
        .collect();
    Sheet {
        kind: "schedule-b",
        headers: vec![
            "Form Type",
            "Transaction ID",
            "Back Reference Tran ID",
            "Back Reference Sched Name",
            "Entity Type",
            "Payee Last Name",
            "Payee First Name",
            "Payee Street 1",
            "Payee Street 2",
            "Payee City",
            "Payee State",
            "Payee ZIP",
            "Expenditure Date",
            "Expenditure Amount",
            "Expenditure Purpose",
            "Original Contribution Date",
            "Original Contribution Amount",
            "Kind",
            "Itemized",
            "Donation ID",
        ],
        rows,
    }
}
