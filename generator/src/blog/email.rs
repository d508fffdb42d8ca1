//! A post as the newsletter mails it: HTML that mail clients show as the site would (styles
//! inline, since most clients drop `<style>`; every link and image absolute; one image file
//! per picture, sized for a 600-pixel column, in JPEG or PNG, which every client shows), a
//! plain-text part, and the link to the post on the website (a plain newsletter has no page,
//! so no link). No tracking pixel, and links are the post's own: nothing is rewritten to
//! pass through us.
//!
//! The footer (who paid for it, the postal address, the recipient's own unsubscribe link)
//! differs per recipient, so it is not here: [`document`] puts a body and a footer together.

use anyhow::{Result, anyhow};
use lol_html::{RewriteStrSettings, element, rewrite_str};

use super::{Post, post_route};
use crate::media::Media;
use crate::site::Site;
use crate::templates::attr;

/// The column mail clients show, in CSS pixels.
const COLUMN: u32 = 600;
/// Pixels an image file should have across: twice the column, for sharp screens.
const SHARP: u32 = COLUMN * 2;
/// Plain text is wrapped at this width (RFC 5322's advice is under 78).
const TEXT_WIDTH: usize = 72;

const TEXT_STYLE: &str = "font-family: Georgia, 'Times New Roman', serif; font-size: 17px; line-height: 1.6; color: #1f2937";
const HEADING_STYLE: &str =
    "font-family: Helvetica, Arial, sans-serif; color: #111827; line-height: 1.3";
const LINK_STYLE: &str = "color: #1d4ed8; text-decoration: underline";

/// What is mailed for a post.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Email {
    /// The post's title: the subject unless staff choose another.
    pub title: String,
    /// The body: title, featured image, content and the website link (no `<html>` shell, no
    /// footer).
    pub html: String,
    /// The same as plain text, links listed at the end.
    pub text: String,
    /// The post's page; none for a plain newsletter, which is only mailed.
    pub url: Option<String>,
}

/// The mail of `post` (published or about to be, or a plain newsletter).
pub fn email(site: &Site, post: &Post) -> Result<Email> {
    let config = &site.content.site;
    let uploads = site.inputs().uploads;
    let url = (!post.is_newsletter()).then(|| config.absolute_url(&post_route(&post.slug)));
    let clean = crate::sanitize::clean(&post.content, &config.remote_image_hosts);
    let content = for_mail(uploads, &clean, &config.url)?;

    let mut html = String::with_capacity(content.len() + 1024);
    html.push_str(&format!(
        r#"<h1 style="{HEADING_STYLE}; font-size: 28px; margin: 0 0 16px">{}</h1>"#,
        attr(&post.title)
    ));
    if let Some(image) = post.featured_image.as_deref() {
        let alt = post.featured_image_alt.as_deref().unwrap_or("");
        html.push_str(&format!(
            r#"<p style="margin: 0 0 24px">{}</p>"#,
            image_tag(uploads, image, alt, &config.url)
        ));
    }
    html.push_str(&content);
    if let Some(url) = &url {
        html.push_str(&format!(
            r#"<p style="{TEXT_STYLE}; margin: 32px 0 0"><a href="{}" style="{LINK_STYLE}">View this post on the website</a></p>"#,
            attr(url)
        ));
    }

    let text_source = format!("<h1>{}</h1>{content}", attr(&post.title));
    let body = html2text::config::plain()
        .link_footnotes(true)
        .string_from_read(text_source.as_bytes(), TEXT_WIDTH)
        .map_err(|e| anyhow!("Failed to make the text of post {}: {e}", post.id))?;
    let text = match &url {
        Some(url) => format!(
            "{}\n\nView this post on the website: {url}\n",
            body.trim_end()
        ),
        None => format!("{}\n", body.trim_end()),
    };
    Ok(Email {
        title: post.title.clone(),
        html,
        text,
        url,
    })
}

/// A whole HTML message: `body` and `footer` in one centred column. `lang` and the title
/// help screen readers; the table is how a column stays a column in Outlook.
pub fn document(subject: &str, body: &str, footer: &str) -> String {
    format!(
        r#"<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>{title}</title></head><body style="margin: 0; padding: 0; background: #f3f4f6"><table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background: #f3f4f6"><tr><td align="center" style="padding: 24px 12px"><table role="presentation" width="{COLUMN}" cellpadding="0" cellspacing="0" style="width: 100%; max-width: {COLUMN}px; background: #ffffff"><tr><td style="padding: 32px 28px; {TEXT_STYLE}">{body}</td></tr><tr><td style="padding: 20px 28px; border-top: 1px solid #e5e7eb; font-family: Helvetica, Arial, sans-serif; font-size: 13px; line-height: 1.5; color: #4b5563">{footer}</td></tr></table></td></tr></table></body></html>"#,
        title = attr(subject)
    )
}

