//! Every query on `blog_revisions`: a post's earlier versions, kept for staff to look back
//! at and restore (nothing public reads them). A revision is a copy of what a reader sees
//! of the post (title, excerpt, content, featured image and its alt text) at a save that
//! changed one of them, at each publish and unpublish, and at a restore. The newest
//! [`KEEP`] of a post are kept.

use rusqlite::{Connection, OptionalExtension, Row, params};
use serde::Serialize;

/// How many revisions of a post are kept: the newest.
pub const KEEP: i64 = 50;

/// Why a revision was kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    Saved,
    Published,
    Unpublished,
    Restored,
}

impl Reason {
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Saved => "saved",
            Reason::Published => "published",
            Reason::Unpublished => "unpublished",
            Reason::Restored => "restored",
        }
    }
}

/// One revision, whole (as JSON: what the editor shows beside the current text).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Revision {
    pub id: i64,
    pub post_id: i64,
    /// `saved`, `published`, `unpublished` or `restored`.
    pub reason: String,
    /// UTC, ISO-8601.
    pub created_at: String,
    pub title: String,
    pub excerpt: Option<String>,
    pub content: String,
    pub featured_image: Option<String>,
    pub featured_image_alt: Option<String>,
}

/// A line of a post's history: when, why, and the title then.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    pub id: i64,
    pub reason: String,
    pub created_at: String,
    pub title: String,
}

impl Revision {
    fn from_row(r: &Row) -> rusqlite::Result<Revision> {
        Ok(Revision {
            id: r.get(0)?,
            post_id: r.get(1)?,
            reason: r.get(2)?,
            created_at: r.get(3)?,
            title: r.get(4)?,
            excerpt: r.get(5)?,
            content: r.get(6)?,
            featured_image: r.get(7)?,
            featured_image_alt: r.get(8)?,
        })
    }
}

/// Keeps post `id` as it is stored now as a revision, and forgets its revisions beyond
/// the newest [`KEEP`]. Call in the transaction that changed the post.
pub fn record(conn: &Connection, post_id: i64, reason: Reason) -> rusqlite::Result<()> {
    conn.prepare_cached(
        "INSERT INTO blog_revisions \
         (post_id, reason, title, excerpt, content, featured_image, featured_image_alt) \
         SELECT id, ?2, title, excerpt, content, featured_image, featured_image_alt \
         FROM blog_posts WHERE id = ?1",
    )?
    .execute(params![post_id, reason.as_str()])?;
    conn.prepare_cached(
        "DELETE FROM blog_revisions WHERE post_id = ?1 AND id NOT IN \
         (SELECT id FROM blog_revisions WHERE post_id = ?1 ORDER BY id DESC LIMIT ?2)",
    )?
    .execute(params![post_id, KEEP])?;
    Ok(())
}

/// Post `id`'s revisions, newest first.
pub fn list(conn: &Connection, post_id: i64) -> rusqlite::Result<Vec<Summary>> {
    conn.prepare_cached(
        "SELECT id, reason, created_at, title FROM blog_revisions WHERE post_id = ?1 \
         ORDER BY id DESC",
    )?
    .query_map([post_id], |r| {
        Ok(Summary {
            id: r.get(0)?,
            reason: r.get(1)?,
            created_at: r.get(2)?,
            title: r.get(3)?,
        })
    })?
    .collect()
}

/// Revision `id` of post `post_id`; `None` when there is none, or it is another post's.
pub fn get(conn: &Connection, post_id: i64, id: i64) -> rusqlite::Result<Option<Revision>> {
    conn.prepare_cached(
        "SELECT id, post_id, reason, created_at, title, excerpt, content, featured_image, \
         featured_image_alt FROM blog_revisions WHERE id = ?1 AND post_id = ?2",
    )?
    .query_row([id, post_id], Revision::from_row)
    .optional()
}
