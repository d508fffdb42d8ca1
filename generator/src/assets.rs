//! The client bundles built by Vite: reads its manifest, copies the fingerprinted files
//! into the output, and says which tags each page needs.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result, bail};
use serde::{Deserialize, Serialize};

use crate::output::Output;

/// The client entry every page loads (header menu + island hydration).
const MAIN_ENTRY: &str = "src/main.ts";

#[derive(Debug, Deserialize)]
struct Chunk {
    file: String,
    #[serde(default)]
    css: Vec<String>,
    #[serde(default)]
    imports: Vec<String>,
}

/// What the templates need to link the client code.
#[derive(Debug, Clone, Serialize)]
pub struct Assets {
    /// `/assets/main-…js`
    pub script: String,
    /// Stylesheets, in order.
    pub styles: Vec<String>,
    #[serde(skip)]
    manifest: BTreeMap<String, ChunkInfo>,
}

#[derive(Debug, Clone)]
struct ChunkInfo {
    file: String,
    imports: Vec<String>,
}

impl Assets {
    /// Reads `{client_dir}/.vite/manifest.json`.
    pub fn load(client_dir: &Path) -> Result<Assets> {
        let path = client_dir.join(".vite/manifest.json");
        let text = fs::read_to_string(&path).with_context(|| {
            format!(
                "Failed to read {} (build the site bundles first: `just build`)",
                path.display()
            )
        })?;
        let chunks: BTreeMap<String, Chunk> = serde_json::from_str(&text)
            .with_context(|| format!("{} is not a Vite manifest", path.display()))?;
        let Some(main) = chunks.get(MAIN_ENTRY) else {
            bail!("{} has no entry for {MAIN_ENTRY}", path.display());
        };
        let script = format!("/{}", main.file);
        let styles = main.css.iter().map(|c| format!("/{c}")).collect();
        let manifest = chunks
            .into_iter()
            .map(|(k, c)| {
                (
                    k,
                    ChunkInfo {
                        file: c.file,
                        imports: c.imports,
                    },
                )
            })
            .collect();
        Ok(Assets {
            script,
            styles,
            manifest,
        })
    }

    /// Whether the client bundle has a component for island `name`.
    pub fn has_island(&self, name: &str) -> bool {
        self.manifest.contains_key(&island_key(name))
    }

    /// `modulepreload` URLs for the islands on a page, so their code downloads in parallel
    /// with the main script. The toaster is not among them: it loads only once a visitor
    /// starts on a form (see site/src/islands.ts), so a page that is only read never pays
    /// for it.
    pub fn preloads(&self, islands: &[String]) -> Vec<String> {
        if islands.is_empty() {
            return Vec::new();
        }
        let mut seen = BTreeSet::new();
        let mut out = Vec::new();
        for name in islands {
            self.collect(&island_key(name), &mut seen, &mut out);
        }
        out
    }

    fn collect(&self, key: &str, seen: &mut BTreeSet<String>, out: &mut Vec<String>) {
        if !seen.insert(key.to_owned()) {
            return;
        }
        if let Some(chunk) = self.manifest.get(key) {
            for import in &chunk.imports {
                self.collect(import, seen, out);
            }
            let url = format!("/{}", chunk.file);
            if url != self.script {
                out.push(url);
            }
        }
    }
}

fn island_key(name: &str) -> String {
    format!("src/islands/{name}.tsx")
}

/// Copies `{client_dir}/assets` to `assets/` in the output.
pub fn copy_client_files(client_dir: &Path, output: &Output) -> Result<()> {
    let dir = client_dir.join("assets");
    for entry in walk(&dir)? {
        let rel = entry
            .strip_prefix(client_dir)
            .expect("walked inside client_dir");
        output.copy(&entry, &rel.to_string_lossy())?;
    }
    Ok(())
}

fn walk(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for entry in fs::read_dir(dir).with_context(|| format!("Failed to read {}", dir.display()))? {
        let path = entry?.path();
        if path.is_dir() {
            files.extend(walk(&path)?);
        } else {
            files.push(path);
        }
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manifest() -> Assets {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir_all(dir.path().join(".vite")).unwrap();
        fs::write(
            dir.path().join(".vite/manifest.json"),
            r#"{
              "src/main.ts": {"file": "assets/main-1.js", "css": ["assets/main-2.css"], "isEntry": true, "imports": ["_shared.js"]},
              "_shared.js": {"file": "assets/shared-3.js"},
              "_react.js": {"file": "assets/react-4.js"},
              "src/islands/Form.tsx": {"file": "assets/Form-5.js", "imports": ["_react.js", "_shared.js"]},
              "src/toaster.tsx": {"file": "assets/toaster-6.js", "imports": ["_react.js"]}
            }"#,
        )
        .unwrap();
        Assets::load(dir.path()).unwrap()
    }

    #[test]
    fn reads_the_entry_and_its_css() {
        let a = manifest();
        assert_eq!(a.script, "/assets/main-1.js");
        assert_eq!(a.styles, ["/assets/main-2.css"]);
        assert!(a.has_island("Form") && !a.has_island("Nope"));
    }

    #[test]
    fn preloads_islands_with_their_imports_once() {
        let a = manifest();
        assert_eq!(
            a.preloads(&["Form".into()]),
            [
                "/assets/react-4.js",
                "/assets/shared-3.js",
                "/assets/Form-5.js",
            ]
        );
        assert!(
            a.preloads(&[]).is_empty(),
            "pages without islands load no React"
        );
    }
}
