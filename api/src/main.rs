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
    /// Write everything a restore needs to the folder DIR, also while the server runs: a
    /// consistent copy of the database (DIR/site.db), the uploads (DIR/uploads/) and the
    /// keys (DIR/keys/).
    Backup {
        /// The folder to write (its database is replaced if it exists).
        dir: PathBuf,
    },
    /// Bring the database, uploads and keys back into an empty DATA_DIR: from the replica
    /// (REPLICA_URL), or from a folder `api backup` wrote. Checks everything before putting
    /// anything in place; starts nothing.
    Restore {
        /// A folder `api backup` wrote, instead of the replica.
        #[arg(long)]
        from: Option<PathBuf>,
    },
    /// Make the deploy bucket (DEPLOY_URL) equal DIST_DIR: copy what it lacks or holds
    /// another version of, delete what DIST_DIR no longer has.
    Deploy,
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
        Some(Command::Backup { dir }) => backup(dir).await,
        Some(Command::Restore { from }) => restore(from).await,
        Some(Command::Deploy) => deploy().await,
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

async fn backup(dir: PathBuf) -> anyhow::Result<()> {
    let config = Config::from_env()?;
    let started = std::time::Instant::now();
    let (data, dest) = (config.data_dir.clone(), dir.clone());
    let folder = tokio::task::spawn_blocking(move || api::store::backup::backup_all(&data, &dest))
        .await
        .context("the backup stopped unexpectedly")??;
    println!(
        "Backed up {} to {}: the database ({} KB, integrity ok), {} uploads and {} keys, in {:.1?}",
        config.data_dir.display(),
        dir.display(),
        folder.database.bytes.div_ceil(1024),
        folder.uploads,
        folder.keys,
        started.elapsed()
    );
    Ok(())
}

async fn restore(from: Option<PathBuf>) -> anyhow::Result<()> {
    let config = Config::from_env()?;
    let restored = match (&from, &config.replica) {
        (Some(dir), _) => api::offsite::restore::restore_from_backup(dir, &config.data_dir).await?,
        (None, Some(replica)) => api::offsite::restore::restore(replica, &config.data_dir).await?,
        (None, None) => anyhow::bail!(
            "Nothing to restore from: set REPLICA_URL (and its endpoint and credentials), or \
             name a backup folder with --from DIR."
        ),
    };
    let source = match (&from, &config.replica) {
        (Some(dir), _) => dir.display().to_string(),
        (None, Some(replica)) => replica.remote.url(),
        (None, None) => unreachable!(),
    };
    println!(
        "Restored {} from {source}: the database ({} KB, integrity ok), {} uploads and the \
         keys {:?}, in {:.1} s. Start the server: it rebuilds the blog's pages from the database.",
        config.data_dir.display(),
        restored.database_bytes.div_ceil(1024),
        restored.uploads,
        restored.keys,
        restored.seconds
    );
    if restored.keys.is_empty() {
        println!(
            "No keys came back: links already mailed (unsubscribe, cancel, confirm) will not \
             work unless the keys are set some other way."
        );
    }
    Ok(())
}

async fn deploy() -> anyhow::Result<()> {
    let config = Config::from_env()?;
    let Some(remote) = config.deploy.clone() else {
        anyhow::bail!("DEPLOY_URL is not set: there is no bucket to deploy to.");
    };
    let db = Db::open(&config.data_dir.join("site.db"))?;
    let url = remote.url();
    let deployer = api::offsite::deploy::Deployer::new(
        Some(remote),
        config.dist_dir.clone(),
        db,
        std::sync::Arc::default(),
    );
    let started = std::time::Instant::now();
    let synced = deployer.sync_all().await?;
    println!(
        "{url} now equals {}: {} files copied, {} deleted, {} already there, in {:.1?}",
        config.dist_dir.display(),
        synced.uploaded,
        synced.deleted,
        synced.unchanged,
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
    let replication = state.replication.clone();
    api::http::server::run(
        listener,
        api::app(state),
        files,
        security,
        connections,
        shutdown,
    )
    .await;
    // Litestream ships what it has before the server is gone.
    if let Some(replication) = replication {
        replication.stop().await;
    }
    Ok(())
}
