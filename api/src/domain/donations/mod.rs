//! Donations on the server: a donor's yearly totals, reserving a gift, holding every gift
//! to the year's limit once it is paid, applying what Stripe reports, and expiring gifts
//! that were never paid.
//!
//! What a set-up answers depends only on what it sends, unless the browser holds the donor's
//! pass (proof that it reads the donor's mail, [`crate::domain::donations::donor_pass`]): whether a
//! person gave, and how much, is their political affiliation, and a refusal that depended on
//! it told anyone who asked. Nor does an unpaid set-up count against anyone: a stranger's
//! set-up in a donor's name used to block the donor's own gift. So the limit is held where
//! it cannot be gamed, when a payment succeeds ([`hold_to_limit`]): in the write that
//! completes a gift, what the donor has kept that year is summed, and whatever passes the
//! limit is refunded at once (a refund of origin `limit`, made at Stripe by
//! [`limit_refunds`]). Writes are serialised (one writer), so two gifts paid at the same
//! moment are summed one after the other, and never more than the limit is kept.
//!
//! An unpaid gift expires after [`HOLD`] (the time a donor needs to type a card in): the
//! sweep marks it `expired` and cancels its payment at Stripe so it can no longer be paid.

use std::sync::Arc;

use generator::config::{DonationRules, SiteConfig};
use generator::donations::{self, Donation};
use generator::forms::Invalid;
use jiff::{SignedDuration, Timestamp};
use rusqlite::{Connection, OptionalExtension, params};

use crate::domain::clock::{Clock, sql_time};
use crate::domain::mail::Mail;
use crate::domain::people;
use crate::store::db::Db;

pub mod attention;
pub mod completion;
pub mod contributors;
pub mod disputes;
pub mod donor_pass;
pub mod fec;
pub mod limit_refunds;
pub mod money_back;
pub mod monthly;
pub mod notices;
pub mod refunds;
pub mod setup;
pub mod staff_refund;
pub mod store;
pub mod stripe;
mod totals;

use totals::hold_cutoff;
pub use totals::{Totals, Whose, giver_of, summary, totals, totals_except};

/// What the money's sequences use (a set-up, a refund, Stripe's events): the database, the
/// time, the mail, the party's settings (limits, time zone, committee) and the card processor.
#[derive(Clone)]
pub struct Ledger {
    pub db: Db,
    pub clock: Arc<Clock>,
    pub mail: Arc<Mail>,
    pub site: Arc<SiteConfig>,
    /// `None` when no Stripe keys are configured.
    pub payments: Option<Arc<stripe::Payments>>,
    /// Makes the refunds of what passed the year's limit (wake it after a completion).
    pub refunder: limit_refunds::LimitRefunder,
}

/// How long an unpaid gift may still be paid: then the sweep expires it.
pub const HOLD: SignedDuration = SignedDuration::from_mins(10);

/// The calendar year a gift received now counts toward: the year in the party's time zone.
pub fn current_year(site: &SiteConfig) -> i16 {
    year_at(site, jiff::Timestamp::now())
}

/// The calendar year in the party's time zone at `at`.
pub fn year_at(site: &SiteConfig, at: jiff::Timestamp) -> i16 {
    at.to_zoned_datetime(site.tz()).year()
}

/// A reserved gift: its row, and when it was made (part of its Stripe idempotency key).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reserved {
    pub id: i64,
    pub created_at: String,
}

