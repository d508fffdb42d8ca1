//! What pages are rendered with: where a build reads from and writes to ([`BuildOptions`]),
//! and the opened [`Site`]: content, templates, the client bundles' manifest and the image
//! pipelines. A full build (`crate::build`) and the api's blog rebuilds share it.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

use anyhow::{Context as _, Result};
use tera::{Context, Tera};

use crate::assets::Assets;
use crate::content::Content;
use crate::islands::{self, Islands};
use crate::media::Media;
use crate::output::Output;
use crate::pages::{self, Page, PageInputs};
use crate::seo::SocialImage;
use crate::templates::{self, Helpers};

/// Where a build reads from and writes to.
#[derive(Debug, Clone)]
pub struct BuildOptions {
    /// `content/`
    pub content_dir: PathBuf,
    /// `site/templates/`
    pub templates_dir: PathBuf,
    /// Vite's client build (with `.vite/manifest.json`).
    pub client_dir: PathBuf,
    /// Vite's server-side bundle of the islands.
    pub ssr_entry: PathBuf,
    /// The Node script that renders islands with `ssr_entry`.
    pub island_script: PathBuf,
    /// Resized images (and, in `compressed/`, the `.br`/`.gz` copies of bundles and pages)
    /// kept between builds.
    pub cache_dir: PathBuf,
    /// The output folder (`dist/`), emptied first.
    pub out_dir: PathBuf,
    /// `DATA_DIR`: the database with the blog posts (`site.db`, read only; none there means
    /// no posts) and the uploaded images they show (`uploads/`).
    pub data_dir: PathBuf,
    /// Canonical origin; overrides `url` in site.yaml when set.
    pub site_url: Option<String>,
    /// Make each written file durable before it replaces a live one (see
    /// [`Output::durable`]): the api's rebuilds, which replace pages being served. A full
    /// build writes into a folder nobody serves yet and skips the thousands of fsyncs.
    pub durable_writes: bool,
}

impl BuildOptions {
    /// The conventional layout of a project rooted at `root`.
    pub fn for_project(root: &Path) -> BuildOptions {
        BuildOptions {
            content_dir: root.join("content"),
            templates_dir: root.join("site/templates"),
            client_dir: root.join("build/client"),
            ssr_entry: root.join("build/ssr/ssr.js"),
            island_script: root.join("site/scripts/render-islands.mjs"),
            cache_dir: root.join("build/media-cache"),
            out_dir: root.join("dist"),
            data_dir: root.join("data"),
            site_url: None,
            durable_writes: false,
        }
    }

    /// The island renderer these options point at.
    pub fn node_renderer(&self) -> islands::NodeRenderer {
        islands::NodeRenderer {
            script: self.island_script.clone(),
            ssr_entry: self.ssr_entry.clone(),
        }
    }

    /// Where the `.br`/`.gz` copies of bundles and pages are kept between builds (beside the
    /// resized images).
    pub fn compression_cache(&self) -> PathBuf {
        self.cache_dir.join("compressed")
    }

    /// The database the blog posts are read from.
    pub fn database(&self) -> PathBuf {
        self.data_dir.join("site.db")
    }
}

/// Placed in `<head>` by base.html; replaced by the page's island preloads.
const PRELOAD_MARKER: &str = "<!--island-preloads-->";

/// Everything pages are rendered with: content, templates, the client bundles' manifest
/// and the image pipelines. Opening it writes nothing but image variants that are missing.
pub struct Site {
    pub content: Content,
    pub output: Output,
    tera: Tera,
    assets: Arc<Assets>,
    /// The party's images (the full build also makes the favicons with it).
    pub(crate) media: Arc<Media>,
    /// Staff uploads (`DATA_DIR/uploads/…`), made responsive like the party's own images.
    uploads: Media,
    /// The islands the rendered pages asked for (the full build renders them).
    pub(crate) islands: Arc<Islands>,
    social_image: SocialImage,
    logo_url: String,
    copyright_years: String,
    /// Routes of the pages that are not the blog's, for the sitemap.
    static_routes: Vec<String>,
    /// The feed's entries as last rendered, reused while their posts are unchanged.
    pub(crate) feed_entries: Rendered,
}

/// Pieces as last rendered, by id, each with the source it was made from: a render reuses a
/// piece whose source is unchanged, and keeps only what it used.
#[derive(Debug, Default)]
pub(crate) struct Rendered(Mutex<HashMap<i64, (String, Arc<String>)>>);

