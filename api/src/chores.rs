//! Work done once a minute while the server runs: forgetting idle rate-limit entries, old
//! revoked tokens, failed sign-ins and old sent mail, expiring donations that were never paid, removing the
//! details of old unpaid gifts, and giving free memory back to the system.

use crate::domain::donations;
use crate::state::AppState;

impl AppState {
    /// One round of housekeeping. Failures are logged; the next round tries again.
    pub async fn housekeeping(&self) {
        self.form_limiter.forget_idle();
        self.donation_limiter.forget_idle();
        self.auth.forget_old_failures();
        let now = self.clock.now();
        if let Err(e) = self
            .db
            .write(move |tx| {
                crate::store::housekeeping::prune(tx)?;
                crate::domain::mail::queue::prune(tx, now).map(|_| ())
            })
            .await
        {
            tracing::warn!(error = %e, "could not prune old tokens and failed sign-ins");
        }
        self.expire_donations().await;
        self.redact_unpaid_donations().await;
        crate::memory::release_free_memory();
    }

    /// Events' timed work: the reminders now due (each exactly once), and the pages of
    /// events whose start or RSVP deadline just passed.
    pub async fn events_due(&self) {
        let (mail, site, now) = (self.mail.clone(), self.site.clone(), self.clock.now());
        match self
            .db
            .write(move |tx| crate::domain::events::reminders::due(&mail, &site, tx, now))
            .await
        {
            Ok(0) => {}
            Ok(n) => {
                tracing::info!(reminders = n, "event reminders queued");
                self.mail.wake();
            }
            Err(e) => tracing::warn!(error = %e, "could not queue event reminders"),
        }
        self.event_pages.refresh_due().await;
    }

    /// Unpaid gifts keep their donor's details for [`crate::domain::erasure::RETENTION`] after they
    /// ended, then lose them; completed gifts are kept whole, as the law requires.
    pub async fn redact_unpaid_donations(&self) {
        let now = self.clock.now();
        let redacted = self
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
                if let Err(e) = self.db.forget_deleted().await {
                    tracing::warn!(error = %e, "redacted details may stay in the database's log until the next checkpoint");
                }
            }
            Err(e) => tracing::warn!(error = %e, "could not redact old unpaid gifts"),
        }
    }

    /// Gifts left unpaid past their hold stop counting toward their donor's year; their
    /// payments are canceled at Stripe so a forgotten tab cannot pay one later.
    pub async fn expire_donations(&self) {
        let now = self.clock.now();
        let expired = match self.db.write(move |tx| donations::expire(tx, now)).await {
            Ok(expired) => expired,
            Err(e) => {
                tracing::warn!(error = %e, "could not expire unpaid donations");
                return;
            }
        };
        for (id, intent) in expired {
            tracing::info!(donation = id, "unpaid donation expired");
            if let (Some(payments), Some(intent)) = (&self.payments, intent)
                && let Err(e) = payments.cancel_intent(&intent).await
            {
                // A payment that went through meanwhile cannot be canceled; its webhook
                // completes the gift.
                tracing::warn!(donation = id, error = %e, "could not cancel an expired payment at Stripe");
            }
        }
    }
}
