//! A giver's year in cents: what counts toward the limit and the receipts' year-to-date
//! figure, counted by address, by contributor (the FEC's individual) or by a contributor
//! through one supporter's addresses ([`Whose`]), and what the donor's own page may be told
//! ([`summary`]).

use jiff::Timestamp;
use rusqlite::{Connection, OptionalExtension, params};

use super::{HOLD, store};
use crate::domain::clock::sql_time;

/// Which rows [`totals`] reads: completed gifts, and pending ones set up after the cutoff
/// (`?3`, from [`hold_cutoff`]), which it reports apart and which count against nothing.
const COUNTS: &str = "(status = 'completed' OR (status = 'pending' AND created_at > ?3))";

/// Pending gifts set up before this are about to expire.
pub(super) fn hold_cutoff(now: Timestamp) -> String {
    sql_time(now - HOLD)
}

/// A donor's gifts in one year, in cents.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Totals {
    /// Completed gifts, less what went back to the donor in the same year: what counts
    /// toward the limit.
    pub completed: i64,
    /// Gifts set up in the donor's name in the last [`HOLD`] and not (yet) paid. Anyone can
    /// set one up, so they count against nothing; told only to the donor's own browser.
    pub pending: i64,
}

/// Whose gifts a total counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Whose<'a> {
    /// The gifts set up from one address (lower case): what an address's unpaid set-ups
    /// are counted by.
    Address(&'a str),
    /// One contributor (a root, `donations::contributors`), from any address: the law's count
    /// (the limit held at payment, the treasurer's lists).
    Contributor(i64),
    /// One contributor's gifts made from the addresses of one supporter: what may be told
    /// to whoever reads that supporter's mail (a receipt, the donor's own page). Anyone can
    /// type a name and a street, so a stranger's address never learns what a contributor
    /// gave from another.
    Via { contributor: i64, supporter: i64 },
}

/// `whose` gifts in `year`, as they stand at `now`. Completed gifts count net: less what was
/// refunded (or lost to a dispute) in that same year; unpaid set-ups are reported apart and
/// count against nothing (a contributor has none: one is known only once a gift is paid). A
/// refund made in a later year changes neither year: the earlier one was reported as it
/// stood, and the refund is that later year's disbursement (FEC Line 28(a)).
pub fn totals(
    conn: &Connection,
    whose: Whose,
    year: i16,
    now: Timestamp,
) -> rusqlite::Result<Totals> {
    totals_except(conn, whose, year, now, 0)
}

/// [`totals`] without gift `except` (a monthly charge being made, which must not count
/// against itself).
pub fn totals_except(
    conn: &Connection,
    whose: Whose,
    year: i16,
    now: Timestamp,
    except: i64,
) -> rusqlite::Result<Totals> {
    let (by, key, supporter) = match whose {
        Whose::Address(email) => (
            "donor_email = ?1",
            rusqlite::types::Value::from(email.to_owned()),
            0,
        ),
        Whose::Contributor(root) => (store::OF_CONTRIBUTOR, root.into(), 0),
        Whose::Via {
            contributor,
            supporter,
        } => (store::OF_CONTRIBUTOR_VIA, contributor.into(), supporter),
    };
    conn.query_row(
        &format!(
            "SELECT COALESCE(SUM(CASE WHEN status = 'completed' THEN amount_cents - {refunded} END), 0), \
                    COALESCE(SUM(CASE WHEN status = 'pending' THEN amount_cents END), 0) \
             FROM donations WHERE {by} AND contribution_year = ?2 AND id != ?4 \
               AND {COUNTS} AND ?5 = ?5",
            // (`?5 = ?5` names the supporter's parameter in every variant, so one list of
            // parameters serves them all.)
            refunded = store::refunded_in_year("donations", "?2")
        ),
        params![key, year, hold_cutoff(now), except, supporter],
        |r| {
            Ok(Totals {
                completed: r.get(0)?,
                pending: r.get(1)?,
            })
        },
    )
}

/// Who gave completed gift `id` (from `email`), as its own mail may be told: its contributor
/// through its address's supporter ([`Whose::Via`]); its address alone when either is
/// unknown.
pub fn giver_of<'a>(conn: &Connection, id: i64, email: &'a str) -> rusqlite::Result<Whose<'a>> {
    let found: Option<(Option<i64>, Option<i64>)> = conn
        .query_row(
            "SELECT (SELECT c.root_id FROM contributors c WHERE c.id = d.contributor_id), \
                    (SELECT e.supporter_id FROM supporter_emails e WHERE e.id = d.email_id) \
             FROM donations d WHERE d.id = ?1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    Ok(match found {
        Some((Some(contributor), Some(supporter))) => Whose::Via {
            contributor,
            supporter,
        },
        _ => Whose::Address(email),
    })
}

/// What the donor's own page may be told about `email`'s year (the holder of its pass): the
/// one contributor who gave from this supporter's addresses, through them, with the
/// address's unpaid set-ups; `None` when more than one contributor gave from them (people
/// sharing an inbox: which of them is asking is known only from the form, and the set-up
/// answers for the one it names).
pub fn summary(
    conn: &Connection,
    email: &str,
    year: i16,
    now: Timestamp,
) -> rusqlite::Result<Option<Totals>> {
    let pending = totals(conn, Whose::Address(email), year, now)?.pending;
    let Some(supporter) = crate::domain::people::supporter_of(conn, email)? else {
        return Ok(Some(Totals {
            completed: 0,
            pending,
        }));
    };
    let roots = store::people::contributors_of_supporter(conn, supporter, year)?;
    match roots.as_slice() {
        [] => Ok(Some(Totals {
            completed: 0,
            pending,
        })),
        [contributor] => {
            let completed = totals(
                conn,
                Whose::Via {
                    contributor: *contributor,
                    supporter,
                },
                year,
                now,
            )?
            .completed;
            Ok(Some(Totals { completed, pending }))
        }
        _ => Ok(None),
    }
}
