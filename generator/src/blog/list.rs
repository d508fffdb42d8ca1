//! The list pages (`/blog` and the archive, [`PAGE_SIZE`] posts a page, with a pager) and
//! the blog's 404 page.

use std::sync::Arc;

use serde::Serialize;
use serde_json::json;

use super::post::{display_date, image_html};
use super::{Blog, LIST_ROUTE, NOT_FOUND_FILE, Post, archive_route, post_route};
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

/// Which list page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum List {
    /// `/blog`: the newest posts, under the featured articles.
    Front,
    /// `/blog/archive/{k}`.
    Archive(usize),
}

impl List {
    pub(super) fn route(self) -> String {
        match self {
            List::Front => LIST_ROUTE.to_owned(),
            List::Archive(k) => archive_route(k),
        }
    }

    /// The posts it shows, newest first.
    pub(super) fn posts(self, blog: &Blog) -> &[Arc<Post>] {
        match self {
            List::Front => blog.front(),
            List::Archive(k) => blog.archive(k),
        }
    }

    /// Where its pager's Previous (newer posts) and Next (older posts) lead: other list
    /// pages. Everything a list page shows is its posts, these two links and its place
    /// counted from the end (which never changes: see [`super::pages_css`]), so a page whose
    /// posts and links did not change has not changed.
    ///
    /// `/blog`'s Next is the newest archive page, whose Previous is `/blog`. Each page's
    /// links depend only on whether a newer page exists, so a new post never touches a page
    /// below the newest.
    pub(super) fn links(self, blog: &Blog) -> (Option<List>, Option<List>) {
        match self {
            List::Front => (
                None,
                (blog.archive_pages() > 0).then(|| List::Archive(blog.archive_pages())),
            ),
            List::Archive(k) => (
                Some(if k < blog.archive_pages() {
                    List::Archive(k + 1)
                } else {
                    List::Front
                }),
                (k > 1).then(|| List::Archive(k - 1)),
            ),
        }
    }
}

/// A list page.
pub(super) fn list_page(inputs: &PageInputs, blog: &Blog, list: List) -> Page {
    let c = inputs.content;
    let texts = &c.blog;
    let route = list.route();
    let posts = list.posts(blog);
    let cards: Vec<Card> = posts
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
    // An archive page names the dates it covers, in its title and under its number (which
    // comes from `blog/pages.css`, so a page that cannot load it still says where it is); a
    // page with one date names it once.
    let span = match (list, posts.last(), posts.first()) {
        (List::Archive(_), Some(oldest), Some(newest)) => {
            let (from, to) = (
                display_date(&c.site, oldest.published()),
                display_date(&c.site, newest.published()),
            );
            Some(if from == to {
                format!("Posts from {from}")
            } else {
                format!("Posts from {from} to {to}")
            })
        }
        _ => None,
    };
    let meta = match &span {
        Some(span) => Meta {
            title: format!("{} | {span}", texts.meta.title),
            ..texts.meta.clone()
        },
        None => texts.meta.clone(),
    };
    let meta = inputs.web_page_meta(&route, "Blog", &meta);
    let (previous, next) = list.links(blog);
    let (previous, next) = (previous.map(List::route), next.map(List::route));
    let pager = json!({
        "show": previous.is_some() || next.is_some(),
        "previous": previous,
        "next": next,
        "span": span,
        // Archive page `k` is the `k`th from the end; `/blog` is the first page.
        "from_end": match list {
            List::Front => None,
            List::Archive(k) => Some(k),
        },
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
            ("first_page", json!(list == List::Front)),
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
