//! What every handler can reach.

use std::sync::Arc;

use anyhow::Context as _;
use generator::config::SiteConfig;
use generator::content::{Home, TextConsent};

use crate::config::Config;
use crate::domain::auth::Auth;
use crate::domain::clock::Clock;
use crate::domain::donations::Ledger;
use crate::domain::donations::donor_pass::DonorPasses;
use crate::domain::donations::limit_refunds::LimitRefunder;
use crate::domain::donations::monthly::charge::Charger;
use crate::domain::donations::stripe::Payments;
use crate::domain::mail::Mail;
use crate::domain::rebuild::Rebuilder;
use crate::domain::schedule::Scheduler;
use crate::http::rate_limit::{DonationLimiter, FormLimiter};
use crate::http::static_files::StaticFiles;
use crate::pages::form_problems::FormProblems;
use crate::pages::previews::Previews;
use crate::store::db::Db;

#[derive(Clone)]
pub struct AppState {
    pub config: Arc<Config>,
    /// The party's settings from `content/site.yaml` (name, abbreviation, time zone…).
    pub site: Arc<SiteConfig>,
    /// The words beside the box to agree to texts (`content/home.yaml`), recorded with
    /// each grant and shown again on the no-script problem page.
    pub texts_consent: Arc<TextConsent>,
    pub db: Db,
    /// The time every time-based rule reads (tests move it).
    pub clock: Arc<Clock>,
    pub auth: Arc<Auth>,
    /// Passkey ceremonies (WebAuthn) for the site's own address.
    pub passkeys: Arc<crate::domain::staff::passkeys::Passkeys>,
    /// Who may see a donor's giving.
    pub donor_passes: Arc<DonorPasses>,
    pub form_limiter: Arc<FormLimiter>,
    /// Refused no-script form posts, shown on the page they are redirected to.
    pub form_problems: Arc<FormProblems>,
    /// Rendered previews of unsaved posts, waiting to be opened once.
    pub previews: Arc<Previews>,
    /// Re-renders the blog's pages when posts change.
    pub rebuilder: Rebuilder,
    /// Keeps the events' public pages in step with the database.
    pub event_pages: crate::domain::events::pages::EventPages,
    /// Publishes scheduled posts when their time comes (`main` starts its task; tests
    /// call its pass after moving the clock).
    pub scheduler: Scheduler,
    /// The card processor; `None` when no Stripe keys are configured.
    pub payments: Option<Arc<Payments>>,
    /// Charges monthly gifts when they fall due (`main` starts its task; tests call its
    /// pass after moving the clock).
    pub charger: Charger,
    pub donation_limiter: Arc<DonationLimiter>,
    /// Refunds what a paid gift gave past the year's limit (`main` starts its task; tests
    /// call its pass).
    pub limit_refunder: LimitRefunder,
    /// Outgoing mail: what the site sends, and the task that delivers it.
    pub mail: Arc<Mail>,
    /// The generated site, served from memory.
    pub static_files: Arc<StaticFiles>,
    /// The public site's copy in the deploy bucket (does nothing without `DEPLOY_URL`).
    pub deployer: Arc<crate::offsite::deploy::Deployer>,
    /// The off-site copy of the database, uploads and keys (`REPLICA_URL`).
    pub replication: Option<Arc<crate::offsite::replica::Replication>>,
    /// The headers every answer carries.
    pub security_headers: Arc<crate::http::security_headers::SecurityHeaders>,
}

/// What a handler that records something and may queue mail about it needs: the database,
/// the time, and the mail, which it queues in the same write.
#[derive(Clone)]
pub struct Desk {
    pub db: Db,
    pub clock: Arc<Clock>,
    pub mail: Arc<Mail>,
}

impl AppState {
    /// The [`Ledger`] view of the state.
    pub fn ledger(&self) -> Ledger {
        Ledger {
            db: self.db.clone(),
            clock: self.clock.clone(),
            mail: self.mail.clone(),
            site: self.site.clone(),
            payments: self.payments.clone(),
            refunder: self.limit_refunder.clone(),
        }
    }

    /// The [`Desk`] view of the state.
    pub fn desk(&self) -> Desk {
        Desk {
            db: self.db.clone(),
            clock: self.clock.clone(),
            mail: self.mail.clone(),
        }
    }

