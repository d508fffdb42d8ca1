//! The published blog as JSON, for clients other than the site's own pages (spec §7).
//!
//! A page of posts can be large (50 posts of up to 1 MB each), so its answer is built on
//! the blocking pool, one at a time, and kept (plain, brotli or gzip, as the client takes
//! it) under the blog's version until a post changes: a burst of requests costs one build,
//! and neither the async threads nor the other requests wait on it. Content is served as
//! stored: it was cleaned with the one allowlist when it was saved.

use std::collections::HashMap;
use std::sync::Arc;

use bytes::Bytes;
use generator::blog::{Post, store};
use quick_cache::Weighter;
use quick_cache::sync::Cache;
use rusqlite::Connection;
use serde_json::json;
use warp::filters::BoxedFilter;
use warp::http::{HeaderValue, header};
use warp::reply::Response;
use warp::{Filter, Rejection};

use crate::http::coding::{Coding, preferred_coding};
use crate::http::error::ApiError;
use crate::store::db::Db;

/// Posts a page by default (spec §9) and at most.
const DEFAULT_LIMIT: i64 = 5;
const MAX_LIMIT: i64 = 50;
/// Memory for built answers.
const ANSWERS_BYTES: u64 = 16 * 1024 * 1024;
/// Answers smaller than this go as they are.
const COMPRESS_FROM: usize = 1024;

/// Answers being built at once: one core's worth.
static BUILDING: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(1);

/// Which answer: the blog's version (published posts and the newest change), the request,
/// and the coding.
type Key = (i64, String, Request, Option<Coding>);

#[derive(Clone, PartialEq, Eq, Hash)]
enum Request {
    Page { limit: i64, offset: i64 },
    Post(String),
}

/// A built answer: its body, and the coding it is actually in (a small answer, or one that
/// could not be compressed, goes plain whatever the client takes).
#[derive(Clone)]
struct Answer {
    body: Bytes,
    coding: Option<Coding>,
}

#[derive(Clone)]
struct BodyWeight;

impl Weighter<Key, Answer> for BodyWeight {
    fn weight(&self, _: &Key, answer: &Answer) -> u64 {
        answer.body.len() as u64 + 64
    }
}

/// The answers built so far (see the module's documentation).
struct BlogAnswers {
    cache: Cache<Key, Answer, BodyWeight>,
}

impl Default for BlogAnswers {
    fn default() -> Self {
        BlogAnswers {
            cache: Cache::with_weighter(1024, ANSWERS_BYTES, BodyWeight),
        }
    }
}

/// The routes, answering from `db`, with their own cache of built answers.
pub fn routes(db: Db) -> BoxedFilter<(Response,)> {
    let answers = Arc::new(BlogAnswers::default());
    let list = warp::path!("blogs")
        .and(warp::get())
        .and(warp::query::<HashMap<String, String>>())
        .and(warp::header::optional::<String>("accept-encoding"))
        .and_then({
            let (db, answers) = (db.clone(), answers.clone());
            move |query, accept| list(db.clone(), answers.clone(), query, accept)
        });
    let one = warp::path!("blogs" / String)
        .and(warp::get())
        .and(warp::header::optional::<String>("accept-encoding"))
        .and_then(move |slug, accept| one(db.clone(), answers.clone(), slug, accept));
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

/// The blog's version: how many posts are published, and when any last changed
/// ([`store::published_version`]). A publish, an edit, an unpublish or a delete changes one
/// or the other.
type Version = (i64, String);

/// The JSON answer to `request` as the database holds it now, with the version it was read
/// at; `None`: no such post.
fn build(c: &Connection, request: &Request) -> rusqlite::Result<(Version, Option<Vec<u8>>)> {
    let version = store::published_version(c)?;
    let value = match request {
        Request::Page { limit, offset } => {
            let posts = store::published_page(c, *limit, *offset)?;
            let has_more = offset + (posts.len() as i64) < version.0;
            let blogs: Vec<_> = posts.iter().map(Post::public).collect();
            Some(json!({ "blogs": blogs, "total": version.0, "hasMore": has_more }))
        }
        Request::Post(slug) => store::published_by_slug(c, slug)?
            .map(|post| serde_json::to_value(post.public()).unwrap_or_default()),
    };
    let body = value.map(|v| serde_json::to_vec(&v).unwrap_or_default());
    Ok((version, body))
}

/// The answer to `request` in `coding`, from the cache or built now.
async fn answer(
    db: &Db,
    answers: &BlogAnswers,
    request: Request,
    coding: Option<Coding>,
) -> Result<Option<Response>, ApiError> {
    let (count, newest) = db.read(store::published_version).await?;
    let key = (count, newest, request.clone(), coding);
    if let Some(answer) = answers.cache.get(&key) {
        return Ok(Some(response(answer)));
    }
    let _turn = BUILDING
        .acquire()
        .await
        .map_err(|e| ApiError::Internal(e.into()))?;
    // Built while this one waited?
    if let Some(answer) = answers.cache.get(&key) {
        return Ok(Some(response(answer)));
    }
    let built = db
        .read(move |c| {
            let (version, body) = build(c, &request)?;
            let Some(body) = body else {
                return Ok(None);
            };
            let compressed = coding
                .filter(|_| body.len() >= COMPRESS_FROM)
                .and_then(|c| {
                    c.compress(&body).map(|body| Answer {
                        body,
                        coding: Some(c),
                    })
                });
            let answer = compressed.unwrap_or_else(|| Answer {
                body: Bytes::from(body),
                coding: None,
            });
            Ok(Some(((version.0, version.1, request, coding), answer)))
        })
        .await?;
    Ok(built.map(|(key, answer)| {
        answers.cache.insert(key, answer.clone());
        response(answer)
    }))
}

fn response(Answer { body, coding }: Answer) -> Response {
    let mut res = Response::new(body.into());
    let headers = res.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    headers.insert(header::VARY, HeaderValue::from_static("Accept-Encoding"));
    if let Some(coding) = coding {
        headers.insert(
            header::CONTENT_ENCODING,
            HeaderValue::from_static(coding.name()),
        );
    }
    res
}

/// GET /api/blogs?limit&offset -> `{blogs, total, hasMore}`: published posts, newest first.
async fn list(
    db: Db,
    answers: Arc<BlogAnswers>,
    query: HashMap<String, String>,
    accept: Option<String>,
) -> Result<Response, Rejection> {
    let limit = number(&query, "limit", DEFAULT_LIMIT, 1..=MAX_LIMIT)?;
    let offset = number(&query, "offset", 0, 0..=i64::from(i32::MAX))?;
    let coding = preferred_coding(accept.as_deref());
    let request = Request::Page { limit, offset };
    Ok(answer(&db, &answers, request, coding)
        .await?
        .expect("a page always has an answer"))
}

/// GET /api/blogs/{slug}: a published post, else 404.
async fn one(
    db: Db,
    answers: Arc<BlogAnswers>,
    slug: String,
    accept: Option<String>,
) -> Result<Response, Rejection> {
    let coding = preferred_coding(accept.as_deref());
    answer(&db, &answers, Request::Post(slug), coding)
        .await?
        .ok_or_else(|| ApiError::NotFound("Blog Post Not Found".into()).into())
}
