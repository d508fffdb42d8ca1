//! `sitemap.xml`, rendered from the `sitemap.xml` template: every indexable page of the site
//! (the routes [`Site::static_routes`] keeps) and the blog's list, then every post with when
//! it last changed. The blog writes it, since posts are what change it after a build.

use anyhow::Result;
use serde::Serialize;
use tera::Context;

use super::{Blog, LIST_ROUTE, post_route};
use crate::site::Site;

/// The template, under `site/templates/`.
const TEMPLATE: &str = "sitemap.xml";

/// A post's entry.
#[derive(Debug, Serialize)]
struct Entry {
    loc: String,
    /// W3C datetime to the second: "2025-01-05T14:03:00Z".
    lastmod: String,
}

/// The sitemap.
pub(super) fn render(site: &Site, blog: &Blog) -> Result<String> {
    let config = &site.content.site;
    let pages: Vec<String> = site
        .static_routes()
        .iter()
        .map(String::as_str)
        .chain([LIST_ROUTE])
        .map(|route| config.absolute_url(route))
        .collect();
    let posts: Vec<Entry> = blog
        .posts
        .iter()
        .map(|post| {
            let second = post
                .updated_at
                .split('.')
                .next()
                .unwrap_or(&post.updated_at);
            Entry {
                loc: config.absolute_url(&post_route(&post.slug)),
                lastmod: format!("{}Z", second.trim_end_matches('Z')),
            }
        })
        .collect();
    let mut context = Context::new();
    context.insert("pages", &pages);
    context.insert("posts", &posts);
    site.render_template(TEMPLATE, &context)
}
