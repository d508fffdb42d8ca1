//! Keeping accepted images: named by a hash of their content, written into the uploads
//! folder (`DATA_DIR/uploads`); `pages::uploads` serves them back at `/uploads/{name}`.

use std::io::Write;
use std::path::Path;

use sha2::{Digest, Sha256};

use super::Processed;
use super::check::content_type_for;

/// Writes a processed image under `dir` (created if missing) as `{first 20 hex digits of its
/// SHA-256}.{extension}` and returns its public URL, `/uploads/{name}`. The file appears
/// atomically (written to a hidden temporary file in `dir`, then renamed); the same image
/// uploaded again reuses the file. Blocking I/O: call it from `spawn_blocking`.
pub fn store(dir: &Path, image: &Processed) -> std::io::Result<String> {
    // Private, like everything in DATA_DIR (the server serves them; nobody else reads them).
    if !dir.exists() {
        use std::os::unix::fs::DirBuilderExt as _;
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)?;
    }
    let digest = Sha256::digest(&image.bytes);
    let hex: String = digest[..10].iter().map(|b| format!("{b:02x}")).collect();
    let name = format!("{hex}.{}", image.extension);
    let path = dir.join(&name);
    let url = format!("/uploads/{name}");
    if std::fs::metadata(&path).is_ok_and(|m| m.is_file() && m.len() == image.bytes.len() as u64) {
        return Ok(url);
    }
    let temp = dir.join(format!(".{name}.{:016x}.tmp", rand::random::<u64>()));
    let written = (|| {
        use std::os::unix::fs::OpenOptionsExt as _;
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&temp)?;
        file.write_all(&image.bytes)?;
        file.sync_all()?;
        std::fs::rename(&temp, &path)
    })();
    if let Err(e) = written {
        let _ = std::fs::remove_file(&temp);
        return Err(e);
    }
    Ok(url)
}

/// The content type for a stored file's name, if the name is one `store` could have made:
/// `^[0-9a-f]{20}\.(jpg|png|gif|webp)$`.
pub fn stored_name_type(name: &str) -> Option<&'static str> {
    let (stem, extension) = name.split_once('.')?;
    let hex = stem.len() == 20 && stem.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
    hex.then(|| content_type_for(extension)).flatten()
}

#[cfg(test)]
mod tests {
    use super::super::process;
    use super::super::test_corpus::{jpeg, png};
    use super::*;

    fn file_names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn store_names_files_by_content_and_reuses_them() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("uploads");
        let image = process(&png(12, 12)).unwrap();

        let url = store(&dir, &image).unwrap();
        let name = url.strip_prefix("/uploads/").unwrap();
        assert_eq!(stored_name_type(name), Some("image/png"));
        let digest = Sha256::digest(&image.bytes);
        assert!(name.starts_with(&format!("{:02x}{:02x}", digest[0], digest[1])));
        assert_eq!(std::fs::read(dir.join(name)).unwrap(), image.bytes);

        assert_eq!(store(&dir, &image).unwrap(), url);
        assert_eq!(file_names(&dir), [name]);

        let other = process(&jpeg(12, 12)).unwrap();
        let other_url = store(&dir, &other).unwrap();
        assert!(other_url.ends_with(".jpg"));
        assert_eq!(file_names(&dir).len(), 2);
    }
}
