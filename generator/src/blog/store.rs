//! Every query on `blog_posts` and `blog_slug_redirects`: the one [`Post`] type for the
//! table, the one rule for what is published, and the reads and writes of the site's build,
//! the api's public JSON, its redirects, its rebuilds and the staff's editor.
//!
//! Functions take a [`Connection`] (a transaction is one too, so a save's writes can share
//! one). None of them opens a transaction or checks input: the callers do (the admin API
//! cleans and limits what staff send before it is written here).

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::Arc;

use anyhow::{Context as _, Result};
use rusqlite::{Connection, OpenFlags, OptionalExtension, Row, params};
use serde::Serialize;

use super::Blog;

/// A row of `blog_posts`, every column. As JSON it is the post staff see (spec §3, "Blog
/// post"); the public sees [`Post::public`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Post {
    pub id: i64,
    pub title: String,
    pub slug: String,
    pub excerpt: Option<String>,
    /// Sanitised HTML (cleaned again when rendered).
    pub content: String,
    pub featured_image: Option<String>,
    pub featured_image_alt: Option<String>,
    pub keywords: Option<String>,
    pub author_name: String,
    /// `draft`, `published` or `scheduled`.
    pub status: String,
    /// UTC, ISO-8601; set the first time the post is published, kept after. For a
    /// scheduled post: when it will be published.
    pub publish_date: Option<String>,
    pub created_at: String,
    pub updated_at: String,
    /// Counts every change of the post: a save says which version it started from, and one
    /// made from an older version is refused (two tabs, two people).
    pub version: i64,
    /// `post`, or `newsletter`: written here but only mailed to the list, never published.
    pub kind: String,
}

/// The kind of a plain newsletter (see [`Post::kind`]).
pub const NEWSLETTER: &str = "newsletter";

/// A published post as the public sees it (`GET /api/blogs…`, the post page's template):
/// no status, no creation time, and always a publish date.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PublicPost<'a> {
    pub id: i64,
    pub title: &'a str,
    pub slug: &'a str,
    pub excerpt: Option<&'a str>,
    pub content: &'a str,
    pub featured_image: Option<&'a str>,
    pub featured_image_alt: Option<&'a str>,
    pub keywords: Option<&'a str>,
    pub author_name: &'a str,
    pub publish_date: &'a str,
    pub updated_at: &'a str,
}

impl Post {
    /// The post as the public sees it.
    pub fn public(&self) -> PublicPost<'_> {
        PublicPost {
            id: self.id,
            title: &self.title,
            slug: &self.slug,
            excerpt: self.excerpt.as_deref(),
            content: &self.content,
            featured_image: self.featured_image.as_deref(),
            featured_image_alt: self.featured_image_alt.as_deref(),
            keywords: self.keywords.as_deref(),
            author_name: &self.author_name,
            publish_date: self.published(),
            updated_at: &self.updated_at,
        }
    }

    /// Whether the public sees the post: [`published!`]'s rule, for a post in hand.
    pub fn is_published(&self) -> bool {
        self.status == "published" && self.publish_date.is_some() && !self.is_newsletter()
    }

    /// Whether this is a plain newsletter: mailed to the list, never on the website.
    pub fn is_newsletter(&self) -> bool {
        self.kind == NEWSLETTER
    }

    /// When the post was published, UTC, ISO-8601 (every post the site shows has one; empty
    /// for one never published).
    pub fn published(&self) -> &str {
        self.publish_date.as_deref().unwrap_or_default()
    }

    /// A row of a query selecting [`columns!`], in its order.
    fn from_row(r: &Row) -> rusqlite::Result<Post> {
        Ok(Post {
            id: r.get(0)?,
            title: r.get(1)?,
            slug: r.get(2)?,
            excerpt: r.get(3)?,
            content: r.get(4)?,
            featured_image: r.get(5)?,
            featured_image_alt: r.get(6)?,
            keywords: r.get(7)?,
            author_name: r.get(8)?,
            status: r.get(9)?,
            publish_date: r.get(10)?,
            created_at: r.get(11)?,
            updated_at: r.get(12)?,
            version: r.get(13)?,
            kind: r.get(14)?,
        })
    }
}

/// The columns [`Post::from_row`] reads, in its order.
macro_rules! columns {
    () => {
        "id, title, slug, excerpt, content, featured_image, featured_image_alt, keywords, \
         author_name, status, publish_date, created_at, updated_at, version, kind"
    };
}

