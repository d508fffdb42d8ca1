//! The Tera environment: loads `site/templates` and registers the helpers templates use.
//!
//! - `island(name=…, props=…)`: a React island (see `islands`).
//! - `img(src=…, alt=…, sizes=…, class=…, eager=…)`: a responsive `<picture>` from `content/media`.
//! - `markdown` filter: Markdown to HTML.

use std::path::Path;
use std::sync::Arc;

use anyhow::{Context as _, Result};
use tera::{Error, Kwargs, State, Tera, TeraResult, Value};

use crate::assets::Assets;
use crate::islands::Islands;
use crate::markdown;
use crate::media::{Media, Responsive};

/// What the helpers need while pages render.
#[derive(Clone)]
pub struct Helpers {
    pub media: Arc<Media>,
    pub islands: Arc<Islands>,
    pub assets: Arc<Assets>,
}

/// Loads every template under `dir` and registers the helpers.
pub fn load(dir: &Path, helpers: Helpers) -> Result<Tera> {
    let mut tera = Tera::new();

    tera.register_filter("markdown", |text: &str, _: Kwargs, _: &State| {
        Value::safe_string(&markdown::to_html(text))
    });

    let Helpers {
        media,
        islands,
        assets,
    } = helpers;
    tera.register_function("island", move |kwargs: Kwargs, _: &State| -> TeraResult<Value> {
        let name: &str = kwargs.must_get("name")?;
        if !assets.has_island(name) {
            return Err(Error::message(format!("unknown island {name:?}: there is no site/src/islands/{name}.tsx in the client build")));
        }
        let props: Value = kwargs.get("props")?.unwrap_or_else(|| Value::from_serializable(&serde_json::json!({})));
        let props = serde_json::to_value(&props).map_err(|e| Error::message(format!("island {name}: props are not JSON: {e}")))?;
        let html = islands.placeholder(name, &props).map_err(|e| Error::message(e.to_string()))?;
        Ok(Value::safe_string(&html))
    });

    tera.register_function(
        "img",
        move |kwargs: Kwargs, _: &State| -> TeraResult<Value> {
            let src: &str = kwargs.must_get("src")?;
            let alt: &str = kwargs.must_get("alt")?;
            let sizes: &str = kwargs.get("sizes")?.unwrap_or("100vw");
            let class: Option<&str> = kwargs.get("class")?;
            let eager: bool = kwargs.get("eager")?.unwrap_or(false);
            let image = media
                .responsive(src)
                .map_err(|e| Error::message(format!("{e:#}")))?;
            let html = picture(&image, alt, sizes, class, eager);
            Ok(Value::safe_string(&html))
        },
    );

    // Tera checks filter and function names while parsing, so templates load last.
    tera.autoescape_on([".html", ".xml"]);
    // The pages' HTML, and the XML files made from templates (the blog's feed, the sitemap).
    let glob = format!("{}/**/*.{{html,xml}}", dir.display());
    tera.load_from_glob(&glob)
        .map_err(|e| anyhow::anyhow!("Failed to load the templates in {}: {e}", dir.display()))?;
    Ok(tera)
}

/// A `<picture>`: WebP first, the JPEG/PNG fallback in `<img>` with its intrinsic size.
/// The picture is `display: contents`, so `class` styles the image as if it stood alone
/// (a grid placement or an absolute position keeps working).
pub fn picture(
    image: &Responsive,
    alt: &str,
    sizes: &str,
    class: Option<&str>,
    eager: bool,
) -> String {
    let mut html = format!(
        r#"<picture class="contents"><source type="image/webp" srcset="{}" sizes="{}"><img src="{}" srcset="{}" sizes="{}" width="{}" height="{}" alt="{}""#,
        attr(&image.webp_srcset),
        attr(sizes),
        attr(&image.src),
        attr(&image.srcset),
        attr(sizes),
        image.width,
        image.height,
        attr(alt)
    );
    // Above-the-fold images load at once and first; the rest wait until scrolled near.
    html.push_str(if eager {
        r#" fetchpriority="high" decoding="async""#
    } else {
        r#" loading="lazy" decoding="async""#
    });
    if let Some(class) = class {
        html.push_str(&format!(r#" class="{}""#, attr(class)));
    }
    html.push_str("></picture>");
    html
}

/// Renders `template` with `context`, naming the template in errors.
pub fn render(tera: &Tera, template: &str, context: &tera::Context) -> Result<String> {
    tera.render(template, context)
        .with_context(|| format!("Failed to render template {template}"))
}

/// Escapes text for a double-quoted HTML attribute.
pub fn attr(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}
