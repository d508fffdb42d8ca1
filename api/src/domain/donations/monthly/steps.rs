//! The three steps of one monthly charge, each a function called inside one write (see
//! [`super::charge`] for how they fit together): [`prepare`] decides and stores the gift,
//! [`paid`], [`declined`] or [`failed_to_ask`] record Stripe's answer. Also here: resuming
//! plans paused at the limit, finding the due ones, and taking a donor's new card.

use generator::config::SiteConfig;
use jiff::{SignedDuration, Timestamp};
use rusqlite::{Connection, OptionalExtension, params};

use super::{
    Plan, RETRY_DAYS, Status, due_at, first_due_from, get, is_hard_decline, next_new_year,
};
use crate::domain::clock::sql_time;
use crate::domain::donations::notices::monthly::{self as plan_notices, Notice};
use crate::domain::donations::stripe::SavedCardCharge;
use crate::domain::donations::{self, year_at};
use crate::domain::mail::Mail;

/// When Stripe could not be asked (or its answer was lost), the charge is asked for again
/// this much later, with the same key.
pub const ASK_AGAIN: SignedDuration = SignedDuration::from_mins(30);

/// Paused plans whose pause is over go on, from their first date in the new year.
pub(super) fn resume_paused(
    tx: &Connection,
    now: Timestamp,
    tz: &jiff::tz::TimeZone,
) -> rusqlite::Result<()> {
    let paused: Vec<(i64, String, String)> = tx
        .prepare(
            "SELECT id, anchor_at, paused_until FROM donation_plans \
             WHERE status = 'paused' AND paused_until <= ?1",
        )?
        .query_map([sql_time(now)], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
        .collect::<rusqlite::Result<_>>()?;
    for (id, anchor, until) in paused {
        let (anchor, until): (Timestamp, Timestamp) =
            (anchor.parse().unwrap_or(now), until.parse().unwrap_or(now));
        let (n, due) = first_due_from(anchor, until, tz);
        tx.execute(
            "UPDATE donation_plans SET status = 'active', next_charge = MAX(next_charge, ?2), \
                 next_attempt_at = ?3, paused_until = NULL, failures = 0, first_failure_at = NULL, \
                 last_error = NULL, updated_at = ?4 \
             WHERE id = ?1",
            params![id, n, sql_time(due), sql_time(now)],
        )?;
    }
    Ok(())
}

/// Plans with a charge due now.
pub(super) fn due_plans(tx: &Connection, now: Timestamp) -> rusqlite::Result<Vec<i64>> {
    tx.prepare(
        "SELECT id FROM donation_plans WHERE status IN ('active', 'retrying') \
             AND next_attempt_at <= ?1 ORDER BY next_attempt_at",
    )?
    .query_map([sql_time(now)], |r| r.get(0))?
    .collect()
}

/// What [`prepare`] decided.
#[derive(Debug)]
pub(super) enum Prepared {
    NotDue,
    Paused,
    Charge(SavedCardCharge),
}

/// The donor's details as the plan's sign-up gift holds them, for each later gift.
const DONOR_COLUMNS: &str = "donor_name, donor_first_name, donor_last_name, donor_email, \
     donor_address, donor_city, donor_state, donor_zip_code, donor_occupation, donor_employer, \
     contribution_purpose, email_id";

/// The plan's sign-up gift (charge 0).
fn sign_up_gift(tx: &Connection, plan: i64) -> rusqlite::Result<Option<i64>> {
    tx.query_row(
        "SELECT id FROM donations WHERE plan_id = ?1 AND plan_charge = 0",
        [plan],
        |r| r.get(0),
    )
    .optional()
}

/// Step 1: whether plan `id` is to be charged now, with the year's limit checked; if so its
/// gift is stored (or taken up again) as `pending`.
pub(super) fn prepare(
    tx: &Connection,
    mail: &Mail,
    site: &SiteConfig,
    id: i64,
    now: Timestamp,
) -> rusqlite::Result<Prepared> {
    let due: Option<Option<String>> = tx
        .query_row(
            "SELECT next_attempt_at FROM donation_plans WHERE id = ?1 AND status IN ('active', 'retrying')",
            [id],
            |r| r.get(0),
        )
        .optional()?;
    let Some(Some(attempt_at)) = due else {
        return Ok(Prepared::NotDue);
    };
    if attempt_at.parse::<Timestamp>().is_ok_and(|at| at > now) {
        return Ok(Prepared::NotDue);
    }
    let Some(plan) = get(tx, id)? else {
        return Ok(Prepared::NotDue);
    };
    let tz = site.tz();
    let n = plan.next_charge;
    let existing: Option<(i64, String, i64)> = tx
        .query_row(
            "SELECT id, status, amount_cents FROM donations WHERE plan_id = ?1 AND plan_charge = ?2",
            params![id, n],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .optional()?;
    if let Some((gift, status, _)) = &existing
        && status == "completed"
    {
        // Paid already (its record was cut short): move the plan on.
        super::on_completed(tx, *gift, None, now, &tz)?;
        return Ok(Prepared::NotDue);
    }
    let year = year_at(site, now);
    let rules = &site.donations;
    // What the donor gave this year besides this charge (its own row, if a crash left it
    // pending, does not count against itself).
    let except = existing.as_ref().map_or(0, |(gift, _, _)| *gift);
    // Counted as the plan's own mail may be told (its sign-up gift's contributor, through
    // the plan's address): what the contributor gave from elsewhere is held at payment.
    let giver = match sign_up_gift(tx, id)? {
        Some(gift) => donations::giver_of(tx, gift, &plan.email)?,
        None => donations::Whose::Address(&plan.email),
    };
    let earlier = donations::totals_except(tx, giver, year, now, except)?.completed;
    let limit = rules.limit_cents(year);
    if limit.is_none_or(|limit| earlier + plan.amount_cents > limit) {
        pause(
            tx,
            mail,
            &plan,
            existing.map(|(gift, _, _)| gift),
            year,
            limit,
            now,
        )?;
        return Ok(Prepared::Paused);
    }
    let (Some(customer), Some(payment_method)) =
        (plan.customer.clone(), plan.payment_method.clone())
    else {
        // Never happens to a plan that started (its first gift saved the card): stop it
        // rather than guess.
        tx.execute(
            "UPDATE donation_plans SET status = 'inactive', next_attempt_at = NULL, \
                 last_error = 'No saved card', updated_at = ?2 WHERE id = ?1",
            params![id, sql_time(now)],
        )?;
        return Ok(Prepared::NotDue);
    };
    let at = sql_time(now);
    let gift = match existing {
        Some((gift, _, _)) => {
            // A retry, or a try a crash cut short: the same gift, this year's, ready to pay.
            tx.execute(
                "UPDATE donations SET status = 'pending', payment_intent_id = NULL, \
                     contribution_year = ?2, updated_at = ?3 WHERE id = ?1",
                params![gift, year, at],
            )?;
            gift
        }
        None => tx.query_row(
            &format!(
                "INSERT INTO donations (amount_cents, {DONOR_COLUMNS}, citizenship_confirmed, \
                     attestations_confirmed, contribution_year, plan_id, plan_charge, created_at, updated_at) \
                 SELECT ?1, {DONOR_COLUMNS}, 1, 1, ?2, ?3, ?4, ?5, ?5 FROM donations \
                 WHERE plan_id = ?3 AND plan_charge = 0 RETURNING id"
            ),
            params![plan.amount_cents, year, id, n, at],
            |r| r.get(0),
        )?,
    };
    request_missing_info(tx, mail, rules, &plan, gift, year, earlier, now)?;
    // The card is in the key too: after a new card the tries count from zero again.
    let key = format!(
        "plan-{id}-{}-charge-{n}-try-{}-{payment_method}",
        plan.created_at, plan.failures
    );
    Ok(Prepared::Charge(SavedCardCharge {
        amount_cents: plan.amount_cents,
        description: format!("Monthly contribution to {}", site.name),
        donation_id: gift,
        plan_id: id,
        customer,
        payment_method,
        idempotency_key: key,
    }))
}

/// Pauses `plan` until the new year: its next charge would pass the year's limit. The gift a
/// retry had stored is canceled (it was never charged); donor and staff are told.
fn pause(
    tx: &Connection,
    mail: &Mail,
    plan: &Plan,
    gift: Option<i64>,
    year: i16,
    limit: Option<i64>,
    now: Timestamp,
) -> rusqlite::Result<()> {
    // Paused until the new year; the donor is told the day the gift really goes on.
    let until = next_new_year(now, &mail.tz);
    let (_, resume) = first_due_from(plan.anchor, until, &mail.tz);
    let at = sql_time(now);
    tx.execute(
        "UPDATE donation_plans SET status = 'paused', next_attempt_at = NULL, paused_until = ?2, \
             last_error = 'Annual limit reached', updated_at = ?3 WHERE id = ?1",
        params![plan.id, sql_time(until), at],
    )?;
    if let Some(gift) = gift {
        tx.execute(
            "UPDATE donations SET status = 'canceled', updated_at = ?2 WHERE id = ?1 AND status != 'completed'",
            params![gift, at],
        )?;
    }
    plan_notices::send(
        mail,
        tx,
        plan.id,
        Notice::Paused {
            year,
            limit_cents: limit.unwrap_or(0),
            resume,
        },
        now,
    )?;
    Ok(())
}

/// When this gift takes the donor's year past the itemisation threshold and their sign-up
/// gave no occupation or employer, the gift is marked as asked and the donor asked once a
/// year (best efforts, 11 CFR 104.7(b)).
#[allow(clippy::too_many_arguments)]
fn request_missing_info(
    tx: &Connection,
    mail: &Mail,
    rules: &generator::config::DonationRules,
    plan: &Plan,
    gift: i64,
    year: i16,
    earlier: i64,
    now: Timestamp,
) -> rusqlite::Result<()> {
    if !rules.needs_itemization_info(earlier + plan.amount_cents) {
        return Ok(());
    }
    let missing: bool = tx.query_row(
        "SELECT donor_occupation IS NULL OR donor_employer IS NULL FROM donations WHERE id = ?1",
        [gift],
        |r| r.get(0),
    )?;
    if !missing {
        return Ok(());
    }
    tx.execute(
        "UPDATE donations SET info_requested_at = COALESCE(info_requested_at, ?2) WHERE id = ?1",
        params![gift, sql_time(now)],
    )?;
    plan_notices::send(
        mail,
        tx,
        plan.id,
        Notice::InfoRequest {
            year,
            threshold_cents: i64::from(rules.itemization_threshold) * 100,
        },
        now,
    )?;
    Ok(())
}

/// Step 3, paid: the gift completes (with its receipt) and the plan moves on, unless
/// Stripe's event got there first and did both.
pub(super) fn paid(
    tx: &Connection,
    mail: &Mail,
    site: &SiteConfig,
    gift: i64,
    intent: &str,
    payment_method: Option<&str>,
    now: Timestamp,
) -> rusqlite::Result<()> {
    tx.execute(
        "UPDATE donations SET payment_intent_id = ?2 WHERE id = ?1 AND payment_intent_id IS NULL",
        params![gift, intent],
    )?;
    let cents: i64 = tx.query_row(
        "SELECT amount_cents FROM donations WHERE id = ?1",
        [gift],
        |r| r.get(0),
    )?;
    if donations::complete_paid(
        tx,
        gift,
        intent,
        cents,
        crate::domain::donations::stripe::CURRENCY,
    )? {
        crate::domain::donations::completion::completed(
            mail,
            tx,
            gift,
            payment_method,
            now,
            &site.tz(),
        )?;
        // (What passed the limit, if anything, is refunded by `LimitRefunder`, which the
        // charger wakes.)
    }
    Ok(())
}

/// Step 3, declined: tried again on the next of [`RETRY_DAYS`] after the first decline, or,
/// for a hard decline or after the last retry, the plan is inactive. The donor hears of the
/// first decline (with a link to give another card) and of the end. `true` when inactive.
pub(super) fn declined(
    tx: &Connection,
    mail: &Mail,
    site: &SiteConfig,
    (id, gift): (i64, i64),
    intent: Option<&str>,
    (code, message): (&str, &str),
    now: Timestamp,
) -> rusqlite::Result<bool> {
    let at = sql_time(now);
    if let Some(intent) = intent {
        tx.execute(
            "UPDATE donations SET payment_intent_id = ?2 WHERE id = ?1 AND payment_intent_id IS NULL",
            params![gift, intent],
        )?;
    }
    tx.execute(
        "UPDATE donations SET status = 'failed', updated_at = ?2 WHERE id = ?1 AND status = 'pending'",
        params![gift, at],
    )?;
    let Some(plan) = get(tx, id)? else {
        return Ok(false);
    };
    if plan.status == Status::Canceled {
        return Ok(false);
    }
    let failures = plan.failures + 1;
    let first = plan.first_failure_at.unwrap_or(now);
    let due = due_at(plan.anchor, plan.next_charge, &site.tz());
    let stop = is_hard_decline(code) || failures > RETRY_DAYS.len() as i64;
    let error = format!("{message} ({code})");
    if stop {
        tx.execute(
            "UPDATE donation_plans SET status = 'inactive', next_attempt_at = NULL, failures = ?2, \
                 first_failure_at = ?3, last_error = ?4, updated_at = ?5 WHERE id = ?1",
            params![id, failures, sql_time(first), error, at],
        )?;
        plan_notices::send(
            mail,
            tx,
            id,
            Notice::Stopped {
                charge: plan.next_charge,
                due,
            },
            now,
        )?;
        return Ok(true);
    }
    let retry = first + SignedDuration::from_hours(24 * RETRY_DAYS[(failures - 1) as usize]);
    tx.execute(
        "UPDATE donation_plans SET status = 'retrying', next_attempt_at = ?2, failures = ?3, \
             first_failure_at = ?4, last_error = ?5, updated_at = ?6 WHERE id = ?1",
        params![id, sql_time(retry), failures, sql_time(first), error, at],
    )?;
    if failures == 1 {
        plan_notices::send(
            mail,
            tx,
            id,
            Notice::Declined {
                charge: plan.next_charge,
                due,
                retry,
            },
            now,
        )?;
    }
    Ok(false)
}

/// Step 3, no answer: the same charge (same key) is asked for again [`ASK_AGAIN`] later.
pub(super) fn failed_to_ask(
    tx: &Connection,
    id: i64,
    why: &str,
    now: Timestamp,
) -> rusqlite::Result<()> {
    tx.execute(
        "UPDATE donation_plans SET next_attempt_at = ?2, last_error = ?3, updated_at = ?4 \
         WHERE id = ?1 AND status IN ('active', 'retrying')",
        params![id, sql_time(now + ASK_AGAIN), why, sql_time(now)],
    )
    .map(|_| ())
}

/// A new card for plan `id` (saved by its donor after a decline, or `setup_intent.succeeded`):
/// later charges use it, and a plan that was retrying or inactive is due again at once.
/// `false` when the plan has ended or the card is not its customer's.
pub fn new_card(
    tx: &Connection,
    id: i64,
    customer: Option<&str>,
    payment_method: &str,
    now: Timestamp,
) -> rusqlite::Result<bool> {
    let changed = tx.execute(
        "UPDATE donation_plans SET payment_method = ?2, \
             status = CASE WHEN status IN ('retrying', 'inactive') THEN 'active' ELSE status END, \
             next_attempt_at = CASE WHEN status IN ('retrying', 'inactive') THEN ?3 ELSE next_attempt_at END, \
             failures = CASE WHEN status IN ('retrying', 'inactive') THEN 0 ELSE failures END, \
             first_failure_at = CASE WHEN status IN ('retrying', 'inactive') THEN NULL ELSE first_failure_at END, \
             updated_at = ?3 \
         WHERE id = ?1 AND status NOT IN ('canceled', 'pending') AND stripe_customer IS ?4",
        params![id, payment_method, sql_time(now), customer],
    )?;
    Ok(changed == 1)
}
