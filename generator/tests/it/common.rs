//! Helpers for the generator's integration tests (the fixture project itself is in
//! `generator::fixture`, shared with the api's tests).

use std::fs;

use generator::BuildOptions;
pub use generator::fixture::*;

pub fn read(opts: &BuildOptions, rel: &str) -> String {
    fs::read_to_string(opts.out_dir.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

pub fn json_ld(html: &str) -> Vec<serde_json::Value> {
    html.split(r#"<script type="application/ld+json">"#)
        .skip(1)
        .map(|s| serde_json::from_str(s.split("</script>").next().unwrap()).unwrap())
        .collect()
}
