//! Writes a photograph-like JPEG for the memory benchmark: `WIDTH`×`HEIGHT` pixels of smooth
//! light, texture and sensor noise, encoded at quality 92 (what a phone saves), so it weighs
//! what a real 12-megapixel photo does (about 3 MB at the default size). `SEED` makes each
//! file different, so uploads of several are several images.
//!
//!     cargo run --release -p api --example photo -- OUT.jpg [SEED] [WIDTH] [HEIGHT]

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let out = args
        .next()
        .ok_or_else(|| anyhow::anyhow!("usage: photo OUT.jpg [SEED] [WIDTH] [HEIGHT]"))?;
    let seed: u32 = args.next().map_or(Ok(1), |s| s.parse())?;
    let width: u32 = args.next().map_or(Ok(4000), |s| s.parse())?;
    let height: u32 = args.next().map_or(Ok(3000), |s| s.parse())?;
    let mut state = seed.wrapping_mul(2_654_435_761).max(1);
    let mut noise = move || {
        // xorshift32: cheap, and the same file for the same seed.
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        (state % 13) as f32 - 6.0
    };
    let phase = seed as f32 * 0.7;
    let img = image::RgbImage::from_fn(width, height, |x, y| {
        let (fx, fy) = (x as f32 / width as f32, y as f32 / height as f32);
        let light = 150.0 + 70.0 * (fx * 3.1 + phase).sin() * (fy * 2.3).cos();
        let texture = 18.0 * ((x as f32 * 0.05).sin() + (y as f32 * 0.031 + phase).cos());
        let px = |tint: f32, n: f32| (light * tint + texture + n).clamp(0.0, 255.0) as u8;
        image::Rgb([px(1.0, noise()), px(0.9, noise()), px(0.75, noise())])
    });
    let file = std::fs::File::create(&out)?;
    let mut encoder =
        image::codecs::jpeg::JpegEncoder::new_with_quality(std::io::BufWriter::new(file), 92);
    encoder.encode_image(&img)?;
    Ok(())
}
