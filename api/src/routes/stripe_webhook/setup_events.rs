//! `setup_intent.succeeded`: a monthly donor saved another card (the `/donate/card` page
//! usually records it first, and charges what was due). Here the plan takes the card if it
//! has not yet; a plan that was waiting for one is due again at once, for the next pass.

use stripe_shared::SetupIntent;

use super::Meta;
use crate::domain::donations;
use crate::domain::donations::Ledger;
use crate::domain::donations::monthly::charge;
use crate::domain::donations::stripe::setup_of;
use crate::http::error::ApiError;

pub(super) async fn saved(
    ledger: &Ledger,
    meta: &Meta,
    setup: &SetupIntent,
) -> Result<(), ApiError> {
    let setup = setup_of(setup);
    let (Some(plan), Some(card)) = (setup.plan_id, setup.payment_method) else {
        tracing::debug!(event = %meta.id, "a saved card that is not a monthly gift's");
        return Ok(());
    };
    let (event, kind, now) = (meta.id.clone(), meta.kind.clone(), ledger.clock.now());
    let customer = setup.customer;
    let taken = ledger
        .db
        .write(move |tx| {
            if !donations::first_time(tx, &event, &kind)? {
                return Ok(false);
            }
            charge::new_card(tx, plan, customer.as_deref(), &card, now)
        })
        .await?;
    if taken {
        tracing::info!(plan, event = %meta.id, "a monthly gift took its donor's new card");
    }
    Ok(())
}
