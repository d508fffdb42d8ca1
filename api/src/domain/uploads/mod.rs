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
//!
//! [`process`] runs the steps above in that order; the code for them lives in `check` (limits,
//! kinds, markup and the refusals' messages), `container` (the walks of step 4 and the header's
//! dimensions), `reencode` (steps 6 and 7) and `storage` ([`store`] and [`routes`]).

mod check;
mod container;
mod reencode;
mod storage;
#[cfg(test)]
pub(crate) mod test_corpus;

use std::fmt;

use image::ImageFormat;

use check::{
    ANIMATED_NOT_GIF, EMPTY, Kind, MARKUP, MAX_PIXELS, NOT_AN_IMAGE, check_dimensions,
    contains_markup, refused,
};
pub use check::{KINDS, MAX_BYTES, UploadError};
use container::{gif_layout, header_dimensions, jpeg_segments, png_chunks, webp_layout};
pub use reencode::MAX_STORED_SIDE;
use reencode::{decode_still, fit_stored, reencode_gif, reencode_still};
pub use storage::{store, stored_name_type};

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
