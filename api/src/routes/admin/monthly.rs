//! Monthly gifts, as staff see them: `GET /api/admin/plans` (every plan that started, newest
//! first), `GET /api/admin/plans/export` (the same as CSV) and
//! `POST /api/admin/plans/{id}/cancel {reason}` (no charge after it; the donor is told).

use serde_json::Value;
use warp::filters::BoxedFilter;
use warp::http::StatusCode;
use warp::reply::Response;
use warp::{Filter, Rejection};

use super::downloads;
use super::json;
use crate::domain::audit::{self, Action};
use crate::domain::auth::Admin;
use crate::domain::donations::Ledger;
use crate::domain::donations::monthly::{self, CanceledBy, listing};
use crate::domain::donations::notices::monthly::{self as plan_notices, Notice};
use crate::domain::donations::refunds::staff_reason;
use crate::domain::export::{Sheet, local_time};
use crate::domain::staff::Cap;
use crate::http::error::ApiError;
use crate::http::filters::json_body;
use crate::state::AppState;

pub fn routes(state: AppState) -> BoxedFilter<(Response,)> {
    let ledger = state.ledger();
    let admin = |cap| super::allowed(state.clone(), cap);
    let list = warp::path!("plans")
        .and(warp::get())
        .and(admin(Cap::DonationsRead))
        .and_then({
            let ledger = ledger.clone();
            move |admin: Admin| list(ledger.clone(), admin)
        });
    let export = warp::path!("plans" / "export")
        .and(warp::get())
        .and(admin(Cap::DonationsExport))
        .and_then({
            let ledger = ledger.clone();
            move |admin: Admin| export(ledger.clone(), admin)
        });
    let cancel = warp::path!("plans" / i64 / "cancel")
        .and(warp::post())
        .and(admin(Cap::MonthlyCancel))
        .and(json_body::<Value>(8 * 1024))
        .and_then(move |id, admin, body| cancel(ledger.clone(), id, admin, body));
    list.or(export).unify().or(cancel).unify().boxed()
}

async fn list(ledger: Ledger, admin: Admin) -> Result<Response, Rejection> {
    let plans = ledger.db.read(listing::all).await?;
    audit::record_access(&ledger.db, Action::View, "plans", admin.by()).await?;
    Ok(json(StatusCode::OK, &plans))
}

async fn export(ledger: Ledger, admin: Admin) -> Result<Response, Rejection> {
    let plans = ledger.db.read(listing::all).await?;
    audit::record_access(&ledger.db, Action::Export, "plans", admin.by()).await?;
    let site = &ledger.site;
    let sheet = Sheet {
        kind: "monthly-gifts",
        headers: vec![
            "Plan ID",
            "Donor Name",
            "Email",
            "Amount",
            "Status",
            "Next Charge",
            "Total Given",
            "Gifts",
            "Started",
            "Canceled At",
            "Canceled By",
            "Cancel Reason",
            "Last Error",
        ],
        rows: plans
            .into_iter()
            .map(|p| {
                vec![
                    p.id.to_string(),
                    p.donor_name,
                    p.donor_email,
                    p.amount,
                    p.status,
                    local_time(site, p.next_charge_at.as_deref()),
                    p.total_given,
                    p.gifts.to_string(),
                    local_time(site, Some(&p.created_at)),
                    local_time(site, p.canceled_at.as_deref()),
                    p.canceled_by.unwrap_or_default(),
                    p.cancel_reason.unwrap_or_default(),
                    p.last_error.unwrap_or_default(),
                ]
            })
            .collect(),
    };
    Ok(downloads::response(site, &sheet)?)
}

/// POST /api/admin/plans/{id}/cancel `{reason}` → the plan as the list shows it.
async fn cancel(ledger: Ledger, id: i64, admin: Admin, body: Value) -> Result<Response, Rejection> {
    if let Some(unknown) = body
        .as_object()
        .and_then(|o| o.keys().find(|k| k.as_str() != "reason"))
    {
        return Err(ApiError::BadRequest(format!("Unknown field {unknown:?}.")).into());
    }
    let reason = staff_reason(body.get("reason"), "Give the reason for canceling.")
        .map_err(ApiError::from)?;
    let (mail, now) = (ledger.mail.clone(), ledger.clock.now());
    let done = ledger
        .db
        .write(move |tx| {
            let Some(plan) = monthly::get(tx, id)? else {
                return Ok(Err(ApiError::NotFound(format!(
                    "There is no monthly gift {id}."
                ))));
            };
            if plan.status == monthly::Status::Pending {
                return Ok(Err(ApiError::NotFound(format!(
                    "There is no monthly gift {id}."
                ))));
            }
            if !monthly::cancel(tx, id, CanceledBy::Staff, &reason, now)? {
                return Ok(Err(ApiError::Conflict(
                    "This monthly gift has already ended.".into(),
                )));
            }
            plan_notices::send(&mail, tx, id, Notice::Canceled, now)?;
            audit::record_detailed(
                tx,
                Action::CancelPlan,
                &format!("plan:{id}"),
                Some(admin.by()),
                &format!("by staff: {reason}"),
            )?;
            Ok(Ok(()))
        })
        .await?;
    done?;
    ledger.mail.wake();
    tracing::info!(plan = id, "monthly gift canceled by staff");
    let row = ledger
        .db
        .read(move |c| listing::one(c, id))
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("There is no monthly gift {id}.")))?;
    Ok(json(StatusCode::OK, &row))
}
