//! Walking each format's container (JPEG segments, PNG chunks, GIF blocks, WebP's RIFF
//! chunks) without decoding a pixel: the file must end exactly where the image does, and the
//! walk tells what the container says about animation. Also the dimensions a header states.

use std::io::Cursor;

use image::{ImageReader, Limits};

use super::check::{
    DAMAGED, EXTRA_DATA, GIF_MAX_FRAME_PIXELS, MAX_ALLOC, UploadError, check_dimensions,
    decode_error, refused,
};

/// The dimensions as the header states them, without decoding the image.
pub(super) fn header_dimensions(bytes: &[u8]) -> Result<(u32, u32), UploadError> {
    let mut reader = ImageReader::new(Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|_| refused(DAMAGED))?;
    // No side limits here: they would fail with a less helpful message than ours.
    let mut limits = Limits::default();
    limits.max_alloc = Some(MAX_ALLOC);
    reader.limits(limits);
    reader.into_dimensions().map_err(decode_error)
}

fn be16(bytes: &[u8], at: usize) -> Option<usize> {
    Some(usize::from(u16::from_be_bytes(
        bytes.get(at..at + 2)?.try_into().ok()?,
    )))
}

fn le16(bytes: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(bytes.get(at..at + 2)?.try_into().ok()?))
}

fn be32(bytes: &[u8], at: usize) -> Option<usize> {
    usize::try_from(u32::from_be_bytes(bytes.get(at..at + 4)?.try_into().ok()?)).ok()
}

fn le32(bytes: &[u8], at: usize) -> Option<usize> {
    usize::try_from(u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?)).ok()
}

/// The file must end where the image ends.
fn ends_at(bytes: &[u8], end: usize) -> Result<(), UploadError> {
    if end == bytes.len() {
        Ok(())
    } else {
        Err(refused(EXTRA_DATA))
    }
}

/// The markers of a JPEG's segments, SOI and EOI included, in order. Errors if the structure
/// is broken or anything follows the EOI.
pub(super) fn jpeg_segments(bytes: &[u8]) -> Result<Vec<u8>, UploadError> {
    let damaged = || refused(DAMAGED);
    if !bytes.starts_with(&[0xFF, 0xD8]) {
        return Err(damaged());
    }
    let mut markers = vec![0xD8];
    let mut i = 2;
    loop {
        if *bytes.get(i).ok_or_else(damaged)? != 0xFF {
            return Err(damaged());
        }
        // Any number of fill bytes may precede a marker.
        while bytes.get(i) == Some(&0xFF) {
            i += 1;
        }
        let marker = *bytes.get(i).ok_or_else(damaged)?;
        i += 1;
        markers.push(marker);
        match marker {
            0xD9 => {
                ends_at(bytes, i)?;
                return Ok(markers);
            }
            0x00 | 0xD8 => return Err(damaged()),
            // Stand-alone markers: TEM, RST0-7.
            0x01 | 0xD0..=0xD7 => {}
            _ => {
                let length = be16(bytes, i).ok_or_else(damaged)?;
                if length < 2 || i + length > bytes.len() {
                    return Err(damaged());
                }
                i += length;
                if marker == 0xDA {
                    // Entropy-coded data runs to the next marker that is not a stuffed byte,
                    // a restart marker or fill.
                    loop {
                        let ff = i + bytes
                            .get(i..)
                            .and_then(|rest| rest.iter().position(|&b| b == 0xFF))
                            .ok_or_else(damaged)?;
                        match *bytes.get(ff + 1).ok_or_else(damaged)? {
                            0x00 | 0xD0..=0xD7 => i = ff + 2,
                            0xFF => i = ff + 1,
                            _ => {
                                i = ff;
                                break;
                            }
                        }
                    }
                }
            }
        }
    }
}

pub(super) struct PngLayout {
    pub(super) animated: bool,
    pub(super) chunks: Vec<[u8; 4]>,
}

/// Walks a PNG's chunks to `IEND`, which must end the file.
pub(super) fn png_chunks(bytes: &[u8]) -> Result<PngLayout, UploadError> {
    let damaged = || refused(DAMAGED);
    const SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";
    if !bytes.starts_with(SIGNATURE) {
        return Err(damaged());
    }
    let mut layout = PngLayout {
        animated: false,
        chunks: Vec::new(),
    };
    let mut i = SIGNATURE.len();
    loop {
        let length = be32(bytes, i).ok_or_else(damaged)?;
        let kind: [u8; 4] = bytes
            .get(i + 4..i + 8)
            .and_then(|k| k.try_into().ok())
            .ok_or_else(damaged)?;
        if length > 0x7FFF_FFFF || (layout.chunks.is_empty() && &kind != b"IHDR") {
            return Err(damaged());
        }
        let end = i + 12 + length;
        if end > bytes.len() {
            return Err(damaged());
        }
        layout.chunks.push(kind);
        match &kind {
            b"acTL" => layout.animated = true,
            b"IEND" => {
                ends_at(bytes, end)?;
                return Ok(layout);
            }
            _ => {}
        }
        i = end;
    }
}

