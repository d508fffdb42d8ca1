//! The blog: published posts from the database, rendered by Tera into static pages like
//! every other page (no islands, nothing fetched in the browser).
//!
//! - `/blog`: the [`PAGE_SIZE`] newest posts; `/blog/archive/{k}`: every post, [`PAGE_SIZE`]
//!   a page, counted from the oldest (see [`Blog::archive`]), so a new post changes `/blog`
//!   and the newest archive page and leaves every other archive page as it was;
//! - `/blog/{slug}`: one post; `blog/404.html`: what any other `/blog/…` path shows;
//! - `/blog/feed.xml`: an Atom feed of the [`FEED_SIZE`] newest posts;
//! - `sitemap.xml`: a sitemap index of `sitemap-pages.xml` (every other page) and the posts'
//!   sitemaps `blog/sitemap-{k}.xml`, [`SITEMAP_CHUNK`] posts each, counted from the oldest
//!   like the archive, so a new post rewrites only the newest of them and the index.
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
pub use feed::FeedEntries;
pub use post::{content_html, display_date, plain_text, preview_html};
pub use store::{Post, PublicPost};

use std::sync::Arc;

/// Posts on a list page (spec §9).
pub const PAGE_SIZE: usize = 5;
/// Posts in the feed.
pub const FEED_SIZE: usize = 20;
/// Where the list's newest posts are; the archive's pages are `/blog/archive/{k}`.
pub const LIST_ROUTE: &str = "/blog";
/// The archive pages' parent.
const ARCHIVE_ROUTE: &str = "/blog/archive";
/// The feed's path in the output.
pub const FEED_FILE: &str = "blog/feed.xml";
/// The blog's not-found page, served for `/blog/…` paths that are not posts.
pub const NOT_FOUND_FILE: &str = "blog/404.html";
/// The sitemap index's path in the output (robots.txt names it).
const SITEMAP_FILE: &str = "sitemap.xml";
/// The sitemap of the pages that are not posts.
const SITEMAP_PAGES_FILE: &str = "sitemap-pages.xml";
/// Posts in one of the posts' sitemaps (the protocol allows 50,000; smaller ones are cheap
/// to rewrite when a post is added).
pub const SITEMAP_CHUNK: usize = 1000;

/// The published posts, newest first (read by [`Blog::load`] and the other reads in
/// [`store`]). Each post is shared: the blog after a change keeps the posts that did not
/// change (see [`Blog::query_changed`]), so at 4,000 posts a publish neither copies nor
/// compares 50 MB of text (a post that is the same `Arc` is equal at once).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Blog {
    pub posts: Vec<Arc<Post>>,
}

impl Blog {
    /// What `/blog` lists: the newest posts.
    pub fn front(&self) -> &[Arc<Post>] {
        &self.posts[..PAGE_SIZE.min(self.posts.len())]
    }

    /// Archive pages: none for an empty blog.
    pub fn archive_pages(&self) -> usize {
        self.posts.len().div_ceil(PAGE_SIZE)
    }

    /// The posts on archive page `k` (from 1), newest first. Pages are counted from the
    /// oldest post: page 1 holds the five oldest, and only the newest page is ever short.
    /// Numbered from the newest, every page would shift with each new post (and a site
    /// pushed to a CDN would re-upload them all); this way a page, once full, keeps its
    /// posts for good.
    pub fn archive(&self, k: usize) -> &[Arc<Post>] {
        self.group_from_oldest(k, PAGE_SIZE)
    }

    /// The posts' sitemaps: none for an empty blog.
    pub fn sitemap_chunks(&self) -> usize {
        self.posts.len().div_ceil(SITEMAP_CHUNK)
    }

    /// The posts in sitemap `k` (from 1), newest first, counted from the oldest post as
    /// [`Blog::archive`] counts its pages.
    pub fn sitemap_chunk(&self, k: usize) -> &[Arc<Post>] {
        self.group_from_oldest(k, SITEMAP_CHUNK)
    }

    /// Group `k` (from 1) of `size` posts counted from the oldest, newest first.
    fn group_from_oldest(&self, k: usize, size: usize) -> &[Arc<Post>] {
        let n = self.posts.len();
        let older = ((k.max(1) - 1) * size).min(n);
        let through = (k * size).min(n);
        &self.posts[n - through..n - older]
    }

    /// The archive page that holds the post `i` places from the newest (0: the newest).
    pub fn archive_holding(&self, i: usize) -> Option<usize> {
        archive_holding(self.posts.len(), i)
    }
}

/// In a blog of `posts` posts, the archive page that holds the post `i` places from the
/// newest (0: the newest); `None` past the oldest.
pub fn archive_holding(posts: usize, i: usize) -> Option<usize> {
    (i < posts).then(|| (posts - 1 - i) / PAGE_SIZE + 1)
}

/// `/blog/archive/{k}`
pub fn archive_route(k: usize) -> String {
    format!("{ARCHIVE_ROUTE}/{k}")
}

/// The output path of the posts' sitemap `k`.
pub fn sitemap_chunk_file(k: usize) -> String {
    format!("blog/sitemap-{k}.xml")
}

/// `/blog/{slug}`
pub fn post_route(slug: &str) -> String {
    format!("{LIST_ROUTE}/{slug}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn post(id: i64) -> Post {
        Post {
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
        }
    }

    /// A blog of posts 1..=n, newest (n) first.
    fn blog(n: i64) -> Blog {
        Blog {
            posts: (1..=n).rev().map(post).map(Arc::new).collect(),
        }
    }

    fn ids(posts: &[Arc<Post>]) -> Vec<i64> {
        posts.iter().map(|p| p.id).collect()
    }

    #[test]
    fn routes() {
        assert_eq!(archive_route(3), "/blog/archive/3");
        assert_eq!(post_route("a-b"), "/blog/a-b");
    }

    #[test]
    fn the_archive_is_counted_from_the_oldest_post() {
        for (n, pages) in [(0, 0), (1, 1), (5, 1), (6, 2), (11, 3)] {
            assert_eq!(blog(n).archive_pages(), pages, "{n} posts");
        }
        let eleven = blog(11);
        assert_eq!(ids(eleven.front()), [11, 10, 9, 8, 7]);
        assert_eq!(ids(eleven.archive(1)), [5, 4, 3, 2, 1]);
        assert_eq!(ids(eleven.archive(2)), [10, 9, 8, 7, 6]);
        assert_eq!(ids(eleven.archive(3)), [11]);
        assert_eq!(ids(blog(3).front()), [3, 2, 1]);
        assert_eq!(eleven.archive_holding(0), Some(3));
        assert_eq!(eleven.archive_holding(1), Some(2));
        assert_eq!(eleven.archive_holding(10), Some(1));
        assert_eq!(eleven.archive_holding(11), None);
        // A new post leaves the full pages as they were.
        let twelve = blog(12);
        assert_eq!(eleven.archive(1), twelve.archive(1));
        assert_eq!(eleven.archive(2), twelve.archive(2));
        assert_eq!(ids(twelve.archive(3)), [12, 11]);
    }
}
