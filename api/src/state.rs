//! What every handler can reach.

use std::sync::Arc;

use crate::config::Config;
use crate::db::Db;
use crate::form_problems::FormProblems;
use crate::rate_limit::FormLimiter;

#[derive(Clone)]
pub struct AppState {
    pub config: Arc<Config>,
    pub db: Db,
    pub form_limiter: Arc<FormLimiter>,
    /// Refused no-script form posts, shown on the page they are redirected to.
    pub form_problems: Arc<FormProblems>,
}

impl AppState {
    pub fn new(config: Config, db: Db) -> AppState {
        let form_limiter = FormLimiter::per_minute(config.form_rate_limit);
        AppState {
            config: Arc::new(config),
            db,
            form_limiter,
            form_problems: Arc::default(),
        }
    }
}
