//! `/blog/feed.xml`: an Atom feed of the [`FEED_SIZE`] newest posts with their full content,
//! rendered from the `feed.xml` template. Feed readers show the content away from the site,
//! so its links and images are made absolute.

use anyhow::Result;
use serde::Serialize;
use tera::Context;

use super::{Blog, FEED_FILE, FEED_SIZE, LIST_ROUTE, content_html, post_route};
use crate::site::Site;

/// The template, under `site/templates/`.
const TEMPLATE: &str = "feed.xml";

/// `updated` of a feed with no posts.
const EMPTY_UPDATED: &str = "2024-01-01T00:00:00.000Z";

/// One post in the feed.
#[derive(Debug, Serialize)]
struct Entry<'a> {
    title: &'a str,
    url: String,
    published: &'a str,
    updated: &'a str,
    author: &'a str,
    summary: Option<&'a str>,
    /// The content as published, links absolute.
    content: String,
}

/// The feed.
pub(super) fn render(site: &Site, blog: &Blog) -> Result<String> {
    let inputs = site.inputs();
    let config = &site.content.site;
    let newest = &blog.posts[..blog.posts.len().min(FEED_SIZE)];
    let updated = newest
        .iter()
        .map(|p| p.updated_at.as_str())
        .max()
        .unwrap_or(EMPTY_UPDATED);
    let entries = newest
        .iter()
        .map(|post| {
            let html = content_html(inputs.uploads, &post.content, &config.remote_image_hosts);
            Ok(Entry {
                title: &post.title,
                url: config.absolute_url(&post_route(&post.slug)),
                published: post.published(),
                updated: &post.updated_at,
                author: &post.author_name,
                summary: post.excerpt.as_deref(),
                content: absolute_links(&html, &config.url),
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let mut context = Context::new();
    context.insert("site", config);
    context.insert("subtitle", &site.content.blog.lead);
    context.insert("list_url", &config.absolute_url(LIST_ROUTE));
    context.insert("feed_url", &config.absolute_url(&format!("/{FEED_FILE}")));
    context.insert("updated", updated);
    context.insert("entries", &entries);
    site.render_template(TEMPLATE, &context)
}

/// Site-relative `src`/`srcset`/`href` made absolute, for feed readers elsewhere.
fn absolute_links(html: &str, origin: &str) -> String {
    html.replace("src=\"/", &format!("src=\"{origin}/"))
        .replace("href=\"/", &format!("href=\"{origin}/"))
        .replace("srcset=\"/", &format!("srcset=\"{origin}/"))
        .replace(", /", &format!(", {origin}/"))
}
