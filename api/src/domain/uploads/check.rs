//! Checking an upload: the limits, the kinds accepted (told by their bytes), the search for
//! markup, and every refusal with the message staff see (decoders' and encoders' failures
//! included).

use std::fmt;

use image::{ImageError, ImageFormat};

/// Uploads must be smaller than this, in bytes.
pub const MAX_BYTES: usize = 5 * 1024 * 1024;
/// The most pixels a still image may have.
pub(super) const MAX_PIXELS: u64 = 40_000_000;
/// The longest side, in pixels.
pub(super) const MAX_SIDE: u32 = 12_000;
/// GIF frames are decoded by the `gif` crate, whose default per-frame budget is 50 MB of RGBA.
pub(super) const GIF_MAX_FRAME_PIXELS: u64 = 12_000_000;
/// The most frames an animated GIF may have.
pub(super) const GIF_MAX_FRAMES: usize = 500;
/// Frames × canvas: every frame is decoded to the full canvas and re-encoded.
pub(super) const GIF_MAX_TOTAL_PIXELS: u64 = 100_000_000;
/// What decoders may allocate at any one time.
pub(super) const MAX_ALLOC: u64 = 512 * 1024 * 1024;

pub(super) const NOT_AN_IMAGE: &str = "Only JPEG, PNG, GIF or WebP images can be uploaded.";
pub(super) const EMPTY: &str =
    "The file is empty. Choose a JPEG, PNG, GIF or WebP image to upload.";
pub(super) const DAMAGED: &str =
    "The image could not be read; it may be damaged. Save it again and upload the new copy.";
pub(super) const EXTRA_DATA: &str = "The image has extra data after its end, so it cannot be uploaded. \
     Save or export it again as a plain image (phones add such data to motion and HDR photos) and upload that copy.";
pub(super) const MARKUP: &str = "The file contains web page or script code, so it cannot be uploaded. \
     Save or export the image again and upload that copy.";
pub(super) const ANIMATED_NOT_GIF: &str = "Animated PNG and WebP images cannot be uploaded. \
     Upload an animated GIF or a still image instead.";
const TOO_BIG_TO_DECODE: &str =
    "The image is too large to process. Make it smaller and upload it again.";
const NOT_PROCESSED: &str = "The image could not be processed. \
     Save it in another format (JPEG or PNG) and upload it again.";

/// Why an upload was refused; the message is meant for the staff member as is.
#[derive(Debug, thiserror::Error)]
pub enum UploadError {
    #[error("Image must be less than 5MB")]
    TooLarge,
    #[error("{0}")]
    Refused(String),
}

pub(super) fn refused(message: &str) -> UploadError {
    UploadError::Refused(message.to_owned())
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Jpeg,
    Png,
    Gif,
    WebP,
}

impl Kind {
    pub(super) fn format(self) -> ImageFormat {
        match self {
            Kind::Jpeg => ImageFormat::Jpeg,
            Kind::Png => ImageFormat::Png,
            Kind::Gif => ImageFormat::Gif,
            Kind::WebP => ImageFormat::WebP,
        }
    }

    pub(super) fn extension(self) -> &'static str {
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
pub(super) fn content_type_for(extension: &str) -> Option<&'static str> {
    KINDS
        .iter()
        .find(|(stored, _)| *stored == extension)
        .map(|&(_, content_type)| content_type)
}

pub(super) fn check_dimensions(
    width: u32,
    height: u32,
    max_pixels: u64,
) -> Result<(), UploadError> {
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

pub(super) fn decode_error(error: ImageError) -> UploadError {
    match error {
        ImageError::Limits(_) => refused(TOO_BIG_TO_DECODE),
        _ => refused(DAMAGED),
    }
}

pub(super) fn encode_error(error: impl fmt::Display) -> UploadError {
    // The target the line had before the module moved into `domain`, so log filters and
    // searches for `api::uploads` still find it.
    tracing::warn!(target: "api::uploads", error = %error, "re-encoding an uploaded image failed");
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
pub(super) fn contains_markup(bytes: &[u8]) -> bool {
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

    use super::super::container::gif_layout;
    use super::super::process;
    use super::super::test_corpus::*;
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
