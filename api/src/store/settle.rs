//! What a write transaction settles just before it commits: the work the schema's triggers
//! queue during its writes (store/settle.sql), because doing it in each write's own savepoint
//! would cost far more.

use rusqlite::Connection;

/// Settles what the triggers queued in this transaction (store/settle.sql), so that no
/// transaction commits with work left queued. The writer runs it before every commit; a
/// write that needs the settled state inside its own transaction (an erasure, before it
/// merges the People index) calls it too. Cheap when nothing is queued.
pub fn settle(conn: &Connection) -> rusqlite::Result<()> {
    let queued: bool = conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM people_search_queue)",
        [],
        |r| r.get(0),
    )?;
    if queued {
        conn.execute_batch(include_str!("settle.sql"))?;
    }
    Ok(())
}
