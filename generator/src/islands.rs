//! React islands: templates call `island(name=…, props=…)`, which leaves a marker in the
//! page; after every page is rendered, all islands are rendered to HTML in one batch by
//! the Vite SSR bundle (one `node` process for the whole build), and the markers are
//! replaced. The browser then hydrates each `<div data-island>` by name.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::Mutex;

use anyhow::{Context as _, Result, bail};
use serde::{Deserialize, Serialize};

/// One island instance to render.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Request {
    /// Component name: `site/src/islands/{name}.tsx`.
    pub name: String,
    /// Props as a JSON string, exactly as the browser will receive them.
    pub props: String,
}

/// Renders a batch of islands to HTML, in order.
pub trait Renderer {
    fn render(&self, requests: &[Request]) -> Result<Vec<String>>;
}

/// Renders with `node site/scripts/render-islands.mjs <ssr bundle>`.
pub struct NodeRenderer {
    pub script: PathBuf,
    pub ssr_entry: PathBuf,
}

impl Renderer for NodeRenderer {
    fn render(&self, requests: &[Request]) -> Result<Vec<String>> {
        if requests.is_empty() {
            return Ok(Vec::new());
        }
        if !self.ssr_entry.exists() {
            bail!(
                "{} is missing: build the site bundles first (`just build`)",
                self.ssr_entry.display()
            );
        }
        let mut child = Command::new("node")
            .arg(&self.script)
            .arg(&self.ssr_entry)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .context("Failed to start `node` to pre-render the islands (is Node.js installed?)")?;
        let input = serde_json::to_vec(requests)?;
        child.stdin.take().context("no stdin")?.write_all(&input)?;
        let out = child.wait_with_output()?;
        if !out.status.success() {
            bail!("pre-rendering the islands failed (see the error above)");
        }
        let html: Vec<String> = serde_json::from_slice(&out.stdout)
            .context("the island renderer printed something that is not a JSON list")?;
        if html.len() != requests.len() {
            bail!(
                "the island renderer returned {} results for {} islands",
                html.len(),
                requests.len()
            );
        }
        Ok(html)
    }
}

/// Collects island requests while pages render.
#[derive(Default)]
pub struct Islands {
    requests: Mutex<Vec<Request>>,
}

const MARKER_OPEN: &str = "<!--island:";
const MARKER_CLOSE: &str = "-->";

impl Islands {
    /// Records an island and returns its wrapper element with a marker where its HTML goes.
    pub fn placeholder(&self, name: &str, props: &serde_json::Value) -> Result<String> {
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric()) {
            bail!("island names are component names like NewsletterForm (got {name:?})");
        }
        let props = serde_json::to_string(props)?;
        let mut requests = self.requests.lock().unwrap();
        let index = match requests
            .iter()
            .position(|r| r.name == name && r.props == props)
        {
            Some(i) => i,
            None => {
                requests.push(Request {
                    name: name.to_owned(),
                    props: props.clone(),
                });
                requests.len() - 1
            }
        };
        Ok(format!(
            "<div data-island=\"{name}\" data-props='{}'>{MARKER_OPEN}{index}{MARKER_CLOSE}</div>",
            escape_attr(&props)
        ))
    }

    /// Everything recorded so far.
    pub fn requests(&self) -> Vec<Request> {
        self.requests.lock().unwrap().clone()
    }
}

/// Replaces the markers in `page` with the rendered islands.
pub fn fill(page: &str, rendered: &[String]) -> Result<String> {
    let mut out = String::with_capacity(page.len());
    let mut rest = page;
    while let Some(start) = rest.find(MARKER_OPEN) {
        out.push_str(&rest[..start]);
        let after = &rest[start + MARKER_OPEN.len()..];
        let end = after
            .find(MARKER_CLOSE)
            .context("unterminated island marker")?;
        let index: usize = after[..end].parse().context("bad island marker")?;
        out.push_str(
            rendered
                .get(index)
                .context("island marker without a rendered island")?,
        );
        rest = &after[end + MARKER_CLOSE.len()..];
    }
    out.push_str(rest);
    Ok(out)
}

/// Names of the islands a rendered page contains, in order of first appearance.
pub fn names_in(page: &str) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for part in page.split("data-island=\"").skip(1) {
        let name = part.split('"').next().unwrap_or_default().to_owned();
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

/// Escapes JSON for a single-quoted HTML attribute; the browser decodes it for `dataset`.
fn escape_attr(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('\'', "&#39;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn same_island_and_props_render_once() {
        let islands = Islands::default();
        let a = islands.placeholder("Form", &json!({"id": "a"})).unwrap();
        let b = islands.placeholder("Form", &json!({"id": "a"})).unwrap();
        let c = islands.placeholder("Form", &json!({"id": "c"})).unwrap();
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_eq!(islands.requests().len(), 2);
    }

    #[test]
    fn markers_are_replaced_by_the_rendered_html() {
        let islands = Islands::default();
        let page = format!(
            "<main>{}{}</main>",
            islands.placeholder("A", &json!({})).unwrap(),
            islands.placeholder("B", &json!({"x": 1})).unwrap()
        );
        let filled = fill(&page, &["<form>a</form>".into(), "<p>b</p>".into()]).unwrap();
        assert_eq!(
            filled,
            "<main><div data-island=\"A\" data-props='{}'><form>a</form></div><div data-island=\"B\" data-props='{\"x\":1}'><p>b</p></div></main>"
        );
        assert_eq!(names_in(&filled), ["A", "B"]);
    }

    #[test]
    fn props_cannot_break_out_of_the_attribute() {
        let islands = Islands::default();
        let html = islands
            .placeholder("A", &json!({"t": "it's </div><script>x</script> & more"}))
            .unwrap();
        assert!(
            html.contains("it&#39;s &lt;/div&gt;&lt;script&gt;x&lt;/script&gt; &amp; more"),
            "{html}"
        );
        assert!(islands.placeholder("A\" onload=\"x", &json!({})).is_err());
    }
}
