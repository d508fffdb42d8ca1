//! Every background loop the server runs, started here and nowhere else:
//!
//! - **the blog's rebuild worker** (`domain::rebuild`): its first pass brings `dist/`'s blog
//!   in step with the database; then it takes every change staff make, coalesced;
//! - **the mail sender** (`domain::mail`): what a crash or an outage left queued goes out at
//!   start, then whatever is queued as soon as it is (its bell), and the retries on their
//!   schedule (every [`mail::sender::POLL`]);
//! - **the scheduler** (`domain::schedule`): posts whose time came while the server was down
//!   go live at start, the rest within [`schedule::POLL`] of their time;
//! - **the monthly charger** (`domain::donations::monthly`): charges missed while the server
//!   was down are made at start (once each), the rest within [`charge::POLL`] of falling due;
//! - **the limit's refunder** (`domain::donations::limit_refunds`): refunds of what passed
//!   the year's limit that a crash left unmade are made at start, the rest as a completion
//!   rings for them;
//! - **events** (`chores::events_due`): the reminders the day before, and the pages of
//!   events that just started or stopped taking RSVPs, every [`EVENTS`];
//! - **off-site copies** (`offsite`), when configured: Litestream and the copier of uploads
//!   and keys (`REPLICA_URL`); the deploy bucket brought in step with `dist/` at start, then
//!   its queue of changes (`DEPLOY_URL`) as each goes live, retried every [`deploy::POLL`];
//! - **housekeeping** (`chores`): once a minute;
//! - **`SIGHUP`**: the static files are indexed again after an outside `generator build`.
//!
//! The timed ones share one loop ([`repeat`]). A server for tests starts only what answering
//! needs ([`start_serving`]: the rebuild worker and the mail sender); the timed passes are
//! called by the tests themselves after moving the clock.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Notify;

use crate::domain::donations::{limit_refunds, monthly::charge};
use crate::domain::{mail, schedule};
use crate::offsite::deploy;
use crate::state::AppState;

/// How often events' reminders and pages are looked at (a reminder goes within this of its
/// time; a started event's form within this of its start).
const EVENTS: Duration = Duration::from_secs(30);

/// How often housekeeping runs.
const HOUSEKEEPING: Duration = Duration::from_secs(60);

/// Runs `pass` now, then again whenever `bell` rings (if it has one; but no sooner than its
/// gap after the last pass began) or `every` has passed since the last pass ended, for as
/// long as the server runs: the one loop every timed task shares. A pass logs its own
/// failures; the next one tries again.
fn repeat<F, Fut>(every: Duration, bell: Option<(Arc<Notify>, Duration)>, mut pass: F)
where
    F: FnMut() -> Fut + Send + 'static,
    Fut: Future<Output = ()> + Send,
{
    tokio::spawn(async move {
        loop {
            let began = tokio::time::Instant::now();
            pass().await;
            match &bell {
                Some((bell, gap)) => {
                    let _ = tokio::time::timeout(every, bell.notified()).await;
                    tokio::time::sleep_until(began + *gap).await;
                }
                None => tokio::time::sleep(every).await,
            }
        }
    });
}

/// What answering requests needs: the blog's rebuild worker and the mail sender. Nothing
/// outside a runtime (a state built for a synchronous test starts no task).
pub fn start_serving(state: &AppState) {
    if tokio::runtime::Handle::try_current().is_err() {
        return;
    }
    state.rebuilder.start_worker();
    // The events' pages as they are in the database, before anyone asks.
    let pages = state.event_pages.clone();
    tokio::spawn(async move { pages.refresh_due().await });
    let sender = state.mail.clone();
    repeat(
        mail::sender::POLL,
        Some((sender.bell(), mail::sender::WAKE_GAP)),
        move || {
            let sender = sender.clone();
            async move {
                sender.deliver_due().await;
            }
        },
    );
}

/// Every background loop (see the module's docs). Call once, inside the runtime.
pub fn start(state: &AppState) -> anyhow::Result<()> {
    start_serving(state);
    let scheduler = state.scheduler.clone();
    repeat(schedule::POLL, None, move || {
        let scheduler = scheduler.clone();
        async move {
            scheduler.publish_due().await;
        }
    });
    let charger = state.charger.clone();
    repeat(charge::POLL, None, move || {
        let charger = charger.clone();
        async move {
            charger.run_due().await;
        }
    });
    let refunder = state.limit_refunder.clone();
    repeat(
        limit_refunds::POLL,
        Some((refunder.bell(), Duration::ZERO)),
        move || {
            let refunder = refunder.clone();
            async move {
                refunder.run().await;
            }
        },
    );
    let events = state.clone();
    repeat(EVENTS, None, move || {
        let events = events.clone();
        async move { events.events_due().await }
    });
    if let Some(replication) = &state.replication {
        replication.start()?;
    }
    if state.deployer.remote().is_some() {
        // The bucket in step with dist/ first (whatever a crash or an outage left unsent),
        // then each change as it goes live.
        let deployer = state.deployer.clone();
        let rebuilder = state.rebuilder.clone();
        tokio::spawn(async move {
            // After the blog's first pass (which may rewrite every page), not during it.
            while rebuilder.site().is_some() && rebuilder.passes() == 0 {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            // Until it succeeds (what it covers is not in the queue; each try copies only what
            // the last one missed; staff see its failure and can ring for a try at once).
            while !deployer.bring_in_step().await {
                let _ =
                    tokio::time::timeout(deployer.sync_backoff(), deployer.bell().notified()).await;
            }
            repeat(
                deploy::POLL,
                Some((deployer.bell(), Duration::ZERO)),
                move || {
                    let deployer = deployer.clone();
                    async move {
                        if let Err(e) = deployer.pass().await {
                            tracing::error!(error = %format!("{e:#}"), "the deploy queue could not be read");
                        }
                    }
                },
            );
        });
    }
    let keeper = state.clone();
    repeat(HOUSEKEEPING, None, move || {
        let keeper = keeper.clone();
        async move { keeper.housekeeping().await }
    });
    let mut hangups = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::hangup())
        .map_err(|e| anyhow::anyhow!("Failed to listen for SIGHUP: {e}"))?;
    let files = state.static_files.clone();
    tokio::spawn(async move {
        while hangups.recv().await.is_some() {
            let count = files.reload().await;
            tracing::info!(files = count, "SIGHUP: static files re-indexed");
        }
    });
    Ok(())
}
