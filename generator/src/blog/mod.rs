//! The blog: published posts from the database, rendered by Tera into static pages like
//! every other page (no islands, nothing fetched in the browser).
//!
//! - `/blog`: the [`PAGE_SIZE`] newest posts; `/blog/archive/{k}`: the older posts,
//!   [`PAGE_SIZE`] a page, counted from the oldest (see [`Blog::archive`]), so a new post
//!   changes `/blog` and the newest archive page and leaves every other archive page as it
//!   was. A reader who follows Next from `/blog` meets every post once, newest first; each
//!   page says "Page X of Y", its numbers filled in by `blog/pages.css` (see [`pages_css`]),
//!   the one file that changes when the number of pages does;
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
pub mod email;
mod feed;
mod list;
mod post;
pub mod revisions;
mod sitemap;
pub mod store;

pub use changes::{Changes, changes, referenced_uploads, sync, write_all};
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
/// The stylesheet that numbers the list pages (see [`pages_css`]).
pub const PAGES_CSS_FILE: &str = "blog/pages.css";
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

    /// The posts older than `/blog`'s, newest first: the archive's.
    fn older(&self) -> &[Arc<Post>] {
        &self.posts[self.front().len()..]
    }

    /// Archive pages: none until there are more posts than `/blog` shows.
    pub fn archive_pages(&self) -> usize {
        archive_pages(self.posts.len())
    }

    /// The posts on archive page `k` (from 1), newest first: the posts older than `/blog`'s,
    /// counted in pages from the oldest, so page 1 holds the five oldest and only the newest
    /// archive page (page 2 of the reading order, right after `/blog`) is ever short. Numbered
    /// from the newest, every page would shift with each new post (and a site pushed to a
    /// CDN would re-upload them all); this way a page, once full, keeps its posts for good.
    /// The full pages are the same as when the archive counted every post from the oldest,
    /// so addresses published then still show the posts they showed.
    pub fn archive(&self, k: usize) -> &[Arc<Post>] {
        group_from_oldest(self.older(), k, PAGE_SIZE)
    }

    /// The list pages in all, `/blog` included: the Y of "Page X of Y".
    pub fn list_pages(&self) -> usize {
        list_pages(self.posts.len())
    }

    /// The posts' sitemaps: none for an empty blog.
    pub fn sitemap_chunks(&self) -> usize {
        self.posts.len().div_ceil(SITEMAP_CHUNK)
    }

    /// The posts in sitemap `k` (from 1), newest first, counted from the oldest post as
    /// [`Blog::archive`] counts its pages.
    pub fn sitemap_chunk(&self, k: usize) -> &[Arc<Post>] {
        group_from_oldest(&self.posts, k, SITEMAP_CHUNK)
    }
}

/// Group `k` (from 1) of `size` of `posts` (newest first) counted from the oldest, newest first.
fn group_from_oldest<T>(posts: &[T], k: usize, size: usize) -> &[T] {
    let n = posts.len();
    let older = ((k.max(1) - 1) * size).min(n);
    let through = (k * size).min(n);
    &posts[n - through..n - older]
}

/// In a blog of `posts` published posts, the archive's pages.
pub fn archive_pages(posts: usize) -> usize {
    posts.saturating_sub(PAGE_SIZE).div_ceil(PAGE_SIZE)
}

/// In a blog of `posts` published posts, the list pages in all (`/blog` and the archive).
pub fn list_pages(posts: usize) -> usize {
    1 + archive_pages(posts)
}

/// In a blog of `posts` published posts, the address of the list page a reader meets
/// `n`th (from 1) following Next from `/blog`, the page that says "Page n of …": `/blog`,
/// then the archive from its newest page down to page 1. `None` past the last.
pub fn list_page_route(posts: usize, n: usize) -> Option<String> {
    let archive = archive_pages(posts);
    match n {
        1 => Some(LIST_ROUTE.to_owned()),
        n if (2..=archive + 1).contains(&n) => Some(archive_route(archive + 2 - n)),
        _ => None,
    }
}

