//! What a database call can fail with. The store speaks SQLite, not HTTP: its callers (the
//! domain included) get this error, and the edge (`http::error::recover`, or `From` into the
//! API's error) answers it as a 500 with the cause logged, never shown.
//!
//! Use [`Error::Sql`] for what SQLite said (a query, a constraint), [`Error::Other`] for the
//! store itself failing (its writer stopped, a commit or checkpoint that did not complete).

/// A failed read, write or checkpoint.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("database: {0}")]
    Sql(#[from] rusqlite::Error),
    #[error("database: {0:#}")]
    Other(#[from] anyhow::Error),
}