/// Which posts are published: the one rule, in every query that reads what the public sees.
/// Drafts, scheduled posts and newsletters (which are never published) appear nowhere public.
macro_rules! published {
    () => {
        "status = 'published' AND publish_date IS NOT NULL AND kind = 'post'"
    };
}

/// The order the public sees posts in: newest first.
macro_rules! newest_first {
    () => {
        "ORDER BY publish_date DESC, id DESC"
    };
}

/// A time as the database writes it: UTC, ISO-8601, to the millisecond.
macro_rules! now {
    () => {
        "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
    };
}

/// The publish date of a post published now: its first publish date is kept, but a
/// scheduled post's date is the time it was meant for, so publishing it early makes it now.
macro_rules! publish_date_now {
    () => {
        concat!(
            "CASE WHEN status = 'scheduled' OR publish_date IS NULL THEN ",
            now!(),
            " ELSE publish_date END"
        )
    };
}

const PUBLISHED: &str = concat!(
    "SELECT ",
    columns!(),
    " FROM blog_posts WHERE ",
    published!(),
    " ",
    newest_first!()
);
const PUBLISHED_IDS: &str = concat!(
    "SELECT id FROM blog_posts WHERE ",
    published!(),
    " ",
    newest_first!()
);
const PUBLISHED_PAGE: &str = concat!(
    "SELECT ",
    columns!(),
    " FROM blog_posts WHERE ",
    published!(),
    " ",
    newest_first!(),
    " LIMIT ?1 OFFSET ?2"
);
const PUBLISHED_BY_SLUG: &str = concat!(
    "SELECT ",
    columns!(),
    " FROM blog_posts WHERE ",
    published!(),
    " AND slug = ?1"
);
const PUBLISHED_VERSION: &str = concat!(
    "SELECT COUNT(*), COALESCE(MAX(updated_at), '') FROM blog_posts WHERE ",
    published!()
);
const REDIRECT: &str = concat!(
    "SELECT slug FROM blog_posts WHERE ",
    published!(),
    " AND id = (SELECT post_id FROM blog_slug_redirects WHERE slug = ?1)"
);
const BY_ID: &str = concat!("SELECT ", columns!(), " FROM blog_posts WHERE id = ?1");
const ALL: &str = concat!(
    "SELECT ",
    columns!(),
    " FROM blog_posts ORDER BY updated_at DESC, id DESC"
);
const INSERT: &str = concat!(
    "INSERT INTO blog_posts (title, slug, excerpt, content, featured_image, featured_image_alt, \
     keywords, author_name, status, publish_date) \
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, CASE WHEN ?10 THEN ",
    now!(),
    " END)"
);
const UPDATE: &str = concat!(
    "UPDATE blog_posts SET version = version + 1, title = ?1, slug = ?2, excerpt = ?3, content = ?4, featured_image = ?5, \
     featured_image_alt = ?6, keywords = ?7, author_name = ?8, status = ?9, \
     publish_date = CASE WHEN ?10 THEN ",
    publish_date_now!(),
    " WHEN ?9 = 'draft' AND status = 'scheduled' THEN NULL ELSE publish_date END, \
     updated_at = ",
    now!(),
    " WHERE id = ?11"
);
const PUBLISH: &str = concat!(
    "UPDATE blog_posts SET version = version + 1, status = 'published', publish_date = ",
    publish_date_now!(),
    ", updated_at = ",
    now!(),
    " WHERE id = ?1"
);

/// The published posts, newest first.
pub fn published(conn: &Connection) -> rusqlite::Result<Vec<Post>> {
    conn.prepare_cached(PUBLISHED)?
        .query_map([], Post::from_row)?
        .collect()
}

/// The ids of the published posts, newest first.
pub fn published_ids(conn: &Connection) -> rusqlite::Result<Vec<i64>> {
    conn.prepare_cached(PUBLISHED_IDS)?
        .query_map([], |r| r.get(0))?
        .collect()
}

/// At most `limit` published posts, newest first, after the `offset` newest.
pub fn published_page(conn: &Connection, limit: i64, offset: i64) -> rusqlite::Result<Vec<Post>> {
    conn.prepare_cached(PUBLISHED_PAGE)?
        .query_map([limit, offset], Post::from_row)?
        .collect()
}