/// `blog/pages.css`, which writes each list page's "Page X of Y" in a blog of `pages` list
/// pages. A list page carries only what never changes: archive page `k` is the `k`th page
/// from the end (`--from-end: k`); `/blog` is the first. The number of pages grows by one
/// every five posts, and with it every page's X and Y; writing them into the pages would
/// rewrite all of them (800 at 4,000 posts) one publish in five. Here the count lives in
/// this one small file instead, which every list page links to, and CSS counters (which
/// browsers show and read out like text, without JavaScript) do the sum. Without the file
/// the label is simply absent; the page still shows the dates it covers.
pub fn pages_css(pages: usize) -> String {
    format!(
        "/* The blog's list pages number themselves: there are {pages}. Written by the generator. */\n\
         .blog-page-of{{counter-reset:blog-page calc({after} - var(--from-end,{pages})) blog-pages {pages}}}\n\
         .blog-page-of::before{{content:\"Page \" counter(blog-page) \" of \" counter(blog-pages)}}\n",
        after = pages + 1,
    )
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
            kind: "post".into(),
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
    fn the_archive_holds_the_posts_older_than_the_front_page_counted_from_the_oldest() {
        for (n, pages) in [
            (0, 0),
            (1, 0),
            (5, 0),
            (6, 1),
            (10, 1),
            (11, 2),
            (12, 2),
            (16, 3),
        ] {
            assert_eq!(blog(n).archive_pages(), pages, "{n} posts");
            assert_eq!(archive_pages(n as usize), pages, "{n} posts");
            assert_eq!(blog(n).list_pages(), pages + 1, "{n} posts");
        }
        let twelve = blog(12);
        assert_eq!(ids(twelve.front()), [12, 11, 10, 9, 8]);
        assert_eq!(ids(twelve.archive(2)), [7, 6]);
        assert_eq!(ids(twelve.archive(1)), [5, 4, 3, 2, 1]);
        assert!(twelve.archive(3).is_empty());
        assert_eq!(ids(blog(3).front()), [3, 2, 1]);
        // Read in order (/blog, then the archive from its newest page), every post once,
        // newest first.
        for n in 0..40 {
            let b = blog(n);
            let read: Vec<i64> = ids(b.front())
                .into_iter()
                .chain(
                    (1..=b.archive_pages())
                        .rev()
                        .flat_map(|k| ids(b.archive(k))),
                )
                .collect();
            assert_eq!(read, (1..=n).rev().collect::<Vec<_>>(), "{n} posts");
        }
        // A new post leaves the full pages as they were, and the full pages hold what they
        // held when the archive counted every post from the oldest.
        let (sixteen, seventeen) = (blog(16), blog(17));
        assert_eq!(sixteen.archive(1), seventeen.archive(1));
        assert_eq!(sixteen.archive(2), seventeen.archive(2));
        assert_eq!(ids(sixteen.archive(3)), [11]);
        assert_eq!(ids(seventeen.archive(3)), [12, 11]);
        assert_eq!(ids(seventeen.archive(2)), [10, 9, 8, 7, 6]);
    }

    #[test]
    fn list_pages_are_numbered_from_the_newest() {
        assert_eq!(list_page_route(3, 1).as_deref(), Some("/blog"));
        assert_eq!(list_page_route(3, 2), None);
        assert_eq!(list_page_route(12, 2).as_deref(), Some("/blog/archive/2"));
        assert_eq!(list_page_route(12, 3).as_deref(), Some("/blog/archive/1"));
        assert_eq!(list_page_route(12, 4), None);
        assert_eq!(list_page_route(12, 0), None);
        assert_eq!(
            list_page_route(4000, 800).as_deref(),
            Some("/blog/archive/1")
        );
        assert_eq!(
            list_page_route(4000, 2).as_deref(),
            Some("/blog/archive/799")
        );
        assert_eq!(list_page_route(4000, usize::MAX), None);
    }

    #[test]
    fn the_stylesheet_counts_pages_from_the_end() {
        let css = pages_css(3);
        assert!(css.contains("counter-reset:blog-page calc(4 - var(--from-end,3)) blog-pages 3"));
        assert!(css.contains(r#"content:"Page " counter(blog-page) " of " counter(blog-pages)"#));
    }
}
