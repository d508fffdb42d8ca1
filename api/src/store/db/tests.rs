use super::*;

/// One statement per entry, spaced alike; a table rebuilt and renamed (V16) is stored with
/// its name quoted, so quotes go too.
fn normalise(sql: &str) -> Vec<String> {
    sql.replace('"', "")
        .split(';')
        .map(|s| s.split_whitespace().collect::<Vec<_>>().join(" "))
        .map(|s| s.replace("( ", "(").replace(" )", ")").replace(" ,", ","))
        .filter(|s| !s.is_empty() && !s.starts_with("--"))
        .collect()
}

/// schema.sql is for reading; this proves it is exactly what the migrations produce.
#[tokio::test]
async fn schema_sql_matches_the_migrations() {
    let db = Db::open_in_memory().unwrap();
    let actual: Vec<String> = db
        .read(|c| {
            let mut stmt = c.prepare(
                "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' \
                 AND name != 'refinery_schema_history' ORDER BY type DESC, name",
            )?;
            stmt.query_map([], |r| r.get::<_, String>(0))?.collect()
        })
        .await
        .unwrap();
    let actual: Vec<String> = actual.iter().flat_map(|s| normalise(s)).collect();
    let schema =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../schema.sql")).unwrap();
    let without_comments: String = schema
        .lines()
        .filter(|l| !l.trim_start().starts_with("--"))
        .collect::<Vec<_>>()
        .join("\n");
    let mut expected = normalise(&without_comments);
    let mut actual_sorted = actual.clone();
    expected.sort();
    actual_sorted.sort();
    assert_eq!(
        actual_sorted, expected,
        "schema.sql is out of date with api/migrations"
    );
}

#[tokio::test]
async fn a_failed_write_leaves_nothing_behind() {
    let db = Db::open_in_memory().unwrap();
    let result = db
        .write(|tx| {
            tx.execute(
                "INSERT INTO newsletter_signups (email, zip_code) VALUES ('a@b.org', '12345')",
                [],
            )?;
            tx.execute("INSERT INTO no_such_table VALUES (1)", [])
        })
        .await;
    assert!(result.is_err());
    let count: i64 = db
        .read(|c| c.query_row("SELECT COUNT(*) FROM newsletter_signups", [], |r| r.get(0)))
        .await
        .unwrap();
    assert_eq!(count, 0);
}

fn file_db() -> (tempfile::TempDir, Db) {
    let dir = tempfile::tempdir().unwrap();
    let db = Db::open(&dir.path().join("site.db")).unwrap();
    (dir, db)
}

async fn signups(db: &Db) -> Vec<String> {
    db.read(|c| {
        let mut stmt = c.prepare("SELECT email FROM newsletter_signups ORDER BY email")?;
        stmt.query_map([], |r| r.get(0))?.collect()
    })
    .await
    .unwrap()
}

fn insert(email: String) -> impl FnOnce(&Savepoint<'_>) -> rusqlite::Result<usize> {
    move |tx| {
        tx.execute(
            "INSERT INTO newsletter_signups (email, zip_code) VALUES (?1, '12345')",
            [email],
        )
    }
}

/// Many writes at once share commits, yet each failure (an error or a panic) undoes
/// only its own changes and is reported only to its own caller.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_writes_fail_alone() {
    let (_dir, db) = file_db();
    let mut tasks = Vec::new();
    for i in 0..200 {
        let db = db.clone();
        tasks.push(tokio::spawn(async move {
            let email = format!("v{i:03}@example.org");
            match i % 10 {
                // Half-done, then an error: the first insert must vanish with it.
                3 => db
                    .write(move |tx| {
                        insert(email)(tx)?;
                        tx.execute("INSERT INTO no_such_table VALUES (1)", [])
                    })
                    .await
                    .map(|_| ()),
                7 => db
                    .write(move |tx| -> rusqlite::Result<usize> {
                        insert(email)(tx)?;
                        panic!("a bug in one handler")
                    })
                    .await
                    .map(|_| ()),
                _ => db.write(insert(email)).await.map(|_| ()),
            }
        }));
    }
    let mut failed = 0;
    for (i, task) in tasks.into_iter().enumerate() {
        let result = task.await.unwrap();
        assert_eq!(result.is_err(), matches!(i % 10, 3 | 7), "write {i}");
        failed += usize::from(result.is_err());
    }
    assert_eq!(failed, 40);
    let stored = signups(&db).await;
    assert_eq!(stored.len(), 160);
    assert!(
        stored
            .iter()
            .all(|e| !e.ends_with("3@example.org") && !e.ends_with("7@example.org"))
    );
}

