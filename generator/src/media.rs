//! Turns the party's images in `content/media` into right-sized, fingerprinted variants
//! for `<picture>`: each width in WebP (what every current browser takes, about a third
//! smaller) and in JPEG or PNG as the fallback; and the favicons. Every encoded file is
//! cached by the source's hash, so only new or changed images cost time on the next build.

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::output::{Output, short_hash};
use anyhow::{Context as _, Result, bail};
use image::{DynamicImage, GenericImageView};
use serde::Serialize;

/// Widths offered in `srcset`; a source is never enlarged. 768 is there for phones: a
/// 412-px screen at DPR 1.75 wants 721 px for a full-width image, and without it the
/// browser would jump to 960.
const WIDTHS: &[u32] = &[320, 480, 640, 768, 960, 1280, 1600, 1920];
const JPEG_QUALITY: u8 = 80;
/// Lossy WebP at 75 looks like JPEG at 80 on these illustrations, at about 60% of the bytes.
const WEBP_QUALITY: f32 = 75.0;

/// A processed image: what a `<picture>` needs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Responsive {
    /// URL of the largest fallback variant (the `<img src>`).
    pub src: String,
    /// Fallback (JPEG, or PNG for images with transparency): `url 320w, url 640w, …`
    pub srcset: String,
    /// The same widths in WebP, for `<source type="image/webp">`.
    pub webp_srcset: String,
    /// Intrinsic size of the largest variant, for `width`/`height` (no layout shift).
    pub width: u32,
    pub height: u32,
}

/// How a variant is encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Encoding {
    Jpeg,
    Png,
    WebP,
    Ico,
}

impl Encoding {
    /// The fallback for a source: PNG keeps transparency, JPEG is smaller for the rest.
    fn fallback_for(source: &Source) -> Encoding {
        if source.has_alpha {
            Encoding::Png
        } else {
            Encoding::Jpeg
        }
    }

    fn ext(self) -> &'static str {
        match self {
            Encoding::Jpeg => "jpg",
            Encoding::Png => "png",
            Encoding::WebP => "webp",
            Encoding::Ico => "ico",
        }
    }

    /// Part of the cache key: a change of quality must not reuse old files.
    fn settings(self) -> String {
        match self {
            Encoding::Jpeg => format!("q{JPEG_QUALITY}"),
            Encoding::WebP => format!("q{WEBP_QUALITY}"),
            Encoding::Png | Encoding::Ico => "lossless".into(),
        }
    }

    fn encode(self, img: &DynamicImage) -> Result<Vec<u8>> {
        match self {
            Encoding::Jpeg => crunch::jpeg(img, JPEG_QUALITY),
            // Slowest, smallest: encoding happens once per image and is cached.
            Encoding::WebP => crunch::webp(
                img,
                crunch::WebP {
                    lossless: false,
                    quality: WEBP_QUALITY,
                    method: 6,
                },
            ),
            Encoding::Png => crunch::png(img, false),
            Encoding::Ico => crunch::png(img, true),
        }
    }
}

/// An opened source image and its fingerprint. Only its header is read until a variant has to
/// be encoded: when every variant is cached, a build never decodes the image (a full decode
/// of a large JPEG takes tens of milliseconds, and every build opens every image).
struct Source {
    name: String,
    hash: String,
    bytes: Vec<u8>,
    dimensions: (u32, u32),
    has_alpha: bool,
    decoded: std::sync::OnceLock<DynamicImage>,
}

impl Source {
    fn reader(bytes: &[u8]) -> Result<image::ImageReader<std::io::Cursor<&[u8]>>> {
        Ok(image::ImageReader::new(std::io::Cursor::new(bytes)).with_guessed_format()?)
    }

    /// The decoded image, decoded on first use.
    fn img(&self) -> Result<&DynamicImage> {
        if let Some(img) = self.decoded.get() {
            return Ok(img);
        }
        let img = Source::reader(&self.bytes)?
            .decode()
            .with_context(|| format!("{} is not an image we can read", self.name))?;
        Ok(self.decoded.get_or_init(|| img))
    }
}

