//! `/blog/feed.xml`: an Atom feed of the [`FEED_SIZE`] newest posts with their full content,
//! rendered from the `feed.xml` template. Feed readers show the content away from the site,
//! so its links and images are made absolute ([`absolute_links`]).

use std::collections::HashMap;
use std::sync::Arc;

use anyhow::{Result, anyhow};
use lol_html::{RewriteStrSettings, element, rewrite_str};
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
    content: &'a str,
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
    // Cleaning 20 posts' content and making their links absolute was most of a publish's
    // work; a post's entry depends only on its content and the site's settings, which a
    // [`Site`] never changes (and uploaded images are named by their bytes), so an unchanged
    // post's entry is reused.
    let contents = {
        let mut cached = site.feed_entries.lock();
        let mut kept = HashMap::with_capacity(newest.len());
        let contents = newest
            .iter()
            .map(|post| {
                let content = match cached.remove(&post.id) {
                    Some((source, html)) if source == post.content => html,
                    _ => {
                        let html =
                            content_html(inputs.uploads, &post.content, &config.remote_image_hosts);
                        Arc::new(absolute_links(&html, &config.url)?)
                    }
                };
                kept.insert(post.id, (post.content.clone(), content.clone()));
                Ok(content)
            })
            .collect::<Result<Vec<_>>>()?;
        // Only what this feed shows is kept: at most FEED_SIZE entries.
        *cached = kept;
        contents
    };
    let entries: Vec<Entry> = newest
        .iter()
        .zip(&contents)
        .map(|(post, content)| Entry {
            title: &post.title,
            url: config.absolute_url(&post_route(&post.slug)),
            published: post.published(),
            updated: &post.updated_at,
            author: &post.author_name,
            summary: post.excerpt.as_deref(),
            content,
        })
        .collect();
    let mut context = Context::new();
    context.insert("site", config);
    context.insert("subtitle", &site.content.blog.lead);
    context.insert("list_url", &config.absolute_url(LIST_ROUTE));
    context.insert("feed_url", &config.absolute_url(&format!("/{FEED_FILE}")));
    context.insert("updated", updated);
    context.insert("entries", &entries);
    site.render_template(TEMPLATE, &context)
}

/// `html` with its site-relative links (`href`, `src` and every `srcset` candidate that
/// starts with one `/`) made absolute on `origin`, for feed readers elsewhere. Only those
/// attributes change: text that looks like one, or an attribute that merely contains one, is
/// left as it is.
fn absolute_links(html: &str, origin: &str) -> Result<String> {
    let absolute = |url: &str| -> Option<String> {
        (url.starts_with('/') && !url.starts_with("//")).then(|| format!("{origin}{url}"))
    };
    let handler = element!("[href], [src], [srcset]", |el| {
        for name in ["href", "src"] {
            if let Some(url) = el.get_attribute(name).as_deref().and_then(absolute) {
                el.set_attribute(name, &url)?;
            }
        }
        if let Some(srcset) = el.get_attribute("srcset") {
            // Candidates are `url descriptor`, separated by commas.
            let rewritten: Vec<String> = srcset
                .split(',')
                .map(|candidate| {
                    let url_at = candidate.len() - candidate.trim_start().len();
                    let (space, rest) = candidate.split_at(url_at);
                    absolute(rest)
                        .map_or_else(|| candidate.to_owned(), |url| space.to_owned() + &url)
                })
                .collect();
            let rewritten = rewritten.join(",");
            if rewritten != srcset {
                el.set_attribute("srcset", &rewritten)?;
            }
        }
        Ok(())
    });
    rewrite_str(
        html,
        RewriteStrSettings {
            element_content_handlers: vec![handler],
            ..RewriteStrSettings::new()
        },
    )
    .map_err(|e| anyhow!("Failed to make the links of a post absolute: {e}"))
}

#[cfg(test)]
mod tests {
    use super::absolute_links;

    const ORIGIN: &str = "https://party.example";

    #[test]
    fn site_paths_in_links_and_images_become_absolute() {
        let html = r##"<p><a href="/issues">Issues</a> <a href="https://other.example/">x</a> <a href="#top">top</a></p><picture class="contents"><source type="image/webp" srcset="/media/a-320.1f.webp 320w, /media/a-640.1f.webp 640w" sizes="(min-width: 768px) 720px, calc(100vw - 2rem)"><img src="/media/a-640.1f.jpg" srcset="/media/a-320.1f.jpg 320w, /media/a-640.1f.jpg 640w" sizes="100vw" width="640" height="360" alt="A &quot;march&quot;" loading="lazy" decoding="async"></picture>"##;
        assert_eq!(
            absolute_links(html, ORIGIN).unwrap(),
            r##"<p><a href="https://party.example/issues">Issues</a> <a href="https://other.example/">x</a> <a href="#top">top</a></p><picture class="contents"><source type="image/webp" srcset="https://party.example/media/a-320.1f.webp 320w, https://party.example/media/a-640.1f.webp 640w" sizes="(min-width: 768px) 720px, calc(100vw - 2rem)"><img src="https://party.example/media/a-640.1f.jpg" srcset="https://party.example/media/a-320.1f.jpg 320w, https://party.example/media/a-640.1f.jpg 640w" sizes="100vw" width="640" height="360" alt="A &quot;march&quot;" loading="lazy" decoding="async"></picture>"##
        );
    }

    #[test]
    fn text_that_looks_like_a_link_is_left_alone() {
        // What the old string replacement changed: `", /` and `src="/` in a post's text, and
        // in an attribute that is not a link.
        let html = r#"<p>He said "yes", /then left. Write src="/x or href="/y, srcset="/z.</p><img src="/a.jpg" alt="a, /b and src=&quot;/c"><a href="/p?a=1&amp;b=2" title="see, /there">p</a>"#;
        assert_eq!(
            absolute_links(html, ORIGIN).unwrap(),
            r#"<p>He said "yes", /then left. Write src="/x or href="/y, srcset="/z.</p><img src="https://party.example/a.jpg" alt="a, /b and src=&quot;/c"><a href="https://party.example/p?a=1&amp;b=2" title="see, /there">p</a>"#
        );
        // Nothing to change: the same bytes.
        let plain = "<h2>Hi</h2><p>a, /b</p>";
        assert_eq!(absolute_links(plain, ORIGIN).unwrap(), plain);
    }
}
