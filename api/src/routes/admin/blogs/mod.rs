//! Blog posts, as staff write them: list, read, create, update, publish, delete, export,
//! image uploads for them, and for the editor: the slug a save would give, and previews of
//! unsaved changes (see `crate::pages::previews`).
//!
//! Saving is never blocked (spec §5): a blank title becomes "Untitled", a blank author the
//! party's team, and a slug is always found (made from the title when none is given, made
//! unique with `-2`, `-3`…), so only a value over its hard limit is refused. Content is
//! sanitised on every save with the one allowlist (`generator::sanitize`).

use std::path::PathBuf;
use std::sync::Arc;

use generator::blog::revisions::{self, Reason};
use generator::blog::{Post, store};
use generator::config::SiteConfig;
use rusqlite::Connection;
use serde::Serialize;
use warp::filters::BoxedFilter;
use warp::http::StatusCode;
use warp::reply::Response;
use warp::{Filter, Rejection};

use super::json;
use crate::domain::audit::{self, Action, By};
use crate::domain::auth::Admin;
use crate::domain::clock::Clock;
use crate::domain::rebuild::Rebuilder;
use crate::domain::staff::Cap;
use crate::domain::uploads;
use crate::http::error::ApiError;
use crate::http::filters::{json_body, limited_body, parse_id};
use crate::http::static_files::StaticFiles;
use crate::pages::previews::Previews;
use crate::state::AppState;
use crate::store::db::Db;

mod export;
mod fields;
mod history;
mod limits;
mod owner;
mod schedule;
mod slugs;
mod upload;

use fields::{Fields, Input};
pub(crate) use limits::*;
use owner::Touch;
use slugs::{slug_for, slug_of, unique_slug};

/// What the blog routes use of the server.
#[derive(Clone)]
pub(super) struct Blogs {
    db: Db,
    /// The party's settings: the default author, the time zone of exports.
    site: Arc<SiteConfig>,
    /// Re-renders the public pages a change touches.
    rebuilder: Rebuilder,
    /// The served site, read by previews for the page around a post.
    static_files: Arc<StaticFiles>,
    previews: Arc<Previews>,
    /// Where uploaded images are stored.
    uploads_dir: PathBuf,
    /// Told of each new upload, to copy it off-site at once.
    replication: Option<Arc<crate::offsite::replica::Replication>>,
    /// The time a schedule is checked against.
    clock: Arc<Clock>,
}

impl Blogs {
    fn of(state: &AppState) -> Blogs {
        Blogs {
            db: state.db.clone(),
            site: state.site.clone(),
            rebuilder: state.rebuilder.clone(),
            static_files: state.static_files.clone(),
            previews: state.previews.clone(),
            uploads_dir: state.config.data_dir.join("uploads"),
            replication: state.replication.clone(),
            clock: state.clock.clone(),
        }
    }
}

/// Content at its limit, JSON-escaped, with the other fields.
const BODY_LIMIT: u64 = 3 * 1024 * 1024;
/// An image at its limit plus the multipart wrapping.
const UPLOAD_BODY_LIMIT: u64 = uploads::MAX_BYTES as u64 + 64 * 1024;

