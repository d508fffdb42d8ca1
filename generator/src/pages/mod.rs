//! The site's pages: for each route, the template, its metadata and its data.

use anyhow::Result;
use serde::Serialize;
use serde_json::{Value, json};

use crate::content::{Category, Content, Meta};
use crate::donations;
use crate::forms::{self, Form};
use crate::media::{Media, Responsive};
use crate::policy;
use crate::seo::{self, PageMeta, SocialImage};

mod unlisted;

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
    /// Staff uploads (`DATA_DIR/uploads`), for blog images.
    pub uploads: &'a Media,
}

impl PageInputs<'_> {
    fn meta(&self, path: &str, meta: &Meta) -> PageMeta {
        self.meta_with_image(path, meta, None)
    }

    /// Metadata with its own social image, or the site's.
    pub fn meta_with_image(&self, path: &str, meta: &Meta, image: Option<SocialImage>) -> PageMeta {
        PageMeta::new(
            &self.content.site,
            path,
            meta,
            image.unwrap_or_else(|| self.social_image.clone()),
        )
    }

    /// Metadata with a schema.org page block of `kind` (WebPage, AboutPage, Blog…).
    pub fn web_page_meta(&self, path: &str, kind: &str, meta: &Meta) -> PageMeta {
        self.web_page(path, kind, meta)
    }

    /// Metadata with a schema.org page block of `kind` (WebPage, AboutPage, ContactPage).
    fn web_page(&self, path: &str, kind: &str, meta: &Meta) -> PageMeta {
        self.meta(path, meta)
            .with_json_ld(seo::web_page(&self.content.site, kind, path, meta))
    }

    /// Metadata with an Article block, for the long-form pages.
    fn article(&self, path: &str, title: &str, meta: &Meta) -> PageMeta {
        self.meta(path, meta).with_json_ld(seo::article(
            &self.content.site,
            path,
            title,
            meta,
            &self.logo_url,
        ))
    }

    fn page(
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
    Ok([
        home(inputs)?,
        leadership(inputs),
        issues(inputs),
        contact(inputs),
        take_action(inputs),
        donate(inputs),
        join(inputs),
        why_third_party(inputs),
        movement(inputs),
        privacy(inputs),
        not_found(inputs),
        unlisted::admin_shell(inputs),
        unlisted::notice_shell(inputs),
        unlisted::donate_card(inputs),
    ]
    .into_iter()
    .chain(
        forms::ALL
            .iter()
            .flat_map(|form| unlisted::form_pages(inputs, form)),
    )
    .collect())
}

fn home(inputs: &PageInputs) -> Result<Page> {
    let c = inputs.content;
    let meta = inputs
        .meta("/", &c.home.meta)
        .with_json_ld(seo::political_party(&c.site, &inputs.logo_url));
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
    Ok(inputs.page(
        "/",
        "pages/home.html",
        meta,
        vec![
            ("home", json!(c.home)),
            ("signup_props", json!(FormProps::newsletter("hero", c))),
            (
                "carousel_props",
                json!({ "cards": cards, "label": "Featured pages" }),
            ),
        ],
    ))
}

fn leadership(inputs: &PageInputs) -> Page {
    let c = inputs.content;
    let page = &c.leadership;
    let meta = inputs.web_page("/leadership", "AboutPage", &page.meta);
    let team = c.people.find(&page.team_card_id);
    let leaders: Vec<_> = c
        .people
        .in_category(Category::Leadership)
        .into_iter()
        .filter(|p| p.id != page.team_card_id)
        .collect();
    let candidates = c.people.in_category(Category::Candidates);
    inputs.page(
        "/leadership",
        "pages/leadership.html",
        meta,
        vec![
            ("leadership", json!(page)),
            ("team", json!(team)),
            ("leaders", json!(leaders)),
            ("candidates", json!(candidates)),
        ],
    )
}

fn issues(inputs: &PageInputs) -> Page {
    let c = inputs.content;
    let page = &c.issues;
    let meta = inputs.web_page("/issues", "WebPage", &page.meta);
    let issues: Vec<Value> = page
        .issues
        .iter()
        .map(|issue| {
            let mut v = json!(issue);
            v["pdf"] = json!(policy::issue_url(&c.site, issue));
            v
        })
        .collect();
    inputs.page(
        "/issues",
        "pages/issues.html",
        meta,
        vec![
            ("policies", json!(page)),
            ("issues", json!(issues)),
            ("platform_pdf", json!(policy::platform_url(&c.site))),
        ],
    )
}

fn contact(inputs: &PageInputs) -> Page {
    let c = inputs.content;
    let meta = inputs.web_page("/contact", "ContactPage", &c.contact.meta);
    inputs.page(
        "/contact",
        "pages/contact.html",
        meta,
        vec![
            ("contact", json!(c.contact)),
            (
                "form_props",
                json!(FormProps::new("contact", forms::CONTACT)),
            ),
        ],
    )
}

