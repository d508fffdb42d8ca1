use super::*;

fn fixture(dir: &Path, name: &str, w: u32, h: u32) {
    let img = image::RgbImage::from_fn(w, h, |x, y| {
        image::Rgb([(x % 255) as u8, (y % 255) as u8, 90])
    });
    fs::create_dir_all(dir.join(name).parent().unwrap()).unwrap();
    img.save(dir.join(name)).unwrap();
}

#[test]
fn makes_every_width_up_to_the_source_and_never_enlarges() {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("media");
    fixture(&src, "cards/a.jpg", 700, 350);
    let media = Media::new(
        src,
        tmp.path().join("cache"),
        Output::new(tmp.path().join("dist")),
    );
    let r = media.responsive("cards/a.jpg").unwrap();
    let widths: Vec<&str> = r
        .srcset
        .split(", ")
        .map(|s| s.rsplit(' ').next().unwrap())
        .collect();
    assert_eq!(widths, ["320w", "480w", "640w", "700w"]);
    assert_eq!((r.width, r.height), (700, 350));
    let file = tmp.path().join("dist").join(r.src.trim_start_matches('/'));
    assert_eq!(image::open(file).unwrap().dimensions(), (700, 350));
    assert!(r.src.starts_with("/media/cards/a-700.") && r.src.ends_with(".jpg"));
}

#[test]
fn every_width_also_comes_in_webp_with_a_phone_sized_step() {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("media");
    fixture(&src, "hero.jpg", 1000, 500);
    let dist = tmp.path().join("dist");
    let media = Media::new(src, tmp.path().join("cache"), Output::new(&dist));
    let r = media.responsive("hero.jpg").unwrap();
    let entries: Vec<(&str, &str)> = r
        .webp_srcset
        .split(", ")
        .map(|s| s.split_once(' ').unwrap())
        .collect();
    let widths: Vec<&str> = entries.iter().map(|(_, w)| *w).collect();
    assert_eq!(widths, ["320w", "480w", "640w", "768w", "960w", "1000w"]);
    for (url, w) in entries {
        assert!(url.ends_with(".webp"), "{url}");
        let bytes = fs::read(dist.join(url.trim_start_matches('/'))).unwrap();
        let img = image::load_from_memory_with_format(&bytes, image::ImageFormat::WebP).unwrap();
        assert_eq!(format!("{}w", img.width()), w);
    }
    // Lossy WebP is what makes the difference on a phone: well under the JPEG.
    let size = |url: &str| {
        fs::metadata(dist.join(url.trim_start_matches('/')))
            .unwrap()
            .len()
    };
    let jpeg_768 = r
        .srcset
        .split(", ")
        .nth(3)
        .unwrap()
        .split(' ')
        .next()
        .unwrap();
    let webp_768 = r
        .webp_srcset
        .split(", ")
        .nth(3)
        .unwrap()
        .split(' ')
        .next()
        .unwrap();
    assert!(
        size(webp_768) < size(jpeg_768),
        "{} vs {}",
        size(webp_768),
        size(jpeg_768)
    );
}

#[test]
fn encoded_files_come_from_the_cache_on_the_next_build() {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("media");
    fixture(&src, "a.jpg", 400, 200);
    let cache = tmp.path().join("cache");
    Media::new(
        src.clone(),
        cache.clone(),
        Output::new(tmp.path().join("d1")),
    )
    .responsive("a.jpg")
    .unwrap();
    let cached: Vec<PathBuf> = fs::read_dir(&cache)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(cached.len(), 4, "320 and 400 wide, JPEG and WebP each");
    // Mark every cached file: a second build must copy the marks, not re-encode.
    for path in &cached {
        fs::write(path, b"from the cache").unwrap();
    }
    let dist = tmp.path().join("d2");
    let r = Media::new(src, cache, Output::new(&dist))
        .responsive("a.jpg")
        .unwrap();
    let webp = r.webp_srcset.split(' ').next().unwrap();
    assert_eq!(
        fs::read(dist.join(webp.trim_start_matches('/'))).unwrap(),
        b"from the cache"
    );
}

#[test]
fn a_changed_image_gets_a_new_name() {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("media");
    fixture(&src, "a.jpg", 400, 400);
    let first = Media::new(
        src.clone(),
        tmp.path().join("c"),
        Output::new(tmp.path().join("d")),
    )
    .responsive("a.jpg")
    .unwrap();
    fixture(&src, "a.jpg", 400, 300);
    let second = Media::new(src, tmp.path().join("c"), Output::new(tmp.path().join("d")))
        .responsive("a.jpg")
        .unwrap();
    assert_ne!(first.src, second.src);
    assert_eq!(second.height, 300);
}

#[test]
fn missing_images_and_escapes_are_errors_that_name_the_file() {
    let tmp = tempfile::tempdir().unwrap();
    let media = Media::new(
        tmp.path().into(),
        tmp.path().join("c"),
        Output::new(tmp.path().join("d")),
    );
    let err = format!("{:#}", media.responsive("nope.jpg").unwrap_err());
    assert!(err.contains("content/media/nope.jpg"), "{err}");
    assert!(media.responsive("../secret.jpg").is_err());
}

#[test]
fn fit_keeps_the_aspect_ratio() {
    assert_eq!(fit((2000, 1200), 640), (640, 384));
    assert_eq!(fit((300, 200), 640), (300, 200));
}
