//! Files answered from memory ahead of the routes, the trailing-slash redirect, and a new
//! post's images going live with its pages.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use super::{Server, bare_site, blog_site, connect, env_refs, exchange, header, request, sign_in};

/// Files answered from memory ahead of the routes keep everything the routes would send:
/// every security header, the compressed copy, revalidation, HEAD; a file written from
/// outside shows once the server is sent SIGHUP.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn static_files_from_memory_behave_like_the_routes() {
    // A site whose blog rebuilds work, so nothing re-indexes the files but the SIGHUP below.
    let (dir, env) = blog_site(0);
    let dist = env[1].1.clone();
    let page = format!(
        "<html><h1>Contact</h1>{}</html>",
        "<p>Write to us.</p>".repeat(100)
    );
    std::fs::create_dir_all(dist.join("contact")).unwrap();
    std::fs::create_dir_all(dist.join("assets")).unwrap();
    std::fs::write(dist.join("contact/index.html"), &page).unwrap();
    std::fs::write(dist.join("contact/index.html.br"), b"brotli bytes").unwrap();
    std::fs::write(dist.join("contact/index.html.gz"), b"gzip bytes").unwrap();
    std::fs::write(dist.join("assets/site-0a1b2c.css"), "body{}").unwrap();
    let server = Server::start(dir.path(), &env_refs(&env)).await;
    let mut stream = connect(&server.addr).await;
    // The api's own answer (through the routes) shows the headers every answer needs.
    let (_, api_headers, _) = exchange(&mut stream, "GET", "/api/blogs", &[], "")
        .await
        .unwrap();
    let security: Vec<&(String, String)> = api_headers
        .iter()
        .filter(|(name, _)| {
            name.starts_with("content-security")
                || name.starts_with("x-")
                || name.ends_with("-policy")
        })
        .collect();
    assert!(security.len() >= 6, "{api_headers:?}");

    let (status, headers, body) = exchange(
        &mut stream,
        "GET",
        "/contact",
        &[("Accept-Encoding", "gzip, br")],
        "",
    )
    .await
    .unwrap();
    assert_eq!(status, 200);
    for (name, value) in &security {
        assert_eq!(
            header(&headers, name),
            Some(value.as_str()),
            "{name} on a static page"
        );
    }
    assert_eq!(header(&headers, "content-encoding"), Some("br"));
    assert_eq!(header(&headers, "vary"), Some("Accept-Encoding"));
    assert_eq!(
        header(&headers, "content-type"),
        Some("text/html; charset=utf-8")
    );
    assert_eq!(header(&headers, "cache-control"), Some("no-cache"));
    let br = std::fs::metadata(dist.join("contact/index.html.br"))
        .unwrap()
        .len();
    assert_eq!(
        header(&headers, "content-length"),
        Some(br.to_string().as_str())
    );
    assert!(!body.is_empty());
    let etag = header(&headers, "etag").unwrap().to_owned();
    let (status, headers, body) = exchange(
        &mut stream,
        "GET",
        "/contact",
        &[("Accept-Encoding", "gzip, br"), ("If-None-Match", &etag)],
        "",
    )
    .await
    .unwrap();
    assert_eq!((status, body.as_str()), (304, ""));
    assert!(header(&headers, "content-security-policy").is_some());
    let (status, headers, body) = exchange(&mut stream, "HEAD", "/contact", &[], "")
        .await
        .unwrap();
    assert_eq!((status, body.as_str()), (200, ""));
    let plain = std::fs::metadata(dist.join("contact/index.html"))
        .unwrap()
        .len();
    assert_eq!(
        header(&headers, "content-length"),
        Some(plain.to_string().as_str())
    );

    // A fingerprinted asset is cached for good.
    let asset = std::fs::read_dir(dist.join("assets"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .find(|n| n.ends_with(".css"))
        .unwrap();
    let (status, headers, _) = exchange(&mut stream, "GET", &format!("/assets/{asset}"), &[], "")
        .await
        .unwrap();
    assert_eq!(status, 200);
    assert_eq!(
        header(&headers, "cache-control"),
        Some("public, max-age=31536000, immutable")
    );
    assert!(header(&headers, "x-frame-options").is_some());

    // Written from outside: unseen until SIGHUP, then served.
    std::fs::create_dir_all(dist.join("fresh")).unwrap();
    std::fs::write(dist.join("fresh/index.html"), "<html>fresh</html>").unwrap();
    let (status, _) = request(&mut stream, "GET", "/fresh", &[], "")
        .await
        .unwrap();
    assert_eq!(status, 404);
    std::process::Command::new("kill")
        .args(["-HUP", &server.child.id().unwrap().to_string()])
        .status()
        .unwrap();
    let started = Instant::now();
    loop {
        let (status, body) = request(&mut stream, "GET", "/fresh", &[], "")
            .await
            .unwrap();
        if status == 200 {
            assert_eq!(body, "<html>fresh</html>");
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "SIGHUP did not re-index"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Every same-origin URL a page or feed names: links, images (each `srcset` candidate),
/// scripts, social-card and canonical tags, as paths to ask the server for.
fn referenced_paths(body: &str, origin: &str) -> Vec<String> {
    // The feed carries each post's HTML escaped.
    let body = &body
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">");
    let mut found = std::collections::BTreeSet::new();
    for attr in [
        "href=\"",
        "src=\"",
        "srcset=\"",
        "content=\"",
        "<loc>",
        "<id>",
    ] {
        let close = if attr.starts_with('<') { "</" } else { "\"" };
        for (i, _) in body.match_indices(attr) {
            let rest = &body[i + attr.len()..];
            let Some(end) = rest.find(close) else {
                continue;
            };
            let value = rest[..end].replace("&amp;", "&");
            for candidate in value.split(", ") {
                let url = candidate.split(' ').next().unwrap_or("");
                let path = url.strip_prefix(origin).unwrap_or(url);
                if path.starts_with('/') && !path.starts_with("//") {
                    found.insert(path.split('#').next().unwrap().to_owned());
                }
            }
        }
    }
    found.into_iter().collect()
}

pub(super) fn multipart_image(bytes: &[u8]) -> (String, Vec<u8>) {
    let boundary = "----real-server-boundary";
    let mut body = format!(
        "--{boundary}\r\nContent-Disposition: form-data; name=\"image\"; filename=\"photo.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n"
    )
    .into_bytes();
    body.extend_from_slice(bytes);
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

pub(super) fn jpeg(w: u32, h: u32) -> Vec<u8> {
    let img = image::RgbImage::from_fn(w, h, |x, y| {
        image::Rgb([(x % 251) as u8, (y % 241) as u8, 90])
    });
    let mut out = std::io::Cursor::new(Vec::new());
    img.write_to(&mut out, image::ImageFormat::Jpeg).unwrap();
    out.into_inner()
}

/// A post published through the admin API with a new featured image and a new image in its
/// text: the moment the admin is answered, every URL its page, the list, the feed and the
/// social-card tags name answers 200 (the images' variants went live with the pages).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_posts_images_are_live_with_its_pages() {
    let (dir, env) = blog_site(0);
    let opts = {
        let mut o = generator::BuildOptions::for_project(dir.path());
        o.content_dir = env[2].1.clone();
        o.data_dir = env[0].1.clone();
        o.out_dir = env[1].1.clone();
        o.templates_dir = dir.path().join("site/templates");
        o.client_dir = dir.path().join("build/client");
        o
    };
    generator::build(&opts, &generator::fixture::EchoRenderer).unwrap();
    let server = Server::start(dir.path(), &env_refs(&env)).await;
    let mut stream = connect(&server.addr).await;
    let auth = format!("Bearer {}", sign_in(&mut stream).await);

    let mut urls = Vec::new();
    for (w, h) in [(800, 600), (640, 480)] {
        let (content_type, body) = multipart_image(&jpeg(w, h));
        let (status, body) = request(
            &mut stream,
            "POST",
            "/api/admin/blogs/upload-image",
            &[("Content-Type", &content_type), ("Authorization", &auth)],
            body,
        )
        .await
        .unwrap();
        assert_eq!(status, 200, "{body}");
        let body: serde_json::Value = serde_json::from_str(&body).unwrap();
        urls.push(body["url"].as_str().unwrap().to_owned());
    }
    let post = serde_json::json!({
        "title": "Pictures from the convention",
        "excerpt": "What we saw.",
        "content": format!("<p>Here is the hall.</p><img src=\"{}\" alt=\"The hall\"><p>More.</p>", urls[1]),
        "featuredImage": urls[0],
        "featuredImageAlt": "Delegates",
        "status": "published",
    });
    let (status, body) = request(
        &mut stream,
        "POST",
        "/api/admin/blogs",
        &[
            ("Content-Type", "application/json"),
            ("Authorization", &auth),
        ],
        post.to_string(),
    )
    .await
    .unwrap();
    assert!((200..300).contains(&status), "{status} {body}");
    assert!(!body.contains("warning"), "{body}");
    let slug = serde_json::from_str::<serde_json::Value>(&body).unwrap()["slug"]
        .as_str()
        .unwrap()
        .to_owned();

    // At once: no waiting, no SIGHUP.
    let mut checked = HashSet::new();
    let mut variants = 0;
    for page in [
        "/blog".to_owned(),
        format!("/blog/{slug}"),
        "/blog/feed.xml".into(),
    ] {
        let (status, body) = request(&mut stream, "GET", &page, &[], "").await.unwrap();
        assert_eq!(status, 200, "{page}");
        let paths = referenced_paths(&body, "https://example.org");
        assert!(
            paths.iter().any(|p| p.starts_with("/media/uploads/")),
            "{page} shows the new images: {paths:?}"
        );
        for path in paths {
            if !checked.insert(path.clone()) {
                continue;
            }
            variants += usize::from(path.starts_with("/media/uploads/"));
            let (status, _) = request(&mut stream, "GET", &path, &[], "").await.unwrap();
            assert!(
                status == 200 || (status == 308 && path.ends_with('/')),
                "{path} (named by {page}) answered {status}"
            );
        }
    }
    // Both images at several widths, in WebP and JPEG, and the social card.
    assert!(
        variants >= 8,
        "{variants} image variants checked: {checked:?}"
    );
}

/// The trailing-slash redirect never points at another site: `//evil.example/` is a path on
/// this site, and its `Location` starts with exactly one slash.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_redirect_never_leaves_the_site() {
    let (dir, env) = bare_site();
    let dist = &env[1].1;
    std::fs::create_dir_all(dist.join("contact")).unwrap();
    std::fs::write(dist.join("contact/index.html"), "<h1>Contact</h1>").unwrap();
    let server = Server::start(dir.path(), &env_refs(&env)).await;
    let mut stream = connect(&server.addr).await;
    for (path, expected) in [
        ("//evil.example/", Some("/evil.example")),
        ("///evil.example/", Some("/evil.example")),
        ("//evil.example//x/", Some("/evil.example/x")),
        ("/%2F%2Fevil.example/", Some("/%2F%2Fevil.example")),
        ("/contact/?a=1", Some("/contact?a=1")),
        ("/%5Cevil.example/", None),
        ("/%5C%5Cevil.example/", None),
    ] {
        let (status, headers, _) = exchange(&mut stream, "GET", path, &[], "").await.unwrap();
        let location = header(&headers, "location");
        assert_eq!(location, expected, "{path} answered {status}");
        if let Some(location) = location {
            assert_eq!(status, 308, "{path}");
            assert!(
                !location.starts_with("//") && !location.starts_with("/\\"),
                "{path}"
            );
        }
    }
}