pub(super) struct GifLayout {
    pub(super) frames: usize,
    /// From a NETSCAPE2.0 block: 0 loops forever; none plays once.
    pub(super) loop_count: Option<u16>,
}

/// Walks a GIF's blocks to the trailer, which must be the last byte.
pub(super) fn gif_layout(bytes: &[u8]) -> Result<GifLayout, UploadError> {
    let damaged = || refused(DAMAGED);
    if !(bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a")) {
        return Err(damaged());
    }
    let packed = *bytes.get(10).ok_or_else(damaged)?;
    let mut i = 13;
    if packed & 0x80 != 0 {
        i += 3 << ((packed & 7) + 1);
    }
    let mut layout = GifLayout {
        frames: 0,
        loop_count: None,
    };
    // Skips a run of data sub-blocks up to their terminator; returns where the first one's
    // content starts and its size.
    let skip_sub_blocks = |i: &mut usize| -> Result<Option<(usize, usize)>, UploadError> {
        let mut first = None;
        loop {
            let size = usize::from(*bytes.get(*i).ok_or_else(damaged)?);
            *i += 1;
            if size == 0 {
                return Ok(first);
            }
            if *i + size > bytes.len() {
                return Err(damaged());
            }
            first.get_or_insert((*i, size));
            *i += size;
        }
    };
    loop {
        match *bytes.get(i).ok_or_else(damaged)? {
            0x3B => {
                ends_at(bytes, i + 1)?;
                if layout.frames == 0 {
                    return Err(damaged());
                }
                return Ok(layout);
            }
            0x21 => {
                let label = *bytes.get(i + 1).ok_or_else(damaged)?;
                i += 2;
                if label == 0xFF {
                    // Application extension: an identifier block, then (for looping) 1 + u16.
                    if let Some(id) = first_sub_block(bytes, &mut i)? {
                        let next = skip_sub_blocks(&mut i)?;
                        if matches!(id, b"NETSCAPE2.0" | b"ANIMEXTS1.0")
                            && let Some((at, 3)) = next
                            && bytes[at] == 1
                        {
                            layout.loop_count = le16(bytes, at + 1);
                        }
                    }
                } else {
                    skip_sub_blocks(&mut i)?;
                }
            }
            0x2C => {
                let width = le16(bytes, i + 5).ok_or_else(damaged)?;
                let height = le16(bytes, i + 7).ok_or_else(damaged)?;
                let packed = *bytes.get(i + 9).ok_or_else(damaged)?;
                check_dimensions(u32::from(width), u32::from(height), GIF_MAX_FRAME_PIXELS)?;
                i += 10;
                if packed & 0x80 != 0 {
                    i += 3 << ((packed & 7) + 1);
                }
                // LZW minimum code size, then the image data.
                i += 1;
                skip_sub_blocks(&mut i)?;
                layout.frames += 1;
            }
            _ => return Err(damaged()),
        }
    }
}

/// Reads the data sub-block at `i` and moves past it; `None` (having consumed it) if it is the
/// terminator.
fn first_sub_block<'a>(bytes: &'a [u8], i: &mut usize) -> Result<Option<&'a [u8]>, UploadError> {
    let size = usize::from(*bytes.get(*i).ok_or_else(|| refused(DAMAGED))?);
    *i += 1;
    if size == 0 {
        return Ok(None);
    }
    let block = bytes.get(*i..*i + size).ok_or_else(|| refused(DAMAGED))?;
    *i += size;
    Ok(Some(block))
}

pub(super) struct WebPLayout {
    pub(super) lossy: bool,
    pub(super) animated: bool,
    pub(super) chunks: Vec<[u8; 4]>,
}

/// Walks a WebP's RIFF chunks; the RIFF size must match the file.
pub(super) fn webp_layout(bytes: &[u8]) -> Result<WebPLayout, UploadError> {
    let damaged = || refused(DAMAGED);
    if bytes.get(0..4) != Some(b"RIFF") || bytes.get(8..12) != Some(b"WEBP") {
        return Err(damaged());
    }
    let riff_end = le32(bytes, 4)
        .and_then(|size| size.checked_add(8))
        .ok_or_else(damaged)?;
    if riff_end > bytes.len() {
        return Err(damaged());
    }
    ends_at(bytes, riff_end)?;
    let mut layout = WebPLayout {
        lossy: false,
        animated: false,
        chunks: Vec::new(),
    };
    let mut lossless = false;
    let mut i = 12;
    while i < riff_end {
        let kind: [u8; 4] = bytes
            .get(i..i + 4)
            .and_then(|k| k.try_into().ok())
            .ok_or_else(damaged)?;
        let size = le32(bytes, i + 4).ok_or_else(damaged)?;
        let data_end = (i + 8).checked_add(size).ok_or_else(damaged)?;
        if data_end > riff_end {
            return Err(damaged());
        }
        match &kind {
            b"VP8 " => layout.lossy = true,
            b"VP8L" => lossless = true,
            b"VP8X" => layout.animated |= bytes.get(i + 8).is_some_and(|f| f & 0x02 != 0),
            b"ANIM" | b"ANMF" => layout.animated = true,
            _ => {}
        }
        layout.chunks.push(kind);
        // Chunks are padded to an even size; tolerate a missing pad after the last one.
        i = (data_end + (size & 1)).min(riff_end);
    }
    if !(layout.lossy || lossless || layout.animated) {
        return Err(damaged());
    }
    Ok(layout)
}