/// The published post at `slug`, if there is one.
pub fn published_by_slug(conn: &Connection, slug: &str) -> rusqlite::Result<Option<Post>> {
    conn.prepare_cached(PUBLISHED_BY_SLUG)?
        .query_row([slug], Post::from_row)
        .optional()
}

/// How many posts are published, and when any of them last changed (`""` for none): a
/// publish, an edit, an unpublish or a delete changes one or the other.
pub fn published_version(conn: &Connection) -> rusqlite::Result<(i64, String)> {
    conn.prepare_cached(PUBLISHED_VERSION)?
        .query_row([], |r| Ok((r.get(0)?, r.get(1)?)))
}

/// The slug now of the published post that `old_slug` was an address of, if any.
pub fn redirect_target(conn: &Connection, old_slug: &str) -> rusqlite::Result<Option<String>> {
    conn.prepare_cached(REDIRECT)?
        .query_row([old_slug], |r| r.get(0))
        .optional()
}

/// Post `id`, published or not.
pub fn by_id(conn: &Connection, id: i64) -> rusqlite::Result<Option<Post>> {
    conn.prepare_cached(BY_ID)?
        .query_row([id], Post::from_row)
        .optional()
}

/// Every post, published or not, most recently changed first.
pub fn all(conn: &Connection) -> rusqlite::Result<Vec<Post>> {
    conn.prepare_cached(ALL)?
        .query_map([], Post::from_row)?
        .collect()
}

/// Whether a post other than `except` has `slug`.
pub fn slug_taken(conn: &Connection, slug: &str, except: Option<i64>) -> rusqlite::Result<bool> {
    conn.prepare_cached(
        "SELECT EXISTS (SELECT 1 FROM blog_posts WHERE slug = ?1 AND id IS NOT ?2)",
    )?
    .query_row(params![slug, except], |r| r.get(0))
}

/// What staff write to a post; the database keeps its id and times.
#[derive(Debug, Clone, Copy)]
pub struct Edit<'a> {
    pub title: &'a str,
    pub slug: &'a str,
    pub excerpt: Option<&'a str>,
    pub content: &'a str,
    pub featured_image: Option<&'a str>,
    pub featured_image_alt: Option<&'a str>,
    pub keywords: Option<&'a str>,
    pub author_name: &'a str,
    /// `draft`, `published` or `scheduled`.
    pub status: &'a str,
}

impl Edit<'_> {
    fn publishing(&self) -> bool {
        self.status == "published"
    }
}

/// A new post; published now if `edit` says so. Returns its id.
pub fn insert(conn: &Connection, edit: &Edit) -> rusqlite::Result<i64> {
    conn.prepare_cached(INSERT)?.execute(params![
        edit.title,
        edit.slug,
        edit.excerpt,
        edit.content,
        edit.featured_image,
        edit.featured_image_alt,
        edit.keywords,
        edit.author_name,
        edit.status,
        edit.publishing()
    ])?;
    Ok(conn.last_insert_rowid())
}

/// Post `id` as `edit` has it, changed now; its publish date is set the first time it is
/// published and kept after.
pub fn update(conn: &Connection, id: i64, edit: &Edit) -> rusqlite::Result<()> {
    conn.prepare_cached(UPDATE)?.execute(params![
        edit.title,
        edit.slug,
        edit.excerpt,
        edit.content,
        edit.featured_image,
        edit.featured_image_alt,
        edit.keywords,
        edit.author_name,
        edit.status,
        edit.publishing(),
        id
    ])?;
    Ok(())
}

/// Publishes post `id` now, setting its publish date if it never had one.
pub fn publish(conn: &Connection, id: i64) -> rusqlite::Result<()> {
    conn.prepare_cached(PUBLISH)?.execute([id])?;
    Ok(())
}

/// Schedules post `id` to be published at `at` (UTC, as [`now!`] writes times). It stays
/// out of everything public until [`publish_scheduled`] runs at that time.
pub fn schedule(conn: &Connection, id: i64, at: &str) -> rusqlite::Result<()> {
    conn.prepare_cached(concat!(
        "UPDATE blog_posts SET version = version + 1, status = 'scheduled', publish_date = ?2, updated_at = ",
        now!(),
        " WHERE id = ?1"
    ))?
    .execute(params![id, at])?;
    Ok(())
}

