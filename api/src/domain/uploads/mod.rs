//! Blog image uploads: check what staff send, re-encode it so no metadata leaves the server,
//! store it under a content hash, and serve it back.
//!
//! [`process`] is the gatekeeper. In order, and refusing at the first problem:
//!
//! 1. **Size**: [`MAX_BYTES`] or more is [`UploadError::TooLarge`] ("less than 5MB", as the
//!    message and the editor say), before anything is parsed.
//! 2. **Format, by the bytes**: the magic number (`image::guess_format`) must say JPEG, PNG, GIF
//!    or WebP. File names and declared types are never consulted (the function never sees them).
//! 3. **Markup anywhere**: the raw bytes are searched, case-insensitively, for `<script`,
//!    `<html`, `<svg`, `<?php`, `<!doctype`, `<iframe` and `<body`, each followed by what ends
//!    a tag name for a browser or PHP (whitespace, `/`, `>`) or by the end of the file. Requiring
//!    that delimiter keeps random compressed bytes from tripping the check while every tag that
//!    could run still matches: `<svg` alone turns up by chance in about one 5 MB file in a
//!    hundred, `<svg` plus a delimiter in about one in 4,000 (re-saving the image fixes it).
//! 4. **Structure and the end of the image** (polyglots): each format is walked with a small
//!    parser of its container, and the file must end exactly where the image ends:
//!    - JPEG: from SOI, segment by segment using their lengths; after each SOS the
//!      entropy-coded data is skipped the way a decoder does (`FF 00` is a stuffed byte,
//!      `FF D0`–`FF D7` restart markers, `FF FF` fill), so an `FF D9` inside segment or image
//!      data is never mistaken for the end. The first real EOI must be the file's last two bytes.
//!    - PNG: chunk by chunk by their lengths from the signature; `IEND` must be the last chunk
//!      and end the file. Animated PNGs (`acTL`) are refused.
//!    - GIF: header, palettes, then every extension and image block by its sub-block sizes;
//!      the trailer `0x3B` must be the last byte. The walk also counts the frames and reads
//!      the loop count (NETSCAPE2.0), so animations are bounded before anything is decoded.
//!    - WebP: the RIFF size must equal the file's length, and the chunks must fill it exactly.
//!      Animated WebPs are refused: re-encoding them needs every frame in memory at once.
//!
//!    A file cut short fails here as damaged; anything after the end is refused as extra data
//!    (including what phones append for motion or HDR photos: staff re-export such a photo).
//! 5. **Decompression bombs**: the dimensions are read from the header alone and the image is
//!    refused above 40 megapixels or 12,000 px on a side (GIFs: 12 megapixels per frame, at
//!    most 500 frames and 100 megapixels over all frames). Decoding then runs with
//!    `image::Limits` (the same side limits, 512 MiB of allocations), so a header that lies
//!    cannot make a decoder allocate more.
//! 6. **Decoding**: any decoder error is "damaged".
//! 7. **Re-encoding**, so EXIF (GPS!), XMP, ICC profiles, comments and text chunks never leave
//!    the server: the pixels are all that is kept. The EXIF orientation is applied first, so
//!    photos stay the right way up once the tag is gone.
//!    - JPEG → JPEG at quality 90 (greyscale stays greyscale).
//!    - PNG → PNG (lossless, same colour type and bit depth).
//!    - GIF → GIF with every frame and its delay, and the source's loop count (a GIF that
//!      played once still plays once). Frames come out composited to the full canvas.
//!    - WebP → WebP with libwebp (the `webp` crate): lossy at quality 85 when the source was
//!      lossy (`VP8 ` chunk), lossless when it was lossless (`VP8L`), so a lossless graphic is
//!      not smudged and a photo does not balloon.
//!
//!    The re-encoded bytes are scanned for markup again (a lossless encoder or a GIF palette
//!    can carry bytes the uploader chose); lossy formats are re-encoded a notch lower in that
//!    case, lossless ones refused.
//!
//! `process` is CPU-bound (up to a second or two for a large image): call it from
//! `tokio::task::spawn_blocking`, like [`store`], which does blocking file I/O.

mod container;
mod reencode;
mod storage;
#[cfg(test)]
mod test_corpus;

use std::fmt;

use image::{ImageError, ImageFormat};

use container::{gif_layout, header_dimensions, jpeg_segments, png_chunks, webp_layout};
pub use reencode::MAX_STORED_SIDE;
use reencode::{decode_still, fit_stored, reencode_gif, reencode_still};
pub use storage::{routes, store};