#[cfg(test)]
mod tests {
    use image::{Rgba, RgbaImage};

    use super::super::check::ANIMATED_NOT_GIF;
    use super::super::process;
    use super::super::test_corpus::*;
    use super::*;

    #[test]
    fn ff_d9_inside_a_segment_is_not_the_end() {
        let input = with_segment(&jpeg(16, 16), 0xFE, b"a comment with \xFF\xD9 inside");
        let out = process(&input).unwrap();
        assert!(!jpeg_segments(&out.bytes).unwrap().contains(&0xFE));
    }

    // -- Polyglots ------------------------------------------------------------------------

    #[test]
    fn data_after_the_end_is_refused() {
        let zip = b"PK\x03\x04\x14\x00\x00\x00\x08\x00 a jar or zip";

        let mut jpeg_zip = jpeg(16, 16);
        jpeg_zip.extend(zip);
        refused_with(&jpeg_zip, EXTRA_DATA);

        // GIFAR-like: a GIF with script (or a jar) after the trailer.
        let mut gifar = gif(&[[1, 2, 3, 255]], None);
        gifar.extend(b"\n*/=1;alert(document.domain);//");
        refused_with(&gifar, EXTRA_DATA);
        let mut gif_zip = gif(&[[1, 2, 3, 255]], None);
        gif_zip.extend(zip);
        refused_with(&gif_zip, EXTRA_DATA);

        let mut png_after_iend = png(8, 8);
        png_after_iend.extend(b"hidden payload after IEND");
        refused_with(&png_after_iend, EXTRA_DATA);

        let mut webp_longer = webp_lossy(8, 8);
        webp_longer.extend(zip);
        refused_with(&webp_longer, EXTRA_DATA);

        let mut jpeg_padding = jpeg(16, 16);
        jpeg_padding.push(0);
        refused_with(&jpeg_padding, EXTRA_DATA);
    }

    #[test]
    fn animated_png_and_webp_are_refused() {
        let plain = png(8, 8);
        let mut apng = plain[..33].to_vec();
        apng.extend(png_chunk(b"acTL", &[0, 0, 0, 1, 0, 0, 0, 0]));
        apng.extend(&plain[33..]);
        refused_with(&apng, ANIMATED_NOT_GIF);

        let red = RgbaImage::from_pixel(8, 8, Rgba([255, 0, 0, 255]));
        let blue = RgbaImage::from_pixel(8, 8, Rgba([0, 0, 255, 255]));
        let config = webp::WebPConfig::new().unwrap();
        let mut encoder = webp::AnimEncoder::new(8, 8, &config);
        encoder.add_frame(webp::AnimFrame::from_rgba(&red, 8, 8, 0));
        encoder.add_frame(webp::AnimFrame::from_rgba(&blue, 8, 8, 100));
        let animated = encoder.try_encode().unwrap().to_vec();
        assert!(webp_layout(&animated).unwrap().chunks.contains(b"ANMF"));
        refused_with(&animated, ANIMATED_NOT_GIF);
    }

    // -- Damaged --------------------------------------------------------------------------

    #[test]
    fn truncated_images_are_refused() {
        for whole in [
            jpeg(32, 32),
            png(32, 32),
            gif(&[[1, 2, 3, 255], [4, 5, 6, 255]], None),
            webp_lossy(32, 32),
        ] {
            refused_with(&whole[..whole.len() / 2], DAMAGED);
            refused_with(&whole[..whole.len() - 1], DAMAGED);
        }
    }

    #[test]
    fn corrupt_data_is_refused() {
        let garbage: Vec<u8> = (0..400u32).map(|i| (i * 37 % 251) as u8).collect();

        // A valid header, then garbage: the container walk fails.
        let mut png_garbage = png(32, 32)[..33].to_vec();
        png_garbage.extend(&garbage);
        refused_with(&png_garbage, DAMAGED);
        let mut jpeg_garbage = jpeg(32, 32)[..20].to_vec(); // SOI and APP0
        jpeg_garbage.extend(&garbage);
        refused_with(&jpeg_garbage, DAMAGED);

        // A well-formed container whose image data is garbage: the decoder fails.
        refused_with(&png_claiming(10, 10, &garbage), DAMAGED);
        let mut gif_garbage = hand_made_gif(4, 4, 1);
        let at = gif_garbage.len() - 6;
        gif_garbage[at] = 15; // an LZW code size no GIF can have
        refused_with(&gif_garbage, DAMAGED);
        let mut riff = b"RIFF".to_vec();
        riff.extend(20u32.to_le_bytes());
        riff.extend(b"WEBPVP8 ");
        riff.extend(8u32.to_le_bytes());
        riff.extend(&garbage[..8]);
        refused_with(&riff, DAMAGED);
    }
}
