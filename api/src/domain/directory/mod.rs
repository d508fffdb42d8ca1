//! Staff's view of people: the People list ([`listing`]), a person's page and the export
//! of everything held about them ([`record`]). It reads both identities (supporters from
//! `domain::people`, gifts and contributors from `domain::donations`), and changes neither.

use jiff::Timestamp;
use rusqlite::Connection;

use crate::domain::donations::contributors;
use crate::domain::people;

pub mod listing;
pub mod record;

/// What [`fill_in`] did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct FilledIn {
    /// Rows linked to their address's supporter.
    pub linked: usize,
    /// Paid gifts given their contributor.
    pub contributors: usize,
}

/// Gives the rows stored before people were known (and any a crash left behind) their
/// supporter, and every paid gift its contributor. Call inside one write when the server
/// starts, before anything counts a donor's year.
pub fn fill_in(conn: &Connection, now: Timestamp) -> rusqlite::Result<FilledIn> {
    Ok(FilledIn {
        linked: people::backfill(conn, now)?,
        contributors: contributors::assign_unassigned(conn, now)?,
    })
}

#[cfg(test)]
mod tests;
