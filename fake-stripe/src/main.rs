//! The fake Stripe API as a process, for the browser tests: `PORT` (default any free port),
//! `WEBHOOK_URL` and `WEBHOOK_SECRET` (or set later through `POST /__fake/config`).
//! Prints `Listening on http://…` once it accepts connections.

use std::net::SocketAddr;

#[tokio::main(flavor = "current_thread")]
async fn main() -> std::io::Result<()> {
    let fake = fake_stripe::FakeStripe::new();
    if let (Ok(url), Ok(secret)) = (
        std::env::var("WEBHOOK_URL"),
        std::env::var("WEBHOOK_SECRET"),
    ) {
        fake.set_webhook(url, secret);
    }
    let port: u16 = std::env::var("PORT")
        .ok()
        .and_then(|p| p.parse().ok())
        .unwrap_or(0);
    let addr = fake_stripe::spawn(fake, SocketAddr::from(([127, 0, 0, 1], port))).await?;
    println!("Listening on http://{addr}");
    std::future::pending::<()>().await;
    Ok(())
}
