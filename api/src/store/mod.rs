//! SQLite: the connection and its one writer, the migrations, backups, and the housekeeping
//! that runs every minute.

pub mod backup;
pub mod db;
pub mod expiring;
pub mod housekeeping;
