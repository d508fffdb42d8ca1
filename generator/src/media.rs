//! Turns the party's images in `content/media` into right-sized, fingerprinted variants
//! for `srcset`, and the favicons. Resized files are cached by the source's hash, so
//! only new or changed images cost time on the next build.

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::{Context as _, Result, bail};
use image::{DynamicImage, GenericImageView, ImageFormat, imageops::FilterType};
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::output::Output;

/// Widths offered in `srcset`; a source is never enlarged.
const WIDTHS: &[u32] = &[320, 480, 640, 960, 1280, 1600, 1920];
const JPEG_QUALITY: u8 = 80;

/// A processed image: what an `<img>` needs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Responsive {
    /// URL of the largest variant (the `src` fallback).
    pub src: String,
    /// `url 320w, url 640w, …`
    pub srcset: String,
    /// Intrinsic size of the largest variant, for `width`/`height` (no layout shift).
    pub width: u32,
    pub height: u32,
}

/// Processes images on demand while pages render and remembers the results.
pub struct Media {
    source_dir: PathBuf,
    cache_dir: PathBuf,
    output: Output,
    done: Mutex<HashMap<String, Responsive>>,
}

impl Media {
    /// `source_dir` is `content/media`; `cache_dir` keeps resized files between builds.
    pub fn new(source_dir: PathBuf, cache_dir: PathBuf, output: Output) -> Media {
        Media {
            source_dir,
            cache_dir,
            output,
            done: Mutex::new(HashMap::new()),
        }
    }

    /// The responsive variants of `name` (a path relative to `content/media`), made once.
    pub fn responsive(&self, name: &str) -> Result<Responsive> {
        if let Some(found) = self.done.lock().unwrap().get(name) {
            return Ok(found.clone());
        }
        let made = self
            .make(name)
            .with_context(|| format!("Failed to process image content/media/{name}"))?;
        self.done
            .lock()
            .unwrap()
            .insert(name.to_owned(), made.clone());
        Ok(made)
    }

    /// The URL of a single variant no wider than `width` (social cards, JSON-LD).
    pub fn sized(&self, name: &str, width: u32) -> Result<(String, u32, u32)> {
        let (bytes, img) = self.open(name)?;
        let (w, h) = fit(img.dimensions(), width);
        let url = self.variant(name, &bytes, &img, w, h)?;
        Ok((url, w, h))
    }

    /// Writes favicon.ico, the PNG icons and the SVG mark from `favicon.png` and `logo.svg`.
    pub fn favicons(&self) -> Result<()> {
        let source = self.source_dir.join("favicon.png");
        let img =
            image::open(&source).with_context(|| format!("Failed to read {}", source.display()))?;
        for (rel, size) in [
            ("favicon-32.png", 32),
            ("apple-touch-icon.png", 180),
            ("icon-512.png", 512),
        ] {
            let resized = img.resize_exact(size, size, FilterType::Lanczos3);
            self.output
                .write(rel, &encode(&resized, ImageFormat::Png)?)?;
        }
        let ico = img.resize_exact(32, 32, FilterType::Lanczos3);
        self.output
            .write("favicon.ico", &encode(&ico, ImageFormat::Ico)?)?;
        let svg = self.source_dir.join("logo.svg");
        self.output.copy(&svg, "favicon.svg")
    }

    fn make(&self, name: &str) -> Result<Responsive> {
        let (bytes, img) = self.open(name)?;
        let (sw, sh) = img.dimensions();
        let mut widths: Vec<u32> = WIDTHS.iter().copied().filter(|&w| w < sw).collect();
        if widths.last() != Some(&sw.min(*WIDTHS.last().unwrap())) {
            widths.push(sw.min(*WIDTHS.last().unwrap()));
        }
        let mut srcset = Vec::new();
        let mut largest = (String::new(), 0, 0);
        for w in widths {
            let (w, h) = fit((sw, sh), w);
            let url = self.variant(name, &bytes, &img, w, h)?;
            srcset.push(format!("{url} {w}w"));
            largest = (url, w, h);
        }
        Ok(Responsive {
            src: largest.0,
            srcset: srcset.join(", "),
            width: largest.1,
            height: largest.2,
        })
    }

    fn open(&self, name: &str) -> Result<(Vec<u8>, DynamicImage)> {
        if name.contains("..") || name.starts_with('/') {
            bail!("image paths are relative to content/media and stay inside it");
        }
        let path = self.source_dir.join(name);
        let bytes =
            fs::read(&path).with_context(|| format!("Failed to read {}", path.display()))?;
        let img = image::load_from_memory(&bytes)
            .with_context(|| format!("{} is not an image we can read", path.display()))?;
        Ok((bytes, img))
    }

    /// Writes one variant (from the cache when possible) and returns its URL.
    fn variant(
        &self,
        name: &str,
        source: &[u8],
        img: &DynamicImage,
        w: u32,
        h: u32,
    ) -> Result<String> {
        let format = if img.color().has_alpha() {
            ImageFormat::Png
        } else {
            ImageFormat::Jpeg
        };
        let ext = if format == ImageFormat::Png {
            "png"
        } else {
            "jpg"
        };
        let hash = short_hash(source);
        let stem = Path::new(name).with_extension("");
        let rel = format!("media/{}-{w}.{hash}.{ext}", stem.display());
        if !self.output.exists(&rel) {
            let cached = self.cache_dir.join(format!("{hash}-{w}.{ext}"));
            let bytes = match fs::read(&cached) {
                Ok(bytes) => bytes,
                Err(_) => {
                    let resized = if w == img.width() {
                        img.clone()
                    } else {
                        img.resize_exact(w, h, FilterType::Lanczos3)
                    };
                    let bytes = encode(&resized, format)?;
                    fs::create_dir_all(&self.cache_dir).ok();
                    // The cache is only a speed-up: failing to fill it must not fail the build.
                    let _ = fs::write(&cached, &bytes);
                    bytes
                }
            };
            self.output.write(&rel, &bytes)?;
        }
        Ok(format!("/{rel}"))
    }
}

/// Scales `(w, h)` down to at most `max_w` wide, keeping the aspect ratio.
fn fit((w, h): (u32, u32), max_w: u32) -> (u32, u32) {
    if w <= max_w {
        (w, h)
    } else {
        (
            max_w,
            ((h as u64 * max_w as u64 + w as u64 / 2) / w as u64).max(1) as u32,
        )
    }
}

fn encode(img: &DynamicImage, format: ImageFormat) -> Result<Vec<u8>> {
    let mut out = std::io::Cursor::new(Vec::new());
    match format {
        ImageFormat::Jpeg => {
            let rgb = img.to_rgb8();
            image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, JPEG_QUALITY)
                .encode_image(&rgb)?;
        }
        _ => img.write_to(&mut out, format)?,
    }
    Ok(out.into_inner())
}

/// First 10 hex digits of the SHA-256: the fingerprint in asset names.
pub fn short_hash(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    digest.iter().take(5).map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
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
        assert!(r.src.starts_with("/media/cards/a-700."));
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
}
