//! The published blog as JSON, for clients other than the site's own pages (spec §7).

use std::collections::HashMap;

use generator::blog::{PUBLISHED, Post};
use generator::sanitize;
use rusqlite::OptionalExtension;
use serde_json::json;
use warp::filters::BoxedFilter;
use warp::http::StatusCode;
use warp::reply::Response;
use warp::{Filter, Rejection, Reply};

use crate::error::ApiError;
use crate::state::AppState;

/// Posts a page by default (spec §9) and at most.
const DEFAULT_LIMIT: i64 = 5;
const MAX_LIMIT: i64 = 50;

pub fn routes(state: AppState) -> BoxedFilter<(Response,)> {
    let list = warp::path!("blogs")
        .and(warp::get())
        .and(warp::query::<HashMap<String, String>>())
        .and_then({
            let state = state.clone();
            move |query| list(state.clone(), query)
        });
    let one = warp::path!("blogs" / String)
        .and(warp::get())
        .and_then(move |slug| one(state.clone(), slug));
    list.or(one).unify().boxed()
}

/// A whole number from the query, or `default` when absent.
fn number(
    query: &HashMap<String, String>,
    name: &str,
    default: i64,
    range: std::ops::RangeInclusive<i64>,
) -> Result<i64, ApiError> {
    match query.get(name) {
        None => Ok(default),
        Some(raw) => raw
            .parse::<i64>()
            .ok()
            .filter(|n| range.contains(n))
            .ok_or_else(|| {
                ApiError::BadRequest(format!(
                    "{name} must be a whole number from {} to {}.",
                    range.start(),
                    range.end()
                ))
            }),
    }
}

/// The post as clients see it: its content cleaned again with the one allowlist.
fn public(mut post: Post) -> Post {
    post.content = sanitize::clean(&post.content);
    post
}

/// GET /api/blogs?limit&offset -> `{blogs, total, hasMore}`: published posts, newest first.
async fn list(state: AppState, query: HashMap<String, String>) -> Result<Response, Rejection> {
    let limit = number(&query, "limit", DEFAULT_LIMIT, 1..=MAX_LIMIT)?;
    let offset = number(&query, "offset", 0, 0..=i64::from(i32::MAX))?;
    let (posts, total) = state
        .db
        .read(move |c| {
            let total: i64 = c.query_row(
                "SELECT COUNT(*) FROM blog_posts WHERE status = 'published' AND publish_date IS NOT NULL",
                [],
                |r| r.get(0),
            )?;
            let mut stmt = c.prepare_cached(&format!("{PUBLISHED} LIMIT ?1 OFFSET ?2"))?;
            let posts = stmt
                .query_map([limit, offset], Post::from_row)?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            Ok((posts, total))
        })
        .await?;
    let has_more = offset + (posts.len() as i64) < total;
    let blogs: Vec<Post> = posts.into_iter().map(public).collect();
    Ok(warp::reply::with_status(
        warp::reply::json(&json!({ "blogs": blogs, "total": total, "hasMore": has_more })),
        StatusCode::OK,
    )
    .into_response())
}

/// GET /api/blogs/{slug}: a published post, else 404.
async fn one(state: AppState, slug: String) -> Result<Response, Rejection> {
    let wanted = slug.clone();
    let post = state
        .db
        .read(move |c| {
            let sql = PUBLISHED.replace("ORDER BY", "AND slug = ?1 ORDER BY");
            c.query_row(&sql, [&wanted], Post::from_row).optional()
        })
        .await?
        .ok_or_else(|| ApiError::NotFound("Blog Post Not Found".into()))?;
    Ok(warp::reply::json(&public(post)).into_response())
}
