//! Loads and checks everything under `content/`. Every struct rejects unknown fields, and
//! every error names the file and the field so whoever edits content knows what to fix.

mod home;

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result, bail};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::config::SiteConfig;
pub use home::{Card, Home};

/// A page's search and sharing metadata.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Meta {
    /// The `<title>`; keep it under 65 characters.
    pub title: String,
    /// Meta and social description; 140–160 characters reads best.
    pub description: String,
    /// Comma-separated search phrases.
    pub keywords: String,
}

/// Everything the generator renders from `content/`.
#[derive(Debug, Clone)]
pub struct Content {
    /// The folder it came from.
    pub dir: PathBuf,
    pub site: SiteConfig,
    pub home: Home,
}

impl Content {
    /// Reads and checks every content file under `dir`.
    pub fn load(dir: &Path) -> Result<Content> {
        let site: SiteConfig = read_yaml(&dir.join("site.yaml"))?;
        site.validate()
            .map_err(|e| anyhow::anyhow!("{}: {e}", dir.join("site.yaml").display()))?;
        let home: Home = read_yaml(&dir.join("home.yaml"))?;
        home.validate()
            .map_err(|e| anyhow::anyhow!("{}: {e}", dir.join("home.yaml").display()))?;
        Ok(Content {
            dir: dir.to_path_buf(),
            site,
            home,
        })
    }

    /// Where the party's images live.
    pub fn media_dir(&self) -> PathBuf {
        self.dir.join("media")
    }
}

/// Parses one YAML file into `T`, with the file name and the parser's location in errors.
pub fn read_yaml<T: DeserializeOwned>(path: &Path) -> Result<T> {
    let text =
        fs::read_to_string(path).with_context(|| format!("Failed to read {}", path.display()))?;
    serde_saphyr::from_str(&text)
        .map_err(|e| anyhow::anyhow!("{} is not valid: {e}", path.display()))
}

/// Splits a Markdown file into its YAML front matter (parsed into `T`) and its body.
pub fn read_front_matter<T: DeserializeOwned>(path: &Path) -> Result<(T, String)> {
    let text =
        fs::read_to_string(path).with_context(|| format!("Failed to read {}", path.display()))?;
    let text = text.replace("\r\n", "\n");
    let Some(rest) = text.strip_prefix("---\n") else {
        bail!(
            "{} must start with a front matter block between two `---` lines",
            path.display()
        );
    };
    let Some((front, body)) = rest.split_once("\n---\n") else {
        bail!(
            "{}: the front matter is not closed by a `---` line",
            path.display()
        );
    };
    let meta = serde_saphyr::from_str(front)
        .map_err(|e| anyhow::anyhow!("{} front matter is not valid: {e}", path.display()))?;
    Ok((meta, body.to_owned()))
}

/// An internal link must be a site path; anything else is a content mistake.
pub(crate) fn check_internal_href(field: &str, href: &str) -> Result<(), String> {
    if href.starts_with('/') && !href.starts_with("//") {
        Ok(())
    } else {
        Err(format!(
            "{field} must be a site path starting with / (found {href:?})"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
        let path = dir.join(name);
        fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn yaml_errors_name_the_file_and_the_field() {
        let dir = tempfile::tempdir().unwrap();
        let path = write(
            dir.path(),
            "meta.yaml",
            "title: a\ndescription: b\nkeywords: c\nsubtitle: d\n",
        );
        let err = read_yaml::<Meta>(&path).unwrap_err().to_string();
        assert!(
            err.contains("meta.yaml") && err.contains("subtitle"),
            "{err}"
        );
        let path = write(dir.path(), "short.yaml", "title: a\n");
        let err = read_yaml::<Meta>(&path).unwrap_err().to_string();
        assert!(
            err.contains("short.yaml") && err.contains("description"),
            "{err}"
        );
    }

    #[test]
    fn front_matter_is_split_from_the_body() {
        let dir = tempfile::tempdir().unwrap();
        let path = write(
            dir.path(),
            "a.md",
            "---\ntitle: T\ndescription: D\nkeywords: K\n---\n# Body\n",
        );
        let (meta, body) = read_front_matter::<Meta>(&path).unwrap();
        assert_eq!(meta.title, "T");
        assert_eq!(body, "# Body\n");
        let path = write(dir.path(), "b.md", "# no front matter\n");
        assert!(
            read_front_matter::<Meta>(&path)
                .unwrap_err()
                .to_string()
                .contains("b.md")
        );
    }

    #[test]
    fn loads_the_fixture_site() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/site/content");
        let content = Content::load(&dir).unwrap();
        assert_eq!(content.site.abbreviation, "FXP");
        assert_eq!(content.home.cards.len(), 4);
    }
}
