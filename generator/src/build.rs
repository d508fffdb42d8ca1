//! A full build, in stages: load content -> bundles and media -> render templates ->
//! render islands -> write.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context as _, Result};
use tera::Context;

use crate::assets::{self, Assets};
use crate::content::Content;
use crate::islands::{self, Islands, Renderer};
use crate::media::Media;
use crate::output::Output;
use crate::pages::{self, PageInputs};
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
    /// Resized images kept between builds.
    pub cache_dir: PathBuf,
    /// The output folder (`dist/`), emptied first.
    pub out_dir: PathBuf,
    /// Canonical origin; overrides `url` in site.yaml when set.
    pub site_url: Option<String>,
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
            site_url: None,
        }
    }

    /// The island renderer these options point at.
    pub fn node_renderer(&self) -> islands::NodeRenderer {
        islands::NodeRenderer {
            script: self.island_script.clone(),
            ssr_entry: self.ssr_entry.clone(),
        }
    }
}

/// What a build produced.
#[derive(Debug)]
pub struct Report {
    pub pages: usize,
    pub islands: usize,
}

/// Placed in `<head>` by base.html; replaced by the page's island preloads.
const PRELOAD_MARKER: &str = "<!--island-preloads-->";

/// Builds the whole site into `opts.out_dir`.
pub fn build(opts: &BuildOptions, renderer: &dyn Renderer) -> Result<Report> {
    let mut content = Content::load(&opts.content_dir)?;
    if let Some(url) = &opts.site_url {
        content.site.url = url.trim_end_matches('/').to_owned();
        content
            .site
            .validate()
            .map_err(|e| anyhow::anyhow!("SITE_URL: {e}"))?;
    }

    let output = Output::new(&opts.out_dir);
    output.clean()?;
    let assets = Arc::new(Assets::load(&opts.client_dir)?);
    assets::copy_client_files(&opts.client_dir, &output)?;
    let media = Arc::new(Media::new(
        content.media_dir(),
        opts.cache_dir.clone(),
        output.clone(),
    ));
    media.favicons()?;
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
    let inputs = PageInputs {
        content: &content,
        social_image: SocialImage {
            url: format!("{}{image_url}", content.site.url),
            width,
            height,
            alt: content.site.social_image_alt.clone(),
        },
        logo_url: format!("{}/icon-512.png", content.site.url),
        media: &media,
    };
    let pages = pages::all(&inputs)?;

    let copyright_years = content.site.copyright_years(build_year());
    let mut rendered = Vec::with_capacity(pages.len());
    for page in &pages {
        let mut ctx = Context::new();
        ctx.insert("site", &content.site);
        ctx.insert("copyright_years", &copyright_years);
        ctx.insert("page", &page.meta);
        ctx.insert("assets", assets.as_ref());
        for (key, value) in &page.data {
            ctx.insert(*key, value);
        }
        let html = templates::render(&tera, page.template, &ctx)
            .with_context(|| format!("while rendering {}", page.output))?;
        rendered.push(html);
    }

    let requests = islands.requests();
    let island_html = renderer.render(&requests)?;
    for (page, html) in pages.iter().zip(rendered) {
        let html = islands::fill(&html, &island_html)?;
        let preloads: String = assets
            .preloads(&islands::names_in(&html))
            .iter()
            // Low priority: fetched early, but after the stylesheet and the hero image, which
            // the first paint waits for (Lighthouse, mobile: the home page went from 99 or 100
            // to a steady 100 over five runs each).
            .map(|url| format!(r#"<link rel="modulepreload" fetchpriority="low" href="{url}">"#))
            .collect();
        output.write(
            &page.output,
            html.replacen(PRELOAD_MARKER, &preloads, 1).as_bytes(),
        )?;
    }
    output.write("robots.txt", robots(&content).as_bytes())?;
    output.write("sitemap.xml", pages::sitemap(&content, &pages).as_bytes())?;
    crate::policy::write_all(&content, &output)?;

    Ok(Report {
        pages: pages.len(),
        islands: requests.len(),
    })
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

fn robots(content: &Content) -> String {
    format!(
        "User-agent: *\nAllow: /\nDisallow: /admin\nDisallow: /api/\n\nSitemap: {}\n",
        content.site.absolute_url("/sitemap.xml")
    )
}
