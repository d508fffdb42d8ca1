//! Monthly gifts: a donor's choice to give the same amount every month until they cancel.
//!
//! The site charges a plan itself, with the card saved with Stripe at sign-up (the sign-up
//! gift is paid on the page with `setup_future_usage: off_session`), rather than through
//! Stripe's subscriptions, so that its own rules run before every charge:
//!
//! - every charge is its own gift (a `donations` row with `plan_id` and `plan_charge`),
//!   counted in the donor's year, the itemisation threshold and the exports, with its own
//!   receipt carrying the next date and a cancel link;
//! - before each charge the annual limit is checked: a charge that would pass it is not
//!   attempted, and the plan is paused until January ([`charge`]);
//! - a decline is tried again on days 1, 3, 5 and 7 ([`RETRY_DAYS`]), then the plan is
//!   inactive until the donor gives a new card; a hard decline (a stolen card, a closed
//!   account) makes it inactive at once;
//! - charge n is due n months after the sign-up, in the party's time zone ([`due_at`]); a
//!   server that was down makes a missed charge once when it starts, never once per month
//!   missed; each try has an idempotency key made from the plan, the charge and the try, so
//!   a restart, a crash mid-charge or two passes at once never charge twice;
//! - the donor cancels from a signed link in every receipt, without signing in, and staff
//!   from the admin, with a reason; either stops every later charge at once.

pub mod charge;
pub mod listing;
mod steps;

use jiff::civil::Date;
use jiff::tz::TimeZone;
use jiff::{SignedDuration, Timestamp, ToSpan as _, ZonedDateTime};
use rusqlite::{Connection, OptionalExtension, params};

use crate::domain::clock::sql_time;

/// A declined charge is tried again this many days after its first decline; after the last
/// one fails the plan is inactive.
pub const RETRY_DAYS: [i64; 4] = [1, 3, 5, 7];

/// Stripe's decline codes that no retry can cure: the plan stops at once.
const HARD_DECLINES: &[&str] = &[
    "stolen_card",
    "lost_card",
    "pickup_card",
    "restricted_card",
    "account_closed",
    "card_not_supported",
    "do_not_honor_permanently",
    "do_not_try_again",
    "fraudulent",
    "merchant_blacklist",
    "revocation_of_all_authorizations",
    "revocation_of_authorization",
    "security_violation",
    "stop_payment_order",
    "invalid_account",
    "new_account_information_available",
];

/// Whether Stripe's `decline_code` (or error `code`) means the card will never pay.
pub fn is_hard_decline(code: &str) -> bool {
    HARD_DECLINES.contains(&code)
}

/// Where a plan stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Pending,
    Active,
    Retrying,
    Paused,
    Inactive,
    Canceled,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pending => "pending",
            Status::Active => "active",
            Status::Retrying => "retrying",
            Status::Paused => "paused",
            Status::Inactive => "inactive",
            Status::Canceled => "canceled",
        }
    }

    pub fn parse(s: &str) -> Option<Status> {
        Some(match s {
            "pending" => Status::Pending,
            "active" => Status::Active,
            "retrying" => Status::Retrying,
            "paused" => Status::Paused,
            "inactive" => Status::Inactive,
            "canceled" => Status::Canceled,
            _ => return None,
        })
    }

    /// Whether the plan has ended for good (its cancel link then says so).
    pub fn ended(self) -> bool {
        self == Status::Canceled
    }
}

/// When charge `n` of a plan signed up at `anchor` falls due: `n` months on, in zone `tz`
/// (the 31st falls on the last day of a shorter month, and the next month is the 31st again).
pub fn due_at(anchor: Timestamp, n: i64, tz: &TimeZone) -> Timestamp {
    let start = anchor.to_zoned_datetime(tz.clone());
    start
        .checked_add(n.months())
        .map(|z| z.timestamp())
        .unwrap_or(anchor)
}

/// The first charge after `n` that falls due after `now`: a server that was down a while
/// makes the charge it missed once, then goes on from the next date to come.
pub fn next_after(anchor: Timestamp, n: i64, now: Timestamp, tz: &TimeZone) -> i64 {
    let mut m = n + 1;
    while due_at(anchor, m, tz) <= now {
        m += 1;
    }
    m
}

