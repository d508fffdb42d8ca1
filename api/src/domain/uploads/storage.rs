//! Keeping accepted images: named by a hash of their content, written into the uploads
//! folder (`DATA_DIR/uploads`), and served back at `/uploads/{name}`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use sha2::{Digest, Sha256};
use warp::filters::BoxedFilter;
use warp::http::{Method, Response as HttpResponse, StatusCode, header};
use warp::hyper::body::Bytes;
use warp::reply::Response;
use warp::{Filter, Rejection};

use super::Processed;
use super::check::content_type_for;

/// Writes a processed image under `dir` (created if missing) as `{first 20 hex digits of its
/// SHA-256}.{extension}` and returns its public URL, `/uploads/{name}`. The file appears
/// atomically (written to a hidden temporary file in `dir`, then renamed); the same image
/// uploaded again reuses the file. Blocking I/O: call it from `spawn_blocking`.
pub fn store(dir: &Path, image: &Processed) -> std::io::Result<String> {
    std::fs::create_dir_all(dir)?;
    let digest = Sha256::digest(&image.bytes);
    let hex: String = digest[..10].iter().map(|b| format!("{b:02x}")).collect();
    let name = format!("{hex}.{}", image.extension);
    let path = dir.join(&name);
    let url = format!("/uploads/{name}");
    if std::fs::metadata(&path).is_ok_and(|m| m.is_file() && m.len() == image.bytes.len() as u64) {
        return Ok(url);
    }
    let temp = dir.join(format!(".{name}.{:016x}.tmp", rand::random::<u64>()));
    let written = (|| {
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temp)?;
        file.write_all(&image.bytes)?;
        file.sync_all()?;
        std::fs::rename(&temp, &path)
    })();
    if let Err(e) = written {
        let _ = std::fs::remove_file(&temp);
        return Err(e);
    }
    Ok(url)
}

/// The content type for a stored file's name, if the name is one `store` could have made:
/// `^[0-9a-f]{20}\.(jpg|png|gif|webp)$`.
fn stored_name_type(name: &str) -> Option<&'static str> {
    let (stem, extension) = name.split_once('.')?;
    let hex = stem.len() == 20 && stem.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
    hex.then(|| content_type_for(extension)).flatten()
}

/// `GET`/`HEAD /uploads/{name}`: the files [`store`] wrote in `dir`, cached forever. Anything
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
    use super::super::process;
    use super::super::test_corpus::{gif, jpeg, png};
    use super::*;

    fn file_names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn store_names_files_by_content_and_reuses_them() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("uploads");
        let image = process(&png(12, 12)).unwrap();

        let url = store(&dir, &image).unwrap();
        let name = url.strip_prefix("/uploads/").unwrap();
        assert_eq!(stored_name_type(name), Some("image/png"));
        let digest = Sha256::digest(&image.bytes);
        assert!(name.starts_with(&format!("{:02x}{:02x}", digest[0], digest[1])));
        assert_eq!(std::fs::read(dir.join(name)).unwrap(), image.bytes);

        assert_eq!(store(&dir, &image).unwrap(), url);
        assert_eq!(file_names(&dir), [name]);

        let other = process(&jpeg(12, 12)).unwrap();
        let other_url = store(&dir, &other).unwrap();
        assert!(other_url.ends_with(".jpg"));
        assert_eq!(file_names(&dir).len(), 2);
    }

    // -- Serving --------------------------------------------------------------------------

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