/// Uploads must be smaller than this, in bytes.
pub const MAX_BYTES: usize = 5 * 1024 * 1024;
/// The most pixels a still image may have.
const MAX_PIXELS: u64 = 40_000_000;
/// The longest side, in pixels.
const MAX_SIDE: u32 = 12_000;
/// GIF frames are decoded by the `gif` crate, whose default per-frame budget is 50 MB of RGBA.
const GIF_MAX_FRAME_PIXELS: u64 = 12_000_000;
/// The most frames an animated GIF may have.
const GIF_MAX_FRAMES: usize = 500;
/// Frames × canvas: every frame is decoded to the full canvas and re-encoded.
const GIF_MAX_TOTAL_PIXELS: u64 = 100_000_000;
/// What decoders may allocate at any one time.
const MAX_ALLOC: u64 = 512 * 1024 * 1024;

const NOT_AN_IMAGE: &str = "Only JPEG, PNG, GIF or WebP images can be uploaded.";
const EMPTY: &str = "The file is empty. Choose a JPEG, PNG, GIF or WebP image to upload.";
const DAMAGED: &str =
    "The image could not be read; it may be damaged. Save it again and upload the new copy.";
const EXTRA_DATA: &str = "The image has extra data after its end, so it cannot be uploaded. \
     Save or export it again as a plain image (phones add such data to motion and HDR photos) and upload that copy.";
const MARKUP: &str = "The file contains web page or script code, so it cannot be uploaded. \
     Save or export the image again and upload that copy.";
const ANIMATED_NOT_GIF: &str = "Animated PNG and WebP images cannot be uploaded. \
     Upload an animated GIF or a still image instead.";
const TOO_BIG_TO_DECODE: &str =
    "The image is too large to process. Make it smaller and upload it again.";
const NOT_PROCESSED: &str = "The image could not be processed. \
     Save it in another format (JPEG or PNG) and upload it again.";

/// An accepted image, re-encoded without metadata.
#[derive(Clone)]
pub struct Processed {
    pub bytes: Vec<u8>,
    /// `jpg`, `png`, `gif` or `webp`.
    pub extension: &'static str,
    pub content_type: &'static str,
    /// Of the re-encoded image (after the EXIF orientation was applied).
    pub width: u32,
    pub height: u32,
}

impl fmt::Debug for Processed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Processed")
            .field("bytes", &format_args!("{} bytes", self.bytes.len()))
            .field("extension", &self.extension)
            .field("content_type", &self.content_type)
            .field("width", &self.width)
            .field("height", &self.height)
            .finish()
    }
}

/// Why an upload was refused; the message is meant for the staff member as is.
#[derive(Debug, thiserror::Error)]
pub enum UploadError {
    #[error("Image must be less than 5MB")]
    TooLarge,
    #[error("{0}")]
    Refused(String),
}

fn refused(message: &str) -> UploadError {
    UploadError::Refused(message.to_owned())
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Jpeg,
    Png,
    Gif,
    WebP,
}

impl Kind {
    fn format(self) -> ImageFormat {
        match self {
            Kind::Jpeg => ImageFormat::Jpeg,
            Kind::Png => ImageFormat::Png,
            Kind::Gif => ImageFormat::Gif,
            Kind::WebP => ImageFormat::WebP,
        }
    }

    fn extension(self) -> &'static str {
        match self {
            Kind::Jpeg => "jpg",
            Kind::Png => "png",
            Kind::Gif => "gif",
            Kind::WebP => "webp",
        }
    }
}

/// The images accepted, as (stored extension, content type): also what the editor's file
/// choosers offer (see `editor_rules`).
pub const KINDS: &[(&str, &str)] = &[
    ("jpg", "image/jpeg"),
    ("png", "image/png"),
    ("gif", "image/gif"),
    ("webp", "image/webp"),
];

/// The `Content-Type` for a stored file's extension.
fn content_type_for(extension: &str) -> Option<&'static str> {
    KINDS
        .iter()
        .find(|(stored, _)| *stored == extension)
        .map(|&(_, content_type)| content_type)
}

/// Uploads waiting for the blocking pool. A 12-megapixel photo takes about 36 MB to decode;
/// [`process`] takes the process-wide image turn (`generator::media::image_turn`), so only
/// one image is ever decoded at once, and this keeps the others queued here rather than each
/// holding a blocking thread.
static PROCESSING: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(1);

/// [`process`] on the blocking pool, one upload at a time (the others wait their turn).
pub async fn process_in_turn(
    bytes: bytes::Bytes,
) -> anyhow::Result<Result<Processed, UploadError>> {
    let _permit = PROCESSING.acquire().await?;
    Ok(tokio::task::spawn_blocking(move || process(&bytes)).await?)
}

