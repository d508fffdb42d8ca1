//! POST /api/admin/donations/{id}/refund `{amount, reason}`: staff give all or part of a
//! completed gift back ([`staff_refund::refund`] says how), and are answered the gift as
//! the list now shows it.

use serde_json::Value;
use warp::filters::BoxedFilter;
use warp::http::StatusCode;
use warp::reply::Response;
use warp::{Filter, Rejection};

use super::super::{dollars, json};
use crate::domain::auth::Admin;
use crate::domain::donations::Ledger;
use crate::domain::donations::refunds::{self, Refused};
use crate::domain::donations::staff_refund::{self, RefundError};
use crate::domain::staff::Cap;
use crate::http::error::ApiError;
use crate::http::filters::json_body;
use crate::state::AppState;

pub fn routes(state: AppState) -> BoxedFilter<(Response,)> {
    let ledger = state.ledger();
    warp::path!("donations" / i64 / "refund")
        .and(warp::post())
        .and(super::super::allowed(state.clone(), Cap::DonationsRefund))
        .and(json_body::<Value>(8 * 1024))
        .and_then(move |id, admin, body| refund(ledger.clone(), id, admin, body))
        .boxed()
}

/// Refunds and answers the gift as the list now shows it.
async fn refund(ledger: Ledger, id: i64, admin: Admin, body: Value) -> Result<Response, Rejection> {
    if let Some(unknown) = body.as_object().and_then(|o| {
        o.keys()
            .find(|k| !matches!(k.as_str(), "amount" | "reason"))
    }) {
        return Err(ApiError::BadRequest(format!("Unknown field {unknown:?}.")).into());
    }
    let cents = refunds::parse_amount(body.get("amount")).map_err(ApiError::from)?;
    let reason = refunds::parse_reason(body.get("reason")).map_err(ApiError::from)?;
    staff_refund::refund(&ledger, id, cents, &reason, admin.by())
        .await
        .map_err(|e| refused(id, e))?;
    let donation = super::donation(&ledger, id)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("There is no donation {id}.")))?;
    Ok(json(StatusCode::OK, &donation))
}

/// What staff are told when a refund was not made.
fn refused(id: i64, e: RefundError) -> ApiError {
    match e {
        RefundError::Refused(Refused::NotFound) => {
            ApiError::NotFound(format!("There is no donation {id}."))
        }
        RefundError::Refused(Refused::NotRefundable(why)) => ApiError::Conflict(why),
        RefundError::Refused(Refused::TooMuch { refundable_cents }) => {
            ApiError::Invalid(generator::forms::Invalid {
                field: Some("amount"),
                message: if refundable_cents == 0 {
                    "Nothing is left to refund of this gift.".to_owned()
                } else {
                    format!(
                        "At most ${} of this gift can be refunded.",
                        dollars(refundable_cents)
                    )
                },
            })
        }
        RefundError::Unavailable => {
            ApiError::Unavailable("Payments are not set up, so nothing can be refunded.".into())
        }
        RefundError::Stripe(Some(message)) => {
            ApiError::BadGateway(format!("Stripe did not make the refund: {message}"))
        }
        RefundError::Stripe(None) => ApiError::BadGateway(
            "Stripe did not confirm the refund. Please press Refund again with the same \
             amount: it will not refund twice."
                .into(),
        ),
        RefundError::Store(e) => ApiError::from(e),
    }
}
