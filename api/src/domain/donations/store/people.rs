//! The money's tables as contributors (`donations::contributors`) and staff's directory of
//! people (`domain::directory`) read them: what a paid gift was given as (its contributor's
//! key), which contributors gave from an address or a supporter, and the gifts and monthly
//! plans on a person's page.

use crate::store::db::placeholders as marks;
use rusqlite::{Connection, OptionalExtension, params};

use super::dollars;

/// The contributors (roots) who gave in `year` from supporter `supporter`'s addresses.
pub fn contributors_of_supporter(
    conn: &Connection,
    supporter: i64,
    year: i16,
) -> rusqlite::Result<Vec<i64>> {
    let mut stmt = conn.prepare(
        "SELECT DISTINCT c.root_id FROM donations d \
         JOIN contributors c ON c.id = d.contributor_id \
         JOIN supporter_emails e ON e.id = d.email_id \
         WHERE e.supporter_id = ?1 AND d.contribution_year = ?2 AND d.status = 'completed' \
         ORDER BY c.root_id",
    )?;
    stmt.query_map(params![supporter, year], |r| r.get(0))?
        .collect()
}

/// What a completed gift was given as, for finding its contributor.
#[derive(Debug, Clone)]
pub struct GivenAs {
    /// First and last name, street and ZIP as given (the full name as first when a gift
    /// from before names were kept apart has only that).
    pub first: String,
    pub last: String,
    pub street: String,
    pub zip: String,
    pub contributor: Option<i64>,
    pub email_id: Option<i64>,
}

/// Completed gift `id`'s name, street and ZIP as given (`None` if it is not completed or
/// lost its details).
pub fn given_as(conn: &Connection, id: i64) -> rusqlite::Result<Option<GivenAs>> {
    conn.query_row(
        "SELECT donor_first_name, donor_last_name, donor_name, donor_address, donor_zip_code, \
                contributor_id, email_id \
         FROM donations WHERE id = ?1 AND status = 'completed' AND redacted_at IS NULL",
        [id],
        |r| {
            let (first, last, full): (String, String, String) = (r.get(0)?, r.get(1)?, r.get(2)?);
            // Gifts from before first and last names were kept apart have the full name only.
            let (first, last) = if first.is_empty() && last.is_empty() {
                (full, String::new())
            } else {
                (first, last)
            };
            Ok(GivenAs {
                first,
                last,
                street: r.get(3)?,
                zip: r.get(4)?,
                contributor: r.get(5)?,
                email_id: r.get(6)?,
            })
        },
    )
    .optional()
}

/// Gift `id` was given by contributor `contributor`.
pub fn set_contributor(conn: &Connection, id: i64, contributor: i64) -> rusqlite::Result<()> {
    conn.execute(
        "UPDATE donations SET contributor_id = ?2 WHERE id = ?1",
        params![id, contributor],
    )
    .map(|_| ())
}

/// Completed gifts with no contributor yet (those from before contributors were kept).
pub fn paid_without_contributor(conn: &Connection) -> rusqlite::Result<Vec<i64>> {
    let mut stmt = conn.prepare(
        "SELECT id FROM donations WHERE status = 'completed' AND contributor_id IS NULL \
         AND redacted_at IS NULL ORDER BY created_at, id",
    )?;
    stmt.query_map([], |r| r.get(0))?.collect()
}

/// The contributors who gave from address row `email_id`.
pub fn contributors_of_address(conn: &Connection, email_id: i64) -> rusqlite::Result<Vec<i64>> {
    let mut stmt = conn.prepare(
        "SELECT DISTINCT contributor_id FROM donations \
         WHERE email_id = ?1 AND contributor_id IS NOT NULL",
    )?;
    stmt.query_map([email_id], |r| r.get(0))?.collect()
}

/// Contributor `id`'s latest name and address as given on a gift, and how many gifts.
pub fn latest_given_by(conn: &Connection, id: i64) -> rusqlite::Result<(String, String, i64)> {
    conn.query_row(
        "SELECT d.donor_name, d.donor_address || ', ' || d.donor_city || ', ' || d.donor_state \
                    || ' ' || d.donor_zip_code, \
                (SELECT COUNT(*) FROM donations c WHERE c.contributor_id = ?1) \
         FROM donations d WHERE d.contributor_id = ?1 ORDER BY d.created_at DESC, d.id DESC LIMIT 1",
        [id],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
    )
}

