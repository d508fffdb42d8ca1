//! SQLite: the connection and its one writer, the migrations, backups, the housekeeping
//! that runs every minute, and the store's own error ([`error::Error`]).

pub mod backup;
pub mod db;
pub mod error;
pub mod expiring;
pub mod housekeeping;
pub mod settle;
