//! The FEC's individual: contributions are aggregated "from the same individual" and
//! itemised by name and mailing address (11 CFR 104.8), so a contributor is a normalised
//! name, street and ZIP, never an e-mail address. Two people who share an inbox are two
//! contributors, each with their own limit; one person who gives from two inboxes (same
//! name, same street) is one.
//!
//! Normalising forgives what typing varies (case, punctuation, spacing, "Street" or "St",
//! ZIP+4) and nothing that may be another person: "Jr" and "Sr" stay, and "Jon Smith" is
//! not "Jonathan Smith". Pairs that may be one person are [`Match`]es the treasurer decides:
//! Yes combines them ([`decide`]), No hides the pair for good. A contributor is made when a
//! gift is paid, not when it is set up, so a stranger's unpaid set-up makes nothing.

use jiff::Timestamp;
use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;

use super::store::people as gifts;
use crate::domain::clock::sql_time;

/// Lower case, letters and digits only, words split by single spaces.
fn words(text: &str) -> Vec<String> {
    text.to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect()
}

/// A name's key: first and last name as [`words`], one space between.
pub fn name_key(first: &str, last: &str) -> String {
    let mut all = words(first);
    all.extend(words(last));
    all.join(" ")
}

/// The words a street address is written with in more than one way (USPS Publication 28's
/// common suffixes, unit designators and directions), and the one each becomes.
const STREET_WORDS: [(&str, &str); 30] = [
    ("street", "st"),
    ("avenue", "ave"),
    ("av", "ave"),
    ("road", "rd"),
    ("drive", "dr"),
    ("boulevard", "blvd"),
    ("lane", "ln"),
    ("court", "ct"),
    ("place", "pl"),
    ("terrace", "ter"),
    ("circle", "cir"),
    ("highway", "hwy"),
    ("parkway", "pkwy"),
    ("square", "sq"),
    ("trail", "trl"),
    ("way", "way"),
    ("apartment", "apt"),
    ("unit", "apt"),
    ("suite", "ste"),
    ("floor", "fl"),
    ("north", "n"),
    ("south", "s"),
    ("east", "e"),
    ("west", "w"),
    ("northeast", "ne"),
    ("northwest", "nw"),
    ("southeast", "se"),
    ("southwest", "sw"),
    ("first", "1st"),
    ("second", "2nd"),
];

