//! Decoding an accepted image within limits and encoding it back, so only its pixels leave
//! the server: the EXIF orientation applied, stills scaled down to [`MAX_STORED_SIDE`], GIFs
//! frame by frame, and the output checked for markup again.

use std::io::Cursor;

use image::codecs::gif::{GifDecoder, GifEncoder, Repeat};
use image::codecs::png::PngEncoder;
use image::metadata::Orientation;
use image::{AnimationDecoder, DynamicImage, ImageDecoder, ImageReader, Limits};

use super::Processed;
use super::check::{
    DAMAGED, GIF_MAX_FRAME_PIXELS, GIF_MAX_FRAMES, GIF_MAX_TOTAL_PIXELS, Kind, MARKUP, MAX_ALLOC,
    MAX_SIDE, UploadError, check_dimensions, contains_markup, content_type_for, decode_error,
    encode_error, refused,
};
use super::container::{GifLayout, gif_layout};

/// Stills are stored at most this many pixels on their longer side (as WordPress does).
pub const MAX_STORED_SIDE: u32 = 2560;
const JPEG_QUALITY: u8 = 90;
const WEBP_QUALITY: f32 = 85.0;

/// What decoders are allowed; a lying header fails here instead of allocating.
fn decode_limits() -> Limits {
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    limits.max_alloc = Some(MAX_ALLOC);
    limits
}

/// Decodes a still image with limits and applies its EXIF orientation.
pub(super) fn decode_still(bytes: &[u8], kind: Kind) -> Result<DynamicImage, UploadError> {
    let mut reader = ImageReader::with_format(Cursor::new(bytes), kind.format());
    reader.limits(decode_limits());
    let mut decoder = reader.into_decoder().map_err(decode_error)?;
    let orientation = decoder.orientation().unwrap_or(Orientation::NoTransforms);
    let mut image = DynamicImage::from_decoder(decoder).map_err(decode_error)?;
    image.apply_orientation(orientation);
    Ok(image)
}

/// A still larger than [`MAX_STORED_SIDE`] on its longer side, scaled down to it: the pages
/// show at most 1,920 px, and every later resize of a 12-megapixel photo would otherwise
/// decode 36 MB of pixels again.
pub(super) fn fit_stored(image: DynamicImage) -> Result<DynamicImage, UploadError> {
    let (w, h) = (image.width(), image.height());
    let longer = w.max(h);
    if longer <= MAX_STORED_SIDE {
        return Ok(image);
    }
    let scale = f64::from(MAX_STORED_SIDE) / f64::from(longer);
    let fit = |side: u32| ((f64::from(side) * scale).round() as u32).max(1);
    crunch::resize(&image, fit(w), fit(h)).map_err(encode_error)
}

pub(super) fn reencode_still(
    image: DynamicImage,
    kind: Kind,
    webp_lossy: bool,
) -> Result<Processed, UploadError> {
    let (width, height) = (image.width(), image.height());
    let bytes = match kind {
        Kind::Jpeg => {
            // `into_*` reuses the decoded pixels when they are already of that kind.
            let (pixels, gray) = match image {
                DynamicImage::ImageLuma8(_) | DynamicImage::ImageLumaA8(_) => {
                    (image.into_luma8().into_raw(), true)
                }
                _ => (image.into_rgb8().into_raw(), false),
            };
            encode_lossy(JPEG_QUALITY as f32, |quality| {
                crunch::jpeg_pixels(&pixels, width, height, gray, quality as u8)
                    .map_err(encode_error)
            })?
        }
        Kind::Png => {
            let mut out = Vec::new();
            let result = match image {
                DynamicImage::ImageLuma8(_)
                | DynamicImage::ImageLumaA8(_)
                | DynamicImage::ImageRgb8(_)
                | DynamicImage::ImageRgba8(_)
                | DynamicImage::ImageLuma16(_)
                | DynamicImage::ImageLumaA16(_)
                | DynamicImage::ImageRgb16(_)
                | DynamicImage::ImageRgba16(_) => {
                    image.write_with_encoder(PngEncoder::new(&mut out))
                }
                _ => DynamicImage::ImageRgba8(image.to_rgba8())
                    .write_with_encoder(PngEncoder::new(&mut out)),
            };
            result.map_err(encode_error)?;
            lossless_clean(out)?
        }
        Kind::WebP => {
            let has_alpha = image.color().has_alpha();
            let pixels = if has_alpha {
                image.into_rgba8().into_raw()
            } else {
                image.into_rgb8().into_raw()
            };
            let encode = |lossless: bool, quality: f32| {
                let how = crunch::WebP {
                    lossless,
                    quality,
                    // libwebp's default effort.
                    method: 4,
                };
                crunch::webp_pixels(&pixels, width, height, has_alpha, how).map_err(encode_error)
            };
            if webp_lossy {
                encode_lossy(WEBP_QUALITY, |quality| encode(false, quality))?
            } else {
                lossless_clean(encode(true, 75.0)?)?
            }
        }
        Kind::Gif => return Err(encode_error("GIFs are re-encoded frame by frame")),
    };
    Ok(Processed {
        bytes,
        extension: kind.extension(),
        content_type: content_type_for(kind.extension()).unwrap_or("application/octet-stream"),
        width,
        height,
    })
}

