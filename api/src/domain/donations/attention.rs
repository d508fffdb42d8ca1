//! Donors over the year's limit: possible although every gift is checked when it is set up
//! (a payment that arrives after its gift expired, a redesignation). Federal rules give the
//! committee 60 days from receiving an excessive contribution to refund (or redesignate)
//! the excess; staff see each such donor with the days left.

use generator::config::DonationRules;
use jiff::tz::TimeZone;
use jiff::{SignedDuration, Timestamp};
use rusqlite::Connection;
use serde::Serialize;

use super::store;

/// Days the committee has to cure an excessive contribution (11 CFR 103.3(b)(3)).
pub const CURE_DAYS: i64 = 60;

/// One contributor over one year's limit (named as on the gift that took them over).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OverLimit {
    pub donor_name: String,
    pub donor_email: String,
    pub year: i16,
    /// Completed gifts of the year less everything refunded of them, in cents.
    pub net_cents: i64,
    pub limit_cents: i64,
    pub excess_cents: i64,
    /// The gift that took the donor over the limit: when it was received.
    pub over_since: String,
    /// The last day to refund the excess (party's calendar), `YYYY-MM-DD`.
    pub deadline: String,
    /// Days from today (party's calendar) to the deadline; negative once it has passed.
    pub days_left: i64,
}

/// Every contributor (the FEC's individual, `donations::contributors`: from any address, and
/// after the treasurer combined two) whose completed gifts in a year, less what was refunded of them (at any time:
/// a refund early next year still cures this year's excess), exceed that year's limit.
pub fn over_limit(
    conn: &Connection,
    rules: &DonationRules,
    tz: &TimeZone,
    now: Timestamp,
) -> rusqlite::Result<Vec<OverLimit>> {
    let mut stmt = conn.prepare(&format!(
        "SELECT c.root_id, d.contribution_year, d.donor_name, d.created_at, \
                d.amount_cents - {refunded}, d.donor_email \
         FROM donations d JOIN contributors c ON c.id = d.contributor_id \
         WHERE d.status = 'completed' AND (c.root_id, d.contribution_year) IN ( \
             SELECT k.root_id, g.contribution_year FROM donations g \
             JOIN contributors k ON k.id = g.contributor_id WHERE g.status = 'completed' \
             GROUP BY k.root_id, g.contribution_year HAVING SUM(g.amount_cents) > ?1) \
         ORDER BY c.root_id, d.contribution_year, d.created_at, d.id",
        refunded = store::refunded_counted("d")
    ))?;
    // Only donors whose gross gifts pass the lowest limit can be over any limit.
    let lowest = rules
        .annual_limits
        .values()
        .min()
        .map_or(0, |d| i64::from(*d) * 100);
    let rows = stmt
        .query_map([lowest], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, i16>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, i64>(4)?,
                r.get::<_, String>(5)?,
            ))
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    let today = now.to_zoned_datetime(tz.clone()).date();
    let mut found = Vec::new();
    let mut i = 0;
    while i < rows.len() {
        let (contributor, year) = (rows[i].0, rows[i].1);
        let group: Vec<_> = rows[i..]
            .iter()
            .take_while(|r| r.0 == contributor && r.1 == year)
            .collect();
        i += group.len();
        let Some(limit) = rules.limit_cents(year) else {
            continue;
        };
        let net: i64 = group.iter().map(|r| r.4).sum();
        if net <= limit {
            continue;
        }
        // The first gift with which the running total passed the limit.
        let mut running = 0;
        let since = group
            .iter()
            .find(|r| {
                running += r.4;
                running > limit
            })
            .unwrap_or(&group[group.len() - 1]);
        let received = since
            .3
            .parse::<Timestamp>()
            .unwrap_or(now)
            .to_zoned_datetime(tz.clone())
            .date();
        let deadline = received + SignedDuration::from_hours(24 * CURE_DAYS);
        let days_left = today.duration_until(deadline).as_hours() / 24;
        found.push(OverLimit {
            donor_name: since.2.clone(),
            donor_email: since.5.clone(),
            year,
            net_cents: net,
            limit_cents: limit,
            excess_cents: net - limit,
            over_since: since.3.clone(),
            deadline: deadline.to_string(),
            days_left,
        });
    }
    found.sort_by_key(|o| o.days_left);
    Ok(found)
}