/// The first charge of a plan signed up at `anchor` that falls due at or after `from`, its
/// number and date: where a plan paused until the new year goes on, on its own day of the
/// month (a plan begun on the 15th resumes on January 15, not January 1).
pub fn first_due_from(anchor: Timestamp, from: Timestamp, tz: &TimeZone) -> (i64, Timestamp) {
    let mut n = 1;
    while due_at(anchor, n, tz) < from {
        n += 1;
    }
    (n, due_at(anchor, n, tz))
}

/// How many charges a plan signed up at `now` makes in the calendar year of `now` (the
/// sign-up gift included): one for each month left in the year, this one included.
pub fn charges_this_year(now: Timestamp, tz: &TimeZone) -> i64 {
    13 - i64::from(now.to_zoned_datetime(tz.clone()).month())
}

/// A day as donors read it: "December 27, 2026".
pub fn day(at: Timestamp, tz: &TimeZone) -> String {
    at.to_zoned_datetime(tz.clone())
        .strftime("%B %-d, %Y")
        .to_string()
}

/// The start of the next calendar year in `tz`, when the pause of a plan paused at the
/// limit ends (its next charge is its first date after that: [`first_due_from`]).
pub fn next_new_year(now: Timestamp, tz: &TimeZone) -> Timestamp {
    let year = now.to_zoned_datetime(tz.clone()).year();
    Date::new(year + 1, 1, 1)
        .ok()
        .and_then(|d| d.to_zoned_datetime(tz.clone()).ok())
        .map(|z: ZonedDateTime| z.timestamp())
        .unwrap_or(now + SignedDuration::from_hours(24 * 366))
}

/// A plan as its rules read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    pub id: i64,
    pub email: String,
    pub amount_cents: i64,
    pub status: Status,
    pub anchor: Timestamp,
    pub next_charge: i64,
    pub failures: i64,
    pub first_failure_at: Option<Timestamp>,
    pub customer: Option<String>,
    pub payment_method: Option<String>,
    pub created_at: String,
}

const COLUMNS: &str = "id, donor_email, amount_cents, status, anchor_at, next_charge, failures, \
     first_failure_at, stripe_customer, payment_method, created_at";

fn time(text: Option<String>) -> Option<Timestamp> {
    text.and_then(|t| t.parse().ok())
}

fn plan_of(r: &rusqlite::Row<'_>) -> rusqlite::Result<Plan> {
    let status: String = r.get(3)?;
    let anchor: String = r.get(4)?;
    Ok(Plan {
        id: r.get(0)?,
        email: r.get(1)?,
        amount_cents: r.get(2)?,
        status: Status::parse(&status).unwrap_or(Status::Inactive),
        anchor: anchor.parse().unwrap_or_default(),
        next_charge: r.get(5)?,
        failures: r.get(6)?,
        first_failure_at: time(r.get(7)?),
        customer: r.get(8)?,
        payment_method: r.get(9)?,
        created_at: r.get(10)?,
    })
}

/// Plan `id`.
pub fn get(conn: &Connection, id: i64) -> rusqlite::Result<Option<Plan>> {
    conn.query_row(
        &format!("SELECT {COLUMNS} FROM donation_plans WHERE id = ?1"),
        [id],
        plan_of,
    )
    .optional()
}

/// Starts a plan for the sign-up gift `donation_id` (reserved in the same write): pending
/// until that gift is paid.
pub fn create(
    conn: &Connection,
    donation_id: i64,
    email: &str,
    amount_cents: i64,
    now: Timestamp,
) -> rusqlite::Result<i64> {
    let at = sql_time(now);
    let id: i64 = conn.query_row(
        "INSERT INTO donation_plans (donor_email, amount_cents, anchor_at, created_at, updated_at, email_id) \
         VALUES (?1, ?2, ?3, ?3, ?3, ?4) RETURNING id",
        params![email, amount_cents, at, crate::domain::people::link(conn, email, now)?],
        |r| r.get(0),
    )?;
    conn.execute(
        "UPDATE donations SET plan_id = ?2, plan_charge = 0 WHERE id = ?1",
        params![donation_id, id],
    )?;
    Ok(id)
}

