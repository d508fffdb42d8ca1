use jiff::Timestamp;

use super::*;
use crate::store::db::Db;

fn now() -> Timestamp {
    "2026-03-01T12:00:00Z".parse().unwrap()
}

#[tokio::test]
async fn the_back_fill_links_old_rows_and_makes_one_contributor_per_person() {
    let db = Db::open_in_memory().unwrap();
    let done = db
        .write(|tx| {
            // As the rows stood before people were known: no links.
            tx.execute_batch(
                "INSERT INTO newsletter_signups (email, zip_code) VALUES ('ÄNN@example.org', '12345');
                 INSERT INTO contact_messages (name, email, subject, message)
                     VALUES ('Ann Lee', ' änn@example.org ', 'Hi', 'Hello');
                 INSERT INTO volunteer_signups (name, email, zip_code) VALUES ('Ben Lee', 'ben@example.org', '12345');
                 INSERT INTO donations (amount_cents, donor_name, donor_first_name, donor_last_name, donor_email,
                     donor_address, donor_city, donor_state, donor_zip_code, status, contribution_year)
                 VALUES
                     (2500, 'Ann Lee', 'Ann', 'Lee', 'änn@example.org', '1 Elm Street', 'Town', 'VT', '05401', 'completed', 2026),
                     (1000, 'Ben Lee', 'Ben', 'Lee', 'änn@example.org', '1 Elm St.', 'Town', 'VT', '05401-1234', 'completed', 2026),
                     (1000, 'Ann Lee', 'Ann', 'Lee', 'other@example.org', '1 ELM ST', 'Town', 'VT', '05401', 'completed', 2026),
                     (500, 'Zed Lee', 'Zed', 'Lee', 'zed@example.org', '9 Oak St', 'Town', 'VT', '05401', 'pending', 2026);",
            )?;
            let done = fill_in(tx, now())?;
            let count = |sql: &str| tx.query_row(sql, [], |r| r.get::<_, i64>(0));
            Ok((
                done,
                count("SELECT COUNT(*) FROM supporters")?,
                count("SELECT COUNT(*) FROM supporter_emails")?,
                count("SELECT COUNT(*) FROM contributors")?,
                count("SELECT COUNT(*) FROM donations WHERE contributor_id IS NULL")?,
                // Run again: nothing left to do.
                fill_in(tx, now())?,
            ))
        })
        .await
        .unwrap();
    let (first, supporters, emails, contributors, unassigned, second) = done;
    // Seven rows with an address; ÄNN and änn are one address.
    assert_eq!(
        first,
        FilledIn {
            linked: 7,
            contributors: 3
        }
    );
    assert_eq!((supporters, emails), (4, 4));
    // Ann (from two inboxes) is one contributor, Ben another; the unpaid gift makes none.
    assert_eq!((contributors, unassigned), (2, 1));
    assert_eq!(second, FilledIn::default());
}
