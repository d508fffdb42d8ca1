use std::io::IsTerminal as _;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;
use api::AppState;
use api::config::Config;
use api::store::db::Db;
use clap::{Parser, Subcommand};
use tokio::signal::unix::{SignalKind, signal};

/// The party site's server: the generated site and /api on one origin. Settings come from
/// the environment (and a `.env` file); see the README.
#[derive(Parser)]
#[command(version)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the site (what `api` alone does).
    Serve,
    /// Write a consistent copy of DATA_DIR/site.db to FILE, also while the server runs.
    Backup {
        /// Where to write the copy (replaced if it exists).
        file: PathBuf,
    },
    /// Staff accounts, for the operator of the machine.
    Users {
        #[command(subcommand)]
        action: Users,
    },
}

#[derive(Subcommand)]
enum Users {
    /// Take away every second factor of the account EMAIL (the way back in for the last
    /// Owner without working mail): its next sign-in needs only the password, and then
    /// enrols again. The user is e-mailed a notice; the audit log records it.
    #[command(name = "reset-2fa")]
    ResetTwoFactor {
        /// The account's e-mail address.
        email: String,
    },
}

fn main() -> ExitCode {
    // Before any thread exists: the allocator's settings apply to the arenas threads get.
    api::memory::tune_allocator();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("the async runtime starts");
    runtime.block_on(run())
}

async fn run() -> ExitCode {
    dotenvy::dotenv().ok();
    let cli = Cli::parse();
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()),
        )
        // Colours for a person at a terminal; plain lines for a log file or journald.
        .with_ansi(std::io::stdout().is_terminal())
        .init();
    let serving = matches!(cli.command, None | Some(Command::Serve));
    let result = match cli.command {
        None | Some(Command::Serve) => serve().await,
        Some(Command::Backup { file }) => backup(file).await,
        Some(Command::Users {
            action: Users::ResetTwoFactor { email },
        }) => reset_two_factor(email).await,
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // The server's log is its output; a command's failure is for the person who typed it.
        Err(e) if serving => {
            tracing::error!("{e:#}");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("{e:#}");
            ExitCode::FAILURE
        }
    }
}

async fn backup(file: PathBuf) -> anyhow::Result<()> {
    let config = Config::from_env()?;
    let source = config.data_dir.join("site.db");
    let started = std::time::Instant::now();
    let dest = file.clone();
    let summary = tokio::task::spawn_blocking(move || api::store::backup::backup(&source, &dest))
        .await
        .context("the backup stopped unexpectedly")??;
    println!(
        "Backed up {} to {} ({} KB, integrity ok) in {:.1?}",
        config.data_dir.join("site.db").display(),
        file.display(),
        summary.bytes.div_ceil(1024),
        started.elapsed()
    );
    Ok(())
}

async fn reset_two_factor(email: String) -> anyhow::Result<()> {
    use api::domain::staff::{accounts, challenges, notices, sessions};
    let config = Config::from_env()?;
    let db = Db::open(&config.data_dir.join("site.db"))?;
    let state = AppState::new(config, db)?;
    let (mail, now) = (state.mail.clone(), state.clock.now());
    let found = state
        .db
        .write(move |tx| {
            let Some(user) = accounts::by_email(tx, &email)? else {
                return Ok(None);
            };
            accounts::reset_factors(tx, user.id)?;
            // The next sign-in is trusted once, as an account's first is: whoever runs this
            // command holds the machine.
            tx.execute(
                "UPDATE users SET last_sign_in_at = NULL WHERE id = ?1",
                [user.id],
            )?;
            sessions::end_all(tx, user.id, None, &api::domain::clock::sql_time(now))?;
            challenges::void_all(tx, user.id, now)?;
            let from = notices::From {
                ip: "the server's command line",
                browser: "api users reset-2fa",
                at: now,
            };
            notices::security(
                &mail,
                tx,
                &user,
                "your second factors were reset from the server's command line",
                from,
            )?;
            api::domain::audit::record_detailed(
                tx,
                api::domain::audit::Action::Factor,
                &format!("user:{}", user.id),
                None,
                "factors reset from the command line",
            )?;
            Ok(Some(user.email))
        })
        .await?;
    match found {
        Some(email) => {
            println!(
                "Every second factor of {email} is gone and its sessions are ended. Its next \
                 sign-in needs only the password; set up an authenticator app or a passkey \
                 then, from Security."
            );
            Ok(())
        }
        None => anyhow::bail!("There is no staff account with that e-mail address."),
    }
}

async fn serve() -> anyhow::Result<()> {
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

    // Rows stored before people were known (or that a crash left unlinked) get their
    // supporter and contributor before anything counts them.
    let now = state.clock.now();
    let filled = state
        .db
        .write(move |tx| api::domain::directory::fill_in(tx, now))
        .await
        .context("Failed to link submissions to people")?;
    if filled != api::domain::directory::FilledIn::default() {
        tracing::info!(
            linked = filled.linked,
            contributors = filled.contributors,
            "people back-filled"
        );
    }

    // The first start with staff accounts: the configured admin becomes the Owner.
    let (email, phc, at) = (
        state.auth.owner_email.clone(),
        state.auth.owner_password.clone(),
        state.clock.now_sql(),
    );
    let owner = state
        .db
        .write(move |tx| api::domain::staff::accounts::seed_owner(tx, &email, &phc, &at))
        .await
        .context("Failed to make the first Owner account")?;
    if owner.is_some() {
        tracing::warn!(
            email = %state.auth.owner_email,
            "the first Owner account was made from ADMIN_EMAIL and the admin password: sign in with them"
        );
    }

    // Every background loop: listed in api/src/workers.rs.
    api::workers::start(&state)?;

    let mut terminate = signal(SignalKind::terminate()).context("Failed to listen for SIGTERM")?;
    let shutdown = async move {
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = terminate.recv() => {}
        }
        tracing::info!("shutting down: finishing the requests in flight");
    };

    // Printed on stdout: the test harness and people both read it.
    println!("Listening on http://{}", listener.local_addr()?);
    let files = state.static_files.clone();
    let fd_limit = api::http::connections::raise_fd_limit();
    let proxies = state.config.trust_proxy.clone();
    let connections = api::http::connections::Connections::for_fd_limit(fd_limit, move |ip| {
        proxies.trusts(Some(ip))
    });
    tracing::debug!(fd_limit, "connection limits set");
    let security = state.security_headers.clone();
    api::http::server::run(
        listener,
        api::app(state),
        files,
        security,
        connections,
        shutdown,
    )
    .await;
    Ok(())
}
