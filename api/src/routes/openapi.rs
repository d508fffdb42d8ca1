//! GET /api/openapi.json: the OpenAPI 3.1 description of every `/api` route, kept beside
//! the code (api/openapi.json); a test checks the two agree route by route.

use warp::Filter;
use warp::filters::BoxedFilter;
use warp::http::{Response as HttpResponse, header};
use warp::reply::Response;

/// The document, as written.
pub const DOCUMENT: &str = include_str!("../../openapi.json");

/// The methods `path` (under `/api`) answers, as `Allow` lists them, from the document:
/// `None` when no documented route has that shape.
pub fn allowed_methods(path: &str) -> Option<&'static str> {
    static ROUTES: std::sync::LazyLock<Vec<(Vec<String>, String)>> =
        std::sync::LazyLock::new(|| {
            let doc: serde_json::Value =
                serde_json::from_str(DOCUMENT).expect("openapi.json is JSON");
            doc["paths"]
                .as_object()
                .map(|paths| {
                    paths
                        .iter()
                        .map(|(template, item)| {
                            let segments = template.split('/').map(str::to_owned).collect();
                            let mut methods: Vec<String> = item
                                .as_object()
                                .map(|ops| ops.keys().map(|m| m.to_ascii_uppercase()).collect())
                                .unwrap_or_default();
                            if methods.iter().any(|m| m == "GET") {
                                methods.push("HEAD".into());
                            }
                            (segments, methods.join(", "))
                        })
                        .collect()
                })
                .unwrap_or_default()
        });
    let segments: Vec<&str> = path.split('/').collect();
    // A literal segment beats a parameter (`/blogs/export` over `/blogs/{id}`).
    ROUTES
        .iter()
        .filter(|(template, _)| {
            template.len() == segments.len()
                && template
                    .iter()
                    .zip(&segments)
                    .all(|(t, s)| t == s || (t.starts_with('{') && !s.is_empty()))
        })
        .min_by_key(|(template, _)| template.iter().filter(|t| t.starts_with('{')).count())
        .map(|(_, methods)| methods.as_str())
}

pub fn routes() -> BoxedFilter<(Response,)> {
    warp::path!("openapi.json")
        .and(warp::get())
        .map(|| {
            HttpResponse::builder()
                .header(header::CONTENT_TYPE, "application/json")
                .header(header::CACHE_CONTROL, "no-cache")
                .body(DOCUMENT.into())
                .expect("static headers are valid")
        })
        .boxed()
}
