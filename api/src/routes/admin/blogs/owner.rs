//! Whose post it is. Editors (and Administrators and Owners) touch every post; an Author
//! only their own, which they may publish; a Contributor only their own drafts, which an
//! Editor publishes. Checked in each handler once the route's capability has let the
//! caller through.

use std::collections::HashSet;

use rusqlite::OptionalExtension;

use super::Blogs;
use crate::domain::auth::Admin;
use crate::domain::staff::Cap;
use crate::http::error::ApiError;

/// What the caller is about to do to a post.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Touch {
    Read,
    Write,
    Publish,
}

fn role_label(admin: &Admin) -> &'static str {
    admin.role().map_or("service token", |r| r.label())
}

/// Refuses `touch` on post `id` when it is not the caller's to touch. An unknown post
/// passes (the handler answers its 404).
pub(crate) async fn guard(
    blogs: &Blogs,
    admin: &Admin,
    id: i64,
    touch: Touch,
) -> Result<(), ApiError> {
    let any = match touch {
        Touch::Publish => admin.can(Cap::PostsPublishAny),
        Touch::Read | Touch::Write => admin.can(Cap::PostsWriteAny),
    };
    if any {
        return Ok(());
    }
    let found: Option<(Option<i64>, String)> = blogs
        .db
        .read(move |c| {
            c.query_row(
                "SELECT author_id, status FROM blog_posts WHERE id = ?1",
                [id],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()
        })
        .await?;
    let Some((author, status)) = found else {
        return Ok(());
    };
    if author.is_none() || author != admin.user() {
        return Err(ApiError::Forbidden(format!(
            "Your role ({}) can't change other people's posts.",
            role_label(admin)
        )));
    }
    if touch == Touch::Write && status != "draft" && !admin.can(Cap::PostsPublishOwn) {
        return Err(ApiError::Forbidden(format!(
            "Your role ({}) can't change a published or scheduled post: ask an Editor.",
            role_label(admin)
        )));
    }
    Ok(())
}

/// Refuses a save that would publish (`status` other than draft) when the caller may not.
pub(crate) fn may_save_as(admin: &Admin, status: &str) -> Result<(), ApiError> {
    if status == "draft" || admin.can(Cap::PostsPublishOwn) {
        Ok(())
    } else {
        Err(ApiError::Forbidden(format!(
            "Your role ({}) can't publish posts: save a draft, and an Editor publishes it.",
            role_label(admin)
        )))
    }
}

/// The posts the caller may see in the list: `None` for all.
pub(crate) async fn visible(
    blogs: &Blogs,
    admin: &Admin,
) -> Result<Option<HashSet<i64>>, ApiError> {
    if admin.can(Cap::PostsWriteAny) {
        return Ok(None);
    }
    let user = admin.user();
    let ids = blogs
        .db
        .read(move |c| {
            let mut stmt = c.prepare("SELECT id FROM blog_posts WHERE author_id = ?1")?;
            stmt.query_map([user], |r| r.get::<_, i64>(0))?
                .collect::<rusqlite::Result<HashSet<_>>>()
        })
        .await?;
    Ok(Some(ids))
}
