//! crunch's own checks, as an integration test: a unit-test build of the crate would compile
//! its optimised image and compression code a second time (90 s of a fresh CI build).

use crunch::{WebP, brotli, gzip, jpeg, png, resize, webp};
use image::DynamicImage;

#[test]
fn compression_round_trips() {
    let text = "The American Conscience Party. ".repeat(200);
    let mut plain = Vec::new();
    brotli::BrotliDecompress(&mut &brotli(text.as_bytes(), 5).unwrap()[..], &mut plain).unwrap();
    assert_eq!(plain, text.as_bytes());
    let mut plain = String::new();
    std::io::Read::read_to_string(
        &mut flate2::read::GzDecoder::new(&gzip(text.as_bytes(), 6).unwrap()[..]),
        &mut plain,
    )
    .unwrap();
    assert_eq!(plain, text);
}

#[test]
fn images_keep_their_kind_and_size() {
    let rgba = DynamicImage::ImageRgba8(image::RgbaImage::from_pixel(
        40,
        30,
        image::Rgba([20, 33, 61, 128]),
    ));
    let small = resize(&rgba, 20, 15).unwrap();
    assert_eq!(
        (small.width(), small.height(), small.color().has_alpha()),
        (20, 15, true)
    );
    let deep = DynamicImage::ImageRgb16(image::ImageBuffer::new(8, 8));
    assert_eq!(
        resize(&deep, 4, 4).unwrap().color(),
        image::ColorType::Rgba8
    );
    for (bytes, format) in [
        (jpeg(&small, 80).unwrap(), image::ImageFormat::Jpeg),
        (png(&small, false).unwrap(), image::ImageFormat::Png),
        (png(&small, true).unwrap(), image::ImageFormat::Ico),
        (
            webp(
                &small,
                WebP {
                    lossless: false,
                    quality: 80.0,
                    method: 4,
                },
            )
            .unwrap(),
            image::ImageFormat::WebP,
        ),
    ] {
        assert_eq!(image::guess_format(&bytes).unwrap(), format);
        let back = image::load_from_memory(&bytes).unwrap();
        assert_eq!((back.width(), back.height()), (20, 15), "{format:?}");
    }
}
