//! Seats under races, on a real database file and its one writer.

use jiff::{SignedDuration, Timestamp};
use rusqlite::Connection;

use super::seats::{self, Request, Standing};
use crate::domain::clock::sql_time;
use crate::store::db::Db;

fn now() -> Timestamp {
    "2026-11-29T15:00:00Z".parse().unwrap()
}

fn file_db() -> (tempfile::TempDir, Db) {
    let dir = tempfile::tempdir().unwrap();
    let db = Db::open(&dir.path().join("site.db")).unwrap();
    (dir, db)
}

/// A published event a week from `now()` with `capacity` seats.
fn event(conn: &Connection, capacity: Option<i64>, waitlist: bool) -> i64 {
    let starts = now() + SignedDuration::from_hours(24 * 7);
    conn.query_row(
        "INSERT INTO events (slug, title, kind, status, starts_at, ends_at, time_zone, venue, \
         capacity, waitlist, created_at, updated_at) VALUES ('town-hall', 'Town hall', \
         'town_hall', 'published', ?1, ?2, 'America/Chicago', '1 Main St', ?3, ?4, ?5, ?5) \
         RETURNING id",
        rusqlite::params![
            sql_time(starts),
            sql_time(starts + SignedDuration::from_hours(2)),
            capacity,
            waitlist,
            sql_time(now())
        ],
        |r| r.get(0),
    )
    .unwrap()
}

fn request(email: &str, guests: i64) -> Request<'_> {
    Request {
        name: "Ann Lee",
        email,
        zip: "55401",
        phone: None,
        guests,
    }
}

/// (email, status, guests) of every RSVP, waitlist in order after the going.
async fn rsvps(db: &Db) -> Vec<(String, String, i64)> {
    db.read(|c| {
        c.prepare(
            "SELECT email, status, guests FROM event_rsvps \
             ORDER BY status, waitlisted_at, id",
        )?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
        .collect()
    })
    .await
    .unwrap()
}

async fn seats_taken(db: &Db) -> i64 {
    db.read(|c| {
        c.query_row(
            "SELECT COALESCE(SUM(1 + guests), 0) FROM event_rsvps WHERE status = 'going'",
            [],
            |r| r.get(0),
        )
    })
    .await
    .unwrap()
}

/// Fifty RSVPs at once for twenty seats, some with guests: never more than twenty seats
/// taken, everyone else waiting in the order they arrived, nobody lost.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fifty_at_once_never_take_more_than_twenty_seats() {
    let (_dir, db) = file_db();
    let id = db.write(|c| Ok(event(c, Some(20), true))).await.unwrap();
    let tasks: Vec<_> = (0..50)
        .map(|i| {
            let db = db.clone();
            tokio::spawn(async move {
                db.write(move |c| {
                    let email = format!("p{i:02}@example.org");
                    let outcome = seats::rsvp(c, id, &request(&email, i % 3), now())?;
                    // The arrival order the writer saw, to compare the waitlist with.
                    let order: i64 =
                        c.query_row("SELECT max(id) FROM event_rsvps", [], |r| r.get(0))?;
                    Ok((outcome.standing, order, email))
                })
                .await
                .unwrap()
            })
        })
        .collect();
    let mut results = Vec::new();
    for task in tasks {
        results.push(task.await.unwrap());
    }
    let taken = seats_taken(&db).await;
    assert!(taken <= 20, "{taken} seats taken");
    let stored = rsvps(&db).await;
    assert_eq!(stored.len(), 50, "nobody lost");
    let going = results.iter().filter(|r| r.0 == Standing::Going).count();
    assert_eq!(
        going,
        stored.iter().filter(|r| r.1 == "going").count(),
        "each was told where it stands"
    );
    // The waitlist is in the order the writer took them.
    results.sort_by_key(|r| r.1);
    let waiting: Vec<&str> = results
        .iter()
        .filter(|r| r.0 == Standing::Waitlisted)
        .map(|r| r.2.as_str())
        .collect();
    let stored_waiting: Vec<&str> = stored
        .iter()
        .filter(|r| r.1 == "waitlisted")
        .map(|r| r.0.as_str())
        .collect();
    assert_eq!(stored_waiting, waiting);
    assert!(!waiting.is_empty());
}