/// `html` (clean content) for mail: inline styles, absolute links, one image file each.
fn for_mail(uploads: &Media, html: &str, origin: &str) -> Result<String> {
    let style = |tag: &str| -> Option<String> {
        Some(match tag {
            "p" => format!("{TEXT_STYLE}; margin: 0 0 16px"),
            "h2" => format!("{HEADING_STYLE}; font-size: 22px; margin: 28px 0 12px"),
            "h3" | "h4" => format!("{HEADING_STYLE}; font-size: 18px; margin: 24px 0 8px"),
            "a" => LINK_STYLE.to_owned(),
            "blockquote" => "margin: 0 0 16px; padding: 0 0 0 16px; border-left: 4px solid #9ca3af; color: #374151".to_owned(),
            "ul" | "ol" => format!("{TEXT_STYLE}; margin: 0 0 16px; padding-left: 24px"),
            "li" => "margin: 0 0 6px".to_owned(),
            "pre" => "font-family: Menlo, Consolas, monospace; font-size: 14px; background: #f3f4f6; padding: 12px; white-space: pre-wrap".to_owned(),
            "hr" => "border: 0; border-top: 1px solid #e5e7eb; margin: 24px 0".to_owned(),
            "figure" => "margin: 0 0 16px".to_owned(),
            "figcaption" => "font-size: 14px; color: #4b5563".to_owned(),
            _ => return None,
        })
    };
    let styled = element!(
        "p, h2, h3, h4, a, blockquote, ul, ol, li, pre, hr, figure, figcaption",
        |el| {
            if let Some(css) = style(&el.tag_name()) {
                el.set_attribute("style", &css)?;
            }
            if let Some(href) = el.get_attribute("href") {
                el.set_attribute("href", &absolute(&href, origin))?;
            }
            Ok(())
        }
    );
    let images = element!("img[src]", |el| {
        let src = el.get_attribute("src").unwrap_or_default();
        let alt = el.get_attribute("alt").unwrap_or_default();
        el.replace(
            &image_tag(uploads, &src, &alt, origin),
            lol_html::html_content::ContentType::Html,
        );
        Ok(())
    });
    rewrite_str(
        html,
        RewriteStrSettings {
            element_content_handlers: vec![styled, images],
            ..RewriteStrSettings::new()
        },
    )
    .map_err(|e| anyhow!("Failed to make a post's HTML fit for mail: {e}"))
}

/// One `<img>` for mail: an upload's variant nearest [`SHARP`] pixels across (JPEG or PNG,
/// never WebP), shown at most [`COLUMN`] wide; any other image as it is, made absolute.
fn image_tag(uploads: &Media, src: &str, alt: &str, origin: &str) -> String {
    let style = "display: block; max-width: 100%; height: auto; border: 0";
    let upload = src
        .strip_prefix("/uploads/")
        .filter(|name| !name.ends_with(".gif"))
        .and_then(|name| uploads.responsive(&format!("uploads/{name}")).ok());
    match upload {
        Some(image) => {
            let chosen = variant(&image.srcset).unwrap_or((image.src.clone(), image.width));
            let shown = image.width.min(COLUMN);
            let height =
                (u64::from(image.height) * u64::from(shown) / u64::from(image.width.max(1))) as u32;
            format!(
                r#"<img src="{}" width="{shown}" height="{height}" alt="{}" style="{style}">"#,
                attr(&absolute(&chosen.0, origin)),
                attr(alt)
            )
        }
        None => format!(
            r#"<img src="{}" alt="{}" style="{style}">"#,
            attr(&absolute(src, origin)),
            attr(alt)
        ),
    }
}

/// `url` on `origin` when it is a path of the site.
fn absolute(url: &str, origin: &str) -> String {
    if url.starts_with('/') && !url.starts_with("//") {
        format!("{origin}{url}")
    } else {
        url.to_owned()
    }
}

/// From a srcset (`url 320w, url 640w, …`), the smallest variant at least [`SHARP`] wide, or
/// the widest there is.
fn variant(srcset: &str) -> Option<(String, u32)> {
    let mut candidates: Vec<(String, u32)> = srcset
        .split(',')
        .filter_map(|candidate| {
            let mut parts = candidate.split_whitespace();
            let url = parts.next()?;
            let width = parts.next()?.strip_suffix('w')?.parse().ok()?;
            Some((url.to_owned(), width))
        })
        .collect();
    candidates.sort_by_key(|(_, width)| *width);
    let sharp = candidates
        .iter()
        .find(|(_, width)| *width >= SHARP)
        .cloned();
    sharp.or_else(|| candidates.pop())
}

#[cfg(test)]
mod tests {
    use super::variant;

    #[test]
    fn the_variant_is_the_smallest_sharp_one_or_the_widest() {
        let set = "/media/a-480.jpg 480w, /media/a-1600.jpg 1600w, /media/a-1280.jpg 1280w";
        assert_eq!(variant(set), Some(("/media/a-1280.jpg".into(), 1280)));
        assert_eq!(
            variant("/media/b-320.png 320w, /media/b-640.png 640w"),
            Some(("/media/b-640.png".into(), 640))
        );
        assert_eq!(variant(""), None);
    }
}