pub fn routes(state: AppState) -> BoxedFilter<(Response,)> {
    let admin = |cap| super::allowed(state.clone(), cap);
    let with_state = {
        let blogs = Blogs::of(&state);
        warp::any().map(move || blogs.clone())
    };
    let list = warp::path!("blogs")
        .and(warp::get())
        .and(admin(Cap::PostsWriteOwn))
        .and(with_state.clone())
        .and_then(|admin: Admin, blogs| list(blogs, admin));
    // Answered here, like `slug` below: falling through, a refusal would reach `read` as a
    // post whose id is "export", and that route's refusal would win.
    let export = warp::path!("blogs" / "export").and(warp::get()).and(
        admin(Cap::PostsWriteAny)
            .and(with_state.clone())
            .and_then(|_: Admin, blogs| export::export(blogs))
            .recover(crate::http::error::recover)
            .unify(),
    );
    let upload = warp::path!("blogs" / "upload-image")
        .and(warp::post())
        .and(admin(Cap::PostsWriteOwn))
        .and(with_state.clone())
        .and(warp::header::optional::<String>("content-type"))
        .and(limited_body(UPLOAD_BODY_LIMIT))
        .and_then(|_: Admin, blogs, content_type, body| upload::upload(blogs, content_type, body));
    // The same checks and storage for an image in an event's description: who runs events
    // may not write posts.
    let event_upload = warp::path!("events" / "upload-image")
        .and(warp::post())
        .and(admin(Cap::EventsManage))
        .and(with_state.clone())
        .and(warp::header::optional::<String>("content-type"))
        .and(limited_body(UPLOAD_BODY_LIMIT))
        .and_then(|_: Admin, blogs, content_type, body| upload::upload(blogs, content_type, body));
    // Its errors are answered here: falling through, `/blogs/slug` would reach `read` as a
    // post whose id is "slug", and that route's complaint would win.
    let slug = warp::path!("blogs" / "slug").and(warp::get()).and(
        admin(Cap::PostsWriteOwn)
            .and(with_state.clone())
            .and(warp::query::raw().or(warp::any().map(String::new)).unify())
            .and_then(|_: Admin, blogs, query| slug_for(blogs, query))
            .recover(crate::http::error::recover)
            .unify(),
    );
    let preview_new = warp::path!("blogs" / "preview")
        .and(warp::post())
        .and(admin(Cap::PostsWriteOwn))
        .and(with_state.clone())
        .and(json_body::<Input>(BODY_LIMIT))
        .and_then(|admin: Admin, blogs, input| preview(blogs, admin, None, input));
    let create = warp::path!("blogs")
        .and(warp::post())
        .and(admin(Cap::PostsWriteOwn))
        .and(with_state.clone())
        .and(json_body::<Input>(BODY_LIMIT))
        .and_then(|admin, blogs, input| create(blogs, admin, input));
    // `/blogs/{id}…`: the id is checked once path, method and session have matched.
    let one = warp::path("blogs").and(warp::path::param::<String>());
    let read = one
        .and(warp::path::end())
        .and(warp::get())
        .and(admin(Cap::PostsWriteOwn))
        .and(with_state.clone())
        .and_then(|id, admin: Admin, blogs| read(blogs, admin, id));
    let update = one
        .and(warp::path::end())
        .and(warp::patch())
        .and(admin(Cap::PostsWriteOwn))
        .and(with_state.clone())
        .and(json_body::<Input>(BODY_LIMIT))
        .and_then(|id, admin, blogs, input| update(blogs, admin, id, input));
    let publish = one
        .and(warp::path!("publish"))
        .and(warp::post())
        .and(admin(Cap::PostsPublishOwn))
        .and(with_state.clone())
        .and_then(|id, admin, blogs| publish(blogs, admin, id));
    let preview_saved = one
        .and(warp::path!("preview"))
        .and(warp::post())
        .and(admin(Cap::PostsWriteOwn))
        .and(with_state.clone())
        .and(json_body::<Input>(BODY_LIMIT))
        .and_then(|id, admin: Admin, blogs, input| preview(blogs, admin, Some(id), input));
    let delete = one
        .and(warp::path::end())
        .and(warp::delete())
        .and(admin(Cap::PostsWriteOwn))
        .and(with_state.clone())
        .and_then(|id, admin, blogs| delete(blogs, admin, id));
    let schedule = schedule::routes(
        one.boxed(),
        admin(Cap::PostsPublishOwn).boxed(),
        with_state.clone().boxed(),
    );
    let history = history::routes(
        one.boxed(),
        admin(Cap::PostsWriteOwn).boxed(),
        with_state.boxed(),
    );
    list.or(export)
        .unify()
        .or(slug)
        .unify()
        .or(preview_new)
        .unify()
        .or(preview_saved)
        .unify()
        .or(upload)
        .unify()
        .or(event_upload)
        .unify()
        .or(create)
        .unify()
        .or(read)
        .unify()
        .or(update)
        .unify()
        .or(publish)
        .unify()
        .or(delete)
        .unify()
        .or(schedule)
        .unify()
        .or(history)
        .unify()
        .boxed()
}