/// Ten cancellations at once move up exactly ten seats' worth, in waitlist order, and a
/// party too big for what is left waits while a smaller later one moves up.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancellations_move_up_exactly_the_seats_they_free() {
    let (_dir, db) = file_db();
    let id = db.write(|c| Ok(event(c, Some(10), true))).await.unwrap();
    db.write(move |c| {
        for i in 0..10 {
            let email = format!("going{i}@example.org");
            assert_eq!(
                seats::rsvp(c, id, &request(&email, 0), now())?.standing,
                Standing::Going
            );
        }
        // Waiting, in this order: parties of 5, 1, 3, 1 and 5.
        for (email, guests) in [
            ("w1@example.org", 4),
            ("w2@example.org", 0),
            ("w3@example.org", 2),
            ("w4@example.org", 0),
            ("w5@example.org", 4),
        ] {
            assert_eq!(
                seats::rsvp(c, id, &request(email, guests), now())?.standing,
                Standing::Waitlisted
            );
        }
        Ok(())
    })
    .await
    .unwrap();
    let ids: Vec<i64> = db
        .read(|c| {
            c.prepare("SELECT id FROM event_rsvps WHERE status = 'going' ORDER BY id")?
                .query_map([], |r| r.get(0))?
                .collect()
        })
        .await
        .unwrap();
    let tasks: Vec<_> = ids
        .into_iter()
        .map(|rsvp| {
            let db = db.clone();
            tokio::spawn(async move {
                db.write(move |c| seats::cancel(c, rsvp, now()))
                    .await
                    .unwrap()
            })
        })
        .collect();
    let mut moved = 0;
    for task in tasks {
        moved += task.await.unwrap().len();
    }
    // 10 seats: 5 (w1) + 1 (w2) + 3 (w3) + 1 (w4); w5's 5 no longer fit.
    assert_eq!(moved, 4);
    assert_eq!(seats_taken(&db).await, 10);
    let waiting: Vec<String> = rsvps(&db)
        .await
        .into_iter()
        .filter(|r| r.1 == "waitlisted")
        .map(|r| r.0)
        .collect();
    assert_eq!(waiting, ["w5@example.org"]);
    // Cancelling again frees nothing more.
    let again = db.write(|c| seats::cancel(c, 1, now())).await.unwrap();
    assert!(again.is_empty());
}

/// A party of three waits while a later party of one takes the single seat left; more
/// capacity then moves the three up.
#[tokio::test]
async fn the_earliest_party_that_fits_moves_up_and_more_capacity_moves_up_in_order() {
    let (_dir, db) = file_db();
    let (standings, moved) = db
        .write(|c| {
            let id = event(c, Some(2), true);
            let mut standings = Vec::new();
            for (email, guests) in [
                ("a@example.org", 0),
                ("b@example.org", 0),
                ("three@example.org", 2),
                ("one@example.org", 0),
            ] {
                standings.push(seats::rsvp(c, id, &request(email, guests), now())?.standing);
            }
            let moved = seats::cancel(c, 1, now())?;
            c.execute("UPDATE events SET capacity = 5 WHERE id = ?1", [id])?;
            let more = seats::promote(c, id, now())?;
            Ok((standings, (moved, more)))
        })
        .await
        .unwrap();
    use Standing::{Going, Waitlisted};
    assert_eq!(standings, [Going, Going, Waitlisted, Waitlisted]);
    assert_eq!(moved.0, [4], "the party of one fits the one seat");
    assert_eq!(moved.1, [3], "the party of three, once there is room");
    assert_eq!(seats_taken(&db).await, 5);
}

/// The same address again changes its RSVP instead of adding one; without a waitlist a full
/// event stores nothing new, and one going that asks for more than is left keeps its seat.
#[tokio::test]
async fn a_second_rsvp_changes_the_first() {
    let (_dir, db) = file_db();
    let results = db
        .write(|c| {
            let id = event(c, Some(3), false);
            let first = seats::rsvp(c, id, &request("ann@example.org", 1), now())?;
            let again = seats::rsvp(c, id, &request("ANN@example.org", 0), now())?;
            let other = seats::rsvp(c, id, &request("bo@example.org", 1), now())?;
            let full = seats::rsvp(c, id, &request("cy@example.org", 0), now())?;
            let greedy = seats::rsvp(c, id, &request("ann@example.org", 4), now())?;
            Ok([first, again, other, full, greedy].map(|o| o.standing))
        })
        .await
        .unwrap();
    use Standing::{Full, Going};
    assert_eq!(results, [Going, Going, Going, Full, Going]);
    assert_eq!(
        rsvps(&db).await,
        [
            ("ANN@example.org".to_owned(), "going".to_owned(), 0),
            ("bo@example.org".to_owned(), "going".to_owned(), 1),
        ]
    );
}

/// Drafts, cancelled events, ones past their deadline or started take no RSVP.
#[tokio::test]
async fn closed_events_take_no_rsvp() {
    let (_dir, db) = file_db();
    let closed = db
        .write(|c| {
            let id = event(c, None, true);
            let mut seen = Vec::new();
            for change in [
                "UPDATE events SET status = 'draft'",
                "UPDATE events SET status = 'cancelled'",
                "UPDATE events SET status = 'published', rsvp_deadline = '2026-11-29T14:00:00.000Z'",
                "UPDATE events SET rsvp_deadline = NULL, starts_at = '2026-11-29T14:59:00.000Z'",
            ] {
                c.execute(change, [])?;
                seen.push(seats::rsvp(c, id, &request("ann@example.org", 0), now())?.standing);
            }
            Ok(seen)
        })
        .await
        .unwrap();
    assert!(closed.iter().all(|s| *s == Standing::Closed), "{closed:?}");
    assert!(rsvps(&db).await.is_empty());
}
