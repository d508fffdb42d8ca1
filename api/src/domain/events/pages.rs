//! Keeps the public events files in step with the database: after each change staff make
//! (the answer waits until the pages are live), at start (a full pass: events may have
//! changed since the last build), and as time passes (an event whose start or RSVP deadline
//! went by has its form replaced). Passes are serialised; each writes only the files whose
//! bytes differ, through the same generator functions a full build uses.

use std::collections::HashSet;
use std::sync::Arc;

use generator::events::{self, Events};
use jiff::Timestamp;

use crate::domain::clock::{Clock, sql_time};
use crate::domain::published::Published;
use crate::domain::rebuild::SiteHandle;
use crate::store::db::Db;

#[derive(Clone)]
pub struct EventPages {
    site: Option<SiteHandle>,
    db: Db,
    clock: Arc<Clock>,
    /// Where every written file is made live, queued for the bucket and told to the hook.
    published: Published,
    /// When the last pass read the events; `None` before the first (a full one).
    last: Arc<tokio::sync::Mutex<Option<Timestamp>>>,
}

impl EventPages {
    /// `site`: `None` when this server renders no pages (tests of the API alone).
    pub fn new(
        site: Option<SiteHandle>,
        db: Db,
        clock: Arc<Clock>,
        published: Published,
    ) -> EventPages {
        EventPages {
            site,
            db,
            clock,
            published,
            last: Arc::default(),
        }
    }

    /// Brings the events' files up to date: the pages of `changed` (every event's on the
    /// first pass, or when `None`) and the lists. Returns once they are served.
    pub async fn refresh(&self, changed: Option<HashSet<i64>>) -> anyhow::Result<()> {
        let Some(site) = self.site.clone() else {
            return Ok(());
        };
        let mut last = self.last.lock().await;
        let now = self.clock.now();
        let only = if last.is_some() { changed } else { None };
        let all = self.db.read(Events::query).await?;
        let published = self.published.clone();
        let paths = tokio::task::spawn_blocking(move || -> anyhow::Result<Vec<String>> {
            let site = site.get()?;
            let paths = events::sync(&site, &all, now, only.as_ref())?;
            published.serve_now(&paths);
            Ok(paths)
        })
        .await??;
        self.published.went_live(paths).await;
        *last = Some(now);
        Ok(())
    }

    /// The pass time makes: events whose start or RSVP deadline came since the last pass
    /// get their pages again (the form gives way to "This event has ended").
    pub async fn refresh_due(&self) {
        let since = *self.last.lock().await;
        let now = self.clock.now();
        let result = match since {
            None => self.refresh(None).await,
            Some(since) => {
                let (from, to) = (sql_time(since), sql_time(now));
                let due = self
                    .db
                    .read(move |c| {
                        c.prepare_cached(
                            "SELECT id FROM events WHERE status IN ('published', 'cancelled') AND \
                             ((starts_at > ?1 AND starts_at <= ?2) OR (rsvp_deadline > ?1 AND rsvp_deadline <= ?2))",
                        )?
                        .query_map([from, to], |r| r.get::<_, i64>(0))?
                        .collect::<rusqlite::Result<HashSet<i64>>>()
                    })
                    .await;
                match due {
                    Ok(ids) if ids.is_empty() => return,
                    Ok(ids) => self.refresh(Some(ids)).await,
                    Err(e) => Err(e.into()),
                }
            }
        };
        if let Err(e) = result {
            tracing::error!(error = %format!("{e:#}"), "the events' pages could not be brought up to date");
        }
    }
}
