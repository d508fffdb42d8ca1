//! `GET /api/admin/blogs/export`: every post as the spec's CSV, times in the party's zone.

use warp::Rejection;
use warp::reply::Response;

use super::super::downloads;
use super::{Blogs, all_posts};
use crate::domain::export::{self, Sheet};

/// GET /api/admin/blogs/export
pub(super) async fn export(blogs: Blogs) -> Result<Response, Rejection> {
    let site = &blogs.site;
    let rows = all_posts(&blogs)
        .await?
        .into_iter()
        .map(|p| {
            vec![
                p.id.to_string(),
                p.title,
                p.slug,
                p.status,
                export::local_time(site, p.publish_date.as_deref()),
                export::local_time(site, Some(&p.created_at)),
                export::local_time(site, Some(&p.updated_at)),
            ]
        })
        .collect();
    let sheet = Sheet {
        kind: "blogs",
        headers: vec![
            "ID",
            "Title",
            "Slug",
            "Status",
            "Published Date",
            "Created At",
            "Updated At",
        ],
        rows,
    };
    Ok(downloads::response(site, &sheet)?)
}
