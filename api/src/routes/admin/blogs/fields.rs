//! What a save sends (`Input`) and what it writes, checked and cleaned (`Fields`).

use generator::blog::{Post, store};
use generator::{sanitize, slug};
use serde::{Deserialize, Deserializer};

use super::{
    ALT_MAX, AUTHOR_MAX, CONTENT_MAX_BYTES, EXCERPT_MAX, IMAGE_URL_MAX, KEYWORDS_MAX,
    SLUG_INPUT_MAX, TITLE_MAX,
};
use crate::http::error::ApiError;

/// `Some(value)` for a key that was sent (even as `null`), `None` for one that was not: an
/// update changes only what it sends.
fn sent<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Option<String>>, D::Error> {
    Option::<String>::deserialize(d).map(Some)
}

/// The body of `POST /api/admin/blogs` and `PATCH /api/admin/blogs/{id}` (spec §7).
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(super) struct Input {
    #[serde(default, deserialize_with = "sent")]
    pub(super) title: Option<Option<String>>,
    #[serde(default, deserialize_with = "sent")]
    pub(super) slug: Option<Option<String>>,
    #[serde(default, deserialize_with = "sent")]
    pub(super) content: Option<Option<String>>,
    #[serde(default, deserialize_with = "sent")]
    pub(super) excerpt: Option<Option<String>>,
    #[serde(default, deserialize_with = "sent")]
    pub(super) keywords: Option<Option<String>>,
    #[serde(default, deserialize_with = "sent")]
    pub(super) featured_image: Option<Option<String>>,
    #[serde(default, deserialize_with = "sent")]
    pub(super) featured_image_alt: Option<Option<String>>,
    #[serde(default, deserialize_with = "sent")]
    pub(super) author_name: Option<Option<String>>,
    #[serde(default, deserialize_with = "sent")]
    pub(super) status: Option<Option<String>>,
    /// `post` (the default) or `newsletter`, chosen when it is made: a newsletter is only
    /// ever mailed to the list. A save of a stored one may send it unchanged.
    #[serde(default)]
    pub(super) kind: Option<String>,
    /// The version of the post the edit started from (see `Post::version`); a save without
    /// it is taken whatever the stored version is.
    #[serde(default)]
    pub(super) version: Option<i64>,
}

/// What a save writes, checked and cleaned.
#[derive(Debug, Clone)]
pub(super) struct Fields {
    pub(super) title: String,
    /// The slug asked for, normalised: `None` (not sent) keeps a post's slug, or makes one
    /// from the title for a new post; `Some("")` (sent empty) makes one from the title.
    pub(super) slug: Option<String>,
    pub(super) content: String,
    pub(super) excerpt: Option<String>,
    pub(super) keywords: Option<String>,
    pub(super) featured_image: Option<String>,
    pub(super) featured_image_alt: Option<String>,
    pub(super) author_name: String,
    pub(super) status: String,
    pub(super) kind: String,
}

/// `value` trimmed, `None` when empty, or a `400` naming `field` when over `max` characters.
fn optional(field: &str, value: Option<String>, max: usize) -> Result<Option<String>, ApiError> {
    let value = value.map(|v| v.trim().to_owned()).filter(|v| !v.is_empty());
    match value {
        Some(v) if v.chars().count() > max => Err(ApiError::BadRequest(format!(
            "{field} must be at most {max} characters."
        ))),
        v => Ok(v),
    }
}

impl Fields {
    /// Whether saving these fields changes what a reader sees of `post`: its title,
    /// excerpt, content, featured image or alt text (what a revision keeps).
    pub(super) fn changes_text_of(&self, post: &Post) -> bool {
        self.title != post.title
            || self.excerpt != post.excerpt
            || self.content != post.content
            || self.featured_image != post.featured_image
            || self.featured_image_alt != post.featured_image_alt
    }

    /// What a save writes, with the slug it found.
    pub(super) fn edit<'a>(&'a self, slug: &'a str) -> store::Edit<'a> {
        store::Edit {
            title: &self.title,
            slug,
            excerpt: self.excerpt.as_deref(),
            content: &self.content,
            featured_image: self.featured_image.as_deref(),
            featured_image_alt: self.featured_image_alt.as_deref(),
            keywords: self.keywords.as_deref(),
            author_name: &self.author_name,
            status: &self.status,
        }
    }

