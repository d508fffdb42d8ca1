//! `GET`/`HEAD /uploads/{name}`: the blog's uploaded images (`domain::uploads::store` wrote
//! them), served from `DATA_DIR/uploads` and cached forever, their names being their content.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use warp::filters::BoxedFilter;
use warp::http::{Method, Response as HttpResponse, StatusCode, header};
use warp::hyper::body::Bytes;
use warp::reply::Response;
use warp::{Filter, Rejection};

use crate::domain::uploads::stored_name_type;

/// `GET`/`HEAD /uploads/{name}`: the files `domain::uploads::store` wrote in `dir`, cached forever. Anything
/// that is not such a file is rejected as not found, so the site's 404 page answers.
pub fn routes(dir: PathBuf) -> BoxedFilter<(Response,)> {
    let dir = Arc::new(dir);
    warp::path("uploads")
        .and(warp::path::param::<String>())
        .and(warp::path::end())
        .and(warp::get().or(warp::head()).unify())
        .and(warp::method())
        .and(warp::path::full())
        .and_then(
            move |name: String, method: Method, full: warp::path::FullPath| {
                let dir = dir.clone();
                async move {
                    // `path::end` also matches `/uploads/{name}/`: leave that to the static site.
                    if full.as_str().ends_with('/') {
                        return Err(warp::reject::not_found());
                    }
                    serve(&dir, &name, method == Method::HEAD).await
                }
            },
        )
        .boxed()
}

async fn serve(dir: &Path, name: &str, head: bool) -> Result<Response, Rejection> {
    let content_type = stored_name_type(name).ok_or_else(warp::reject::not_found)?;
    let path = dir.join(name);
    let internal = |e: std::io::Error| {
        if e.kind() == std::io::ErrorKind::NotFound {
            warp::reject::not_found()
        } else {
            warp::reject::custom(crate::http::error::ApiError::Internal(anyhow::anyhow!(
                "reading {}: {e}",
                path.display()
            )))
        }
    };
    let meta = tokio::fs::metadata(&path).await.map_err(internal)?;
    if !meta.is_file() {
        return Err(warp::reject::not_found());
    }
    let (length, body) = if head {
        (meta.len(), Bytes::new())
    } else {
        let bytes = tokio::fs::read(&path).await.map_err(internal)?;
        (bytes.len() as u64, Bytes::from(bytes))
    };
    HttpResponse::builder()
        .status(StatusCode::OK)
        .header(header::CONTENT_TYPE, content_type)
        .header(header::CONTENT_LENGTH, length)
        .header(header::CACHE_CONTROL, "public, max-age=31536000, immutable")
        .header(header::X_CONTENT_TYPE_OPTIONS, "nosniff")
        .body(body.into())
        .map_err(|e| {
            warp::reject::custom(crate::http::error::ApiError::Internal(anyhow::anyhow!(
                "building an upload response: {e}"
            )))
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::uploads::test_corpus::{gif, png};
    use crate::domain::uploads::{process, store};

    #[tokio::test]
    async fn routes_serve_stored_files() {
        let tmp = tempfile::tempdir().unwrap();
        let image = process(&gif(&[[9, 9, 9, 255]], None)).unwrap();
        let url = store(tmp.path(), &image).unwrap();
        let filter = routes(tmp.path().to_path_buf());

        let res = warp::test::request().path(&url).reply(&filter).await;
        assert_eq!(res.status(), StatusCode::OK);
        let headers = res.headers();
        assert_eq!(headers["content-type"], "image/gif");
        assert_eq!(
            headers["cache-control"],
            "public, max-age=31536000, immutable"
        );
        assert_eq!(headers["x-content-type-options"], "nosniff");
        assert_eq!(headers["content-length"], image.bytes.len().to_string());
        assert_eq!(res.body().as_ref(), image.bytes);

        let res = warp::test::request()
            .method("HEAD")
            .path(&url)
            .reply(&filter)
            .await;
        assert_eq!(res.status(), StatusCode::OK);
        assert_eq!(
            res.headers()["content-length"],
            image.bytes.len().to_string()
        );
        assert_eq!(res.headers()["content-type"], "image/gif");
        assert!(res.body().is_empty());
    }

    #[tokio::test]
    async fn routes_refuse_other_names() {
        let tmp = tempfile::tempdir().unwrap();
        let image = process(&png(4, 4)).unwrap();
        let url = store(tmp.path(), &image).unwrap();
        let name = url.strip_prefix("/uploads/").unwrap();
        let stem = name.strip_suffix(".png").unwrap();
        for hidden in [".hidden", ".hidden.png", "abc.svg"] {
            std::fs::write(tmp.path().join(hidden), "<svg/>").unwrap();
        }
        std::fs::write(tmp.path().join(format!("{stem}.svg")), "<svg/>").unwrap();
        std::fs::create_dir(tmp.path().join("0123456789abcdef0123.jpg")).unwrap();
        let filter = routes(tmp.path().to_path_buf());

        for path in [
            "/uploads/../secret.png".to_owned(),
            "/uploads/..".to_owned(),
            "/uploads/%2e%2e%2fsecret.png".to_owned(),
            "/uploads/.hidden".to_owned(),
            "/uploads/.hidden.png".to_owned(),
            "/uploads/abc.svg".to_owned(),
            format!("/uploads/{stem}.svg"),
            format!("/uploads/{}.png", stem.to_uppercase()),
            format!("/uploads/{}.png", &stem[1..]),
            format!("/uploads/{stem}0.png"),
            format!("/uploads/{stem}.PNG"),
            format!("/uploads/{stem}.png.png"),
            format!("/uploads/{name}/"),
            format!("/uploads/{name}/x"),
            format!("/uploads/sub/{name}"),
            format!("/{name}"),
            "/uploads/".to_owned(),
            "/uploads/0123456789abcdef0123.jpg".to_owned(), // a directory
            "/uploads/ffffffffffffffffffff.webp".to_owned(), // missing
        ] {
            for method in ["GET", "HEAD"] {
                let result = warp::test::request()
                    .method(method)
                    .path(&path)
                    .filter(&filter)
                    .await;
                match result {
                    Err(rejection) => assert!(rejection.is_not_found(), "{method} {path}"),
                    Ok(res) => panic!("{method} {path} answered {}", res.status()),
                }
            }
        }
    }
}