/// Paid gifts by address row: (address row, name given, when), for the People list.
pub fn paid_by_address(conn: &Connection) -> rusqlite::Result<Vec<(i64, String, String)>> {
    let mut stmt = conn.prepare(
        "SELECT email_id, donor_name, created_at FROM donations \
         WHERE status = 'completed' AND email_id IS NOT NULL",
    )?;
    stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
        .collect()
}

/// A gift as a person's page shows it.
#[derive(Debug, Clone)]
pub struct PersonGift {
    pub id: i64,
    pub email: String,
    pub name: String,
    /// Street, city, state and ZIP, as given.
    pub address: String,
    pub zip: String,
    pub amount: String,
    pub status: String,
    pub at: String,
}

/// Every gift set up from the address rows `ids` (paid or not), oldest first.
pub fn gifts_from(conn: &Connection, ids: &[i64]) -> rusqlite::Result<Vec<PersonGift>> {
    let mut stmt = conn.prepare(&format!(
        "SELECT id, donor_email, donor_name, donor_address || ', ' || donor_city || ', ' \
                || donor_state || ' ' || donor_zip_code, donor_zip_code, amount_cents, status, \
                created_at \
         FROM donations WHERE email_id IN ({}) ORDER BY created_at, id",
        marks(ids.len())
    ))?;
    stmt.query_map(rusqlite::params_from_iter(ids), |r| {
        Ok(PersonGift {
            id: r.get(0)?,
            email: r.get(1)?,
            name: r.get(2)?,
            address: r.get(3)?,
            zip: r.get(4)?,
            amount: dollars(r.get(5)?),
            status: r.get(6)?,
            at: r.get(7)?,
        })
    })?
    .collect()
}

/// Money that went back of a person's gift, as their page shows it.
#[derive(Debug, Clone)]
pub struct PersonRefund {
    pub gift: i64,
    pub amount: String,
    /// refund or chargeback (a lost dispute).
    pub kind: String,
    /// admin, stripe (its dashboard) or limit (the excess over a year's limit).
    pub origin: String,
    /// The staff member who made it, for one made from the admin.
    pub by: Option<String>,
    pub at: String,
}

/// The refunds counted of the gifts set up from the address rows `ids`, oldest first.
pub fn refunds_from(conn: &Connection, ids: &[i64]) -> rusqlite::Result<Vec<PersonRefund>> {
    let mut stmt = conn.prepare(&format!(
        "SELECT r.donation_id, r.amount_cents, r.kind, r.origin, \
                COALESCE(NULLIF(u.name, ''), u.email), r.refunded_at \
         FROM donation_refunds r JOIN donations d ON d.id = r.donation_id \
         LEFT JOIN users u ON u.id = r.refunded_by \
         WHERE d.email_id IN ({}) AND r.status IN {} ORDER BY r.refunded_at, r.id",
        marks(ids.len()),
        super::COUNTED,
    ))?;
    stmt.query_map(rusqlite::params_from_iter(ids), |r| {
        Ok(PersonRefund {
            gift: r.get(0)?,
            amount: dollars(r.get(1)?),
            kind: r.get(2)?,
            origin: r.get(3)?,
            by: r.get(4)?,
            at: r.get(5)?,
        })
    })?
    .collect()
}

/// A monthly gift as a person's page shows it.
#[derive(Debug, Clone)]
pub struct PersonPlan {
    pub id: i64,
    pub email: String,
    pub amount: String,
    pub status: String,
    pub at: String,
}

/// Every monthly gift started from the address rows `ids`.
pub fn plans_from(conn: &Connection, ids: &[i64]) -> rusqlite::Result<Vec<PersonPlan>> {
    let mut stmt = conn.prepare(&format!(
        "SELECT id, donor_email, amount_cents, status, created_at FROM donation_plans \
         WHERE email_id IN ({}) ORDER BY created_at, id",
        marks(ids.len())
    ))?;
    stmt.query_map(rusqlite::params_from_iter(ids), |r| {
        Ok(PersonPlan {
            id: r.get(0)?,
            email: r.get(1)?,
            amount: dollars(r.get(2)?),
            status: r.get(3)?,
            at: r.get(4)?,
        })
    })?
    .collect()
}
