//! The list of posts, [`PAGE_SIZE`](super::PAGE_SIZE) a page with a pager, and the
//! blog's 404 page.

use serde::Serialize;
use serde_json::json;

use super::post::{display_date, image_html};
use super::{Blog, NOT_FOUND_FILE, list_route, post_route};
use crate::content::Meta;
use crate::output::html_path_for;
use crate::pages::{Page, PageInputs};

/// What a card's image fills: a card in the three-column grid.
const CARD_SIZES: &str = "(min-width: 1280px) 389px, (min-width: 1024px) calc((100vw - 7rem) / 3), (min-width: 640px) calc((100vw - 4.5rem) / 2), calc(100vw - 2rem)";

/// A card on the list.
#[derive(Debug, Serialize)]
struct Card {
    title: String,
    url: String,
    date: String,
    iso_date: String,
    excerpt: String,
    image: Option<String>,
}

/// List page `n`.
pub(super) fn list_page(inputs: &PageInputs, blog: &Blog, n: usize) -> Page {
    let c = inputs.content;
    let texts = &c.blog;
    let pages = blog.page_count();
    let route = list_route(n);
    let meta = if n == 1 {
        texts.meta.clone()
    } else {
        Meta {
            title: format!("{} | Page {n}", texts.meta.title),
            ..texts.meta.clone()
        }
    };
    let meta = inputs.web_page_meta(&route, "Blog", &meta);
    let cards: Vec<Card> = blog
        .page(n)
        .iter()
        .map(|post| Card {
            title: post.title.clone(),
            url: post_route(&post.slug),
            date: display_date(&c.site, post.published()),
            iso_date: post.published().to_owned(),
            excerpt: post
                .excerpt
                .clone()
                .unwrap_or_else(|| texts.excerpt_fallback.clone()),
            image: post.featured_image.as_deref().map(|url| {
                let alt = post.featured_image_alt.as_deref().unwrap_or(&post.title);
                image_html(
                    inputs.uploads,
                    url,
                    alt,
                    CARD_SIZES,
                    Some("aspect-[16/9] w-full object-cover"),
                )
            }),
        })
        .collect();
    let pager = json!({
        "page": n,
        "pages": pages,
        "previous": (n > 1).then(|| list_route(n - 1)),
        "next": (n < pages).then(|| list_route(n + 1)),
    });
    Page {
        route: Some(route.clone()),
        output: html_path_for(&route),
        template: "pages/blog-list.html",
        meta,
        data: vec![
            ("blog", json!(texts)),
            ("cards", json!(cards)),
            ("pager", pager),
            ("first_page", json!(n == 1)),
        ],
    }
}

/// What `/blog/{anything}` that is not a post shows, with status 404.
pub(super) fn not_found_page(inputs: &PageInputs) -> Page {
    let texts = &inputs.content.blog;
    let meta = Meta {
        title: format!("{} - {}", texts.not_found.title, inputs.content.site.name),
        description: texts.not_found.message.clone(),
        keywords: String::new(),
    };
    let mut meta = inputs.meta_with_image("/blog/404", &meta, None);
    meta.noindex = true;
    Page {
        route: None,
        output: NOT_FOUND_FILE.into(),
        template: "pages/blog-not-found.html",
        meta,
        data: vec![("blog", json!(texts))],
    }
}