/// Remembers the Stripe customer the plan's card is saved to.
pub fn set_customer(conn: &Connection, id: i64, customer: &str) -> rusqlite::Result<()> {
    conn.execute(
        "UPDATE donation_plans SET stripe_customer = ?2 WHERE id = ?1",
        params![id, customer],
    )
    .map(|_| ())
}

/// What a completed gift does to its plan; call inside the write that completed it, before
/// its receipt (which names the next date). The sign-up gift starts its plan; the gift of
/// the charge that is due moves the plan on to the next date to come (and back to active
/// after declines: a gift paid with a new card brings that card, which later charges use).
/// Anything else (a gift of a canceled plan, an old charge paid late) changes nothing.
pub fn on_completed(
    conn: &Connection,
    donation_id: i64,
    payment_method: Option<&str>,
    now: Timestamp,
    tz: &TimeZone,
) -> rusqlite::Result<()> {
    let gift: Option<(Option<i64>, Option<i64>)> = conn
        .query_row(
            "SELECT plan_id, plan_charge FROM donations WHERE id = ?1",
            [donation_id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    let Some((Some(plan_id), Some(charge))) = gift else {
        return Ok(());
    };
    let Some(plan) = get(conn, plan_id)? else {
        return Ok(());
    };
    let next = match plan.status {
        Status::Canceled => return Ok(()),
        Status::Pending if charge == 0 => 1.max(next_after(plan.anchor, 0, now, tz)),
        _ if charge == plan.next_charge && charge > 0 => next_after(plan.anchor, charge, now, tz),
        _ => return Ok(()),
    };
    conn.execute(
        "UPDATE donation_plans SET status = 'active', next_charge = ?2, next_attempt_at = ?3, \
             failures = 0, first_failure_at = NULL, last_error = NULL, \
             payment_method = COALESCE(?4, payment_method), updated_at = ?5 \
         WHERE id = ?1",
        params![
            plan.id,
            next,
            sql_time(due_at(plan.anchor, next, tz)),
            payment_method,
            sql_time(now)
        ],
    )?;
    Ok(())
}

/// Who ended a plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CanceledBy {
    Donor,
    Staff,
}

impl CanceledBy {
    pub fn as_str(self) -> &'static str {
        match self {
            CanceledBy::Donor => "donor",
            CanceledBy::Staff => "staff",
        }
    }
}

/// Cancels plan `id`: no charge is made after this write. `false` when it had already ended
/// (or does not exist).
pub fn cancel(
    conn: &Connection,
    id: i64,
    by: CanceledBy,
    reason: &str,
    now: Timestamp,
) -> rusqlite::Result<bool> {
    let at = sql_time(now);
    let changed = conn.execute(
        "UPDATE donation_plans SET status = 'canceled', next_attempt_at = NULL, canceled_at = ?2, \
             canceled_by = ?3, cancel_reason = ?4, updated_at = ?2 \
         WHERE id = ?1 AND status != 'canceled'",
        params![id, at, by.as_str(), reason],
    )?;
    Ok(changed == 1)
}

/// The next date a plan will charge, if it will: for its receipts and pages.
pub fn next_date(conn: &Connection, id: i64) -> rusqlite::Result<Option<Timestamp>> {
    let next: Option<Option<String>> = conn
        .query_row(
            "SELECT next_attempt_at FROM donation_plans WHERE id = ?1 AND status IN ('active', 'pending')",
            [id],
            |r| r.get(0),
        )
        .optional()?;
    Ok(time(next.flatten()))
}

/// The donor's gifts through their plans, for erasure: every plan of `email` is canceled
/// (a person who asked to be forgotten is never charged again).
pub fn cancel_all_of(conn: &Connection, email: &str, now: Timestamp) -> rusqlite::Result<usize> {
    let at = sql_time(now);
    conn.execute(
        "UPDATE donation_plans SET status = 'canceled', next_attempt_at = NULL, canceled_at = ?2, \
             canceled_by = 'staff', cancel_reason = 'Erased on request', updated_at = ?2 \
         WHERE donor_email = ?1 AND status != 'canceled'",
        params![email, at],
    )
}

#[cfg(test)]
mod tests;
