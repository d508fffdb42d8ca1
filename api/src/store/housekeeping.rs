//! Work done once a minute while the server runs: forgetting idle rate-limit entries and
//! expired revoked tokens, expiring donations that were never paid, and giving free memory
//! back to the system.

use crate::domain::donations;
use crate::state::AppState;

/// One round of housekeeping. Failures are logged; the next round tries again.
pub async fn run_once(state: &AppState) {
    state.form_limiter.forget_idle();
    state.donation_limiter.forget_idle();
    state.auth.forget_old_failures();
    // Revoked tokens past their expiry would be refused anyway.
    let pruned = state
        .db
        .write(|tx| {
            tx.execute(
                "DELETE FROM revoked_tokens WHERE expires_at < CAST(strftime('%s', 'now') AS INTEGER)",
                [],
            )
        })
        .await;
    if let Err(e) = pruned {
        tracing::warn!(error = %e, "could not prune revoked tokens");
    }
    // Failed sign-ins are kept 90 days: long enough to see a pattern, no longer.
    let pruned = state
        .db
        .write(|tx| {
            tx.execute(
                "DELETE FROM failed_logins WHERE minute < strftime('%Y-%m-%dT%H:%MZ', 'now', '-90 days')",
                [],
            )
        })
        .await;
    if let Err(e) = pruned {
        tracing::warn!(error = %e, "could not prune failed sign-ins");
    }
    expire_donations(state).await;
    redact_unpaid_donations(state).await;
    crate::memory::release_free_memory();
}

/// Unpaid gifts keep their donor's details for [`crate::domain::erasure::RETENTION`] after they
/// ended, then lose them; completed gifts are kept whole, as the law requires.
pub async fn redact_unpaid_donations(state: &AppState) {
    let now = state.clock.now();
    let redacted = state
        .db
        .write(move |tx| {
            let n = crate::domain::erasure::redact_stale(tx, now)?;
            if n > 0 {
                let target = format!("donations:{n}");
                crate::domain::audit::record_system(
                    tx,
                    crate::domain::audit::Action::Redact,
                    Some(&target),
                )?;
            }
            Ok(n)
        })
        .await;
    match redacted {
        Ok(0) => {}
        Ok(n) => {
            tracing::info!(donations = n, "details of old unpaid gifts removed");
            if let Err(e) = state.db.forget_deleted().await {
                tracing::warn!(error = %e, "redacted details may stay in the database's log until the next checkpoint");
            }
        }
        Err(e) => tracing::warn!(error = %e, "could not redact old unpaid gifts"),
    }
}

/// Gifts left unpaid past their hold stop counting toward their donor's year; their
/// payments are canceled at Stripe so a forgotten tab cannot pay one later.
pub async fn expire_donations(state: &AppState) {
    let now = state.clock.now();
    let expired = match state.db.write(move |tx| donations::expire(tx, now)).await {
        Ok(expired) => expired,
        Err(e) => {
            tracing::warn!(error = %e, "could not expire unpaid donations");
            return;
        }
    };
    for (id, intent) in expired {
        tracing::info!(donation = id, "unpaid donation expired");
        if let (Some(payments), Some(intent)) = (&state.payments, intent)
            && let Err(e) = payments.cancel_intent(&intent).await
        {
            // A payment that went through meanwhile cannot be canceled; its webhook
            // completes the gift.
            tracing::warn!(donation = id, error = %e, "could not cancel an expired payment at Stripe");
        }
    }
}
