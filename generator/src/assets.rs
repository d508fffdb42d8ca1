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
/// The admin app's entry. It is built on its own (`vite build --mode admin`, with its own
/// manifest beside the public one), so public pages never share a chunk with it.
const ADMIN_ENTRY: &str = "src/admin/main.tsx";
const ADMIN_MANIFEST: &str = ".vite/admin-manifest.json";

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
    /// The admin app's script and its stylesheets, for the admin shell only.
    pub admin: Entry,
    #[serde(skip)]
    manifest: BTreeMap<String, ChunkInfo>,
}

/// An entry's script and the stylesheets it needs.
#[derive(Debug, Clone, Serialize)]
pub struct Entry {
    pub script: String,
    pub styles: Vec<String>,
}

#[derive(Debug, Clone)]
struct ChunkInfo {
    file: String,
    imports: Vec<String>,
}

impl Assets {
    /// Reads `{client_dir}/.vite/manifest.json` and the admin app's manifest beside it.
    pub fn load(client_dir: &Path) -> Result<Assets> {
        let chunks = read_manifest(&client_dir.join(".vite/manifest.json"))?;
        let Entry { script, styles } = entry(&chunks, MAIN_ENTRY, client_dir)?;
        let admin = entry(
            &read_manifest(&client_dir.join(ADMIN_MANIFEST))?,
            ADMIN_ENTRY,
            client_dir,
        )?;
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
            admin,
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

fn read_manifest(path: &Path) -> Result<BTreeMap<String, Chunk>> {
    let text = fs::read_to_string(path).with_context(|| {
        format!(
            "Failed to read {} (build the site bundles first: `just build`)",
            path.display()
        )
    })?;
    serde_json::from_str(&text)
        .with_context(|| format!("{} is not a Vite manifest", path.display()))
}

fn entry(chunks: &BTreeMap<String, Chunk>, key: &str, client_dir: &Path) -> Result<Entry> {
    let Some(chunk) = chunks.get(key) else {
        bail!(
            "The Vite manifests in {} have no entry for {key}",
            client_dir.display()
        );
    };
    Ok(Entry {
        script: format!("/{}", chunk.file),
        styles: chunk.css.iter().map(|c| format!("/{c}")).collect(),
    })
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
        fs::write(
            dir.path().join(ADMIN_MANIFEST),
            r#"{"src/admin/main.tsx": {"file": "assets/admin-7.js", "css": ["assets/admin-8.css"], "isEntry": true}}"#,
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
        assert_eq!(a.admin.script, "/assets/admin-7.js");
        assert_eq!(a.admin.styles, ["/assets/admin-8.css"]);
    }

    #[test]
    fn a_missing_admin_build_says_how_to_make_it() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir_all(dir.path().join(".vite")).unwrap();
        fs::write(
            dir.path().join(".vite/manifest.json"),
            r#"{"src/main.ts": {"file": "assets/main-1.js"}}"#,
        )
        .unwrap();
        let err = format!("{:#}", Assets::load(dir.path()).unwrap_err());
        assert!(
            err.contains("admin-manifest.json") && err.contains("just build"),
            "{err}"
        );
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