/// Reserves `donation` in `year` at `now` if the rules allow it; call inside one write.
/// `Ok(Err(_))` is a refusal, with the spec's sentence.
///
/// Without the donor's pass (`verified` false) the answer depends only on the request: the
/// gift alone may not pass the year's limit, and needs occupation, employer and purpose
/// when it alone passes the itemisation threshold (what the donor gave before is checked
/// when the payment succeeds: [`hold_to_limit`], and the best-efforts request after the
/// gift). The donor's own browser (`verified`) is told the spec's full sentences, which
/// count what they gave before this year.
///
/// `later_this_year` is what a monthly gift will charge after this one before the year
/// ends: the itemisation rules apply to that projected total (the limit is checked again
/// before each of those charges).
pub fn reserve(
    conn: &Connection,
    rules: &DonationRules,
    year: i16,
    donation: &Donation,
    later_this_year: i64,
    now: Timestamp,
    verified: bool,
) -> rusqlite::Result<Result<Reserved, Invalid>> {
    let donor = &donation.donor;
    let amount = donation.amount_cents;
    let Some(limit) = rules.limit_cents(year) else {
        return Ok(Err(Invalid {
            field: None,
            message: format!("Donations for {year} are not open."),
        }));
    };
    let earlier = if verified {
        verified_earlier(conn, donation, year, now)?
    } else {
        0
    };
    if earlier + amount > limit {
        return Ok(Err(Invalid {
            field: Some("amount"),
            message: if verified {
                donations::limit_message(limit - earlier)
            } else {
                donations::TEXTS.limit_exceeded_unknown.to_owned()
            },
        }));
    }
    if rules.needs_itemization_info(earlier + amount + later_this_year)
        && !donor.has_itemization_info()
    {
        let field = [
            (&donor.occupation, donations::OCCUPATION.name),
            (&donor.employer, donations::EMPLOYER.name),
            (&donor.purpose, donations::PURPOSE.name),
        ]
        .into_iter()
        .find(|(value, _)| value.is_none())
        .map(|(_, name)| name);
        return Ok(Err(Invalid {
            field,
            message: if later_this_year > 0 && !rules.needs_itemization_info(earlier + amount) {
                // Only the months to come take it past the threshold: say so.
                donations::monthly_info_message(rules, year)
            } else {
                donations::additional_info_message(rules, year, earlier, amount)
            },
        }));
    }
    let email_id = people::link(conn, &donor.email, now)?;
    let reserved = conn.query_row(
        "INSERT INTO donations (amount_cents, donor_name, donor_first_name, donor_last_name, \
             donor_email, donor_address, donor_city, donor_state, donor_zip_code, donor_occupation, \
             donor_employer, contribution_purpose, citizenship_confirmed, attestations_confirmed, \
             contribution_year, created_at, updated_at, email_id) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, 1, 1, ?13, ?14, ?14, ?15) \
         RETURNING id, created_at",
        params![
            amount,
            donor.full_name(),
            donor.first_name,
            donor.last_name,
            donor.email,
            donor.address,
            donor.city,
            donor.state,
            donor.zip_code,
            donor.occupation,
            donor.employer,
            donor.purpose,
            year,
            sql_time(now),
            email_id,
        ],
        |r| {
            Ok(Reserved {
                id: r.get(0)?,
                created_at: r.get(1)?,
            })
        },
    )?;
    Ok(Ok(reserved))
}

/// What the contributor `donation` names gave this year from the addresses of the supporter
/// its e-mail belongs to: all a pass (which proves only the address) may be told.
fn verified_earlier(
    conn: &Connection,
    donation: &Donation,
    year: i16,
    now: Timestamp,
) -> rusqlite::Result<i64> {
    let donor = &donation.donor;
    let key = contributors::Key::of(
        &donor.first_name,
        &donor.last_name,
        &donor.address,
        &donor.zip_code,
    );
    let (Some(contributor), Some(supporter)) = (
        contributors::find(conn, &key)?,
        people::supporter_of(conn, &donor.email)?,
    ) else {
        return Ok(0);
    };
    Ok(totals(
        conn,
        Whose::Via {
            contributor,
            supporter,
        },
        year,
        now,
    )?
    .completed)
}

/// Holds completed gift `id` to its year's limit; call inside the write that completed it.
/// What its contributor (the person its name, street and ZIP identify, from any address:
/// `donations::contributors`) keeps of their gifts that year (each gift less every refund asked
/// for or made of it, whenever) is summed with this one; whatever passes the limit is stored as a
/// refund of origin `limit`, `requested`, for [`limit_refunds`] to make at Stripe. Returns
/// that refund's id. The gift completed last is the one cut back, so of two gifts paid at
/// once the second returns what the first left no room for.
pub fn hold_to_limit(
    conn: &Connection,
    rules: &DonationRules,
    tz: &jiff::tz::TimeZone,
    id: i64,
    now: Timestamp,
) -> rusqlite::Result<Option<i64>> {
    // The gift's contributor is known from now on: made here if this is their first.
    let Some(contributor) = contributors::assign(conn, id, now)? else {
        return Ok(None);
    };
    let year: i16 = conn.query_row(
        "SELECT contribution_year FROM donations WHERE id = ?1",
        [id],
        |r| r.get(0),
    )?;
    let Some(limit) = rules.limit_cents(year) else {
        return Ok(None);
    };
    let kept = |which: &str| -> rusqlite::Result<i64> {
        conn.query_row(
            &format!(
                "SELECT COALESCE(SUM(amount_cents - {held}), 0) \
                 FROM donations WHERE status = 'completed' AND {of} \
                   AND contribution_year = ?2 AND {which}",
                held = store::refunded_held("donations"),
                of = store::OF_CONTRIBUTOR,
            ),
            params![contributor, year, id],
            |r| r.get(0),
        )
    };
    let (before, this) = (kept("id != ?3")?, kept("id = ?3")?);
    let excess = (before + this - limit).min(this);
    if excess <= 0 {
        return Ok(None);
    }
    refunds::request_over_limit(conn, tz, id, excess, year, limit, now).map(Some)
}
/// Sets a gift's status (its Stripe setup failed, say).
pub fn set_status(conn: &Connection, id: i64, status: &str) -> rusqlite::Result<()> {
    conn.execute(
        "UPDATE donations SET status = ?2, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?1",
        params![id, status],
    )
    .map(|_| ())
}

/// Remembers the PaymentIntent of a reserved gift.
pub fn set_intent(conn: &Connection, id: i64, intent: &str) -> rusqlite::Result<()> {
    conn.execute(
        "UPDATE donations SET payment_intent_id = ?2, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?1",
        params![id, intent],
    )
    .map(|_| ())
}

