//! The staff's downloads as HTTP answers: an export's CSV named for the party, the kind and
//! the day, and any other file (the treasurer's `.fec`) named as given.

use generator::config::SiteConfig;
use warp::http::{Response as HttpResponse, header};
use warp::reply::Response;

use crate::domain::export::{Sheet, to_csv};
use crate::http::error::ApiError;

/// The download: `text/csv` named `{ABBR}-{kind}-{YYYY-MM-DD}.csv` (today, party time).
pub fn response(site: &SiteConfig, sheet: &Sheet) -> Result<Response, ApiError> {
    let today = jiff::Timestamp::now()
        .to_zoned_datetime(site.tz())
        .strftime("%Y-%m-%d")
        .to_string();
    csv_named(
        &format!("{}-{}-{today}.csv", site.abbreviation, sheet.kind),
        sheet,
    )
}

/// `sheet` as a `text/csv` download named `name`.
pub fn csv_named(name: &str, sheet: &Sheet) -> Result<Response, ApiError> {
    let body = to_csv(sheet).map_err(|e| ApiError::Internal(e.into()))?;
    download(name, "text/csv; charset=utf-8", body)
}

/// `body` as a download named `name` (letters, digits, `-`, `_` and `.` only).
pub fn download(name: &str, content_type: &str, body: Vec<u8>) -> Result<Response, ApiError> {
    HttpResponse::builder()
        .header(header::CONTENT_TYPE, content_type)
        .header(
            header::CONTENT_DISPOSITION,
            format!("attachment; filename=\"{name}\""),
        )
        .body(body.into())
        .map_err(|e| ApiError::Internal(e.into()))
}