/// Held while an image is in memory: its variants being made here, or (the api) an upload
/// being checked and re-encoded. A decoded photo and its resized copies are tens of MB;
/// one at a time keeps a process's peak memory known.
static MAKING: Mutex<()> = Mutex::new(());

/// Waits for, and holds until dropped, the process's one turn to work on an image.
pub fn image_turn() -> std::sync::MutexGuard<'static, ()> {
    MAKING.lock().unwrap_or_else(|p| p.into_inner())
}

/// One width of a responsive image: its size, and the fallback's and the WebP's URLs.
type WidthVariants = (u32, u32, String, String);

/// A single variant made by [`Media::sized`]: its URL, width and height.
type Sized = (String, u32, u32);

/// Processes images on demand while pages render and remembers the results.
pub struct Media {
    source_dir: PathBuf,
    cache_dir: PathBuf,
    output: Output,
    done: Mutex<HashMap<String, Responsive>>,
    /// `sized` results by image and width: every blog post with the same featured image
    /// shares one social card, and opening the source (a full decode) costs milliseconds.
    sized_done: Mutex<HashMap<(String, u32), Sized>>,
}

impl Media {
    /// `source_dir` is `content/media`; `cache_dir` keeps encoded files between builds.
    pub fn new(source_dir: PathBuf, cache_dir: PathBuf, output: Output) -> Media {
        Media {
            source_dir,
            cache_dir,
            output,
            done: Mutex::new(HashMap::new()),
            sized_done: Mutex::new(HashMap::new()),
        }
    }

    /// Where the source image `name` is.
    pub fn source(&self, name: &str) -> PathBuf {
        self.source_dir.join(name)
    }