fn not_found(id: i64) -> ApiError {
    ApiError::NotFound(format!("There is no blog post {id}."))
}

fn find(tx: &Connection, id: i64) -> rusqlite::Result<Option<Post>> {
    store::by_id(tx, id)
}

/// GET /api/admin/blogs: every post, most recently updated first.
async fn list(blogs: Blogs, admin: Admin) -> Result<Response, Rejection> {
    let visible = owner::visible(&blogs, &admin).await?;
    let mut posts = all_posts(&blogs).await?;
    if let Some(ids) = visible {
        posts.retain(|p| ids.contains(&p.id));
    }
    Ok(json(StatusCode::OK, &serde_json::json!({ "blogs": posts })))
}

async fn all_posts(blogs: &Blogs) -> Result<Vec<Post>, ApiError> {
    blogs.db.read(store::all).await.map_err(ApiError::from)
}

/// GET /api/admin/blogs/{id}
async fn read(blogs: Blogs, admin: Admin, id: String) -> Result<Response, Rejection> {
    let id = parse_id(&id)?;
    owner::guard(&blogs, &admin, id, Touch::Read).await?;
    let post = blogs
        .db
        .read(move |c| find(c, id))
        .await?
        .ok_or_else(|| not_found(id))?;
    Ok(json(StatusCode::OK, &post))
}

/// The stored post `id`, when there is an id: `400` for one that is not a number, `404`
/// for no such post.
pub(super) async fn stored(blogs: &Blogs, id: Option<String>) -> Result<Option<Post>, ApiError> {
    let Some(id) = id else {
        return Ok(None);
    };
    let id = parse_id(&id)?;
    let post = blogs.db.read(move |c| find(c, id)).await?;
    post.map(Some).ok_or_else(|| not_found(id))
}

/// POST /api/admin/blogs/preview (a new post) and POST /api/admin/blogs/{id}/preview (a
/// saved one, with the body's changes; what it leaves out stays as saved), with the body of
/// a save -> `{url}`: a one-time address showing the post as `/blog/{slug}` will, rendered
/// with the same template and cleaning. Nothing is saved.
async fn preview(
    blogs: Blogs,
    admin: Admin,
    id: Option<String>,
    input: Input,
) -> Result<Response, Rejection> {
    let existing = stored(&blogs, id).await?;
    if let Some(post) = &existing {
        owner::guard(&blogs, &admin, post.id, Touch::Read).await?;
    }
    let fields = Fields::merge(input, existing.as_ref(), &blogs.site)?;
    let site = blogs.rebuilder.site().cloned().ok_or_else(|| {
        ApiError::Internal(anyhow::anyhow!(
            "a preview was asked for, but this server renders no pages (no site configured)"
        ))
    })?;
    let slug = slug_of(&blogs, &fields, existing.as_ref()).await?;
    let now = format!("{:.3}", jiff::Timestamp::now());
    let existing = existing.as_ref();
    let post = Post {
        id: existing.map_or(0, |p| p.id),
        title: fields.title,
        slug,
        excerpt: fields.excerpt,
        content: fields.content,
        featured_image: fields.featured_image,
        featured_image_alt: fields.featured_image_alt,
        keywords: fields.keywords,
        author_name: fields.author_name,
        // Shown as it will be once published.
        status: "published".into(),
        // A post keeps its first publish date; a new one would be published now.
        publish_date: Some(
            existing
                .and_then(|p| p.publish_date.clone())
                .unwrap_or_else(|| now.clone()),
        ),
        created_at: existing.map_or_else(|| now.clone(), |p| p.created_at.clone()),
        updated_at: now,
        version: existing.map_or(1, |p| p.version),
        kind: fields.kind,
    };
    let files = blogs.static_files.clone();
    let html = tokio::task::spawn_blocking(move || {
        let site = site.get()?;
        let html = generator::blog::preview_html(&site, &post)?;
        // Its images may have been made just now: served before the preview's address is.
        files.refresh_now(&generator::blog::referenced_uploads(html.as_bytes()));
        anyhow::Ok(html)
    })
    .await
    .map_err(|e| ApiError::Internal(e.into()))?
    .map_err(|e| ApiError::Internal(e.context("Failed to render a preview")))?;
    let url = blogs.previews.keep(html);
    Ok(json(StatusCode::OK, &serde_json::json!({ "url": url })))
}

