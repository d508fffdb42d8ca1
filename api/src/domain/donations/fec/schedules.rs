//! The treasurer's schedules for a date range: Schedule A (contributions received, with each
//! donor's year-to-date aggregate as of each gift) and Schedule B Line 28(a) (refunds, lost
//! disputes included, each tied to the gift it returns), read from the database and turned
//! into `SA11AI` / `SB28A` records.
//!
//! The aggregate as of a gift is what the donor gave in the gift's calendar year up to and
//! including it, less what was refunded to them in that same year before it (a refund is never
//! dated before its own gift, so it never lowers the aggregate shown with that gift). A gift is
//! itemized when that aggregate, or the donor's aggregate at their last gift in the range,
//! passes the threshold (`content/site.yaml`): once a donor passes $200, all their gifts in
//! the report are itemized. A refund is itemized when the gift it returns was.

use generator::config::DonationRules;
use jiff::civil::Date;
use jiff::tz::TimeZone;
use jiff::{SignedDuration, Timestamp};
use rusqlite::{Connection, params};

use super::{INFORMATION_REQUESTED, Person, Stored, amount, date, text};
use crate::domain::clock::sql_time;
use crate::domain::donations::store::{self, COUNTED};

/// Days of the party's calendar, both ends included.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Range {
    pub from: Date,
    pub to: Date,
}

impl Range {
    /// `from` and `to` as `YYYY-MM-DD`; a message for staff when they are not.
    pub fn parse(from: Option<&str>, to: Option<&str>) -> Result<Range, String> {
        let day = |name: &str, value: Option<&str>| -> Result<Date, String> {
            let value = value.map(str::trim).unwrap_or("");
            if value.is_empty() {
                return Err(format!("Choose the {name} date of the report."));
            }
            value
                .parse::<Date>()
                .ok()
                .filter(|_| value.len() == 10)
                .ok_or_else(|| format!("The {name} date must be a date like 2026-01-31."))
        };
        let range = Range {
            from: day("first", from)?,
            to: day("last", to)?,
        };
        if range.from > range.to {
            return Err("The first date must not be after the last.".into());
        }
        Ok(range)
    }

    /// The range as stored times: from the first day's midnight (party time) to the midnight
    /// after the last, that one excluded.
    fn bounds(&self, tz: &TimeZone) -> (String, String) {
        let midnight = |d: Date| {
            d.to_zoned_datetime(tz.clone())
                .map(|z| z.timestamp())
                .unwrap_or(Timestamp::UNIX_EPOCH)
        };
        (
            sql_time(midnight(self.from)),
            sql_time(midnight(self.to + SignedDuration::from_hours(24))),
        )
    }

    /// For file names: `2026-01-01_2026-03-31`.
    pub fn label(&self) -> String {
        format!("{}_{}", self.from, self.to)
    }
}

fn local_date(tz: &TimeZone, utc: &str) -> Date {
    utc.parse::<Timestamp>()
        .map(|t| t.to_zoned_datetime(tz.clone()).date())
        .unwrap_or_default()
}

/// One contribution on Schedule A.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Contribution {
    pub donation_id: i64,
    pub person: Person,
    pub date: Date,
    pub cents: i64,
    pub aggregate_cents: i64,
    pub employer: String,
    pub occupation: String,
    /// The donor's designation (`general_party_use`…), for the treasurer.
    pub purpose: Option<String>,
    pub itemized: bool,
    /// What has gone back of it so far (Schedule B shows each refund).
    pub refunded_cents: i64,
}

