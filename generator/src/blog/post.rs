//! A post's page (and its preview for staff): the post's content as published, its images
//! (responsive when they are uploads), its description, metadata and social card.

use std::collections::HashMap;

use anyhow::Result;
use serde_json::json;

use super::{Post, post_route};
use crate::content::Meta;
use crate::media::Media;
use crate::output::html_path_for;
use crate::pages::{Page, PageInputs};
use crate::seo::SocialImage;
use crate::site::Site;
use crate::templates::{attr, picture};

/// What a post's images fill: the post's column.
const POST_SIZES: &str = "(min-width: 768px) 720px, calc(100vw - 2rem)";

/// A date as the spec shows it: "January 5, 2025", in the party's time zone.
pub fn display_date(site: &crate::config::SiteConfig, utc: &str) -> String {
    utc.parse::<jiff::Timestamp>()
        .map(|t| {
            t.to_zoned_datetime(site.tz())
                .strftime("%B %-d, %Y")
                .to_string()
        })
        .unwrap_or_default()
}

/// The text of some HTML, tags removed and whitespace collapsed.
pub fn plain_text(html: &str) -> String {
    let mut text = String::with_capacity(html.len());
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => {
                in_tag = true;
                text.push(' ');
            }
            '>' if in_tag => in_tag = false,
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    let text = text
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&nbsp;", " ")
        .replace("&amp;", "&");
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// At most `max` characters of `text`, cut at a word with "…" when it had to be cut.
fn clip(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let cut: String = text.chars().take(max - 1).collect();
    let cut = match cut.rfind(' ') {
        Some(space) if space > max / 2 => &cut[..space],
        _ => &cut,
    };
    format!("{}…", cut.trim_end_matches([',', ';', ':', '.', ' ']))
}

/// An uploaded image's name in the uploads pipeline (`uploads/ab12….jpg`), if `url` is one.
fn upload_name(url: &str) -> Option<String> {
    let name = url.strip_prefix("/uploads/")?;
    let ok = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-' || c == '_')
        && !name.starts_with('.');
    ok.then(|| format!("uploads/{name}"))
}

/// An image for a post: responsive when it is one of our uploads (GIFs as they are, to keep
/// their animation), else a plain lazy image. `class` styles the image.
pub(super) fn image_html(
    uploads: &Media,
    url: &str,
    alt: &str,
    sizes: &str,
    class: Option<&str>,
) -> String {
    let class_attr = class
        .map(|c| format!(r#" class="{}""#, attr(c)))
        .unwrap_or_default();
    if let Some(name) = upload_name(url) {
        let path = uploads.source(&name);
        if name.ends_with(".gif") {
            if let Ok((w, h)) = image::image_dimensions(&path) {
                return format!(
                    r#"<img src="{}" width="{w}" height="{h}" alt="{}" loading="lazy" decoding="async"{class_attr}>"#,
                    attr(url),
                    attr(alt)
                );
            }
        } else if let Ok(image) = uploads.responsive(&name) {
            return picture(&image, alt, sizes, class, false);
        }
    }
    format!(
        r#"<img src="{}" alt="{}" loading="lazy" decoding="async"{class_attr}>"#,
        attr(url),
        attr(alt)
    )
}

/// The post's content as published: cleaned with the one allowlist (images from `uploads`
/// or the site's `image_hosts`), then every image given its real size (and, for uploads,
/// every width in WebP) and told to load lazily.
pub fn content_html(uploads: &Media, html: &str, image_hosts: &[String]) -> String {
    let clean = crate::sanitize::clean(html, image_hosts);
    let mut out = String::with_capacity(clean.len() + 256);
    let mut rest = clean.as_str();
    while let Some(start) = rest.find("<img ") {
        out.push_str(&rest[..start]);
        let Some(len) = rest[start..].find('>') else {
            break;
        };
        let tag = &rest[start..start + len + 1];
        let attrs = attributes(tag);
        match attrs.get("src") {
            Some(src) => {
                let alt = attrs.get("alt").map_or("", String::as_str);
                out.push_str(&image_html(
                    uploads,
                    src,
                    alt,
                    POST_SIZES,
                    Some("h-auto w-full rounded-lg"),
                ));
            }
            None => out.push_str(tag),
        }
        rest = &rest[start + len + 1..];
    }
    out.push_str(rest);
    out
}

/// The attributes of a tag as the sanitiser writes it (`name="value"`, values escaped).
fn attributes(tag: &str) -> HashMap<String, String> {
    let mut found = HashMap::new();
    let mut rest = tag;
    while let Some(eq) = rest.find("=\"") {
        let name = rest[..eq].rsplit(' ').next().unwrap_or("").to_owned();
        let value_start = eq + 2;
        let Some(value_len) = rest[value_start..].find('"') else {
            break;
        };
        let value = rest[value_start..value_start + value_len]
            .replace("&quot;", "\"")
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&amp;", "&");
        found.insert(name, value);
        rest = &rest[value_start + value_len + 1..];
    }
    found
}

/// The page of one post.
pub(super) fn post_page(inputs: &PageInputs, post: &Post) -> Page {
    let c = inputs.content;
    let site = &c.site;
    let route = post_route(&post.slug);
    let content = content_html(inputs.uploads, &post.content, &site.remote_image_hosts);
    let description = post
        .excerpt
        .clone()
        .unwrap_or_else(|| clip(&plain_text(&content), 160));
    let meta = Meta {
        title: format!("{} - {}", post.title, site.name),
        description: description.clone(),
        keywords: post
            .keywords
            .clone()
            .unwrap_or_else(|| c.blog.meta.keywords.clone()),
    };
    let image = post
        .featured_image
        .as_deref()
        .map(|url| social_image(inputs, post, url));
    let mut page_meta = inputs.meta_with_image(&route, &meta, image.clone());
    page_meta.og_type = "article";
    page_meta.published_time = Some(post.published().to_owned());
    page_meta.modified_time = Some(post.updated_at.clone());
    let party = json!({"@type": "PoliticalParty", "name": site.name, "url": site.absolute_url("/"),
                       "logo": {"@type": "ImageObject", "url": inputs.logo_url}});
    let page_meta = page_meta.with_json_ld(json!({
        "@context": "https://schema.org",
        "@type": "BlogPosting",
        "headline": post.title,
        "description": description,
        "image": image.as_ref().map_or(inputs.social_image.url.clone(), |i| i.url.clone()),
        "datePublished": post.published(),
        "dateModified": post.updated_at,
        "author": {"@type": "Person", "name": post.author_name},
        "publisher": party,
        "mainEntityOfPage": {"@type": "WebPage", "@id": site.absolute_url(&route)},
        "url": site.absolute_url(&route),
    }));
    let featured = post.featured_image.as_deref().map(|url| {
        let alt = post
            .featured_image_alt
            .as_deref()
            .filter(|a| !a.is_empty())
            .unwrap_or(&post.title);
        image_html(
            inputs.uploads,
            url,
            alt,
            POST_SIZES,
            Some("h-auto w-full rounded-2xl"),
        )
    });
    Page {
        route: Some(route.clone()),
        output: html_path_for(&route),
        template: "pages/blog-post.html",
        meta: page_meta,
        data: vec![
            ("post", json!(post.public())),
            ("date", json!(display_date(site, post.published()))),
            ("featured", json!(featured)),
            ("content", json!(content)),
        ],
    }
}

/// The page `post` will have at `/blog/{slug}` once published, rendered now with the same
/// template and the same cleaning, for staff to preview: marked `noindex`, and written
/// nowhere (the api hands it out once).
pub fn preview_html(site: &Site, post: &Post) -> Result<String> {
    let mut page = post_page(&site.inputs(), post);
    page.meta.noindex = true;
    site.finish(&site.render(&page)?, &[])
}

/// The social card of a post with a featured image: an upload at 1200 px, or the URL.
fn social_image(inputs: &PageInputs, post: &Post, url: &str) -> SocialImage {
    let site = &inputs.content.site;
    let alt = post
        .featured_image_alt
        .clone()
        .unwrap_or_else(|| post.title.clone());
    if let Some(name) = upload_name(url).filter(|n| !n.ends_with(".gif"))
        && let Ok((path, width, height)) = inputs.uploads.sized(&name, 1200)
    {
        return SocialImage {
            url: format!("{}{path}", site.url),
            width,
            height,
            alt,
        };
    }
    let absolute = if url.starts_with('/') {
        format!("{}{url}", site.url)
    } else {
        url.to_owned()
    };
    SocialImage {
        url: absolute,
        width: 0,
        height: 0,
        alt,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptions_come_from_the_text_cut_at_a_word() {
        let text = plain_text("<h2>Hello &amp; welcome</h2><p>We <strong>march</strong> on.</p>");
        assert_eq!(text, "Hello & welcome We march on.");
        let long = "word ".repeat(60);
        let clipped = clip(&long, 160);
        assert!(
            clipped.chars().count() <= 160 && clipped.ends_with('…'),
            "{clipped}"
        );
        assert_eq!(clip("short", 160), "short");
    }

    #[test]
    fn upload_names_are_checked() {
        assert_eq!(
            upload_name("/uploads/0123abcd.jpg").as_deref(),
            Some("uploads/0123abcd.jpg")
        );
        assert_eq!(upload_name("/uploads/../site.db"), None);
        assert_eq!(upload_name("/uploads/.hidden"), None);
        assert_eq!(upload_name("https://x.example/a.jpg"), None);
    }

    #[test]
    fn attributes_are_read_back_from_sanitised_tags() {
        let a = attributes(r#"<img src="/uploads/a.jpg" alt="A &quot;quoted&quot; &amp; more">"#);
        assert_eq!(a["src"], "/uploads/a.jpg");
        assert_eq!(a["alt"], r#"A "quoted" & more"#);
    }
}
