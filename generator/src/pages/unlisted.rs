//! The pages that are not for search results or the sitemap: the admin app's shell, the
//! shell of the notices the server answers itself, a monthly donor's card page, and where
//! the forms land without JavaScript.

use serde_json::json;

use super::{ADMIN_SHELL, Page, PageInputs};
use crate::content::Meta;
use crate::donations;
use crate::form_pages;
use crate::forms::Form;

/// `/donate/card`: where a monthly donor whose card was declined saves another, from the
/// link mailed to them. Personal to whoever holds the link: not for search results or the
/// sitemap.
pub(super) fn donate_card(inputs: &PageInputs) -> Page {
    let c = inputs.content;
    let site = &c.site;
    let meta = Meta {
        title: format!("{} | {}", c.donate.card.title, site.abbreviation),
        description: format!(
            "Give another card for your monthly gift to the {}.",
            site.name
        ),
        keywords: String::new(),
    };
    let mut meta = inputs.meta("/donate/card", &meta);
    meta.noindex = true;
    Page {
        route: None,
        output: crate::output::html_path_for("/donate/card"),
        template: "pages/donate-card.html",
        meta,
        data: vec![
            ("donate", json!(c.donate)),
            (
                "card_props",
                json!({
                    "idPrefix": "card",
                    "copy": c.donate.card,
                    "texts": donations::TEXTS,
                    "timeZone": site.time_zone,
                }),
            ),
        ],
    }
}

/// The staff area's one page: the site's header and footer around the React app
/// (`site/src/admin/`), which loads only here. Not for search results or the sitemap.
pub(super) fn admin_shell(inputs: &PageInputs) -> Page {
    let site = &inputs.content.site;
    let meta = Meta {
        title: format!("Admin | {}", site.abbreviation),
        description: format!("The staff area of the {}.", site.name),
        keywords: String::new(),
    };
    let mut meta = inputs.meta("/admin", &meta);
    meta.noindex = true;
    Page {
        route: None,
        output: ADMIN_SHELL.into(),
        template: "pages/admin.html",
        meta,
        data: vec![],
    }
}

/// The shell of the short pages the server answers itself (a newsletter link's Confirm and
/// Unsubscribe pages, and what they say after): the site's layout with markers for the title
/// and the content (see [`crate::notices`]). Not for search results.
pub(super) fn notice_shell(inputs: &PageInputs) -> Page {
    let site = &inputs.content.site;
    let meta = Meta {
        title: format!("{} | {}", crate::notices::NOTICE_TITLE, site.abbreviation),
        description: format!("A message from the {}.", site.name),
        keywords: String::new(),
    };
    let mut meta = inputs.meta("/", &meta);
    meta.noindex = true;
    Page {
        route: None,
        output: crate::notices::NOTICE_SHELL.into(),
        template: "pages/notice.html",
        meta,
        data: vec![
            ("title", json!(crate::notices::NOTICE_TITLE)),
            ("marker", json!(crate::notices::NOTICE_MARKER)),
        ],
    }
}

/// A form's thank-you page and its problem-page shell: where it lands when posted without
/// JavaScript. Neither belongs in search results.
pub(super) fn form_pages(inputs: &PageInputs, form: &Form) -> [Page; 2] {
    let site = &inputs.content.site;
    let page = |route: Option<String>, output: String, template, title: &str, description: &str| {
        let meta = Meta {
            title: format!("{title} | {}", site.abbreviation),
            description: description.to_owned(),
            keywords: String::new(),
        };
        let path = route.clone().unwrap_or_else(|| form.home.to_owned());
        let mut meta = inputs.meta(&path, &meta);
        meta.noindex = true;
        Page {
            route,
            output,
            template,
            meta,
            data: vec![
                ("form", json!(form)),
                ("marker", json!(form_pages::PROBLEM_MARKER)),
            ],
        }
    };
    let thanks = form_pages::thank_you_url(form);
    [
        page(
            Some(thanks.clone()),
            crate::output::html_path_for(&thanks),
            "pages/form-sent.html",
            form.texts.success_title,
            form.texts.success_description,
        ),
        page(
            None,
            form_pages::problem_shell(form),
            "pages/form-problem.html",
            form.texts.failure_title,
            form.texts.failure_fallback,
        ),
    ]
}
