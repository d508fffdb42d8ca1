//! `POST /api/admin/blogs/upload-image`: an image for a post (its featured image or one
//! in its text), checked, re-encoded and stored by content hash.

use bytes::Bytes;
use warp::Rejection;
use warp::http::StatusCode;
use warp::reply::Response;

use super::Blogs;
use crate::domain::uploads::{self, UploadError};
use crate::http::error::ApiError;
use crate::routes::admin::json;

/// POST /api/admin/blogs/upload-image (multipart, field `image`) -> `{url}`
pub(super) async fn upload(
    blogs: Blogs,
    content_type: Option<String>,
    body: Result<Bytes, ApiError>,
) -> Result<Response, Rejection> {
    let body = match body {
        Err(ApiError::PayloadTooLarge) => return Err(image_too_large().into()),
        other => other?,
    };
    let boundary = content_type
        .as_deref()
        .and_then(|c| multer::parse_boundary(c).ok())
        .ok_or_else(|| {
            ApiError::UnsupportedMediaType(
                "Send the image as multipart/form-data with a field named image.".into(),
            )
        })?;
    let stream = futures_util::stream::once(async move { Ok::<_, std::io::Error>(body) });
    let mut multipart = multer::Multipart::new(stream, boundary);
    let unreadable = |_| ApiError::BadRequest("The upload could not be read.".into());
    let mut image = None;
    while let Some(field) = multipart.next_field().await.map_err(unreadable)? {
        if field.name() == Some("image") {
            image = Some(field.bytes().await.map_err(unreadable)?);
            break;
        }
    }
    let image = image
        .ok_or_else(|| ApiError::BadRequest("Choose an image to upload (field image).".into()))?;
    let processed = uploads::process_in_turn(image)
        .await
        .map_err(ApiError::Internal)?
        .map_err(|e| match e {
            UploadError::TooLarge => image_too_large(),
            UploadError::Refused(message) => ApiError::BadRequest(message),
        })?;
    let dir = blogs.uploads_dir.clone();
    let url = tokio::task::spawn_blocking(move || uploads::store(&dir, &processed))
        .await
        .map_err(|e| ApiError::Internal(e.into()))?
        .map_err(|e| {
            ApiError::Internal(anyhow::Error::new(e).context("Failed to store an upload"))
        })?;
    if let Some(replication) = &blogs.replication {
        replication.nudge();
    }
    Ok(json(StatusCode::OK, &serde_json::json!({ "url": url })))
}

/// The spec's message for an image of 5 MB or more, with `413`.
fn image_too_large() -> ApiError {
    ApiError::ImageTooLarge
}
