use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context as _;
use api::AppState;
use api::config::Config;
use api::db::Db;

#[tokio::main]
async fn main() -> ExitCode {
    dotenvy::dotenv().ok();
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| "info,warp=warn".into()),
        )
        .init();
    match run().await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            tracing::error!("{e:#}");
            ExitCode::FAILURE
        }
    }
}

async fn run() -> anyhow::Result<()> {
    let config = Config::from_env()?;
    if !config.dist_dir.join("index.html").exists() {
        tracing::warn!(
            "{} has no index.html; run `just build` first",
            config.dist_dir.display()
        );
    }
    let db = Db::open(&config.data_dir.join("site.db"))?;
    let listener = tokio::net::TcpListener::bind((config.bind, config.port))
        .await
        .with_context(|| format!("Failed to listen on {}:{}", config.bind, config.port))?;
    let state = AppState::new(config, db)?;

    let housekeeping = state.clone();
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_secs(60));
        loop {
            tick.tick().await;
            housekeeping.form_limiter.forget_idle();
            housekeeping.auth.forget_old_failures();
            // Revoked tokens past their expiry would be refused anyway.
            let pruned = housekeeping
                .db
                .write(|tx| {
                    tx.execute(
                        "DELETE FROM revoked_tokens WHERE expires_at < CAST(strftime('%s', 'now') AS INTEGER)",
                        [],
                    )
                })
                .await;
            if let Err(e) = pruned {
                tracing::warn!(error = %e, "could not prune revoked tokens");
            }
        }
    });

    // Printed on stdout: the test harness and people both read it.
    println!("Listening on http://{}", listener.local_addr()?);
    warp::serve(api::app(state))
        .incoming(listener)
        .graceful(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .run()
        .await;
    Ok(())
}