fn donate(inputs: &PageInputs) -> Page {
    let c = inputs.content;
    let meta = inputs.web_page("/donate", "WebPage", &c.donate.meta);
    inputs.page(
        "/donate",
        "pages/donate.html",
        meta,
        vec![
            ("donate", json!(c.donate)),
            (
                "flow_props",
                json!({
                    "idPrefix": "donate",
                    "rules": donations::props(&c.site.donations, &c.site.time_zone),
                    "copy": c.donate.form,
                }),
            ),
        ],
    )
}

fn take_action(inputs: &PageInputs) -> Page {
    let c = inputs.content;
    let page = &c.take_action;
    let meta = inputs.web_page("/take-action", "WebPage", &page.meta);
    inputs.page(
        "/take-action",
        "pages/take-action.html",
        meta,
        vec![
            ("action", json!(page)),
            (
                "form_props",
                json!(FormProps::new("volunteer", forms::VOLUNTEER)),
            ),
            // Filled in with the next events after the page is written (`events::sync`).
            (
                "next_events",
                json!(format!(
                    "{}{}",
                    crate::events::NEXT_START,
                    crate::events::NEXT_END
                )),
            ),
        ],
    )
}

fn join(inputs: &PageInputs) -> Page {
    let c = inputs.content;
    let a = &c.join;
    let meta = inputs.article("/join", &a.front.title, &a.front.meta);
    inputs.page(
        "/join",
        "pages/join.html",
        meta,
        vec![
            ("article", json!(a)),
            ("signup_props", json!(FormProps::newsletter("join", c))),
            ("signup_title", json!(c.home.signup.title)),
        ],
    )
}

fn why_third_party(inputs: &PageInputs) -> Page {
    let c = inputs.content;
    let a = &c.why_third_party;
    let path = "/why-third-party";
    let meta = inputs
        .article(path, &a.front.title, &a.front.meta)
        .with_json_ld(seo::faq_page(&c.site, path, &a.front.faq));
    inputs.page(
        path,
        "pages/why-third-party.html",
        meta,
        vec![("article", json!(a))],
    )
}

fn movement(inputs: &PageInputs) -> Page {
    let c = inputs.content;
    let a = &c.movement;
    let meta = inputs.article("/movement", &a.front.title, &a.front.meta);
    inputs.page(
        "/movement",
        "pages/movement.html",
        meta,
        vec![("article", json!(a))],
    )
}

fn privacy(inputs: &PageInputs) -> Page {
    let c = inputs.content;
    let a = &c.privacy;
    let path = "/privacy-policy";
    let meta = inputs.web_page(path, "WebPage", &a.front.meta);
    inputs.page(
        path,
        "pages/privacy-policy.html",
        meta,
        vec![("article", json!(a))],
    )
}

fn not_found(inputs: &PageInputs) -> Page {
    let page = &inputs.content.not_found;
    let mut meta = inputs.meta("/404", &page.meta);
    meta.noindex = true;
    Page {
        route: None,
        output: "404.html".into(),
        template: "pages/404.html",
        meta,
        data: vec![("not_found", json!(page))],
    }
}

/// The admin app's shell: the file the api answers `/admin`, `/admin/dashboard` and
/// `/admin/blog/…` with (`no-store`, `noindex`). A hidden path, which the static server
/// refuses, so only those answers ever carry it.
pub const ADMIN_SHELL: &str = ".admin/index.html";

/// Props of the form islands (NewsletterForm, ContactForm, VolunteerForm).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FormProps {
    /// Prefix for element ids, unique on the page.
    pub id_prefix: &'static str,
    /// The field rules the server enforces.
    pub form: Form,
    pub honeypot: &'static str,
    /// The newsletter form's box to agree to texts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub texts: Option<TextsProps>,
}

/// The texts box as the NewsletterForm island draws it.
#[derive(Debug, Serialize)]
pub struct TextsProps {
    pub label: String,
    /// The disclosure beside the box, as HTML from the party's own content.
    pub disclosure: String,
}

impl FormProps {
    pub fn new(id_prefix: &'static str, form: Form) -> FormProps {
        FormProps {
            id_prefix,
            form,
            honeypot: forms::HONEYPOT,
            texts: None,
        }
    }

    pub fn newsletter(id_prefix: &'static str, content: &Content) -> FormProps {
        FormProps {
            texts: Some(TextsProps {
                label: content.home.signup.texts.label.clone(),
                disclosure: content.home.signup.texts.disclosure_html(),
            }),
            ..FormProps::new(id_prefix, forms::NEWSLETTER)
        }
    }
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
