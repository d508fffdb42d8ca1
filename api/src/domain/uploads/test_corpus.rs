//! The unit tests' images, built in code, and the helpers that check what [`process`] says
//! of them.

use image::codecs::gif::{GifEncoder, Repeat};
use image::codecs::jpeg::JpegEncoder;
use image::codecs::png::PngEncoder;
use image::codecs::webp::WebPEncoder;
use image::{
    Delay, DynamicImage, ExtendedColorType, Frame, ImageEncoder, Rgb, RgbImage, Rgba, RgbaImage,
};

use super::{Processed, UploadError, process};

pub(crate) fn picture(width: u32, height: u32) -> RgbImage {
    RgbImage::from_fn(width, height, |x, y| {
        Rgb([(x * 255 / width) as u8, (y * 255 / height) as u8, 120])
    })
}

pub(crate) fn jpeg(width: u32, height: u32) -> Vec<u8> {
    let mut out = Vec::new();
    JpegEncoder::new_with_quality(&mut out, 85)
        .encode_image(&picture(width, height))
        .unwrap();
    out
}

pub(crate) fn png(width: u32, height: u32) -> Vec<u8> {
    let mut out = Vec::new();
    DynamicImage::ImageRgb8(picture(width, height))
        .write_with_encoder(PngEncoder::new(&mut out))
        .unwrap();
    out
}

pub(crate) fn gif(frames: &[[u8; 4]], repeat: Option<Repeat>) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut encoder = GifEncoder::new(&mut out);
        if let Some(repeat) = repeat {
            encoder.set_repeat(repeat).unwrap();
        }
        for &color in frames {
            let mut buffer = RgbaImage::from_pixel(16, 12, Rgba(color));
            buffer.put_pixel(0, 0, Rgba([0, 0, 0, 255]));
            let delay = Delay::from_numer_denom_ms(200, 1);
            encoder
                .encode_frame(Frame::from_parts(buffer, 0, 0, delay))
                .unwrap();
        }
    }
    out
}

pub(crate) fn webp_lossy(width: u32, height: u32) -> Vec<u8> {
    let rgb = picture(width, height);
    webp::Encoder::from_rgb(&rgb, width, height)
        .encode(80.0)
        .to_vec()
}

pub(crate) fn webp_lossless(width: u32, height: u32) -> Vec<u8> {
    let mut out = Vec::new();
    WebPEncoder::new_lossless(&mut out)
        .write_image(
            &picture(width, height),
            width,
            height,
            ExtendedColorType::Rgb8,
        )
        .unwrap();
    out
}

/// A GIF of tiny 1×1 frames on a `width` × `height` canvas, written byte by byte.
pub(crate) fn hand_made_gif(width: u16, height: u16, frames: usize) -> Vec<u8> {
    let mut out = b"GIF89a".to_vec();
    out.extend(width.to_le_bytes());
    out.extend(height.to_le_bytes());
    out.extend([0x80, 0, 0]); // a global palette of 2 colours
    out.extend([0, 0, 0, 255, 255, 255]);
    for _ in 0..frames {
        out.extend([0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0]);
        out.extend([2, 2, 0x44, 0x01, 0]); // LZW: clear, index 0, end
    }
    out.push(0x3B);
    out
}

fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &byte in data {
        crc ^= u32::from(byte);
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

pub(crate) fn png_chunk(kind: &[u8; 4], data: &[u8]) -> Vec<u8> {
    let mut out = (data.len() as u32).to_be_bytes().to_vec();
    out.extend(kind);
    out.extend(data);
    let mut crc_input = kind.to_vec();
    crc_input.extend(data);
    out.extend(crc32(&crc_input).to_be_bytes());
    out
}

/// A PNG whose IHDR claims `width` × `height` (8-bit RGB), with `idat` as its only data.
pub(crate) fn png_claiming(width: u32, height: u32, idat: &[u8]) -> Vec<u8> {
    let mut ihdr = width.to_be_bytes().to_vec();
    ihdr.extend(height.to_be_bytes());
    ihdr.extend([8, 2, 0, 0, 0]);
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    out.extend(png_chunk(b"IHDR", &ihdr));
    out.extend(png_chunk(b"IDAT", idat));
    out.extend(png_chunk(b"IEND", &[]));
    out
}

/// Inserts a segment right after a JPEG's SOI.
pub(crate) fn with_segment(jpeg: &[u8], marker: u8, data: &[u8]) -> Vec<u8> {
    let mut out = jpeg[..2].to_vec();
    out.extend([0xFF, marker]);
    out.extend(((data.len() + 2) as u16).to_be_bytes());
    out.extend(data);
    out.extend(&jpeg[2..]);
    out
}

pub(super) const GPS_LATITUDE_ENTRY: [u8; 8] = [0x00, 0x02, 0x00, 0x05, 0x00, 0x00, 0x00, 0x03];

/// An APP1 Exif payload (big-endian TIFF): IFD0 with Orientation and a pointer to a GPS
/// IFD holding latitude and longitude.
pub(crate) fn exif_with_gps(orientation: u16) -> Vec<u8> {
    let entry = |tag: u16, kind: u16, count: u32, value: [u8; 4]| {
        let mut e = tag.to_be_bytes().to_vec();
        e.extend(kind.to_be_bytes());
        e.extend(count.to_be_bytes());
        e.extend(value);
        e
    };
    let gps_ifd: u32 = 8 + 2 + 2 * 12 + 4;
    let data: u32 = gps_ifd + 2 + 4 * 12 + 4;
    let mut tiff = b"MM\x00\x2A".to_vec();
    tiff.extend(8u32.to_be_bytes());
    tiff.extend(2u16.to_be_bytes());
    let o = orientation.to_be_bytes();
    tiff.extend(entry(0x0112, 3, 1, [o[0], o[1], 0, 0]));
    tiff.extend(entry(0x8825, 4, 1, gps_ifd.to_be_bytes()));
    tiff.extend(0u32.to_be_bytes());
    tiff.extend(4u16.to_be_bytes());
    tiff.extend(entry(0x0001, 2, 2, *b"N\0\0\0"));
    tiff.extend(entry(0x0002, 5, 3, data.to_be_bytes()));
    tiff.extend(entry(0x0003, 2, 2, *b"W\0\0\0"));
    tiff.extend(entry(0x0004, 5, 3, (data + 24).to_be_bytes()));
    tiff.extend(0u32.to_be_bytes());
    for (numerator, denominator) in [
        (38u32, 1u32),
        (53, 1),
        (2388, 100),
        (77, 1),
        (2, 1),
        (1234, 100),
    ] {
        tiff.extend(numerator.to_be_bytes());
        tiff.extend(denominator.to_be_bytes());
    }
    let mut payload = b"Exif\0\0".to_vec();
    payload.extend(tiff);
    payload
}

pub(crate) fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

#[track_caller]
pub(crate) fn refused_with(bytes: &[u8], expected: &str) {
    match process(bytes) {
        Err(UploadError::Refused(message)) => assert_eq!(message, expected),
        other => panic!("expected a refusal ({expected}), got {other:?}"),
    }
}

#[track_caller]
pub(crate) fn refused_containing(bytes: &[u8], part: &str) {
    match process(bytes) {
        Err(UploadError::Refused(message)) => {
            assert!(message.contains(part), "{message:?} lacks {part:?}")
        }
        other => panic!("expected a refusal mentioning {part:?}, got {other:?}"),
    }
}

pub(crate) fn decoded(processed: &Processed) -> DynamicImage {
    image::load_from_memory(&processed.bytes).unwrap()
}
