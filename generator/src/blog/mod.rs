//! The blog: published posts from the database, rendered by Tera into static pages like
//! every other page (no islands, nothing fetched in the browser).
//!
//! - `/blog` and `/blog/page/{n}`: the list, [`PAGE_SIZE`] posts a page, newest first;
//! - `/blog/{slug}`: one post; `blog/404.html`: what any other `/blog/…` path shows;
//! - `/blog/feed.xml`: an Atom feed of the [`FEED_SIZE`] newest posts; `sitemap.xml`.
//!
//! A full build writes all of it ([`write_all`]). When staff change posts, the api asks
//! [`changes`] for exactly the files that differ between the blog before and after, and
//! writes those: both paths render and write with the same functions, so they produce the
//! same bytes.
//!
//! - [`store`]: every query on the posts (the one [`Post`] type, the one "published" rule);
//!   [`revisions`]: their earlier versions, for staff;
//! - `list`: the list pages and the blog's 404 page; `post`: a post's page, its content and
//!   images; `feed` and `sitemap`: the XML files, from `feed.xml` and `sitemap.xml`;
//! - `changes`: which files a change of the posts touches, and writing them.

mod changes;
mod feed;
mod list;
mod post;
pub mod revisions;
mod sitemap;
pub mod store;

pub use changes::{Changes, changes, referenced_uploads, sync, write_all};
pub use post::{content_html, display_date, plain_text, preview_html};
pub use store::{Post, PublicPost};

/// Posts on a list page (spec §9).
pub const PAGE_SIZE: usize = 5;
/// Posts in the feed.
pub const FEED_SIZE: usize = 20;
/// Where the list's first page lives; later pages are `/blog/page/{n}`.
pub const LIST_ROUTE: &str = "/blog";
/// The feed's path in the output.
pub const FEED_FILE: &str = "blog/feed.xml";
/// The blog's not-found page, served for `/blog/…` paths that are not posts.
pub const NOT_FOUND_FILE: &str = "blog/404.html";
/// The sitemap's path in the output: the blog writes it (every page's route, and the posts).
const SITEMAP_FILE: &str = "sitemap.xml";

/// The published posts, newest first (read by [`Blog::load`] and the other reads in
/// [`store`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Blog {
    pub posts: Vec<Post>,
}

impl Blog {
    /// List pages: at least one, for the empty state.
    pub fn page_count(&self) -> usize {
        self.posts.len().div_ceil(PAGE_SIZE).max(1)
    }

    /// The posts on list page `n` (from 1).
    pub fn page(&self, n: usize) -> &[Post] {
        let start = ((n - 1) * PAGE_SIZE).min(self.posts.len());
        &self.posts[start..(start + PAGE_SIZE).min(self.posts.len())]
    }
}

/// `/blog`, `/blog/page/2`…
pub fn list_route(n: usize) -> String {
    if n <= 1 {
        LIST_ROUTE.to_owned()
    } else {
        format!("{LIST_ROUTE}/page/{n}")
    }
}

/// `/blog/{slug}`
pub fn post_route(slug: &str) -> String {
    format!("{LIST_ROUTE}/{slug}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_and_pages() {
        assert_eq!(list_route(1), "/blog");
        assert_eq!(list_route(3), "/blog/page/3");
        assert_eq!(post_route("a-b"), "/blog/a-b");
        let post = |id| Post {
            id,
            title: String::new(),
            slug: format!("p{id}"),
            excerpt: None,
            content: String::new(),
            featured_image: None,
            featured_image_alt: None,
            keywords: None,
            author_name: String::new(),
            status: "published".into(),
            publish_date: Some(String::new()),
            created_at: String::new(),
            updated_at: String::new(),
            version: 1,
        };
        for (n, pages) in [(0, 1), (1, 1), (5, 1), (6, 2), (11, 3)] {
            let blog = Blog {
                posts: (0..n).map(post).collect(),
            };
            assert_eq!(blog.page_count(), pages, "{n} posts");
        }
        let blog = Blog {
            posts: (0..11).map(post).collect(),
        };
        assert_eq!(blog.page(3).len(), 1);
        assert_eq!(blog.page(2)[0].id, 5);
    }
}