/// Takes a scheduled post `id` back to a draft, with no publish date left behind; `false`
/// when it was not scheduled.
pub fn unschedule(conn: &Connection, id: i64) -> rusqlite::Result<bool> {
    Ok(conn
        .prepare_cached(concat!(
            "UPDATE blog_posts SET version = version + 1, status = 'draft', publish_date = NULL, updated_at = ",
            now!(),
            " WHERE id = ?1 AND status = 'scheduled'"
        ))?
        .execute([id])?
        > 0)
}

/// The scheduled posts whose time is `now` (UTC, as [`now!`] writes times) or earlier,
/// the longest due first.
pub fn due(conn: &Connection, now: &str) -> rusqlite::Result<Vec<i64>> {
    conn.prepare_cached(
        "SELECT id FROM blog_posts WHERE status = 'scheduled' AND publish_date <= ?1 \
         ORDER BY publish_date, id",
    )?
    .query_map([now], |r| r.get(0))?
    .collect()
}

/// Publishes scheduled post `id` with the date it was scheduled for; `false` when it is no
/// longer scheduled (published, unscheduled or deleted meanwhile), so it happens once.
pub fn publish_scheduled(conn: &Connection, id: i64) -> rusqlite::Result<bool> {
    Ok(conn
        .prepare_cached(concat!(
            "UPDATE blog_posts SET version = version + 1, status = 'published', updated_at = ",
            now!(),
            " WHERE id = ?1 AND status = 'scheduled' AND publish_date IS NOT NULL"
        ))?
        .execute([id])?
        > 0)
}

/// Deletes post `id` (its redirects go with it); `false` when there was no such post.
pub fn delete(conn: &Connection, id: i64) -> rusqlite::Result<bool> {
    Ok(conn.execute("DELETE FROM blog_posts WHERE id = ?1", [id])? > 0)
}

/// How many posts are published.
pub fn published_count(conn: &Connection) -> rusqlite::Result<usize> {
    conn.prepare_cached(concat!(
        "SELECT COUNT(*) FROM blog_posts WHERE ",
        published!()
    ))?
    .query_row([], |r| r.get::<_, i64>(0))
    .map(|n| usize::try_from(n).unwrap_or_default())
}

/// Makes `old_slug` an address of post `id`: it will redirect to the post while published.
pub fn add_redirect(conn: &Connection, old_slug: &str, id: i64) -> rusqlite::Result<()> {
    conn.execute(
        "INSERT OR REPLACE INTO blog_slug_redirects (slug, post_id) VALUES (?1, ?2)",
        params![old_slug, id],
    )?;
    Ok(())
}

/// Ends the redirect at `slug`, if any (a post is taking that address).
pub fn remove_redirect(conn: &Connection, slug: &str) -> rusqlite::Result<()> {
    conn.execute("DELETE FROM blog_slug_redirects WHERE slug = ?1", [slug])?;
    Ok(())
}

impl Blog {
    /// The posts published in the database at `path`, read only; no database, no posts.
    pub fn load(path: &Path) -> Result<Blog> {
        if !path.exists() {
            return Ok(Blog::default());
        }
        let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY)
            .with_context(|| format!("Failed to open the database {}", path.display()))?;
        let has_posts: bool = conn.query_row(
            "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'blog_posts')",
            [],
            |r| r.get(0),
        )?;
        if !has_posts {
            return Ok(Blog::default());
        }
        Blog::query(&conn)
            .with_context(|| format!("Failed to read the posts in {}", path.display()))
    }

    /// The published posts through an open connection.
    pub fn query(conn: &Connection) -> rusqlite::Result<Blog> {
        Ok(Blog {
            posts: published(conn)?.into_iter().map(Arc::new).collect(),
        })
    }

    /// The published posts now, given `previous` and the posts `changed` since it was read:
    /// only those, and posts `previous` does not have, are read again in full. After a save
    /// this reads one post instead of thousands.
    pub fn query_changed(
        conn: &Connection,
        previous: &Blog,
        changed: &HashSet<i64>,
    ) -> rusqlite::Result<Blog> {
        let known: HashMap<i64, &Arc<Post>> = previous.posts.iter().map(|p| (p.id, p)).collect();
        let posts = published_ids(conn)?
            .into_iter()
            .map(|id| match known.get(&id) {
                Some(post) if !changed.contains(&id) => Ok(Arc::clone(post)),
                _ => by_id(conn, id)?
                    .map(Arc::new)
                    .ok_or(rusqlite::Error::QueryReturnedNoRows),
            })
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(Blog { posts })
    }
}
