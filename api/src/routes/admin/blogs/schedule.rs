//! Scheduling a post: `POST /api/admin/blogs/{id}/schedule {publishDate}` and
//! `POST /api/admin/blogs/{id}/unschedule`. The post is published at its time by the
//! server's task (`crate::domain::schedule`); until then it is edited as a draft and
//! appears nowhere public.

use generator::blog::store;
use serde::Deserialize;
use warp::filters::BoxedFilter;
use warp::http::StatusCode;
use warp::reply::Response;
use warp::{Filter, Rejection};

use super::{Blogs, answer_after_rebuild, find, not_found};
use crate::domain::audit::{self, Action};
use crate::domain::auth::Admin;
use crate::domain::clock::sql_time;
use crate::domain::schedule::chosen_time;
use crate::http::error::ApiError;
use crate::http::filters::{json_body, parse_id};

/// The body of a schedule.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ScheduleInput {
    /// A date and time in the party's time zone (`2026-12-01T09:30`), or an instant with
    /// its offset.
    publish_date: String,
}

pub(super) fn routes(
    one: BoxedFilter<(String,)>,
    admin: BoxedFilter<(Admin,)>,
    with_state: BoxedFilter<(Blogs,)>,
) -> BoxedFilter<(Response,)> {
    let schedule = one
        .clone()
        .and(warp::path!("schedule"))
        .and(warp::post())
        .and(admin.clone())
        .and(with_state.clone())
        .and(json_body::<ScheduleInput>(4 * 1024))
        .and_then(|id, admin, blogs, input| schedule(blogs, admin, id, input));
    let unschedule = one
        .and(warp::path!("unschedule"))
        .and(warp::post())
        .and(admin)
        .and(with_state)
        .and_then(|id, admin, blogs| unschedule(blogs, admin, id));
    schedule.or(unschedule).unify().boxed()
}

/// POST /api/admin/blogs/{id}/schedule: a draft or scheduled post goes live at
/// `publishDate`. A time more than two minutes past, or one that cannot be read, is refused
/// with `400`; a published post with `409`.
async fn schedule(
    blogs: Blogs,
    admin: Admin,
    id: String,
    input: ScheduleInput,
) -> Result<Response, Rejection> {
    let id = parse_id(&id)?;
    super::owner::guard(&blogs, &admin, id, super::owner::Touch::Publish).await?;
    let at = chosen_time(&input.publish_date, &blogs.site.tz(), blogs.clock.now())
        .map_err(ApiError::BadRequest)?;
    let at = sql_time(at);
    let post = blogs
        .db
        .write(move |tx| {
            let Some(post) = find(tx, id)? else {
                return Ok(Err(not_found(id)));
            };
            if post.is_newsletter() {
                return Ok(Err(ApiError::Conflict(
                    super::fields::NOT_ON_THE_WEBSITE.into(),
                )));
            }
            if post.status == "published" {
                return Ok(Err(ApiError::Conflict(
                    "This post is already published. Unpublish it first to schedule it.".into(),
                )));
            }
            store::schedule(tx, id, &at)?;
            audit::record(
                tx,
                Action::Schedule,
                Some(&format!("blog:{id}")),
                admin.by(),
            )?;
            Ok(find(tx, id)?.ok_or_else(|| not_found(id)))
        })
        .await??;
    // Neither a scheduled post nor a draft shows in public (the scheduler publishes it,
    // with its own rebuild, when its time comes).
    Ok(answer_after_rebuild(&blogs, post.id, false, StatusCode::OK, &post).await)
}

/// POST /api/admin/blogs/{id}/unschedule: a scheduled post goes back to a draft, with no
/// publish date left behind; `409` for a post that is not scheduled.
async fn unschedule(blogs: Blogs, admin: Admin, id: String) -> Result<Response, Rejection> {
    let id = parse_id(&id)?;
    super::owner::guard(&blogs, &admin, id, super::owner::Touch::Publish).await?;
    let post = blogs
        .db
        .write(move |tx| {
            let Some(_) = find(tx, id)? else {
                return Ok(Err(not_found(id)));
            };
            if !store::unschedule(tx, id)? {
                return Ok(Err(ApiError::Conflict(
                    "This post is not scheduled.".into(),
                )));
            }
            audit::record(
                tx,
                Action::Unschedule,
                Some(&format!("blog:{id}")),
                admin.by(),
            )?;
            Ok(find(tx, id)?.ok_or_else(|| not_found(id)))
        })
        .await??;
    // Neither a scheduled post nor a draft shows in public (the scheduler publishes it,
    // with its own rebuild, when its time comes).
    Ok(answer_after_rebuild(&blogs, post.id, false, StatusCode::OK, &post).await)
}