/// What a save came to.
enum Saved {
    Post(Box<Post>),
    NotFound,
    /// The save started from an older version than the stored one.
    Stale,
}

/// Writes a new post (`id` None) or the changes to one, with the audit trail and the
/// revision it makes; `from` is the version the save started from, if it says.
fn save(
    tx: &Connection,
    id: Option<i64>,
    from: Option<i64>,
    fields: &Fields,
    by: By,
) -> rusqlite::Result<Saved> {
    let existing = match id {
        Some(id) => match find(tx, id)? {
            Some(post) if from.is_some_and(|v| v != post.version) => return Ok(Saved::Stale),
            Some(post) => Some(post),
            None => return Ok(Saved::NotFound),
        },
        None => None,
    };
    let slug = unique_slug(tx, fields, id, existing.as_ref().map(|p| p.slug.as_str()))?;
    store::remove_redirect(tx, &slug)?;
    let edit = fields.edit(&slug);
    let publishing = fields.status == "published";
    let id = match &existing {
        None => {
            let id = store::insert(tx, &edit)?;
            tx.execute(
                "UPDATE blog_posts SET author_id = ?1, kind = ?3 WHERE id = ?2",
                rusqlite::params![by.user, id, fields.kind],
            )?;
            audit::record(tx, Action::Create, Some(&format!("blog:{id}")), by)?;
            id
        }
        Some(post) => {
            // A published post's old address keeps working: it redirects to the new one.
            if post.status == "published" && post.slug != slug {
                store::add_redirect(tx, &post.slug, post.id)?;
            }
            store::update(tx, post.id, &edit)?;
            audit::record(tx, Action::Update, Some(&format!("blog:{}", post.id)), by)?;
            post.id
        }
    };
    let was_published = existing.as_ref().is_some_and(|p| p.status == "published");
    if publishing && !was_published {
        audit::record(tx, Action::Publish, Some(&format!("blog:{id}")), by)?;
    }
    let reason = match (was_published, publishing) {
        (false, true) => Some(Reason::Published),
        (true, false) => Some(Reason::Unpublished),
        _ if existing.as_ref().is_none_or(|p| fields.changes_text_of(p)) => Some(Reason::Saved),
        _ => None,
    };
    if let Some(reason) = reason {
        revisions::record(tx, id, reason)?;
    }
    Ok(find(tx, id)?.map_or(Saved::NotFound, |p| Saved::Post(Box::new(p))))
}

/// Runs `save` in one write transaction (any failure rolls all of it back).
async fn save_in_db(
    blogs: &Blogs,
    id: Option<i64>,
    from: Option<i64>,
    fields: Fields,
    by: By,
) -> Result<Post, ApiError> {
    match blogs
        .db
        .write(move |tx| save(tx, id, from, &fields, by))
        .await?
    {
        Saved::Post(post) => Ok(*post),
        Saved::NotFound => Err(not_found(id.unwrap_or_default())),
        Saved::Stale => Err(changed_elsewhere()),
    }
}

/// The answer to a save made from an older version of the post.
pub(super) fn changed_elsewhere() -> ApiError {
    ApiError::Conflict(
        "This post was changed elsewhere since you opened it. Reload it, or keep your text as a new revision.".into(),
    )
}

/// Whether a change of a post can change the public site: only if the post was published
/// before it (`was`) or is after it. A draft's save, a schedule or an unschedule changes no
/// public page, so it is answered without a rebuild.
fn seen_in_public(was: Option<&Post>, is: &Post) -> bool {
    was.is_some_and(Post::is_published) || is.is_published()
}

