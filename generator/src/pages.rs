//! The site's pages: for each route, the template, its metadata and its data.

use anyhow::Result;
use serde::Serialize;
use serde_json::{Value, json};

use crate::content::{Content, Meta};
use crate::forms;
use crate::media::{Media, Responsive};
use crate::seo::{self, PageMeta, SocialImage};

/// One page to render.
#[derive(Debug, Clone)]
pub struct Page {
    /// Site path (`/`, `/contact`), or `None` for the 404 page, which has no route.
    pub route: Option<String>,
    /// File written in the output folder.
    pub output: String,
    /// Template under `site/templates`.
    pub template: &'static str,
    pub meta: PageMeta,
    /// Extra template variables.
    pub data: Vec<(&'static str, Value)>,
}

/// Shared inputs for building pages.
pub struct PageInputs<'a> {
    pub content: &'a Content,
    /// The default social card.
    pub social_image: SocialImage,
    /// Absolute URL of the party's logo (structured data).
    pub logo_url: String,
    pub media: &'a Media,
}

impl PageInputs<'_> {
    fn meta(&self, path: &str, meta: &Meta) -> PageMeta {
        PageMeta::new(&self.content.site, path, meta, self.social_image.clone())
    }

    fn routed(
        &self,
        path: &str,
        template: &'static str,
        meta: PageMeta,
        data: Vec<(&'static str, Value)>,
    ) -> Page {
        Page {
            route: Some(path.to_owned()),
            output: crate::output::html_path_for(path),
            template,
            meta,
            data,
        }
    }
}

/// Every page of the static site.
pub fn all(inputs: &PageInputs) -> Result<Vec<Page>> {
    Ok(vec![home(inputs)?, not_found(inputs)])
}

fn home(inputs: &PageInputs) -> Result<Page> {
    let c = inputs.content;
    let meta = inputs
        .meta("/", &c.home.meta)
        .with_json_ld(seo::political_party(&c.site, &inputs.logo_url));
    let signup = NewsletterProps::new("hero", c);
    let cards = c
        .home
        .cards
        .iter()
        .map(|card| {
            Ok(CarouselCard {
                title: card.title.clone(),
                description: card.description.clone(),
                href: card.href.clone(),
                image_alt: card.image_alt.clone(),
                image: inputs.media.responsive(&card.image_url)?,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(inputs.routed(
        "/",
        "pages/home.html",
        meta,
        vec![
            ("home", json!(c.home)),
            ("signup_props", json!(signup)),
            (
                "carousel_props",
                json!({ "cards": cards, "label": "Featured pages" }),
            ),
        ],
    ))
}

/// A promo card as the PromoCarousel island receives it.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct CarouselCard {
    title: String,
    description: String,
    href: String,
    image_alt: String,
    image: Responsive,
}

fn not_found(inputs: &PageInputs) -> Page {
    let site = &inputs.content.site;
    let meta = Meta {
        title: format!("Page Not Found | {}", site.name),
        description: format!(
            "The page you are looking for does not exist on the {} website.",
            site.name
        ),
        keywords: String::new(),
    };
    let mut meta = inputs.meta("/404", &meta);
    meta.noindex = true;
    Page {
        route: None,
        output: "404.html".into(),
        template: "pages/404.html",
        meta,
        data: Vec::new(),
    }
}

/// Props of the NewsletterForm island.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NewsletterProps {
    /// Prefix for element ids, unique on the page.
    pub id_prefix: &'static str,
    pub consent: String,
    pub form: forms::Form,
    pub honeypot: &'static str,
}

impl NewsletterProps {
    pub fn new(id_prefix: &'static str, content: &Content) -> NewsletterProps {
        NewsletterProps {
            id_prefix,
            consent: content.home.signup.consent.clone(),
            form: forms::NEWSLETTER,
            honeypot: forms::HONEYPOT,
        }
    }
}
