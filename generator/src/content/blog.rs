//! `content/blog.yaml`: the blog's fixed parts (the posts come from the database).

use serde::{Deserialize, Serialize};

use super::{Meta, check_link_list};

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct BlogPage {
    /// The list page's metadata (page 2 onwards add "Page n").
    pub meta: Meta,
    /// A sentence under the "{abbreviation} Blog" header.
    pub lead: String,
    pub featured_heading: String,
    /// The fixed "Featured Articles" cards.
    pub featured: Vec<FeaturedCard>,
    pub recent_heading: String,
    /// A card's text when its post has no excerpt.
    pub excerpt_fallback: String,
    /// The list's empty state.
    pub empty_title: String,
    pub empty_text: String,
    /// The page for `/blog/{anything}` that is not a published post.
    pub not_found: BlogNotFound,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct FeaturedCard {
    pub title: String,
    pub description: String,
    /// Site path the card links to.
    pub href: String,
    /// Illustration, relative to `content/media`.
    pub image: String,
    pub image_alt: String,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct BlogNotFound {
    pub title: String,
    pub message: String,
}

impl BlogPage {
    pub(crate) fn validate(&self) -> Result<(), String> {
        check_link_list("featured", self.featured.iter().map(|c| c.href.as_str()))
    }
}