/// Completed gifts received in `range`, oldest first.
pub fn contributions(
    conn: &Connection,
    rules: &DonationRules,
    tz: &TimeZone,
    range: &Range,
) -> rusqlite::Result<Vec<Contribution>> {
    let (start, end) = range.bounds(tz);
    let mut stmt = conn.prepare(&format!(
        "SELECT d.id, d.donor_name, d.donor_first_name, d.donor_last_name, d.donor_address, \
                d.donor_city, d.donor_state, d.donor_zip_code, d.donor_email, d.contribution_year, \
                d.created_at, d.amount_cents, d.donor_employer, d.donor_occupation, \
                d.contribution_purpose, {aggregate}, {refunded} \
         FROM donations d \
         WHERE d.status = 'completed' AND d.created_at >= ?1 AND d.created_at < ?2 \
         ORDER BY d.created_at, d.id",
        aggregate = store::aggregate_sql(),
        refunded = store::refunded_counted("d"),
    ))?;
    let rows = stmt
        .query_map(params![start, end], |r| {
            let stored = (
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, String>(4)?,
                r.get::<_, String>(5)?,
                r.get::<_, String>(6)?,
                r.get::<_, String>(7)?,
            );
            let person = Person::new(Stored {
                full: &stored.0,
                first: &stored.1,
                last: &stored.2,
                address: &stored.3,
                city: &stored.4,
                state: &stored.5,
                zip: &stored.6,
            });
            Ok((
                r.get::<_, String>(8)?,
                r.get::<_, i16>(9)?,
                Contribution {
                    donation_id: r.get(0)?,
                    person,
                    date: local_date(tz, &r.get::<_, String>(10)?),
                    cents: r.get(11)?,
                    employer: r.get::<_, Option<String>>(12)?.unwrap_or_default(),
                    occupation: r.get::<_, Option<String>>(13)?.unwrap_or_default(),
                    purpose: r.get(14)?,
                    aggregate_cents: r.get(15)?,
                    refunded_cents: r.get(16)?,
                    itemized: false,
                },
            ))
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    let threshold = i64::from(rules.itemization_threshold) * 100;
    let top = |email: &str, year: i16| {
        rows.iter()
            .filter(|(e, y, _)| e == email && *y == year)
            .map(|(_, _, c)| c.aggregate_cents)
            .max()
            .unwrap_or(0)
    };
    Ok(rows
        .iter()
        .map(|(email, year, c)| {
            let mut c = c.clone();
            c.itemized = c.aggregate_cents > threshold || top(email, *year) > threshold;
            if c.itemized {
                for value in [&mut c.employer, &mut c.occupation] {
                    if value.trim().is_empty() {
                        *value = INFORMATION_REQUESTED.into();
                    }
                }
            }
            c
        })
        .collect())
}

/// One refund on Schedule B.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refund {
    pub refund_id: i64,
    pub donation_id: i64,
    /// A lost dispute rather than a refund.
    pub chargeback: bool,
    pub person: Person,
    pub date: Date,
    pub cents: i64,
    pub gift_date: Date,
    pub gift_cents: i64,
    pub itemized: bool,
}

/// Money that went back in `range` (refunds on their way or done, lost disputes), oldest
/// first.
pub fn refunds(
    conn: &Connection,
    rules: &DonationRules,
    tz: &TimeZone,
    range: &Range,
) -> rusqlite::Result<Vec<Refund>> {
    let (start, end) = range.bounds(tz);
    let threshold = i64::from(rules.itemization_threshold) * 100;
    let mut stmt = conn.prepare(&format!(
        "SELECT r.id, r.donation_id, r.kind, r.amount_cents, r.refunded_at, d.donor_name, \
                d.donor_first_name, d.donor_last_name, d.donor_address, d.donor_city, \
                d.donor_state, d.donor_zip_code, d.amount_cents, d.created_at, {aggregate} \
         FROM donation_refunds r JOIN donations d ON d.id = r.donation_id \
         WHERE r.status IN {COUNTED} AND r.refunded_at >= ?1 AND r.refunded_at < ?2 \
         ORDER BY r.refunded_at, r.id",
        aggregate = store::aggregate_sql()
    ))?;
    stmt.query_map(params![start, end], |r| {
        let stored: Vec<String> = (5..12)
            .map(|i| r.get::<_, String>(i))
            .collect::<rusqlite::Result<_>>()?;
        Ok(Refund {
            refund_id: r.get(0)?,
            donation_id: r.get(1)?,
            chargeback: r.get::<_, String>(2)? == "chargeback",
            cents: r.get(3)?,
            date: local_date(tz, &r.get::<_, String>(4)?),
            person: Person::new(Stored {
                full: &stored[0],
                first: &stored[1],
                last: &stored[2],
                address: &stored[3],
                city: &stored[4],
                state: &stored[5],
                zip: &stored[6],
            }),
            gift_cents: r.get(12)?,
            gift_date: local_date(tz, &r.get::<_, String>(13)?),
            itemized: r.get::<_, i64>(14)? > threshold,
        })
    })?
    .collect()
}

/// A gift's transaction id: unique for the committee and stable, so an amended report
/// names the same gift the same way.
pub fn contribution_id(donation_id: i64) -> String {
    format!("DON{donation_id}")
}

/// A refund's transaction id.
pub fn refund_id(refund_id: i64) -> String {
    format!("REF{refund_id}")
}

/// What a refund's purpose says: which gift it returns.
pub fn refund_purpose(r: &Refund) -> String {
    let what = if r.chargeback {
        "Chargeback of contribution"
    } else {
        "Refund of contribution"
    };
    text(
        &format!(
            "{what} of {} received {}",
            amount(r.gift_cents),
            r.gift_date.strftime("%m/%d/%Y")
        ),
        100,
    )
}

/// The `SA11AI` record of contribution `c`.
pub fn sa11ai(committee: &str, c: &Contribution) -> Vec<String> {
    let p = &c.person;
    let mut v = vec![String::new(); 45];
    v[0] = "SA11AI".into();
    v[1] = committee.into();
    v[2] = contribution_id(c.donation_id);
    v[5] = "IND".into();
    v[7] = p.last.clone();
    v[8] = p.first.clone();
    v[12] = p.street1.clone();
    v[13] = p.street2.clone();
    v[14] = p.city.clone();
    v[15] = p.state.clone();
    v[16] = p.zip.clone();
    v[19] = date(c.date);
    v[20] = amount(c.cents);
    v[21] = amount(c.aggregate_cents);
    v[23] = text(&c.employer, 38);
    v[24] = text(&c.occupation, 38);
    v
}

/// The `SB28A` record of refund `r`, referring back to its gift's `SA11AI`.
pub fn sb28a(committee: &str, r: &Refund) -> Vec<String> {
    let p = &r.person;
    let mut v = vec![String::new(); 44];
    v[0] = "SB28A".into();
    v[1] = committee.into();
    v[2] = refund_id(r.refund_id);
    v[3] = contribution_id(r.donation_id);
    v[4] = "SA11AI".into();
    v[5] = "IND".into();
    v[7] = p.last.clone();
    v[8] = p.first.clone();
    v[12] = p.street1.clone();
    v[13] = p.street2.clone();
    v[14] = p.city.clone();
    v[15] = p.state.clone();
    v[16] = p.zip.clone();
    v[19] = date(r.date);
    v[20] = amount(r.cents);
    v[22] = refund_purpose(r);
    v
}
