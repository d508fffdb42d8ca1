//! Search and sharing metadata for every page: title, description, canonical URL, Open
//! Graph and Twitter tags, and JSON-LD structured data.

use serde::Serialize;
use serde_json::{Value, json};

use crate::config::SiteConfig;
use crate::content::Meta;

/// The image social networks show for a page.
#[derive(Debug, Clone, Serialize)]
pub struct SocialImage {
    /// Absolute URL.
    pub url: String,
    pub width: u32,
    pub height: u32,
    pub alt: String,
}

/// Everything `base.html` puts in `<head>`.
#[derive(Debug, Clone, Serialize)]
pub struct PageMeta {
    /// Site path, e.g. `/contact`; decides the highlighted nav link.
    pub path: String,
    /// First segment of the path (`/blog` for `/blog/a-post`): the nav link to highlight.
    pub section: String,
    pub title: String,
    pub description: String,
    pub keywords: String,
    /// Absolute canonical URL.
    pub canonical: String,
    /// Open Graph type: `website` or `article`.
    pub og_type: &'static str,
    pub image: SocialImage,
    /// JSON-LD blocks, already escaped for a `<script>` element.
    pub json_ld: Vec<String>,
    /// Keeps the page out of search results (the 404 page).
    pub noindex: bool,
    /// For `og:type` article: when it was first published and last changed (UTC ISO-8601).
    pub published_time: Option<String>,
    pub modified_time: Option<String>,
}

impl PageMeta {
    pub fn new(site: &SiteConfig, path: &str, meta: &Meta, image: SocialImage) -> PageMeta {
        PageMeta {
            path: path.to_owned(),
            section: section_of(path),
            title: meta.title.clone(),
            description: meta.description.clone(),
            keywords: meta.keywords.clone(),
            canonical: site.absolute_url(path),
            og_type: "website",
            image,
            json_ld: Vec::new(),
            noindex: false,
            published_time: None,
            modified_time: None,
        }
    }

    /// Adds a structured-data block.
    pub fn with_json_ld(mut self, value: Value) -> PageMeta {
        self.json_ld.push(script_json(&value));
        self
    }
}

/// `/blog/a-post` -> `/blog`; `/` -> `/`.
pub fn section_of(path: &str) -> String {
    match path.trim_start_matches('/').split('/').next() {
        Some(first) if !first.is_empty() => format!("/{first}"),
        _ => "/".into(),
    }
}

/// Serialises JSON for a `<script>` element: `<`, `>` and `&` only ever occur inside JSON
/// strings, where their `\u` escapes mean the same, so no content can close the element.
pub fn script_json(value: &Value) -> String {
    serde_json::to_string(value)
        .expect("JSON values always serialise")
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
}

/// The party as a schema.org PoliticalParty, for the home page.
pub fn political_party(site: &SiteConfig, logo_url: &str) -> Value {
    json!({
        "@context": "https://schema.org",
        "@type": "PoliticalParty",
        "name": site.name,
        "alternateName": site.abbreviation,
        "url": site.absolute_url("/"),
        "logo": logo_url,
        "description": site.description,
        "foundingDate": site.founding_year.to_string(),
        "email": site.email,
        "sameAs": site.social.iter().map(|s| s.url.as_str()).collect::<Vec<_>>(),
        "contactPoint": {
            "@type": "ContactPoint",
            "contactType": "general inquiries",
            "email": site.email,
            "url": site.absolute_url("/contact"),
        },
    })
}

/// A plain schema.org page of `kind` (WebPage, AboutPage, ContactPage…).
pub fn web_page(site: &SiteConfig, kind: &str, path: &str, meta: &Meta) -> Value {
    json!({
        "@context": "https://schema.org",
        "@type": kind,
        "name": meta.title,
        "description": meta.description,
        "url": site.absolute_url(path),
        "isPartOf": {"@type": "WebSite", "name": site.name, "url": site.absolute_url("/")},
    })
}

/// An article written by the party, for the long-form pages.
pub fn article(
    site: &SiteConfig,
    path: &str,
    headline: &str,
    meta: &Meta,
    logo_url: &str,
) -> Value {
    let party = json!({"@type": "PoliticalParty", "name": site.name, "url": site.absolute_url("/"), "logo": logo_url});
    json!({
        "@context": "https://schema.org",
        "@type": "Article",
        "headline": headline,
        "description": meta.description,
        "url": site.absolute_url(path),
        "mainEntityOfPage": site.absolute_url(path),
        "author": party,
        "publisher": party,
    })
}

/// Questions and answers as a schema.org FAQPage.
pub fn faq_page(site: &SiteConfig, path: &str, faq: &[crate::content::Faq]) -> Value {
    json!({
        "@context": "https://schema.org",
        "@type": "FAQPage",
        "url": site.absolute_url(path),
        "mainEntity": faq.iter().map(|f| json!({
            "@type": "Question",
            "name": f.question,
            "acceptedAnswer": {"@type": "Answer", "text": f.answer},
        })).collect::<Vec<_>>(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_are_the_first_path_segment() {
        assert_eq!(section_of("/"), "/");
        assert_eq!(section_of("/contact"), "/contact");
        assert_eq!(section_of("/blog/a-post"), "/blog");
    }

    #[test]
    fn script_json_cannot_close_the_script_element() {
        let s = script_json(&json!({"name": "</script><script>alert(1)</script> & <!--"}));
        assert!(!s.contains('<') && !s.contains('>') && !s.contains('&'));
        let back: Value = serde_json::from_str(&s).unwrap();
        assert_eq!(back["name"], "</script><script>alert(1)</script> & <!--");
    }
}