/// Checks an uploaded file and re-encodes it; see the module documentation for every step.
pub fn process(bytes: &[u8]) -> Result<Processed, UploadError> {
    if bytes.len() >= MAX_BYTES {
        return Err(UploadError::TooLarge);
    }
    if bytes.is_empty() {
        return Err(refused(EMPTY));
    }
    let kind = match image::guess_format(bytes) {
        Ok(ImageFormat::Jpeg) => Kind::Jpeg,
        Ok(ImageFormat::Png) => Kind::Png,
        Ok(ImageFormat::Gif) => Kind::Gif,
        Ok(ImageFormat::WebP) => Kind::WebP,
        _ => return Err(refused(NOT_AN_IMAGE)),
    };
    if contains_markup(bytes) {
        return Err(refused(MARKUP));
    }

    // Structure: where the image ends, and what the container says about animation.
    let mut gif = None;
    let mut webp_lossy = false;
    match kind {
        Kind::Jpeg => {
            jpeg_segments(bytes)?;
        }
        Kind::Png => {
            if png_chunks(bytes)?.animated {
                return Err(refused(ANIMATED_NOT_GIF));
            }
        }
        Kind::Gif => gif = Some(gif_layout(bytes)?),
        Kind::WebP => {
            let layout = webp_layout(bytes)?;
            if layout.animated {
                return Err(refused(ANIMATED_NOT_GIF));
            }
            webp_lossy = layout.lossy;
        }
    }

    // Bombs: the header's dimensions, before any pixel is decoded.
    let (width, height) = header_dimensions(bytes)?;
    check_dimensions(width, height, MAX_PIXELS)?;

    // One image in memory at a time, here and in the pages' image pipeline alike.
    let _turn = generator::media::image_turn();
    let processed = match (kind, gif) {
        (Kind::Gif, Some(layout)) => reencode_gif(bytes, &layout, width, height)?,
        _ => {
            let image = fit_stored(decode_still(bytes, kind)?)?;
            reencode_still(image, kind, webp_lossy)?
        }
    };
    Ok(processed)
}

fn check_dimensions(width: u32, height: u32, max_pixels: u64) -> Result<(), UploadError> {
    if width == 0 || height == 0 {
        return Err(refused(DAMAGED));
    }
    if width > MAX_SIDE || height > MAX_SIDE || u64::from(width) * u64::from(height) > max_pixels {
        return Err(UploadError::Refused(format!(
            "The image is {width} × {height} pixels; images can be at most {} megapixels and \
             12,000 pixels on a side. Resize it and upload it again.",
            max_pixels / 1_000_000
        )));
    }
    Ok(())
}

fn decode_error(error: ImageError) -> UploadError {
    match error {
        ImageError::Limits(_) => refused(TOO_BIG_TO_DECODE),
        _ => refused(DAMAGED),
    }
}

fn encode_error(error: impl fmt::Display) -> UploadError {
    tracing::warn!(error = %error, "re-encoding an uploaded image failed");
    refused(NOT_PROCESSED)
}

// ---------------------------------------------------------------------------------------
// Markup

const MARKUP_TAGS: &[&[u8]] = &[
    b"<script",
    b"<html",
    b"<svg",
    b"<?php",
    b"<!doctype",
    b"<iframe",
    b"<body",
];