/// A street address's key: [`words`], each common spelling made one ("#" is a unit).
pub fn street_key(address: &str) -> String {
    words(&address.replace('#', " apt "))
        .into_iter()
        .map(|w| {
            STREET_WORDS
                .iter()
                .find(|(long, _)| *long == w)
                .map_or(w, |(_, short)| (*short).to_owned())
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The five-digit ZIP code (ZIP+4 and spacing dropped).
pub fn zip5(zip: &str) -> String {
    zip.chars().filter(char::is_ascii_digit).take(5).collect()
}

/// A contributor's key, from what a gift was given with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Key {
    pub name: String,
    pub street: String,
    pub zip: String,
}

impl Key {
    pub fn of(first: &str, last: &str, address: &str, zip: &str) -> Key {
        Key {
            name: name_key(first, last),
            street: street_key(address),
            zip: zip5(zip),
        }
    }
}

/// The contributor with `key`, if one gave before: its root (what its gifts count under).
pub fn find(conn: &Connection, key: &Key) -> rusqlite::Result<Option<i64>> {
    conn.query_row(
        "SELECT root_id FROM contributors WHERE name_key = ?1 AND street_key = ?2 AND zip5 = ?3",
        params![key.name, key.street, key.zip],
        |r| r.get(0),
    )
    .optional()
}

/// The contributor with `key`, made if new (and compared with those who may be the same
/// person); returns its own id (not its root). Call inside one write.
pub fn identify(conn: &Connection, key: &Key, now: Timestamp) -> rusqlite::Result<i64> {
    if let Some(id) = conn
        .query_row(
            "SELECT id FROM contributors WHERE name_key = ?1 AND street_key = ?2 AND zip5 = ?3",
            params![key.name, key.street, key.zip],
            |r| r.get(0),
        )
        .optional()?
    {
        return Ok(id);
    }
    let at = sql_time(now);
    let id: i64 = conn.query_row(
        "INSERT INTO contributors (name_key, street_key, zip5, root_id, created_at) \
         VALUES (?1, ?2, ?3, 0, ?4) RETURNING id",
        params![key.name, key.street, key.zip, at],
        |r| r.get(0),
    )?;
    conn.execute("UPDATE contributors SET root_id = id WHERE id = ?1", [id])?;
    record_near_matches(conn, id, key, &at)?;
    Ok(id)
}

/// Gives completed gift `gift` its contributor, if it has none; returns the contributor's
/// root. Call inside the write that completed it.
pub fn assign(conn: &Connection, gift: i64, now: Timestamp) -> rusqlite::Result<Option<i64>> {
    let Some(given) = gifts::given_as(conn, gift)? else {
        return Ok(None);
    };
    let id = match given.contributor {
        Some(id) => id,
        None => {
            let key = Key::of(&given.first, &given.last, &given.street, &given.zip);
            let id = identify(conn, &key, now)?;
            gifts::set_contributor(conn, gift, id)?;
            record_shared_inbox_matches(conn, id, given.email_id, &sql_time(now))?;
            id
        }
    };
    root_of(conn, id).map(Some)
}

/// Gives every completed gift without a contributor its own (the back-fill); returns how
/// many.
pub fn assign_unassigned(conn: &Connection, now: Timestamp) -> rusqlite::Result<usize> {
    let ids = gifts::paid_without_contributor(conn)?;
    for id in &ids {
        assign(conn, *id, now)?;
    }
    Ok(ids.len())
}

/// The root of contributor `id`: what its gifts count under.
pub fn root_of(conn: &Connection, id: i64) -> rusqlite::Result<i64> {
    conn.query_row(
        "SELECT root_id FROM contributors WHERE id = ?1",
        [id],
        |r| r.get(0),
    )
}

/// Whether two names at one address may be one person: the same last name and one first
/// name the start of the other ("Jon" / "Jonathan", "A" / "Ann") or one letter apart
/// ("Jonh" / "John"); or the same first name and last names one letter apart ("Smith" /
/// "Smyth"). "Ann Lee" and "Ben Lee" are not.
pub fn near(a: &str, b: &str) -> bool {
    let (a, b): (Vec<&str>, Vec<&str>) = (a.split(' ').collect(), b.split(' ').collect());
    let (Some((a_last, a_first)), Some((b_last, b_first))) = (a.split_last(), b.split_last())
    else {
        return false;
    };
    let (a_first, b_first) = (a_first.join(" "), b_first.join(" "));
    let firsts_near = || {
        !a_first.is_empty()
            && !b_first.is_empty()
            && (a_first.starts_with(&b_first)
                || b_first.starts_with(&a_first)
                || one_apart(&a_first, &b_first))
    };
    (a_last == b_last && firsts_near()) || (a_first == b_first && one_apart(a_last, b_last))
}

/// Whether `a` becomes `b` by changing, adding or removing one letter, or swapping two
/// neighbours (both at least three letters, so "Al" and "Ed" are not near).
fn one_apart(a: &str, b: &str) -> bool {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    if a.len() < 3 || b.len() < 3 || a == b || a.len().abs_diff(b.len()) > 1 {
        return false;
    }
    let start = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let (ra, rb) = (&a[start..], &b[start..]);
    if a.len() == b.len() {
        ra[1..] == rb[1..]
            || (ra.len() >= 2 && ra[0] == rb[1] && ra[1] == rb[0] && ra[2..] == rb[2..])
    } else if a.len() > b.len() {
        ra[1..] == *rb
    } else {
        *ra == rb[1..]
    }
}

/// Stores the pair (`a`, `b`) for the treasurer unless it is known.
fn record(conn: &Connection, a: i64, b: i64, why: &str, at: &str) -> rusqlite::Result<()> {
    if a == b {
        return Ok(());
    }
    conn.execute(
        "INSERT INTO contributor_matches (a, b, why, found_at) VALUES (?1, ?2, ?3, ?4) \
         ON CONFLICT DO NOTHING",
        params![a.min(b), a.max(b), why, at],
    )
    .map(|_| ())
}

/// New contributor `id`: the contributors at its street and ZIP whose names are [`near`].
fn record_near_matches(conn: &Connection, id: i64, key: &Key, at: &str) -> rusqlite::Result<()> {
    let others: Vec<(i64, String)> = {
        let mut stmt = conn.prepare(
            "SELECT id, name_key FROM contributors WHERE street_key = ?1 AND zip5 = ?2 AND id != ?3",
        )?;
        stmt.query_map(params![key.street, key.zip, id], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })?
        .collect::<rusqlite::Result<_>>()?
    };
    for (other, name) in others {
        if near(&key.name, &name) {
            record(conn, id, other, "similar names at one address", at)?;
        }
    }
    Ok(())
}

/// A gift by contributor `id` from address `email_id`: a contributor of the same name who
/// gave from the same address elsewhere (they moved, or typed the street another way) may
/// be the same person.
fn record_shared_inbox_matches(
    conn: &Connection,
    id: i64,
    email_id: Option<i64>,
    at: &str,
) -> rusqlite::Result<()> {
    let Some(email_id) = email_id else {
        return Ok(());
    };
    let name: String = conn.query_row(
        "SELECT name_key FROM contributors WHERE id = ?1",
        [id],
        |r| r.get(0),
    )?;
    for other in gifts::contributors_of_address(conn, email_id)? {
        let other_name: String = conn.query_row(
            "SELECT name_key FROM contributors WHERE id = ?1",
            [other],
            |r| r.get(0),
        )?;
        if other != id && (other_name == name || near(&name, &other_name)) {
            record(conn, id, other, "one name, two addresses, one inbox", at)?;
        }
    }
    Ok(())
}

/// A pair waiting for the treasurer, as the review list shows it: each side's latest name
/// and address as given on a gift.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Match {
    pub a: Side,
    pub b: Side,
    pub why: String,
    pub found_at: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Side {
    pub contributor: i64,
    pub name: String,
    pub address: String,
    pub gifts: i64,
}

/// Pairs not decided yet whose two sides are not already one, oldest first.
pub fn undecided(conn: &Connection) -> rusqlite::Result<Vec<Match>> {
    let pairs: Vec<(i64, i64, String, String)> = {
        let mut stmt = conn.prepare(
            "SELECT m.a, m.b, m.why, m.found_at FROM contributor_matches m \
             JOIN contributors x ON x.id = m.a JOIN contributors y ON y.id = m.b \
             WHERE m.decision IS NULL AND x.root_id != y.root_id ORDER BY m.found_at, m.a, m.b",
        )?;
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
            .collect::<rusqlite::Result<_>>()?
    };
    let side = |id: i64| -> rusqlite::Result<Side> {
        let (name, address, gifts) = gifts::latest_given_by(conn, id)?;
        Ok(Side {
            contributor: id,
            name,
            address,
            gifts,
        })
    };
    pairs
        .into_iter()
        .map(|(a, b, why, found_at)| {
            Ok(Match {
                a: side(a)?,
                b: side(b)?,
                why,
                found_at,
            })
        })
        .collect()
}

/// The treasurer's answer on a pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// One person: their gifts count under one root from now on.
    Same,
    /// Two people: the pair is not shown again.
    Different,
}

