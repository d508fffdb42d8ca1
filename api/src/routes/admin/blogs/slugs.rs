//! The slug a save gives a post: asked for, kept, or made from the title, and unique.

use super::Blogs;
use super::fields::{Fields, Input};
use super::json;
use super::stored;
use crate::http::error::ApiError;
use generator::blog::{Post, store};
use generator::slug;
use rusqlite::Connection;
use serde::Deserialize;
use warp::Rejection;
use warp::http::StatusCode;
use warp::reply::Response;

/// A slug no other post has: the one asked for, the post's own when none was sent, or one
/// made from the title; then `-2`, `-3`… when another post has it. Taking a slug that was
/// another post's old address ends that redirect: the live post wins.
pub(super) fn unique_slug(
    tx: &Connection,
    fields: &Fields,
    id: Option<i64>,
    current: Option<&str>,
) -> rusqlite::Result<String> {
    let base = match (&fields.slug, current) {
        (Some(asked), _) if !asked.is_empty() => asked.clone(),
        (None, Some(current)) => return Ok(current.to_owned()),
        _ => {
            let from_title = slug::slugify(&fields.title);
            // Asked to make one again from an unchanged title: keep the numbered slug the
            // post already has rather than renumber it.
            let numbered_from_title = |current: &str| {
                current.strip_prefix(&from_title).is_some_and(|rest| {
                    rest.strip_prefix('-')
                        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
                })
            };
            if let Some(current) = current
                && !from_title.is_empty()
                && (current == from_title || numbered_from_title(current))
            {
                return Ok(current.to_owned());
            }
            if from_title.is_empty() {
                "post".to_owned()
            } else {
                from_title
            }
        }
    };
    let mut candidate = base.clone();
    let mut n = 2;
    while store::slug_taken(tx, &candidate, id)? {
        candidate = slug::numbered(&base, n);
        n += 1;
    }
    Ok(candidate)
}

/// The slug a save of `fields` would give the post (`existing`, or a new one).
pub(super) async fn slug_of(
    blogs: &Blogs,
    fields: &Fields,
    existing: Option<&Post>,
) -> Result<String, ApiError> {
    let fields = fields.clone();
    let (id, current) = (existing.map(|p| p.id), existing.map(|p| p.slug.clone()));
    blogs
        .db
        .read(move |c| unique_slug(c, &fields, id, current.as_deref()))
        .await
        .map_err(ApiError::from)
}

/// The query of `GET /api/admin/blogs/slug`: the title and slug the editor would send, and
/// the post's id when it has been saved.
#[derive(Debug, Deserialize)]
pub(super) struct SlugQuery {
    title: Option<String>,
    slug: Option<String>,
    id: Option<String>,
}

/// GET /api/admin/blogs/slug?title=&slug=&id= -> `{slug}`: the slug saving this title and
/// slug would give the post `id` (or a new post) now, by the very rules of a save (so the
/// editor can show it without a copy of them). A `slug` left out keeps a saved post's slug;
/// an empty one asks for one made from the title.
pub(super) async fn slug_for(blogs: Blogs, query: String) -> Result<Response, Rejection> {
    let query: SlugQuery = serde_urlencoded::from_str(&query)
        .map_err(|_| ApiError::BadRequest("The query string is not valid.".into()))?;
    let existing = stored(&blogs, query.id).await?;
    let input = Input {
        title: query.title.map(Some),
        slug: query.slug.map(Some),
        ..Input::default()
    };
    let fields = Fields::merge(input, existing.as_ref(), &blogs.site)?;
    let slug = slug_of(&blogs, &fields, existing.as_ref()).await?;
    Ok(json(StatusCode::OK, &serde_json::json!({ "slug": slug })))
}
