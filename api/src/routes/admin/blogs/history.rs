//! A post's history: `GET /api/admin/blogs/{id}/revisions` (newest first),
//! `GET /api/admin/blogs/{id}/revisions/{rev}` (one, whole), and
//! `POST /api/admin/blogs/{id}/revisions/{rev}/restore {version?}`, which saves that
//! version as the post's text again (itself a new revision, `restored`).

use generator::blog::revisions::{self, Reason};
use generator::blog::store;
use serde::Deserialize;
use warp::filters::BoxedFilter;
use warp::http::StatusCode;
use warp::reply::Response;
use warp::{Filter, Rejection};

use super::fields::{Fields, Input};
use super::owner::{Touch, guard};
use super::{Blogs, answer_after_rebuild, changed_elsewhere, find, not_found};
use crate::domain::audit::{self, Action};
use crate::domain::auth::Admin;
use crate::http::error::ApiError;
use crate::http::filters::{json_body, parse_id};
use crate::routes::admin::json;

/// The body of a restore.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct RestoreInput {
    /// The version of the post the editor has (see `Post::version`): a restore over
    /// changes made elsewhere since is refused like a stale save.
    #[serde(default)]
    version: Option<i64>,
}

pub(super) fn routes(
    one: BoxedFilter<(String,)>,
    admin: BoxedFilter<(Admin,)>,
    with_state: BoxedFilter<(Blogs,)>,
) -> BoxedFilter<(Response,)> {
    let list = one
        .clone()
        .and(warp::path!("revisions"))
        .and(warp::get())
        .and(admin.clone())
        .and(with_state.clone())
        .and_then(|id, admin: Admin, blogs| list(blogs, admin, id));
    let read = one
        .clone()
        .and(warp::path!("revisions" / String))
        .and(warp::get())
        .and(admin.clone())
        .and(with_state.clone())
        .and_then(|id, rev, admin: Admin, blogs| read(blogs, admin, id, rev));
    let restore = one
        .and(warp::path!("revisions" / String / "restore"))
        .and(warp::post())
        .and(admin)
        .and(with_state)
        .and(json_body::<RestoreInput>(4 * 1024))
        .and_then(|id, rev, admin, blogs, input| restore(blogs, admin, id, rev, input));
    list.or(read).unify().or(restore).unify().boxed()
}

fn no_revision(id: i64, rev: i64) -> ApiError {
    ApiError::NotFound(format!("Blog post {id} has no revision {rev}."))
}

/// GET /api/admin/blogs/{id}/revisions -> `{revisions}`: when, why and the title, newest
/// first.
async fn list(blogs: Blogs, admin: Admin, id: String) -> Result<Response, Rejection> {
    let id = parse_id(&id)?;
    guard(&blogs, &admin, id, Touch::Read).await?;
    let list = blogs
        .db
        .read(move |c| match find(c, id)? {
            None => Ok(None),
            Some(_) => revisions::list(c, id).map(Some),
        })
        .await?
        .ok_or_else(|| not_found(id))?;
    Ok(json(
        StatusCode::OK,
        &serde_json::json!({ "revisions": list }),
    ))
}

/// GET /api/admin/blogs/{id}/revisions/{rev}: the revision whole; `404` for one that does
/// not exist or is another post's.
async fn read(blogs: Blogs, admin: Admin, id: String, rev: String) -> Result<Response, Rejection> {
    let (id, rev) = (parse_id(&id)?, parse_id(&rev)?);
    guard(&blogs, &admin, id, Touch::Read).await?;
    let revision = blogs
        .db
        .read(move |c| revisions::get(c, id, rev))
        .await?
        .ok_or_else(|| no_revision(id, rev))?;
    Ok(json(StatusCode::OK, &revision))
}

/// POST /api/admin/blogs/{id}/revisions/{rev}/restore: the revision's title, excerpt,
/// content, featured image and alt text become the post's, saved like any save and checked
/// by the same rules (`Fields::merge`): an image from a host the site no longer allows is
/// dropped from the content, and a featured image from one refuses the restore (400). A
/// published post's page shows them at once; a draft's wait for Publish.
async fn restore(
    blogs: Blogs,
    admin: Admin,
    id: String,
    rev: String,
    input: RestoreInput,
) -> Result<Response, Rejection> {
    let (id, rev) = (parse_id(&id)?, parse_id(&rev)?);
    guard(&blogs, &admin, id, Touch::Write).await?;
    let found = blogs
        .db
        .read(move |c| {
            let Some(post) = find(c, id)? else {
                return Ok(Err(not_found(id)));
            };
            Ok(match revisions::get(c, id, rev)? {
                Some(revision) => Ok((post, revision)),
                None => Err(no_revision(id, rev)),
            })
        })
        .await??;
    let (post, revision) = found;
    if input.version.is_some_and(|v| v != post.version) {
        return Err(changed_elsewhere().into());
    }
    let fields = Fields::merge(
        Input {
            title: Some(Some(revision.title)),
            content: Some(Some(revision.content)),
            excerpt: Some(revision.excerpt),
            featured_image: Some(revision.featured_image),
            featured_image_alt: Some(revision.featured_image_alt),
            ..Input::default()
        },
        Some(&post),
        &blogs.site,
    )
    .map_err(|e| match e {
        ApiError::BadRequest(why) => {
            ApiError::BadRequest(format!("This version cannot be restored as it was: {why}"))
        }
        other => other,
    })?;
    let read_version = post.version;
    let post = blogs
        .db
        .write(move |tx| {
            let Some(post) = find(tx, id)? else {
                return Ok(Err(not_found(id)));
            };
            // Changed between the read and this write: as stale as an old version.
            if post.version != read_version {
                return Ok(Err(changed_elsewhere()));
            }
            store::update(tx, id, &fields.edit(&post.slug))?;
            revisions::record(tx, id, Reason::Restored)?;
            audit::record(tx, Action::Restore, Some(&format!("blog:{id}")), admin.by())?;
            Ok(find(tx, id)?.ok_or_else(|| not_found(id)))
        })
        .await??;
    // A restore keeps the post's status: it shows in public only if it is published.
    let public = post.is_published();
    Ok(answer_after_rebuild(&blogs, post.id, public, StatusCode::OK, &post).await)
}
