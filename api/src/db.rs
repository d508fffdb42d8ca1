//! SQLite: one connection in WAL mode, migrated on open. Every call runs on the blocking
//! thread pool so a slow disk never stalls the async runtime, and every write runs in an
//! IMMEDIATE transaction so concurrent writers queue instead of failing mid-way.

use std::path::Path;
use std::sync::{Arc, Mutex};

use anyhow::Context as _;
use rusqlite::{Connection, Transaction, TransactionBehavior};

use crate::error::ApiError;

mod embedded {
    refinery::embed_migrations!("migrations");
}

#[derive(Clone)]
pub struct Db {
    conn: Arc<Mutex<Connection>>,
}

impl Db {
    /// Opens (creating if needed) and migrates the database at `path`.
    pub fn open(path: &Path) -> anyhow::Result<Db> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("Failed to create {}", dir.display()))?;
        }
        let conn = Connection::open(path)
            .with_context(|| format!("Failed to open the database {}", path.display()))?;
        Db::setup(conn)
            .with_context(|| format!("Failed to prepare the database {}", path.display()))
    }

    /// A private in-memory database, for tests.
    pub fn open_in_memory() -> anyhow::Result<Db> {
        Db::setup(Connection::open_in_memory()?)
    }

    fn setup(mut conn: Connection) -> anyhow::Result<Db> {
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        embedded::migrations::runner()
            .run(&mut conn)
            .context("Failed to migrate the database")?;
        Ok(Db {
            conn: Arc::new(Mutex::new(conn)),
        })
    }

    /// Runs `f` with the connection on the blocking pool.
    pub async fn read<T, F>(&self, f: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> rusqlite::Result<T> + Send + 'static,
    {
        let conn = self.conn.clone();
        tokio::task::spawn_blocking(move || {
            let conn = conn.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            f(&conn)
        })
        .await
        .context("database task panicked")?
        .map_err(ApiError::from)
    }

    /// Runs `f` inside an IMMEDIATE transaction, committed when `f` succeeds.
    pub async fn write<T, F>(&self, f: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce(&Transaction) -> rusqlite::Result<T> + Send + 'static,
    {
        let conn = self.conn.clone();
        tokio::task::spawn_blocking(move || {
            let mut conn = conn.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let out = f(&tx)?;
            tx.commit()?;
            Ok::<T, rusqlite::Error>(out)
        })
        .await
        .context("database task panicked")?
        .map_err(ApiError::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn normalise(sql: &str) -> Vec<String> {
        sql.split(';')
            .map(|s| s.split_whitespace().collect::<Vec<_>>().join(" "))
            .map(|s| s.replace("( ", "(").replace(" )", ")"))
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
}
