//! The CPU-heavy work the generator and the server share: resizing and encoding images,
//! brotli and gzip.
//!
//! Why a crate of its own: the libraries behind it are generic (over pixel types, readers
//! and writers, allocators) and mark their inner loops `#[inline]`, so their code is compiled
//! in the crate that calls them, at that crate's optimisation. Called from the generator or
//! the api, a debug build ran them unoptimised (a test build of the fixture site spent most
//! of its time in unoptimised resizing and brotli), and a release build compiled them twice.
//! Here they are compiled once, behind plain functions, and this crate is optimised even in
//! debug builds (`[profile.dev.package.crunch]` in the workspace's Cargo.toml).

use std::io::Write as _;

use anyhow::{Context as _, Result};
use image::DynamicImage;

/// `bytes` in brotli at `quality` (0 to 11).
pub fn brotli(bytes: &[u8], quality: i32) -> Result<Vec<u8>> {
    let mut out = Vec::with_capacity(bytes.len() / 3);
    // A window just large enough for the input: every call allocates and zeroes tables sized
    // by it, which for a 20 KB page at 4 MB was a fifth of a blog build. Never below 2^18,
    // where this brotli takes a much slower path.
    let needed = usize::BITS - bytes.len().max(1).leading_zeros();
    let params = brotli::enc::BrotliEncoderParams {
        quality,
        lgwin: needed.clamp(18, 22) as i32,
        ..Default::default()
    };
    brotli::BrotliCompress(&mut &bytes[..], &mut out, &params)
        .context("brotli compression failed")?;
    Ok(out)
}

/// `bytes` in gzip at `level` (0 to 9).
pub fn gzip(bytes: &[u8], level: u32) -> Result<Vec<u8>> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(level));
    enc.write_all(bytes)?;
    Ok(enc.finish()?)
}

/// `img` resized to exactly `w`×`h` with a Lanczos3 filter (transparency premultiplied,
/// so edges do not darken). fast_image_resize works in the image's own 8-bit pixels: a
/// 12-megapixel photo made into eight widths needs a few tens of MB, where the image crate's
/// resize held a 32-bit float copy of the full width for each (about 90 MB apiece).
pub fn resize(img: &DynamicImage, w: u32, h: u32) -> Result<DynamicImage> {
    use fast_image_resize::{IntoImageView, Resizer, images::Image};
    // Deeper formats (16-bit, float) go through 8-bit RGBA: every variant is 8-bit anyway.
    let converted;
    let src = match img {
        DynamicImage::ImageLuma8(_)
        | DynamicImage::ImageLumaA8(_)
        | DynamicImage::ImageRgb8(_)
        | DynamicImage::ImageRgba8(_) => img,
        _ => {
            converted = DynamicImage::ImageRgba8(img.to_rgba8());
            &converted
        }
    };
    let pixel_type = src
        .pixel_type()
        .context("an image the resizer cannot read")?;
    let mut dst = Image::new(w, h, pixel_type);
    Resizer::new()
        .resize(src, &mut dst, None)
        .context("resizing failed")?;
    let buffer = dst.into_vec();
    let made = match src {
        DynamicImage::ImageLuma8(_) => {
            image::GrayImage::from_raw(w, h, buffer).map(DynamicImage::ImageLuma8)
        }
        DynamicImage::ImageLumaA8(_) => {
            image::GrayAlphaImage::from_raw(w, h, buffer).map(DynamicImage::ImageLumaA8)
        }
        DynamicImage::ImageRgb8(_) => {
            image::RgbImage::from_raw(w, h, buffer).map(DynamicImage::ImageRgb8)
        }
        _ => image::RgbaImage::from_raw(w, h, buffer).map(DynamicImage::ImageRgba8),
    };
    made.context("the resized image has the wrong size")
}

/// `img` as a baseline JPEG at `quality` (1 to 100), in 8-bit RGB.
pub fn jpeg(img: &DynamicImage, quality: u8) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, quality)
        .encode_image(&img.to_rgb8())?;
    Ok(out)
}

/// 8-bit gray (`gray`) or RGB `pixels` as a baseline JPEG at `quality`, for a caller that
/// already holds them (and encodes them more than once, at falling qualities).
pub fn jpeg_pixels(
    pixels: &[u8],
    width: u32,
    height: u32,
    gray: bool,
    quality: u8,
) -> Result<Vec<u8>> {
    use image::ImageEncoder as _;
    let color = if gray {
        image::ExtendedColorType::L8
    } else {
        image::ExtendedColorType::Rgb8
    };
    let mut out = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, quality)
        .write_image(pixels, width, height, color)?;
    Ok(out)
}

/// `img` as PNG (or ICO, `ico`), losslessly.
pub fn png(img: &DynamicImage, ico: bool) -> Result<Vec<u8>> {
    let mut out = std::io::Cursor::new(Vec::new());
    let format = if ico {
        image::ImageFormat::Ico
    } else {
        image::ImageFormat::Png
    };
    img.write_to(&mut out, format)?;
    Ok(out.into_inner())
}

/// How to encode a WebP.
#[derive(Debug, Clone, Copy)]
pub struct WebP {
    pub lossless: bool,
    /// 0 to 100: the picture's quality when lossy, the effort when lossless.
    pub quality: f32,
    /// 0 (fastest) to 6 (slowest, smallest).
    pub method: i32,
}

/// `img` as a WebP: RGBA when it has transparency, RGB otherwise.
pub fn webp(img: &DynamicImage, how: WebP) -> Result<Vec<u8>> {
    let (width, height) = (img.width(), img.height());
    let pixels = if img.color().has_alpha() {
        img.to_rgba8().into_raw()
    } else {
        img.to_rgb8().into_raw()
    };
    webp_pixels(&pixels, width, height, img.color().has_alpha(), how)
}

/// 8-bit RGB or RGBA (`alpha`) `pixels` as a WebP, for a caller that already holds them
/// (and encodes them more than once, at falling qualities).
pub fn webp_pixels(
    pixels: &[u8],
    width: u32,
    height: u32,
    alpha: bool,
    how: WebP,
) -> Result<Vec<u8>> {
    let encoder = if alpha {
        webp::Encoder::from_rgba(pixels, width, height)
    } else {
        webp::Encoder::from_rgb(pixels, width, height)
    };
    let mut config = webp::WebPConfig::new()
        .map_err(|()| anyhow::anyhow!("libwebp has no default configuration"))?;
    config.lossless = i32::from(how.lossless);
    config.quality = how.quality;
    config.method = how.method;
    let encoded = encoder
        .encode_advanced(&config)
        .map_err(|e| anyhow::anyhow!("WebP encoding failed: {e:?}"))?;
    Ok(encoded.to_vec())
}
