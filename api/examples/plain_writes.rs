//! The baseline `just bench` compares group commit with: one signup per transaction, one
//! after the other, on the same disk with the same settings as the server's writer (WAL,
//! `synchronous=FULL`), so each write pays its own fsync.
//!
//!     cargo run --release -p api --example plain_writes -- DIR [SECONDS]
//!
//! Prints one line of JSON: `{"writes": n, "seconds": s, "perSecond": r, "p99Ms": ms}`.

use std::time::{Duration, Instant};

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let dir = std::path::PathBuf::from(args.next().unwrap_or_else(|| ".".into()));
    let seconds: f64 = args.next().map_or(Ok(3.0), |s| s.parse())?;
    let path = dir.join("plain.db");
    // The server's own schema, made by its migrations.
    drop(api::store::db::Db::open(&path)?);
    let conn = rusqlite::Connection::open(&path)?;
    api::store::db::configure(&conn)?;
    let mut insert = conn.prepare(
        "INSERT INTO newsletter_signups (email, phone, zip_code) VALUES (?1, NULL, '12345')",
    )?;
    let limit = Duration::from_secs_f64(seconds);
    let started = Instant::now();
    let mut latencies = Vec::new();
    while started.elapsed() < limit {
        let t = Instant::now();
        conn.execute_batch("BEGIN IMMEDIATE")?;
        insert.execute([format!("plain{}@example.org", latencies.len())])?;
        conn.execute_batch("COMMIT")?;
        latencies.push(t.elapsed());
    }
    let took = started.elapsed().as_secs_f64();
    latencies.sort();
    let p99 = latencies[(latencies.len() * 99 / 100).min(latencies.len() - 1)];
    println!(
        "{{\"writes\": {}, \"seconds\": {took:.3}, \"perSecond\": {:.0}, \"p99Ms\": {:.3}}}",
        latencies.len(),
        latencies.len() as f64 / took,
        p99.as_secs_f64() * 1000.0
    );
    Ok(())
}
