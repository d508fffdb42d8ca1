//! Charging monthly gifts: the pass that finds the plans whose charge is due, checks the
//! year's limit, makes the charge with the saved card and records what Stripe said.
//!
//! A charge takes three steps, and a crash between any two is safe:
//! 1. one write ([`prepare`]) decides: not due (any more), paused at the limit, or charge,
//!    and then stores the charge's gift as `pending` (one row per plan and charge, kept
//!    through its retries);
//! 2. Stripe is asked to charge, with an idempotency key made from the plan, the charge and
//!    the try: after a crash the next pass asks again with the same key and Stripe answers
//!    with the charge it already made, so a charge is never made twice;
//! 3. one write records the answer ([`paid`], [`declined`] or [`failed_to_ask`]).
//!
//! One pass runs at a time in a server (a lock); two servers on one database would each be
//! kept from charging twice by the idempotency key.

use std::sync::Arc;

use generator::config::SiteConfig;

use super::steps::{Prepared, declined, due_plans, failed_to_ask, paid, prepare, resume_paused};
use crate::domain::clock::Clock;
use crate::domain::donations::limit_refunds::LimitRefunder;
use crate::domain::donations::stripe::{Charged, Payments};
use crate::domain::mail::Mail;
use crate::store::db::Db;

pub use super::steps::{ASK_AGAIN, new_card};

/// How often the task looks for due charges: a charge is made within this of its time.
pub const POLL: std::time::Duration = std::time::Duration::from_secs(60);

/// What one plan's turn in a pass came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Nothing was due (another pass took it, or it was canceled meanwhile).
    NotDue,
    /// The charge would have passed the year's limit: not attempted, plan paused.
    Paused,
    Paid {
        donation: i64,
    },
    Declined {
        donation: i64,
        inactive: bool,
    },
    /// Stripe could not be asked; the same charge is asked for again later.
    Later {
        donation: i64,
    },
}

/// The task that charges monthly gifts when they fall due.
#[derive(Clone)]
pub struct Charger {
    db: Db,
    clock: Arc<Clock>,
    mail: Arc<Mail>,
    site: Arc<SiteConfig>,
    payments: Option<Arc<Payments>>,
    /// Woken when a charge took its donor past the limit after all (gifts paid meanwhile).
    refunder: LimitRefunder,
    one_at_a_time: Arc<tokio::sync::Mutex<()>>,
}

impl Charger {
    pub fn new(
        db: Db,
        clock: Arc<Clock>,
        mail: Arc<Mail>,
        site: Arc<SiteConfig>,
        payments: Option<Arc<Payments>>,
        refunder: LimitRefunder,
    ) -> Charger {
        Charger {
            db,
            clock,
            mail,
            site,
            payments,
            refunder,
            one_at_a_time: Arc::default(),
        }
    }

    /// Resumes the plans whose pause has ended, then charges every plan that is due, one
    /// after another. Failures are logged and tried again on the next pass.
    pub async fn run_due(&self) -> Vec<(i64, Outcome)> {
        let _turn = self.one_at_a_time.lock().await;
        let now = self.clock.now();
        let tz = self.site.tz();
        let due = self
            .db
            .write(move |tx| {
                resume_paused(tx, now, &tz)?;
                due_plans(tx, now)
            })
            .await;
        let due = match due {
            Ok(due) => due,
            Err(e) => {
                tracing::warn!(error = %e, "could not look for monthly gifts that are due");
                return Vec::new();
            }
        };
        let mut done = Vec::with_capacity(due.len());
        for id in due {
            done.push((id, self.charge(id).await));
        }
        done
    }

    /// Charges plan `id` now if it is due: [`Charger::run_due`] for one plan (a donor's new
    /// card is tried at once).
    pub async fn run_one(&self, id: i64) -> Outcome {
        let _turn = self.one_at_a_time.lock().await;
        self.charge(id).await
    }

    async fn charge(&self, id: i64) -> Outcome {
        let Some(payments) = self.payments.clone() else {
            return Outcome::NotDue;
        };
        let (mail, site, now) = (self.mail.clone(), self.site.clone(), self.clock.now());
        let prepared = self
            .db
            .write(move |tx| prepare(tx, &mail, &site, id, now))
            .await;
        let charge = match prepared {
            Ok(Prepared::Charge(charge)) => charge,
            Ok(Prepared::NotDue) => return Outcome::NotDue,
            Ok(Prepared::Paused) => {
                tracing::info!(
                    plan = id,
                    "monthly gift paused: the charge would pass the year's limit"
                );
                self.mail.wake();
                return Outcome::Paused;
            }
            Err(e) => {
                tracing::warn!(plan = id, error = %e, "could not prepare a monthly charge; will retry");
                return Outcome::NotDue;
            }
        };
        let donation = charge.donation_id;
        let asked = payments.charge_saved_card(charge).await;
        let (mail, site, now) = (self.mail.clone(), self.site.clone(), self.clock.now());
        let recorded = match asked {
            Ok(Charged::Paid {
                intent,
                payment_method,
            }) => self
                .db
                .write(move |tx| {
                    paid(
                        tx,
                        &mail,
                        &site,
                        donation,
                        &intent,
                        payment_method.as_deref(),
                        now,
                    )
                })
                .await
                .map(|()| Outcome::Paid { donation }),
            Ok(Charged::Declined {
                intent,
                code,
                message,
            }) => self
                .db
                .write(move |tx| {
                    declined(
                        tx,
                        &mail,
                        &site,
                        (id, donation),
                        intent.as_deref(),
                        (&code, &message),
                        now,
                    )
                })
                .await
                .map(|inactive| Outcome::Declined { donation, inactive }),
            Ok(Charged::Processing { intent }) => {
                let why = format!("payment {intent} is still processing");
                self.db
                    .write(move |tx| failed_to_ask(tx, id, &why, now))
                    .await
                    .map(|()| Outcome::Later { donation })
            }
            Err(e) => {
                tracing::warn!(plan = id, donation, error = %e, "could not ask Stripe for a monthly charge; will ask again");
                let why = "The card processor could not be reached.".to_owned();
                self.db
                    .write(move |tx| failed_to_ask(tx, id, &why, now))
                    .await
                    .map(|()| Outcome::Later { donation })
            }
        };
        match recorded {
            Ok(outcome) => {
                tracing::info!(plan = id, ?outcome, "monthly charge");
                self.mail.wake();
                if matches!(outcome, Outcome::Paid { .. }) {
                    // Its completion may have stored a refund over the limit.
                    self.refunder.wake();
                }
                outcome
            }
            Err(e) => {
                // The charge's key is unchanged: the next pass asks again and Stripe answers
                // with what it did.
                tracing::error!(plan = id, donation, error = %e, "could not record a monthly charge; the next pass will");
                Outcome::Later { donation }
            }
        }
    }
}
