//! Blog image uploads through the route: what is accepted is cleaned, stored once and
//! served; what is refused leaves nothing behind.

use crate::common::{TestApp, message};

const BOUNDARY: &str = "----acp-test-boundary";

fn multipart(field: &str, filename: &str, content_type: &str, bytes: &[u8]) -> Vec<u8> {
    let mut body = format!(
        "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{field}\"; filename=\"{filename}\"\r\nContent-Type: {content_type}\r\n\r\n"
    )
    .into_bytes();
    body.extend_from_slice(bytes);
    body.extend_from_slice(format!("\r\n--{BOUNDARY}--\r\n").as_bytes());
    body
}

async fn upload(app: &TestApp, token: &str, body: Vec<u8>) -> warp::http::Response<bytes::Bytes> {
    warp::test::request()
        .method("POST")
        .path("/api/admin/blogs/upload-image")
        .header("authorization", format!("Bearer {token}"))
        .header(
            "content-type",
            format!("multipart/form-data; boundary={BOUNDARY}"),
        )
        .body(body)
        .reply(&app.app)
        .await
}

fn encoded(format: image::ImageFormat, w: u32, h: u32) -> Vec<u8> {
    let img =
        image::RgbImage::from_fn(w, h, |x, y| image::Rgb([(x * 7) as u8, (y * 5) as u8, 120]));
    let mut out = std::io::Cursor::new(Vec::new());
    img.write_to(&mut out, format).unwrap();
    out.into_inner()
}

/// A JPEG carrying an EXIF block with a GPS position (APP1 right after SOI): a TIFF header,
/// IFD0 pointing at a GPS IFD with latitude and longitude references.
fn jpeg_with_gps() -> Vec<u8> {
    let jpeg = encoded(image::ImageFormat::Jpeg, 64, 48);
    let mut tiff = b"MM\0\x2a\0\0\0\x08".to_vec();
    // IFD0: one entry, GPSInfo (0x8825, LONG) -> offset 26.
    tiff.extend_from_slice(&[0, 1, 0x88, 0x25, 0, 4, 0, 0, 0, 1, 0, 0, 0, 26, 0, 0, 0, 0]);
    // GPS IFD: GPSLatitudeRef "N", GPSLongitudeRef "W".
    tiff.extend_from_slice(&[
        0, 2, 0, 1, 0, 2, 0, 0, 0, 2, b'N', 0, 0, 0, 0, 3, 0, 2, 0, 0, 0, 2, b'W', 0, 0, 0, 0, 0,
        0, 0,
    ]);
    let mut app1 = b"Exif\0\0".to_vec();
    app1.extend_from_slice(&tiff);
    let len = (app1.len() + 2) as u16;
    let mut out = jpeg[..2].to_vec();
    out.extend_from_slice(&[0xFF, 0xE1]);
    out.extend_from_slice(&len.to_be_bytes());
    out.extend_from_slice(&app1);
    out.extend_from_slice(&jpeg[2..]);
    out
}

fn uploaded_files(app: &TestApp) -> usize {
    std::fs::read_dir(app.data_dir.join("uploads")).map_or(0, |d| d.count())
}

#[tokio::test]
async fn an_image_is_cleaned_stored_once_and_served() {
    let app = TestApp::new();
    let token = app.login().await;
    let original = jpeg_with_gps();
    assert!(original.windows(4).any(|w| w == b"Exif"));
    let res = upload(
        &app,
        &token,
        multipart("image", "IMG_0001.JPG", "image/jpeg", &original),
    )
    .await;
    assert_eq!(res.status(), 200, "{:?}", res.body());
    assert_eq!(res.headers()["cache-control"], "no-store");
    let url = TestApp::json(&res)["url"].as_str().unwrap().to_owned();
    assert!(
        url.starts_with("/uploads/") && url.ends_with(".jpg"),
        "{url}"
    );

    let served = app.get(&url).await;
    assert_eq!(served.status(), 200);
    assert_eq!(served.headers()["content-type"], "image/jpeg");
    assert_eq!(
        served.headers()["cache-control"],
        "public, max-age=31536000, immutable"
    );
    assert_eq!(served.headers()["x-content-type-options"], "nosniff");
    let bytes = served.body();
    assert!(
        !bytes.windows(4).any(|w| w == b"Exif"),
        "the location did not leave the server"
    );
    let img = image::load_from_memory(bytes).unwrap();
    assert_eq!((img.width(), img.height()), (64, 48));

    // The same image again: the same address, one file.
    let again = upload(
        &app,
        &token,
        multipart("image", "copy.jpg", "image/jpeg", &original),
    )
    .await;
    assert_eq!(TestApp::json(&again)["url"], url.as_str());
    assert_eq!(uploaded_files(&app), 1);

    // The type comes from the bytes, not the name or the declared type.
    let png = upload(
        &app,
        &token,
        multipart(
            "image",
            "photo.jpg",
            "image/jpeg",
            &encoded(image::ImageFormat::Png, 10, 10),
        ),
    )
    .await;
    assert!(
        TestApp::json(&png)["url"]
            .as_str()
            .unwrap()
            .ends_with(".png")
    );
    let gif = upload(
        &app,
        &token,
        multipart(
            "image",
            "a.gif",
            "image/gif",
            &encoded(image::ImageFormat::Gif, 10, 10),
        ),
    )
    .await;
    assert_eq!(gif.status(), 200);
}