impl Rendered {
    pub(crate) fn lock(&self) -> MutexGuard<'_, HashMap<i64, (String, Arc<String>)>> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl Site {
    /// Loads content, templates and the client manifest for a site written to `opts.out_dir`.
    pub fn open(opts: &BuildOptions) -> Result<Site> {
        let mut content = Content::load(&opts.content_dir)?;
        if let Some(url) = &opts.site_url {
            content.site.url = url.trim_end_matches('/').to_owned();
            content
                .site
                .validate()
                .map_err(|e| anyhow::anyhow!("SITE_URL: {e}"))?;
        }
        let mut output = Output::new(&opts.out_dir).with_cache(opts.compression_cache());
        if opts.durable_writes {
            output = output.durable();
        }
        let assets = Arc::new(Assets::load(&opts.client_dir)?);
        let media = Arc::new(Media::new(
            content.media_dir(),
            opts.cache_dir.clone(),
            output.clone(),
        ));
        let uploads = Media::new(
            opts.data_dir.clone(),
            opts.cache_dir.clone(),
            output.clone(),
        );
        let islands = Arc::new(Islands::default());
        let tera = templates::load(
            &opts.templates_dir,
            Helpers {
                media: media.clone(),
                islands: islands.clone(),
                assets: assets.clone(),
            },
        )?;
        let (image_url, width, height) = media.sized(&content.site.social_image, 1200)?;
        let social_image = SocialImage {
            url: format!("{}{image_url}", content.site.url),
            width,
            height,
            alt: content.site.social_image_alt.clone(),
        };
        let logo_url = format!("{}/icon-512.png", content.site.url);
        let copyright_years = content.site.copyright_years(build_year());
        let mut site = Site {
            content,
            output,
            tera,
            assets,
            media,
            uploads,
            islands,
            social_image,
            logo_url,
            copyright_years,
            static_routes: Vec::new(),
            feed_entries: Default::default(),
        };
        site.static_routes = pages::all(&site.inputs())?
            .iter()
            .filter(|p| !p.meta.noindex)
            .filter_map(|p| p.route.clone())
            .collect();
        Ok(site)
    }

    /// What page builders need.
    pub fn inputs(&self) -> PageInputs<'_> {
        PageInputs {
            content: &self.content,
            social_image: self.social_image.clone(),
            logo_url: self.logo_url.clone(),
            media: &self.media,
            uploads: &self.uploads,
        }
    }

    /// Renders `page`'s template; islands are left as markers (see [`Site::finish`]).
    pub fn render(&self, page: &Page) -> Result<String> {
        let mut ctx = Context::new();
        ctx.insert("site", &self.content.site);
        ctx.insert("copyright_years", &self.copyright_years);
        ctx.insert("page", &page.meta);
        ctx.insert("assets", self.assets.as_ref());
        for (key, value) in &page.data {
            ctx.insert(*key, value);
        }
        templates::render(&self.tera, page.template, &ctx)
            .with_context(|| format!("while rendering {}", page.output))
    }

    /// Renders a template that is not a page (the blog's feed, the sitemap) with `context`
    /// alone: no layout, no site-wide values but those given.
    pub fn render_template(&self, template: &str, context: &Context) -> Result<String> {
        templates::render(&self.tera, template, context)
    }

    /// A rendered page with its islands' HTML filled in and their code preloaded.
    pub fn finish(&self, html: &str, island_html: &[String]) -> Result<String> {
        let html = islands::fill(html, island_html)?;
        let preloads: String = self
            .assets
            .preloads(&islands::names_in(&html))
            .iter()
            // Low priority: fetched early, but after the stylesheet and the hero image, which
            // the first paint waits for (Lighthouse, mobile: the home page went from 99 or 100
            // to a steady 100 over five runs each).
            .map(|url| format!(r#"<link rel="modulepreload" fetchpriority="low" href="{url}">"#))
            .collect();
        Ok(html.replacen(PRELOAD_MARKER, &preloads, 1))
    }

    /// Routes of every page but the blog's.
    pub fn static_routes(&self) -> &[String] {
        &self.static_routes
    }
}

/// The year of this build (UTC), or of `SOURCE_DATE_EPOCH` when set, so a reproducible
/// build of an old commit prints the year it was made.
fn build_year() -> i16 {
    let now = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.trim().parse::<i64>().ok())
        .and_then(|secs| jiff::Timestamp::from_second(secs).ok())
        .unwrap_or_else(jiff::Timestamp::now);
    now.to_zoned_datetime(jiff::tz::TimeZone::UTC).year()
}