/// A read-then-write inside one closure is atomic: no other write slips in between,
/// so a limit checked in the closure holds however many requests race.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_check_then_insert_is_serialised() {
    let (_dir, db) = file_db();
    let tasks: Vec<_> = (0..50)
        .map(|i| {
            let db = db.clone();
            tokio::spawn(async move {
                db.write(move |tx| {
                    let n: i64 =
                        tx.query_row("SELECT COUNT(*) FROM newsletter_signups", [], |r| r.get(0))?;
                    if n >= 10 {
                        return Ok(false);
                    }
                    insert(format!("limit{i}@example.org"))(tx)?;
                    Ok(true)
                })
                .await
                .unwrap()
            })
        })
        .collect();
    let mut accepted = 0;
    for task in tasks {
        accepted += usize::from(task.await.unwrap());
    }
    assert_eq!(accepted, 10);
    assert_eq!(signups(&db).await.len(), 10);
}

/// The guarantee an acknowledged write relies on.
#[tokio::test]
async fn writes_are_synced_at_every_commit() {
    let (_dir, db) = file_db();
    let (mode, sync) = db
        .write(|tx| {
            let mode: String = tx.query_row("PRAGMA journal_mode", [], |r| r.get(0))?;
            let sync: i64 = tx.query_row("PRAGMA synchronous", [], |r| r.get(0))?;
            Ok((mode, sync))
        })
        .await
        .unwrap();
    assert_eq!(
        (mode.as_str(), sync),
        ("wal", 2),
        "WAL with synchronous=FULL"
    );
}

#[tokio::test]
async fn reads_cannot_write() {
    let (_dir, db) = file_db();
    let result = db
        .read(|c| {
            c.execute(
                "INSERT INTO newsletter_signups (email, zip_code) VALUES ('r@x.org', '12345')",
                [],
            )
        })
        .await;
    assert!(result.is_err());
}

/// V16 keys newsletter signups by address row: where an address had two signups (possible
/// only outside ASCII, which NOCASE does not fold), the unsubscribe is the one kept, and
/// every other row comes through as it was.
#[test]
fn v16_keeps_one_signup_per_address_and_an_opt_out_first() {
    let mut conn = Connection::open_in_memory().unwrap();
    configure(&conn).unwrap();
    embedded::migrations::runner()
        .set_target(refinery::Target::Version(15))
        .run(&mut conn)
        .unwrap();
    conn.execute_batch(
        "INSERT INTO supporters (id, created_at) VALUES (1, 'x'), (2, 'x');
         INSERT INTO supporter_emails (id, email, supporter_id, created_at)
         VALUES (1, 'äö@example.org', 1, 'x'), (2, 'bo@example.org', 2, 'x');
         INSERT INTO newsletter_signups (id, email, zip_code, status, email_id) VALUES
         (1, 'ÄÖ@example.org', '12345', 'confirmed', 1),
         (2, 'äö@example.org', '12345', 'unsubscribed', 1),
         (3, 'Äö@example.org', '12345', 'pending', 1),
         (4, 'bo@example.org', '54321', 'confirmed', 2),
         (5, 'old@example.org', '11111', 'pending', NULL);",
    )
    .unwrap();
    embedded::migrations::runner().run(&mut conn).unwrap();
    let rows: Vec<(i64, String, String, Option<i64>)> = conn
        .prepare("SELECT id, email, status, email_id FROM newsletter_signups ORDER BY id")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap();
    let own = |id: i64, email: &str, status: &str, email_id: Option<i64>| {
        (id, email.to_owned(), status.to_owned(), email_id)
    };
    assert_eq!(
        rows,
        vec![
            own(2, "äö@example.org", "unsubscribed", Some(1)),
            own(4, "bo@example.org", "confirmed", Some(2)),
            own(5, "old@example.org", "pending", None),
        ]
    );
    // One signup per address from now on.
    let again = conn.execute(
        "INSERT INTO newsletter_signups (email, zip_code, email_id) VALUES ('BO@example.org', '1', 2)",
        [],
    );
    assert!(again.is_err());
}