/// Whether `bytes` contain, in any case, one of [`MARKUP_TAGS`] followed by whitespace, `/`,
/// `>` or the end of the data.
fn contains_markup(bytes: &[u8]) -> bool {
    bytes.iter().enumerate().any(|(i, &b)| {
        b == b'<'
            && MARKUP_TAGS.iter().any(|tag| {
                let end = i + tag.len();
                end <= bytes.len()
                    && bytes[i..end].eq_ignore_ascii_case(tag)
                    && bytes.get(end).is_none_or(|&next| {
                        matches!(next, b' ' | b'\t' | b'\n' | b'\r' | 0x0c | b'/' | b'>')
                    })
            })
    })
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::test_corpus::*;
    use super::*;

    #[test]
    fn bytes_decide_not_the_name() {
        // The upload's file name never reaches `process`: a PNG called "photo.jpg" is a PNG,
        // and a page called "photo.png" is a page.
        let out = process(&png(8, 8)).unwrap();
        assert_eq!(out.extension, "png");
        refused_with(
            b"<!DOCTYPE html><html><body><script>alert(1)</script></body></html>",
            NOT_AN_IMAGE,
        );
    }

    // -- Not images ---------------------------------------------------------------------

    #[test]
    fn other_files_are_refused() {
        for bytes in [
            &b"<svg xmlns=\"http://www.w3.org/2000/svg\"><script>alert(1)</script></svg>"[..],
            b"<?xml version=\"1.0\"?><svg xmlns=\"http://www.w3.org/2000/svg\"/>",
            b"<html><body>Hello</body></html>",
            b"%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n%%EOF",
            b"Just some plain text, no picture here.",
            b"BM\x36\x00\x00\x00\x00\x00\x00\x00\x36\x00\x00\x00\x28\x00\x00\x00",
            b"II*\x00\x08\x00\x00\x00\x00\x00",
            b"\x00",
        ] {
            refused_with(bytes, NOT_AN_IMAGE);
        }
        refused_with(b"", EMPTY);
    }

    // -- Polyglots ------------------------------------------------------------------------

    #[test]
    fn markup_anywhere_is_refused() {
        let mut with_script = jpeg(16, 16);
        with_script.extend(b"<script>alert(1)</script>");
        refused_with(&with_script, MARKUP);

        let with_comment = with_segment(&jpeg(16, 16), 0xFE, b"<html><body>hi</body></html>");
        refused_with(&with_comment, MARKUP);

        let plain = png(8, 8);
        let mut with_text = plain[..33].to_vec();
        with_text.extend(png_chunk(b"tEXt", b"Comment\0<?php system($_GET['c']); ?>"));
        with_text.extend(&plain[33..]);
        refused_with(&with_text, MARKUP);
    }

    #[test]
    fn markup_search_is_case_insensitive_and_needs_a_tag_end() {
        for hit in [
            &b"xx<ScRiPt>"[..],
            b"<SVG xmlns",
            b"<svg/onload=alert(1)>",
            b"<!DocType html>",
            b"<iframe\tsrc=x>",
            b"<?php\n",
            b"<body>",
            b"...<html",
        ] {
            assert!(contains_markup(hit), "{}", String::from_utf8_lossy(hit));
        }
        for miss in [
            &b"<svgx"[..],
            b"<scripted",
            b"<htm",
            b"svg>",
            b"<bodyguard>",
        ] {
            assert!(!contains_markup(miss), "{}", String::from_utf8_lossy(miss));
        }
    }

    // -- Bombs ----------------------------------------------------------------------------

    #[test]
    fn decompression_bomb_is_refused_from_the_header() {
        let empty_zlib = [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01];
        let bomb = png_claiming(50_000, 50_000, &empty_zlib);
        assert!(bomb.len() < 100);
        let started = Instant::now();
        refused_containing(&bomb, "50000 × 50000 pixels");
        assert!(
            started.elapsed() < Duration::from_millis(250),
            "{:?}",
            started.elapsed()
        );

        // Each side under the limit, but too many pixels.
        refused_containing(
            &png_claiming(7_000, 7_000, &empty_zlib),
            "at most 40 megapixels",
        );
        // Few pixels, but one side too long.
        refused_containing(
            &png_claiming(20_000, 1, &empty_zlib),
            "12,000 pixels on a side",
        );
    }

    #[test]
    fn jpeg_bomb_is_refused_from_the_header() {
        let mut bomb = jpeg(16, 16);
        let sof = bomb.windows(2).position(|w| w == [0xFF, 0xC0]).unwrap();
        bomb[sof + 5..sof + 9].copy_from_slice(&[0xEA, 0x60, 0xEA, 0x60]); // 60000 × 60000
        let started = Instant::now();
        refused_containing(&bomb, "60000 × 60000 pixels");
        assert!(started.elapsed() < Duration::from_millis(250));
    }

    #[test]
    fn gif_animations_are_bounded() {
        // The hand-made GIF is valid, and accepted when small.
        let out = process(&hand_made_gif(4, 4, 3)).unwrap();
        assert_eq!(gif_layout(&out.bytes).unwrap().frames, 3);

        let started = Instant::now();
        refused_containing(&hand_made_gif(4, 4, 501), "501 frames");
        // 101 frames of a 1000 × 1000 canvas: over 100 megapixels in all.
        refused_containing(
            &hand_made_gif(1000, 1000, 101),
            "too many frames for its size",
        );
        // One frame, but larger than the GIF decoder's budget.
        refused_containing(&hand_made_gif(4000, 4000, 1), "at most 12 megapixels");
        assert!(started.elapsed() < Duration::from_millis(250));
    }

    #[test]
    fn over_five_megabytes_is_too_large() {
        let mut big = png(8, 8);
        big.resize(MAX_BYTES, 0);
        let error = process(&big).unwrap_err();
        assert!(matches!(error, UploadError::TooLarge));
        assert_eq!(error.to_string(), "Image must be less than 5MB");
        // One byte less is not too large (here: refused for what follows the IEND).
        big.truncate(MAX_BYTES - 1);
        refused_with(&big, EXTRA_DATA);
    }
}