    /// The responsive variants of `name` (a path relative to `content/media`), made once.
    pub fn responsive(&self, name: &str) -> Result<Responsive> {
        if let Some(found) = self.done.lock().unwrap().get(name) {
            return Ok(found.clone());
        }
        // One image at a time in this process (a build's pages, the server's rebuilds and
        // previews): a decoded photo and its resized copies are tens of MB. Whoever waited
        // may find it made meanwhile.
        let _turn = image_turn();
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

    /// The URL of a single fallback variant no wider than `width`: social cards and
    /// structured data, whose readers do not all take WebP.
    pub fn sized(&self, name: &str, width: u32) -> Result<Sized> {
        let key = (name.to_owned(), width);
        if let Some(found) = self.sized_done.lock().unwrap().get(&key) {
            return Ok(found.clone());
        }
        let _turn = image_turn();
        if let Some(found) = self.sized_done.lock().unwrap().get(&key) {
            return Ok(found.clone());
        }
        let source = self.open(name)?;
        let (w, h) = fit(source.dimensions, width);
        let url = self.variant(&source, w, h, Encoding::fallback_for(&source))?;
        self.sized_done
            .lock()
            .unwrap()
            .insert(key, (url.clone(), w, h));
        Ok((url, w, h))
    }

    /// Writes favicon.ico, the PNG icons and the SVG mark from `favicon.png` and `logo.svg`.
    pub fn favicons(&self) -> Result<()> {
        let source = self
            .open("favicon.png")
            .context("Failed to make the favicons")?;
        for (rel, size, encoding) in [
            ("favicon-32.png", 32, Encoding::Png),
            ("apple-touch-icon.png", 180, Encoding::Png),
            ("icon-512.png", 512, Encoding::Png),
            ("favicon.ico", 32, Encoding::Ico),
        ] {
            let bytes = self.encoded(&source, size, size, encoding)?;
            self.output.write(rel, &bytes)?;
        }
        self.output
            .copy(&self.source_dir.join("logo.svg"), "favicon.svg")
    }

    fn make(&self, name: &str) -> Result<Responsive> {
        let source = self.open(name)?;
        let (sw, sh) = source.dimensions;
        let largest = sw.min(*WIDTHS.last().unwrap());
        let mut widths: Vec<u32> = WIDTHS.iter().copied().filter(|&w| w < largest).collect();
        widths.push(largest);
        let fallback = Encoding::fallback_for(&source);

        // Each width resizes and encodes twice; spread them over the cores (one worker per
        // core: more would only hold more buffers at once).
        let next = std::sync::atomic::AtomicUsize::new(0);
        let workers = std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .min(widths.len());
        let mut variants: Vec<(usize, Result<WidthVariants>)> = std::thread::scope(|scope| {
            let jobs: Vec<_> = (0..workers)
                .map(|_| {
                    let (source, widths, next) = (&source, &widths, &next);
                    scope.spawn(move || {
                        let mut done = Vec::new();
                        loop {
                            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            let Some(&w) = widths.get(i) else { break };
                            let made = (|| {
                                let (w, h) = fit((sw, sh), w);
                                let plain = self.variant(source, w, h, fallback)?;
                                let webp = self.variant(source, w, h, Encoding::WebP)?;
                                Ok((w, h, plain, webp))
                            })();
                            done.push((i, made));
                        }
                        done
                    })
                })
                .collect();
            jobs.into_iter()
                .flat_map(|job| job.join().expect("an image worker panicked"))
                .collect()
        });
        variants.sort_by_key(|(i, _)| *i);
        let variants = variants.into_iter().map(|(_, v)| v);

        let mut srcset = Vec::new();
        let mut webp_srcset = Vec::new();
        let mut largest = (String::new(), 0, 0);
        for variant in variants {
            let (w, h, plain, webp) = variant?;
            srcset.push(format!("{plain} {w}w"));
            webp_srcset.push(format!("{webp} {w}w"));
            largest = (plain, w, h);
        }
        Ok(Responsive {
            src: largest.0,
            srcset: srcset.join(", "),
            webp_srcset: webp_srcset.join(", "),
            width: largest.1,
            height: largest.2,
        })
    }

    fn open(&self, name: &str) -> Result<Source> {
        if name.contains("..") || name.starts_with('/') {
            bail!("image paths are relative to content/media and stay inside it");
        }
        let path = self.source_dir.join(name);
        let bytes =
            fs::read(&path).with_context(|| format!("Failed to read {}", path.display()))?;
        let unreadable = || format!("{} is not an image we can read", path.display());
        let decoder = Source::reader(&bytes)
            .and_then(|r| Ok(r.into_decoder()?))
            .with_context(unreadable)?;
        let dimensions = image::ImageDecoder::dimensions(&decoder);
        let has_alpha = image::ImageDecoder::color_type(&decoder).has_alpha();
        drop(decoder);
        Ok(Source {
            name: name.to_owned(),
            hash: short_hash(&bytes),
            bytes,
            dimensions,
            has_alpha,
            decoded: std::sync::OnceLock::new(),
        })
    }

    /// Writes one fingerprinted variant into `media/` and returns its URL.
    fn variant(&self, source: &Source, w: u32, h: u32, encoding: Encoding) -> Result<String> {
        let stem = Path::new(&source.name).with_extension("");
        let rel = format!(
            "media/{}-{w}.{}.{}",
            stem.display(),
            source.hash,
            encoding.ext()
        );
        if !self.output.exists(&rel) {
            let bytes = self.encoded(source, w, h, encoding)?;
            self.output.write(&rel, &bytes)?;
        }
        Ok(format!("/{rel}"))
    }

    /// `source` resized to exactly `w`×`h` and encoded, from the cache when it is there.
    fn encoded(&self, source: &Source, w: u32, h: u32, encoding: Encoding) -> Result<Vec<u8>> {
        // `l3`: the resizing filter (Lanczos3 in 8 bits), part of what made the pixels.
        let cached = self.cache_dir.join(format!(
            "{}-{w}x{h}-l3-{}.{}",
            source.hash,
            encoding.settings(),
            encoding.ext()
        ));
        self.output.note_cache_use(&cached);
        if let Ok(bytes) = fs::read(&cached) {
            return Ok(bytes);
        }
        let img = source.img()?;
        let bytes = if (w, h) == img.dimensions() {
            encoding.encode(img)?
        } else {
            encoding.encode(&crunch::resize(img, w, h)?)?
        };
        fs::create_dir_all(&self.cache_dir).ok();
        // The cache is only a speed-up: failing to fill it must not fail the build.
        let _ = fs::write(&cached, &bytes);
        Ok(bytes)
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

#[cfg(test)]
mod tests;
