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
            api::housekeeping::run_once(&housekeeping).await;
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
