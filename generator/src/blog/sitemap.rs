//! `sitemap.xml`: every indexable page of the site and the blog's list, then every post with
//! when it last changed. The blog writes it, since posts are what change it after a build.

use anyhow::Result;

use super::{Blog, LIST_ROUTE, post_route};
use crate::site::Site;
use crate::templates::attr;

/// `sitemap.xml`: every indexable page, and every post with when it last changed.
pub(super) fn render(site: &Site, blog: &Blog) -> Result<String> {
    let config = &site.content.site;
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    for route in site.static_routes() {
        xml.push_str(&format!(
            "  <url><loc>{}</loc></url>\n",
            attr(&config.absolute_url(route))
        ));
    }
    xml.push_str(&format!(
        "  <url><loc>{}</loc></url>\n",
        attr(&config.absolute_url(LIST_ROUTE))
    ));
    for post in &blog.posts {
        // W3C datetime to the second: "2025-01-05T14:03:00Z".
        let lastmod = post
            .updated_at
            .split('.')
            .next()
            .unwrap_or(&post.updated_at);
        xml.push_str(&format!(
            "  <url><loc>{}</loc><lastmod>{}Z</lastmod></url>\n",
            attr(&config.absolute_url(&post_route(&post.slug))),
            attr(lastmod.trim_end_matches('Z'))
        ));
    }
    xml.push_str("</urlset>\n");
    Ok(xml)
}