/// Encodes at `quality`, a notch lower if the output happens to contain markup.
fn encode_lossy(
    quality: f32,
    encode: impl Fn(f32) -> Result<Vec<u8>, UploadError>,
) -> Result<Vec<u8>, UploadError> {
    for step in 0..3u8 {
        let out = encode(quality - f32::from(step))?;
        if !contains_markup(&out) {
            return Ok(out);
        }
    }
    Err(refused(MARKUP))
}

/// A lossless encoding reproduces what the uploader chose; refuse it if that spells markup.
fn lossless_clean(out: Vec<u8>) -> Result<Vec<u8>, UploadError> {
    if contains_markup(&out) {
        Err(refused(MARKUP))
    } else {
        Ok(out)
    }
}

/// Re-encodes every frame of a GIF (already walked by [`gif_layout`]).
pub(super) fn reencode_gif(
    bytes: &[u8],
    layout: &GifLayout,
    width: u32,
    height: u32,
) -> Result<Processed, UploadError> {
    let canvas = u64::from(width) * u64::from(height);
    check_dimensions(width, height, GIF_MAX_FRAME_PIXELS)?;
    if layout.frames > GIF_MAX_FRAMES {
        return Err(UploadError::Refused(format!(
            "The GIF has {} frames; at most {GIF_MAX_FRAMES} are allowed. Shorten it and upload it again.",
            layout.frames
        )));
    }
    if canvas * layout.frames as u64 > GIF_MAX_TOTAL_PIXELS {
        return Err(refused(
            "The animated GIF is too large: it has too many frames for its size. \
             Make it smaller or shorter and upload it again.",
        ));
    }

    let mut decoder = GifDecoder::new(Cursor::new(bytes)).map_err(decode_error)?;
    decoder.set_limits(decode_limits()).map_err(decode_error)?;
    let mut out = Vec::new();
    {
        let mut encoder = GifEncoder::new_with_speed(&mut out, 10);
        if layout.frames > 1 {
            // No NETSCAPE2.0 block: the GIF plays once, and so does the copy.
            if let Some(loops) = layout.loop_count {
                let repeat = if loops == 0 {
                    Repeat::Infinite
                } else {
                    Repeat::Finite(loops)
                };
                encoder.set_repeat(repeat).map_err(encode_error)?;
            }
        }
        for (index, frame) in decoder.into_frames().enumerate() {
            // The decoder's own count, in case it reads the blocks differently from our walk.
            if index >= GIF_MAX_FRAMES {
                return Err(refused(DAMAGED));
            }
            let frame = frame.map_err(decode_error)?;
            encoder.encode_frame(frame).map_err(encode_error)?;
        }
    }
    let bytes = lossless_clean(out)?;
    if gif_layout(&bytes).map(|l| l.frames).unwrap_or(0) == 0 {
        return Err(refused(DAMAGED));
    }
    Ok(Processed {
        bytes,
        extension: "gif",
        content_type: "image/gif",
        width,
        height,
    })
}

#[cfg(test)]
mod tests {
    use image::Rgba;

    use super::super::container::{jpeg_segments, png_chunks, webp_layout};
    use super::super::process;
    use super::super::test_corpus::*;
    use super::*;

    // -- Accepted images --------------------------------------------------------------------

    #[test]
    fn jpeg_loses_its_gps_exif_and_keeps_its_size() {
        let input = with_segment(&jpeg(64, 48), 0xE1, &exif_with_gps(1));
        assert!(contains(&input, b"Exif\0\0MM"));
        assert!(contains(&input, &[0x88, 0x25]), "the GPSInfo pointer");
        assert!(contains(&input, &GPS_LATITUDE_ENTRY));
        assert!(jpeg_segments(&input).unwrap().contains(&0xE1));

        let out = process(&input).unwrap();
        assert_eq!((out.extension, out.content_type), ("jpg", "image/jpeg"));
        assert_eq!((out.width, out.height), (64, 48));
        assert!(!contains(&out.bytes, b"Exif"));
        assert!(!contains(&out.bytes, &GPS_LATITUDE_ENTRY));
        let markers = jpeg_segments(&out.bytes).unwrap();
        assert!(!markers.contains(&0xE1), "no APP1 segment: {markers:x?}");
        let image = decoded(&out);
        assert_eq!((image.width(), image.height()), (64, 48));
    }