    /// Reads the party's settings and sets up sign-in; fails with a message saying what
    /// to fix.
    pub fn new(config: Config, db: Db) -> anyhow::Result<AppState> {
        // One crypto provider for every TLS client (Stripe, SMTP), chosen here rather than
        // guessed by rustls from whichever are compiled in. Installed once per process.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let site_file = config.content_dir.join("site.yaml");
        let mut site: SiteConfig = generator::content::read_yaml(&site_file)?;
        site.validate()
            .map_err(|e| anyhow::anyhow!("{}: {e}", site_file.display()))?;
        // One origin names the site everywhere (pages, feeds, mail, calendars, JSON-LD):
        // SITE_URL, else the content file's `url`, as the generator takes it.
        if let Some(url) = config.site_url() {
            let url = url.trim_end_matches('/').to_owned();
            if url != site.url {
                tracing::warn!(
                    site_url = %url,
                    content = %site.url,
                    "SITE_URL differs from `url` in content/site.yaml: SITE_URL names the site in every page, feed, mail and calendar"
                );
            }
            site.url = url;
            site.validate()
                .map_err(|e| anyhow::anyhow!("SITE_URL: {e}"))?;
        }
        let home: Home = generator::content::read_yaml(&config.content_dir.join("home.yaml"))?;
        let auth =
            Auth::new(&config.auth_settings()).context("Failed to set up the admin sign-in")?;
        let donor_passes = DonorPasses::new(&crate::domain::auth::signing_secret(
            &config.auth_settings(),
        )?);
        let form_limiter = FormLimiter::per_minute(config.form_rate_limit);
        let donation_limiter =
            DonationLimiter::new(config.donation_rate_limit, config.summary_rate_limit);
        let payments = match &config.stripe {
            Some(stripe) => Some(Arc::new(Payments::new(stripe.clone())?)),
            None => {
                tracing::info!("No Stripe keys: the donate page says payments are not available");
                None
            }
        };
        // A rebuild cut short by a crash can leave its temporary files behind.
        let leftovers = generator::output::remove_leftover_temp_files(&config.dist_dir);
        if leftovers > 0 {
            tracing::info!(
                files = leftovers,
                "removed temporary files an interrupted rebuild left"
            );
        }
        let canonical = site.url.clone();
        let security_headers = Arc::new(crate::http::security_headers::SecurityHeaders::new(
            canonical.starts_with("https://"),
            &site.remote_image_hosts,
        ));
        let static_files = StaticFiles::open(config.dist_dir.clone(), config.static_cache_bytes);
        let clock: Arc<Clock> = Arc::default();
        if config.test_clock_offset_secs > 0 {
            clock.advance(std::time::Duration::from_secs(
                config.test_clock_offset_secs,
            ));
            tracing::warn!(now = %clock.now(), "the test clock starts ahead");
        }
        let deployer = crate::offsite::deploy::Deployer::new(
            config.deploy.clone(),
            config.dist_dir.clone(),
            db.clone(),
            clock.clone(),
        );
        let replication = config.replica.clone().map(|replica| {
            crate::offsite::replica::Replication::new(replica, config.data_dir.clone())
        });
        let published = crate::domain::published::Published::new(
            static_files.clone(),
            deployer.clone(),
            config.rebuild_hook.clone(),
            config.dist_dir.clone(),
        );
        let rebuilder = match &config.site {
            Some(opts) => Rebuilder::new(opts.clone(), db.clone(), published.clone()),
            None => Rebuilder::disabled(),
        };
        let scheduler = Scheduler::new(db.clone(), clock.clone(), rebuilder.clone());
        let event_pages = crate::domain::events::pages::EventPages::new(
            rebuilder.site().cloned(),
            db.clone(),
            clock.clone(),
            published,
        );
        let mail = Mail::new(
            &config.mail,
            crate::domain::mail::Places {
                content_dir: &config.content_dir,
                data_dir: &config.data_dir,
                site_url: &canonical,
            },
            &site,
            db.clone(),
            clock.clone(),
        )
        .context("Failed to set up outgoing mail")?;
        let passkeys = Arc::new(crate::domain::staff::passkeys::Passkeys::new(
            &canonical, &site.name,
        ));
        let site = Arc::new(site);
        let limit_refunder = LimitRefunder::new(
            db.clone(),
            clock.clone(),
            mail.clone(),
            site.clone(),
            payments.clone(),
        );
        let charger = Charger::new(
            db.clone(),
            clock.clone(),
            mail.clone(),
            site.clone(),
            payments.clone(),
            limit_refunder.clone(),
        );
        Ok(AppState {
            config: Arc::new(config),
            site,
            texts_consent: Arc::new(home.signup.texts),
            db,
            clock,
            auth: Arc::new(auth),
            passkeys,
            donor_passes: Arc::new(donor_passes),
            form_limiter,
            form_problems: Arc::default(),
            previews: Arc::default(),
            rebuilder,
            event_pages,
            scheduler,
            payments,
            charger,
            donation_limiter,
            limit_refunder,
            mail,
            static_files,
            deployer,
            replication,
            security_headers,
        })
    }
}
