//! A database from before people were known, opened by the new server: every row finds its
//! person, and every paid gift its contributor, before anyone asks.

use super::{Server, blog_site, connect, env_refs, request, sign_in};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rows_stored_before_people_get_their_person_at_start() {
    let (dir, env) = blog_site(0);
    let database = env
        .iter()
        .find(|(k, _)| *k == "DATA_DIR")
        .map(|(_, v)| v.join("site.db"))
        .unwrap();
    let conn = rusqlite::Connection::open(&database).unwrap();
    // As an older server left them: no links.
    conn.execute_batch(
        "INSERT INTO newsletter_signups (email, zip_code) VALUES ('ÄNN@example.org', '12345');
         INSERT INTO contact_messages (name, email, subject, message)
             VALUES ('Ann Lee', 'änn@example.org', 'Hi', 'Hello');
         INSERT INTO volunteer_signups (name, email, zip_code) VALUES ('Ben Lee', 'ben@example.org', '12345');
         INSERT INTO donations (amount_cents, donor_name, donor_first_name, donor_last_name, donor_email,
             donor_address, donor_city, donor_state, donor_zip_code, status, contribution_year)
         VALUES (2500, 'Ann Lee', 'Ann', 'Lee', 'änn@example.org', '1 Elm Street', 'Town', 'VT', '05401', 'completed', 2026),
                (1000, 'Ann Lee', 'Ann', 'Lee', 'other@example.org', '1 Elm St', 'Town', 'VT', '05401', 'completed', 2026);",
    )
    .unwrap();
    drop(conn);
    let mut server = Server::start(dir.path(), &env_refs(&env)).await;
    let mut stream = connect(&server.addr).await;
    let token = sign_in(&mut stream).await;
    let auth = format!("Bearer {token}");
    let (status, body) = request(
        &mut stream,
        "GET",
        "/api/admin/people",
        &[("Authorization", &auth)],
        "",
    )
    .await
    .unwrap();
    assert_eq!(status, 200, "{body}");
    let list: serde_json::Value = serde_json::from_str(&body).unwrap();
    // ÄNN and änn are one address: three people.
    assert_eq!(list["total"], 3, "{list}");
    server.stop().await;
    let conn = rusqlite::Connection::open(&database).unwrap();
    let (unlinked, contributors): (i64, i64) = conn
        .query_row(
            "SELECT (SELECT COUNT(*) FROM contact_messages WHERE email_id IS NULL)
                  + (SELECT COUNT(*) FROM donations WHERE email_id IS NULL OR contributor_id IS NULL),
                    (SELECT COUNT(*) FROM contributors)",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    // Ann from two inboxes is one contributor.
    assert_eq!((unlinked, contributors), (0, 1));
}