    #[test]
    fn jpeg_orientation_is_applied_before_the_tag_goes() {
        // Orientation 6: the camera was turned; viewers rotate 90° clockwise.
        let input = with_segment(&jpeg(40, 20), 0xE1, &exif_with_gps(6));
        let out = process(&input).unwrap();
        assert_eq!((out.width, out.height), (20, 40));
        let image = decoded(&out);
        assert_eq!((image.width(), image.height()), (20, 40));
    }

    #[test]
    fn plain_formats_are_accepted_with_the_right_type() {
        for (bytes, extension, content_type) in [
            (jpeg(30, 20), "jpg", "image/jpeg"),
            (png(30, 20), "png", "image/png"),
            (webp_lossy(30, 20), "webp", "image/webp"),
            (webp_lossless(30, 20), "webp", "image/webp"),
        ] {
            let out = process(&bytes).unwrap();
            assert_eq!((out.extension, out.content_type), (extension, content_type));
            assert_eq!((out.width, out.height), (30, 20));
            assert_eq!(
                image::guess_format(&out.bytes).unwrap().extensions_str()[0].replace("jpeg", "jpg"),
                extension
            );
            let image = decoded(&out);
            assert_eq!((image.width(), image.height()), (30, 20));
        }
    }

    #[test]
    fn webp_stays_lossy_or_lossless() {
        let lossy = process(&webp_lossy(30, 20)).unwrap();
        let layout = webp_layout(&lossy.bytes).unwrap();
        assert!(layout.lossy && !layout.chunks.contains(b"VP8L"));
        let lossless = process(&webp_lossless(30, 20)).unwrap();
        let layout = webp_layout(&lossless.bytes).unwrap();
        assert!(!layout.lossy && layout.chunks.contains(b"VP8L"));
        // Lossless means the same pixels.
        assert_eq!(decoded(&lossless).to_rgb8(), picture(30, 20));
    }

    #[test]
    fn png_loses_its_text_chunk() {
        let plain = png(20, 10);
        let mut input = plain[..33].to_vec(); // signature and IHDR
        input.extend(png_chunk(
            b"tEXt",
            b"Comment\0taken at 38.8977 N, 77.0365 W",
        ));
        input.extend(&plain[33..]);
        assert!(png_chunks(&input).unwrap().chunks.contains(b"tEXt"));

        let out = process(&input).unwrap();
        assert_eq!((out.extension, out.width, out.height), ("png", 20, 10));
        let chunks = png_chunks(&out.bytes).unwrap().chunks;
        assert_eq!(chunks, [*b"IHDR", *b"IDAT", *b"IEND"]);
        assert!(!contains(&out.bytes, b"38.8977"));
        assert_eq!(decoded(&out).to_rgb8(), picture(20, 10));
    }

    #[test]
    fn still_gif_is_accepted() {
        let out = process(&gif(&[[200, 30, 30, 255]], None)).unwrap();
        assert_eq!((out.extension, out.content_type), ("gif", "image/gif"));
        assert_eq!((out.width, out.height), (16, 12));
        let layout = gif_layout(&out.bytes).unwrap();
        assert_eq!((layout.frames, layout.loop_count), (1, None));
    }

    #[test]
    fn animated_gif_stays_animated() {
        let colors = [[200, 30, 30, 255], [30, 200, 30, 255], [30, 30, 200, 255]];
        let input = gif(&colors, Some(Repeat::Infinite));
        let out = process(&input).unwrap();
        assert_eq!((out.extension, out.width, out.height), ("gif", 16, 12));
        let layout = gif_layout(&out.bytes).unwrap();
        assert_eq!((layout.frames, layout.loop_count), (3, Some(0)));
        let frames = GifDecoder::new(Cursor::new(&out.bytes))
            .unwrap()
            .into_frames()
            .collect_frames()
            .unwrap();
        assert_eq!(frames.len(), 3);
        for (frame, color) in frames.iter().zip(colors) {
            assert_eq!(frame.delay().numer_denom_ms(), (200, 1));
            assert_eq!(frame.buffer().get_pixel(5, 5), &Rgba(color));
        }

        // A GIF that plays three times still does.
        let out = process(&gif(&colors, Some(Repeat::Finite(3)))).unwrap();
        assert_eq!(gif_layout(&out.bytes).unwrap().loop_count, Some(3));
    }
}