    /// The fields of a new post, or of `existing` changed by `input`.
    pub(super) fn merge(
        input: Input,
        existing: Option<&Post>,
        site: &generator::config::SiteConfig,
    ) -> Result<Fields, ApiError> {
        let default_author = site.default_author.as_str();
        // A key that was not sent keeps the stored value; a new post starts empty.
        let pick = |sent: Option<Option<String>>, stored: Option<&str>| match sent {
            Some(value) => value,
            None => stored.map(str::to_owned),
        };
        let title = optional(
            "title",
            pick(input.title, existing.map(|p| p.title.as_str())),
            TITLE_MAX,
        )?
        .unwrap_or_else(|| "Untitled".into());
        let slug_asked = match input.slug {
            None => None,
            Some(sent) => Some(optional("slug", sent, SLUG_INPUT_MAX)?.unwrap_or_default()),
        };
        let content = pick(input.content, existing.map(|p| p.content.as_str())).unwrap_or_default();
        if content.len() > CONTENT_MAX_BYTES {
            return Err(ApiError::BadRequest("content must be at most 1 MB.".into()));
        }
        let excerpt = optional(
            "excerpt",
            pick(input.excerpt, existing.and_then(|p| p.excerpt.as_deref())),
            EXCERPT_MAX,
        )?;
        let keywords = optional(
            "keywords",
            pick(input.keywords, existing.and_then(|p| p.keywords.as_deref())),
            KEYWORDS_MAX,
        )?;
        let featured_image = optional(
            "featuredImage",
            pick(
                input.featured_image,
                existing.and_then(|p| p.featured_image.as_deref()),
            ),
            IMAGE_URL_MAX,
        )?;
        if let Some(url) = &featured_image {
            // The one rule for any image a post shows: the sanitiser's.
            let kept = sanitize::clean(
                &format!("<img src=\"{}\">", url.replace('"', "&quot;")),
                &site.remote_image_hosts,
            ) == format!("<img src=\"{url}\">");
            if !kept
                || url
                    .chars()
                    .any(|c| c.is_whitespace() || c == '"' || c == '<' || c == '&')
            {
                return Err(ApiError::BadRequest(
                    "featuredImage must be an uploaded image (/uploads/…), or an https image from a host the site allows."
                        .into(),
                ));
            }
        }
        let featured_image_alt = optional(
            "featuredImageAlt",
            pick(
                input.featured_image_alt,
                existing.and_then(|p| p.featured_image_alt.as_deref()),
            ),
            ALT_MAX,
        )?;
        let author_name = optional(
            "authorName",
            pick(input.author_name, existing.map(|p| p.author_name.as_str())),
            AUTHOR_MAX,
        )?
        .unwrap_or_else(|| default_author.to_owned());
        let status = pick(input.status, existing.map(|p| p.status.as_str()))
            .unwrap_or_else(|| "draft".into());
        if !matches!(status.as_str(), "draft" | "published" | "scheduled") {
            return Err(ApiError::BadRequest(
                "status must be draft, published or scheduled.".into(),
            ));
        }
        // A schedule needs its time: it is set through the schedule route, and a save only
        // keeps it.
        if status == "scheduled" && existing.is_none_or(|p| p.status != "scheduled") {
            return Err(ApiError::BadRequest(
                "To schedule a post, save it and then choose its time with Schedule.".into(),
            ));
        }
        let kind = match (input.kind.as_deref(), existing) {
            (None, None) => "post".to_owned(),
            (None, Some(post)) => post.kind.clone(),
            (Some(kind @ ("post" | store::NEWSLETTER)), None) => kind.to_owned(),
            (Some(kind), Some(post)) if kind == post.kind => kind.to_owned(),
            (Some("post" | store::NEWSLETTER), Some(_)) => {
                return Err(ApiError::BadRequest(
                    "A post cannot become a newsletter, nor a newsletter a post: start a new one."
                        .into(),
                ));
            }
            (Some(_), _) => {
                return Err(ApiError::BadRequest(
                    "kind must be post or newsletter.".into(),
                ));
            }
        };
        if kind == store::NEWSLETTER && status != "draft" {
            return Err(ApiError::BadRequest(NOT_ON_THE_WEBSITE.into()));
        }
        Ok(Fields {
            title,
            slug: slug_asked.map(|s| slug::slugify(&s)),
            content: sanitize::clean(&content, &site.remote_image_hosts),
            excerpt,
            keywords,
            featured_image,
            featured_image_alt,
            author_name,
            status,
            kind,
        })
    }
}

/// Why a plain newsletter cannot be published or scheduled.
pub(super) const NOT_ON_THE_WEBSITE: &str =
    "A newsletter is not published on the website: save it as a draft, then send it by e-mail.";