/// What a Stripe event says happened to a payment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Succeeded,
    Failed,
    Canceled,
}

/// The parts of a PaymentIntent event a gift's status depends on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaymentEvent {
    pub event_id: String,
    pub event_type: String,
    pub outcome: Outcome,
    pub intent_id: String,
    pub amount_cents: i64,
    pub currency: String,
    /// Our row id from the intent's metadata.
    pub donation_id: Option<i64>,
    /// The card that paid, which a monthly gift keeps for its later charges.
    pub payment_method: Option<String>,
}

/// What applying an event did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Applied {
    /// The gift moved from one status to another.
    Changed {
        id: i64,
        from: String,
        to: &'static str,
    },
    /// The event was seen before: nothing changes.
    Duplicate,
    /// The gift's status already says more than the event (a failure after a success).
    Unchanged { id: i64, status: String },
    /// No gift of ours has this intent (another integration on the same Stripe account).
    Unknown,
    /// The intent's amount or currency is not the gift's: left for a person to look at.
    Mismatch { id: i64 },
}

/// Applies a PaymentIntent event once; call inside one write. Which statuses may follow which:
/// a success completes any gift that was not canceled (the money arrived, even after a
/// decline or an expiry); a failure only ends a pending gift (the donor may still try another
/// card, whose success completes it); a cancellation ends anything but a completed gift.
pub fn apply(conn: &Connection, event: &PaymentEvent) -> rusqlite::Result<Applied> {
    if !first_time(conn, &event.event_id, &event.event_type)? {
        return Ok(Applied::Duplicate);
    }
    let row: Option<(i64, String, i64, String, Option<String>)> = conn
        .query_row(
            "SELECT id, status, amount_cents, currency, payment_intent_id FROM donations \
             WHERE payment_intent_id = ?1 \
                OR (?2 IS NOT NULL AND id = ?2 AND payment_intent_id IS NULL) \
             ORDER BY payment_intent_id IS NULL LIMIT 1",
            params![event.intent_id, event.donation_id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
        )
        .optional()?;
    let Some((id, status, amount, currency, known_intent)) = row else {
        return Ok(Applied::Unknown);
    };
    if known_intent.is_none() {
        set_intent(conn, id, &event.intent_id)?;
    }
    let to = match (event.outcome, status.as_str()) {
        (Outcome::Succeeded, "pending" | "failed" | "expired") => {
            if amount != event.amount_cents || !currency.eq_ignore_ascii_case(&event.currency) {
                return Ok(Applied::Mismatch { id });
            }
            "completed"
        }
        (Outcome::Failed, "pending") => "failed",
        (Outcome::Canceled, "pending" | "failed" | "expired") => "canceled",
        _ => return Ok(Applied::Unchanged { id, status }),
    };
    set_status(conn, id, to)?;
    Ok(Applied::Changed {
        id,
        from: status,
        to,
    })
}

/// Records Stripe event `id` as applied; `false` when it already was (a replay), in which
/// case the caller applies nothing. Call inside the write that applies it.
pub fn first_time(conn: &Connection, id: &str, kind: &str) -> rusqlite::Result<bool> {
    let fresh = conn.execute(
        "INSERT INTO stripe_events (id, type) VALUES (?1, ?2) ON CONFLICT (id) DO NOTHING",
        params![id, kind],
    )?;
    Ok(fresh == 1)
}

/// Completes gift `id`, whose intent `intent` Stripe says succeeded with this amount and
/// currency, by the same rule as a `payment_intent.succeeded` event; `true` when it changed.
/// Call inside one write.
pub fn complete_paid(
    conn: &Connection,
    id: i64,
    intent: &str,
    amount_cents: i64,
    currency: &str,
) -> rusqlite::Result<bool> {
    let changed = conn.execute(
        "UPDATE donations SET status = 'completed', \
             updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') \
         WHERE id = ?1 AND payment_intent_id = ?2 AND status IN ('pending', 'failed', 'expired') \
           AND amount_cents = ?3 AND lower(currency) = lower(?4)",
        params![id, intent, amount_cents, currency],
    )?;
    Ok(changed == 1)
}

/// Marks pending gifts that no longer hold their place (see [`HOLD`]) `expired`; returns
/// their intents, which should be canceled at Stripe so they can no longer be paid. A
/// monthly charge waiting on an answer from Stripe is left to its plan's next pass.
pub fn expire(conn: &Connection, now: Timestamp) -> rusqlite::Result<Vec<(i64, Option<String>)>> {
    let mut stmt = conn.prepare(
        "UPDATE donations SET status = 'expired', updated_at = ?2 \
         WHERE status = 'pending' AND created_at <= ?1 AND COALESCE(plan_charge, 0) = 0 \
         RETURNING id, payment_intent_id",
    )?;
    stmt.query_map(params![hold_cutoff(now), sql_time(now)], |r| {
        Ok((r.get(0)?, r.get(1)?))
    })?
    .collect()
}

#[cfg(test)]
mod tests;
