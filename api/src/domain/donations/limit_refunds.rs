//! Making the refunds that hold gifts to the year's limit. The write that completes a gift
//! stores what passes the limit as a `requested` refund of origin `limit`
//! ([`super::hold_to_limit`]); this task makes each at Stripe, records Stripe's answer with
//! the donor's notice and an audit row in one write, as staff's refunds are recorded.
//!
//! A request that was stored is never lost: the task runs at start, whenever a completion
//! wakes it, and every [`POLL`]. Each call to Stripe carries an idempotency key made from the
//! row (`refund-{row}-{created}`) and the row's id in its metadata, so a retry after a
//! timeout or a crash never refunds twice, and the `charge.refunded` event finds the row
//! even if it arrives first. A refusal from Stripe (4xx) leaves the row `error` and alerts
//! staff, who then see the donor on the "Needs attention" list; anything else is asked
//! again on the next pass.

use std::sync::Arc;

use generator::config::SiteConfig;
use rusqlite::Connection;
use tokio::sync::Notify;

use super::notices::alerts as money_alerts;
use super::refunds;
use crate::domain::clock::Clock;
use crate::domain::donations::money_back;
use crate::domain::donations::stripe::{NewRefund, Payments};
use crate::domain::mail::Mail;
use crate::store::db::Db;

/// How often the task looks for refunds still to make, besides being woken.
pub const POLL: std::time::Duration = std::time::Duration::from_secs(60);

/// A refund to make.
#[derive(Debug)]
struct Due {
    id: i64,
    donation_id: i64,
    cents: i64,
    created_at: String,
    intent: Option<String>,
}

fn due(conn: &Connection) -> rusqlite::Result<Vec<Due>> {
    conn.prepare(
        "SELECT r.id, r.donation_id, r.amount_cents, r.created_at, d.payment_intent_id \
         FROM donation_refunds r JOIN donations d ON d.id = r.donation_id \
         WHERE r.origin = 'limit' AND r.status = 'requested' AND r.stripe_id IS NULL ORDER BY r.id",
    )?
    .query_map([], |r| {
        Ok(Due {
            id: r.get(0)?,
            donation_id: r.get(1)?,
            cents: r.get(2)?,
            created_at: r.get(3)?,
            intent: r.get(4)?,
        })
    })?
    .collect()
}

/// The task that makes the limit's refunds.
#[derive(Clone)]
pub struct LimitRefunder {
    db: Db,
    clock: Arc<Clock>,
    mail: Arc<Mail>,
    site: Arc<SiteConfig>,
    payments: Option<Arc<Payments>>,
    bell: Arc<Notify>,
    one_at_a_time: Arc<tokio::sync::Mutex<()>>,
}

impl LimitRefunder {
    pub fn new(
        db: Db,
        clock: Arc<Clock>,
        mail: Arc<Mail>,
        site: Arc<SiteConfig>,
        payments: Option<Arc<Payments>>,
    ) -> LimitRefunder {
        LimitRefunder {
            db,
            clock,
            mail,
            site,
            payments,
            bell: Arc::default(),
            one_at_a_time: Arc::default(),
        }
    }

    /// A completion stored a refund to make: the task makes it now rather than at its next
    /// poll.
    pub fn wake(&self) {
        self.bell.notify_one();
    }

    /// What [`LimitRefunder::wake`] rings: its loop (`crate::workers`) waits on it, or [`POLL`].
    pub fn bell(&self) -> Arc<Notify> {
        self.bell.clone()
    }

    /// Makes every refund still to make; returns how many Stripe made.
    pub async fn run(&self) -> usize {
        let Some(payments) = self.payments.clone() else {
            return 0;
        };
        let _turn = self.one_at_a_time.lock().await;
        let due = match self.db.read(due).await {
            Ok(due) => due,
            Err(e) => {
                tracing::warn!(error = %e, "could not look for refunds over the limit");
                return 0;
            }
        };
        let mut made = 0;
        for refund in due {
            let Some(intent) = refund.intent.clone() else {
                continue;
            };
            let asked = payments
                .create_refund(NewRefund {
                    payment_intent: intent,
                    amount_cents: refund.cents,
                    donation_id: refund.donation_id,
                    request_id: refund.id,
                    idempotency_key: format!("refund-{}-{}", refund.id, refund.created_at),
                })
                .await;
            let (mail, tz, now, id) = (
                self.mail.clone(),
                self.site.tz(),
                self.clock.now(),
                refund.id,
            );
            let written = match asked {
                Ok(mut stripe_refund) => {
                    stripe_refund.request = Some(id);
                    made += 1;
                    self.db
                        .write(move |c| {
                            let recorded = refunds::record(c, &tz, &stripe_refund, now)?;
                            money_back::after_refund(&mail, c, &recorded, &stripe_refund.id, now)
                        })
                        .await
                }
                Err(stripe::StripeError::Stripe(e, status)) if status < 500 => {
                    tracing::error!(donation = refund.donation_id, refund = id, error = ?e.message, "Stripe refused a refund over the limit; staff are alerted");
                    self.db
                        .write(move |c| {
                            refunds::request_failed(c, id, now)?;
                            money_alerts::refund_failed(&mail, c, id, now)
                        })
                        .await
                }
                Err(e) => {
                    tracing::warn!(donation = refund.donation_id, refund = id, error = %e, "could not ask Stripe for a refund over the limit; will ask again");
                    continue;
                }
            };
            match written {
                Ok(true) => self.mail.wake(),
                Ok(false) => {}
                Err(e) => {
                    tracing::error!(refund = id, error = %e, "could not record a refund over the limit; its event or the next pass will")
                }
            }
        }
        made
    }
}