/// Records `decision` on the pair (`a`, `b`); `false` when there is no such pair waiting.
/// Call inside one write.
pub fn decide(
    conn: &Connection,
    a: i64,
    b: i64,
    decision: Decision,
    now: Timestamp,
) -> rusqlite::Result<bool> {
    let (a, b) = (a.min(b), a.max(b));
    let changed = conn.execute(
        "UPDATE contributor_matches SET decision = ?3, decided_at = ?4 \
         WHERE a = ?1 AND b = ?2 AND decision IS NULL",
        params![
            a,
            b,
            match decision {
                Decision::Same => "same",
                Decision::Different => "different",
            },
            sql_time(now)
        ],
    )?;
    if changed == 0 {
        return Ok(false);
    }
    if decision == Decision::Same {
        // The older root stays: its gifts' aggregates keep their name.
        let (ra, rb) = (root_of(conn, a)?, root_of(conn, b)?);
        let (keep, fold) = (ra.min(rb), ra.max(rb));
        conn.execute(
            "UPDATE contributors SET root_id = ?1 WHERE root_id = ?2",
            params![keep, fold],
        )?;
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_forgive_typing_and_nothing_more() {
        assert_eq!(name_key(" Ann  ", "LEE"), "ann lee");
        assert_eq!(name_key("Mary-Jo", "O'Neil"), "mary jo o neil");
        assert_ne!(name_key("John", "Smith Jr."), name_key("John", "Smith Sr."));
        assert_eq!(
            street_key("12 North Main Street, Apt. 4"),
            street_key("12 N Main St #4")
        );
        assert_eq!(street_key("5 Elm Avenue"), street_key("5 elm ave."));
        assert_ne!(street_key("5 Elm Ave"), street_key("7 Elm Ave"));
        assert_eq!(zip5("12345-6789"), "12345");
        assert_eq!(zip5(" 02134 "), "02134");
    }

    #[test]
    fn near_names_are_the_ones_a_person_might_type_for_one_person() {
        assert!(near("jon smith", "jonathan smith"));
        assert!(near("a lee", "ann lee"));
        assert!(near("jonh smith", "john smith"));
        assert!(near("john smith", "john smyth"));
        assert!(near("mary jo lee", "mary lee"));
        assert!(!near("ann lee", "ben lee"));
        assert!(!near("ann lee", "ann park"));
        assert!(!near("al lee", "ed lee"));
        assert!(!near("lee", "lee"));
    }
}