#[tokio::test]
async fn refused_uploads_say_why_and_leave_nothing() {
    let app = TestApp::new();
    let token = app.login().await;
    let mut polyglot = encoded(image::ImageFormat::Jpeg, 16, 16);
    polyglot.extend_from_slice(b"<script>alert(1)</script>");
    let mut truncated = encoded(image::ImageFormat::Png, 64, 64);
    truncated.truncate(truncated.len() / 2);
    // A PNG whose header claims 50,000 x 50,000 pixels.
    let mut bomb = encoded(image::ImageFormat::Png, 1, 1);
    bomb[16..20].copy_from_slice(&50_000u32.to_be_bytes());
    bomb[20..24].copy_from_slice(&50_000u32.to_be_bytes());
    let crc = crc32(&bomb[12..29]);
    bomb[29..33].copy_from_slice(&crc.to_be_bytes());
    for (name, bytes) in [
        (
            "svg",
            br#"<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>"#.to_vec(),
        ),
        (
            "html",
            b"<!doctype html><html><body><script>alert(1)</script></body></html>".to_vec(),
        ),
        ("polyglot", polyglot),
        ("truncated", truncated),
        (
            "corrupt",
            [&b"\x89PNG\r\n\x1a\n"[..], &[0x42; 200]].concat(),
        ),
        ("bomb", bomb),
        ("empty", Vec::new()),
    ] {
        let res = upload(
            &app,
            &token,
            multipart("image", &format!("{name}.png"), "image/png", &bytes),
        )
        .await;
        assert_eq!(res.status(), 400, "{name}");
        assert!(!message(&res).is_empty(), "{name}");
    }
    // Exactly 5 MB is not "less than 5MB".
    let huge = vec![0xFFu8; 5 * 1024 * 1024];
    let res = upload(
        &app,
        &token,
        multipart("image", "big.jpg", "image/jpeg", &huge),
    )
    .await;
    assert_eq!(res.status(), 413);
    assert_eq!(message(&res), "Image must be less than 5MB");
    let res = upload(&app, &token, vec![b'x'; 6 * 1024 * 1024]).await;
    assert_eq!(res.status(), 413);
    assert_eq!(message(&res), "Image must be less than 5MB");

    let res = upload(
        &app,
        &token,
        multipart(
            "file",
            "a.png",
            "image/png",
            &encoded(image::ImageFormat::Png, 4, 4),
        ),
    )
    .await;
    assert_eq!(res.status(), 400);
    assert_eq!(message(&res), "Choose an image to upload (field image).");
    let res = warp::test::request()
        .method("POST")
        .path("/api/admin/blogs/upload-image")
        .header("authorization", format!("Bearer {token}"))
        .header("content-type", "application/json")
        .body("{}")
        .reply(&app.app)
        .await;
    assert_eq!(res.status(), 415);
    assert_eq!(
        uploaded_files(&app),
        0,
        "nothing written for a refused upload"
    );
    // Unknown or odd names under /uploads are the site's 404.
    for path in [
        "/uploads/0123456789abcdef0123.jpg",
        "/uploads/..%2Fsite.db",
        "/uploads/x.svg",
    ] {
        assert_eq!(app.get(path).await.status(), 404, "{path}");
    }
}

/// CRC-32 (IEEE), as PNG chunks use it.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// A photo larger than the pages ever show is stored at 2,560 px on its longer side, in its
/// own shape; a smaller one keeps its size.
#[tokio::test]
async fn a_large_photo_is_stored_at_2560_px() {
    let app = TestApp::new();
    let token = app.login().await;
    for (format, name, (w, h), stored) in [
        (
            image::ImageFormat::Jpeg,
            "wide.jpg",
            (3000, 2000),
            (2560, 1707),
        ),
        (
            image::ImageFormat::Png,
            "tall.png",
            (1200, 2700),
            (1138, 2560),
        ),
        (
            image::ImageFormat::Jpeg,
            "small.jpg",
            (2560, 1000),
            (2560, 1000),
        ),
    ] {
        let res = upload(
            &app,
            &token,
            multipart("image", name, "image/x", &encoded(format, w, h)),
        )
        .await;
        assert_eq!(res.status(), 200, "{name}: {:?}", res.body());
        let url = TestApp::json(&res)["url"].as_str().unwrap().to_owned();
        let served = app.get(&url).await;
        let img = image::load_from_memory(served.body()).unwrap();
        assert_eq!((img.width(), img.height()), stored, "{name}");
    }
}

/// Who runs events may put images in an event's description, through the events' own
/// address (with the same checks), and still may not upload as a post's writer.
#[tokio::test]
async fn an_organizer_uploads_an_events_image_through_the_events_address_only() {
    let app = TestApp::new();
    let organizer = crate::staff::member(
        &app,
        api::domain::staff::Role::Organizer,
        "org@party.example",
    )
    .await
    .token;
    let body = multipart(
        "image",
        "hall.png",
        "image/png",
        &encoded(image::ImageFormat::Png, 80, 60),
    );
    assert_eq!(upload(&app, &organizer, body.clone()).await.status(), 403);
    let res = warp::test::request()
        .method("POST")
        .path("/api/admin/events/upload-image")
        .header("authorization", format!("Bearer {organizer}"))
        .header(
            "content-type",
            format!("multipart/form-data; boundary={BOUNDARY}"),
        )
        .body(body)
        .reply(&app.app)
        .await;
    assert_eq!(res.status(), 200, "{:?}", res.body());
    let url = TestApp::json(&res)["url"].as_str().unwrap().to_owned();
    let image = app.get(&url).await;
    assert_eq!(image.status(), 200, "{url}");
    assert!(
        image.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("image/")
    );
}