/// Brings the public blog up to date, when the change of `post` can show there (`public`),
/// and answers with `body` once it is live. The change is saved whatever happens here: if
/// the pages could not be written, the answer says so (`warning`), and the next change or a
/// `generator build` repairs them.
async fn answer_after_rebuild<T: Serialize>(
    blogs: &Blogs,
    post: i64,
    public: bool,
    status: StatusCode,
    body: &T,
) -> Response {
    let mut body = serde_json::to_value(body).unwrap_or_default();
    if !public {
        return json(status, &body);
    }
    if let Err(why) = blogs.rebuilder.rebuild(Some(post)).await {
        tracing::warn!(%why, "a blog change is saved but not yet on the public site");
        body["warning"] = serde_json::json!(
            "Saved, but the public website could not be updated yet. It will be updated with the next change."
        );
    }
    json(status, &body)
}

/// POST /api/admin/blogs
async fn create(blogs: Blogs, admin: Admin, input: Input) -> Result<Response, Rejection> {
    let fields = Fields::merge(input, None, &blogs.site)?;
    owner::may_save_as(&admin, &fields.status)?;
    let post = save_in_db(&blogs, None, None, fields, admin.by()).await?;
    let public = seen_in_public(None, &post);
    Ok(answer_after_rebuild(&blogs, post.id, public, StatusCode::CREATED, &post).await)
}

/// PATCH /api/admin/blogs/{id}: changes what the body sends. With `version`, only if the
/// post is still at that version (`409` otherwise: two tabs, two people).
async fn update(
    blogs: Blogs,
    admin: Admin,
    id: String,
    input: Input,
) -> Result<Response, Rejection> {
    let id = parse_id(&id)?;
    owner::guard(&blogs, &admin, id, Touch::Write).await?;
    let existing = blogs
        .db
        .read(move |c| find(c, id))
        .await?
        .ok_or_else(|| not_found(id))?;
    let from = input.version;
    let fields = Fields::merge(input, Some(&existing), &blogs.site)?;
    if fields.status != existing.status {
        owner::may_save_as(&admin, &fields.status)?;
    }
    let post = save_in_db(&blogs, Some(id), from, fields, admin.by()).await?;
    let public = seen_in_public(Some(&existing), &post);
    Ok(answer_after_rebuild(&blogs, post.id, public, StatusCode::OK, &post).await)
}

/// POST /api/admin/blogs/{id}/publish: publishes a draft or scheduled post now, setting its
/// publish date the first time (a scheduled post's to now); an already published post is
/// left as it is.
async fn publish(blogs: Blogs, admin: Admin, id: String) -> Result<Response, Rejection> {
    let id = parse_id(&id)?;
    owner::guard(&blogs, &admin, id, Touch::Publish).await?;
    let post = blogs
        .db
        .write(move |tx| {
            let Some(post) = find(tx, id)? else {
                return Ok(None);
            };
            if post.is_newsletter() {
                return Ok(Some(Err(ApiError::Conflict(
                    fields::NOT_ON_THE_WEBSITE.into(),
                ))));
            }
            if post.status != "published" {
                store::publish(tx, id)?;
                revisions::record(tx, id, Reason::Published)?;
                audit::record(tx, Action::Publish, Some(&format!("blog:{id}")), admin.by())?;
            }
            Ok(find(tx, id)?.map(Ok))
        })
        .await?
        .ok_or_else(|| not_found(id))??;
    Ok(answer_after_rebuild(&blogs, post.id, true, StatusCode::OK, &post).await)
}

/// DELETE /api/admin/blogs/{id}
async fn delete(blogs: Blogs, admin: Admin, id: String) -> Result<Response, Rejection> {
    let id = parse_id(&id)?;
    owner::guard(&blogs, &admin, id, Touch::Write).await?;
    let deleted = blogs
        .db
        .write(move |tx| {
            let Some(post) = find(tx, id)? else {
                return Ok(None);
            };
            store::delete(tx, id)?;
            audit::record(tx, Action::Delete, Some(&format!("blog:{id}")), admin.by())?;
            Ok(Some(post))
        })
        .await?
        .ok_or_else(|| not_found(id))?;
    Ok(answer_after_rebuild(
        &blogs,
        id,
        deleted.is_published(),
        StatusCode::OK,
        &serde_json::json!({ "success": true }),
    )
    .await)
}
