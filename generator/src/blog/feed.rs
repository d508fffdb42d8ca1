//! `/blog/feed.xml`: an Atom feed of the [`FEED_SIZE`] newest posts with their full content.

use anyhow::Result;

use super::{Blog, FEED_FILE, FEED_SIZE, LIST_ROUTE, content_html, post_route};
use crate::site::Site;
use crate::templates::attr;

/// The Atom feed of the newest posts, with their full content.
pub(super) fn render(site: &Site, blog: &Blog) -> Result<String> {
    let inputs = site.inputs();
    let config = &site.content.site;
    let updated = blog
        .posts
        .iter()
        .take(FEED_SIZE)
        .map(|p| p.updated_at.as_str())
        .max()
        .unwrap_or("2024-01-01T00:00:00.000Z");
    let mut xml = format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\">\n  <title>{} Blog</title>\n  <subtitle>{}</subtitle>\n  <id>{}</id>\n  <link rel=\"alternate\" type=\"text/html\" href=\"{}\"/>\n  <link rel=\"self\" type=\"application/atom+xml\" href=\"{}\"/>\n  <updated>{}</updated>\n  <author><name>{}</name></author>\n",
        attr(&config.abbreviation),
        attr(&site.content.blog.lead),
        attr(&config.absolute_url(LIST_ROUTE)),
        attr(&config.absolute_url(LIST_ROUTE)),
        attr(&config.absolute_url(&format!("/{FEED_FILE}"))),
        attr(updated),
        attr(&config.name),
    );
    for post in blog.posts.iter().take(FEED_SIZE) {
        let url = config.absolute_url(&post_route(&post.slug));
        let content = absolute_links(
            &content_html(inputs.uploads, &post.content, &config.remote_image_hosts),
            &config.url,
        );
        xml.push_str(&format!(
            "  <entry>\n    <title>{}</title>\n    <id>{}</id>\n    <link rel=\"alternate\" type=\"text/html\" href=\"{}\"/>\n    <published>{}</published>\n    <updated>{}</updated>\n    <author><name>{}</name></author>\n",
            attr(&post.title),
            attr(&url),
            attr(&url),
            attr(post.published()),
            attr(&post.updated_at),
            attr(&post.author_name),
        ));
        if let Some(excerpt) = &post.excerpt {
            xml.push_str(&format!("    <summary>{}</summary>\n", attr(excerpt)));
        }
        xml.push_str(&format!(
            "    <content type=\"html\">{}</content>\n  </entry>\n",
            attr(&content)
        ));
    }
    xml.push_str("</feed>\n");
    Ok(xml)
}

/// Site-relative `src`/`srcset`/`href` made absolute, for feed readers elsewhere.
fn absolute_links(html: &str, origin: &str) -> String {
    html.replace("src=\"/", &format!("src=\"{origin}/"))
        .replace("href=\"/", &format!("href=\"{origin}/"))
        .replace("srcset=\"/", &format!("srcset=\"{origin}/"))
        .replace(", /", &format!(", {origin}/"))
}
