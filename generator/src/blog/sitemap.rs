//! The sitemaps, from the `sitemap.xml` and `sitemap-index.xml` templates: `sitemap.xml` is
//! an index of `sitemap-pages.xml` (every indexable page, the routes [`Site::static_routes`]
//! keeps, and the blog's list) and the posts' sitemaps, `blog/sitemap-{k}.xml`, each
//! [`SITEMAP_CHUNK`] posts with when they last changed. The posts' sitemaps are counted from
//! the oldest post, so a new post changes only the newest one (and the index's date for
//! it): a publish rewrites the same few files at 40 posts or 40,000.

use anyhow::Result;
use serde::Serialize;
use tera::Context;

use super::{Blog, LIST_ROUTE, Post, SITEMAP_PAGES_FILE, post_route, sitemap_chunk_file};
use crate::site::Site;

/// One address, with when it last changed where that is known.
#[derive(Debug, Serialize)]
struct Url {
    loc: String,
    /// W3C datetime to the second: "2025-01-05T14:03:00Z".
    lastmod: Option<String>,
}

/// A post's `updated_at` to the second, as the sitemap protocol writes dates.
fn lastmod(post: &Post) -> String {
    let second = post
        .updated_at
        .split('.')
        .next()
        .unwrap_or(&post.updated_at);
    format!("{}Z", second.trim_end_matches('Z'))
}

/// When the posts' sitemap `k` last changed: its latest `lastmod`. Compared by the
/// incremental rebuild to know whether the index must be written again.
pub(super) fn chunk_lastmod(blog: &Blog, k: usize) -> Option<String> {
    blog.sitemap_chunk(k).iter().map(|p| lastmod(p)).max()
}

fn render_urls(site: &Site, urls: &[Url]) -> Result<String> {
    let mut context = Context::new();
    context.insert("urls", urls);
    site.render_template("sitemap.xml", &context)
}

/// `sitemap.xml`: the index.
pub(super) fn render_index(site: &Site, blog: &Blog) -> Result<String> {
    let config = &site.content.site;
    let sitemaps: Vec<Url> = std::iter::once(Url {
        loc: config.absolute_url(&format!("/{SITEMAP_PAGES_FILE}")),
        lastmod: None,
    })
    .chain(std::iter::once(Url {
        loc: config.absolute_url(&format!("/{}", crate::events::SITEMAP_FILE)),
        lastmod: None,
    }))
    .chain((1..=blog.sitemap_chunks()).map(|k| Url {
        loc: config.absolute_url(&format!("/{}", sitemap_chunk_file(k))),
        lastmod: chunk_lastmod(blog, k),
    }))
    .collect();
    let mut context = Context::new();
    context.insert("sitemaps", &sitemaps);
    site.render_template("sitemap-index.xml", &context)
}

/// `sitemap-pages.xml`: every page that is not a post.
pub(super) fn render_pages(site: &Site) -> Result<String> {
    let config = &site.content.site;
    let urls: Vec<Url> = site
        .static_routes()
        .iter()
        .map(String::as_str)
        .chain([LIST_ROUTE])
        .map(|route| Url {
            loc: config.absolute_url(route),
            lastmod: None,
        })
        .collect();
    render_urls(site, &urls)
}

/// `blog/sitemap-{k}.xml`: the posts of sitemap `k`, newest first.
pub(super) fn render_chunk(site: &Site, blog: &Blog, k: usize) -> Result<String> {
    let config = &site.content.site;
    let urls: Vec<Url> = blog
        .sitemap_chunk(k)
        .iter()
        .map(|post| Url {
            loc: config.absolute_url(&post_route(&post.slug)),
            lastmod: Some(lastmod(post)),
        })
        .collect();
    render_urls(site, &urls)
}
