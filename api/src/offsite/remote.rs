//! A place in S3 or a look-alike (Backblaze B2, Cloudflare R2, MinIO): `s3://bucket/prefix`
//! with its endpoint, region and credentials, from one family of settings.

use std::sync::Arc;

use anyhow::{Context as _, Result, bail};
use object_store::ObjectStore;
use object_store::aws::AmazonS3Builder;
use object_store::path::Path as Key;

/// Where one kind of copy goes, and the client that reaches it.
#[derive(Clone)]
pub struct Remote {
    pub bucket: String,
    /// The folder inside the bucket, without slashes at either end; may be empty.
    pub prefix: String,
    /// `{NAME}_ENDPOINT`: for anything but AWS itself (`https://…r2.cloudflarestorage.com`,
    /// `http://127.0.0.1:9000` for MinIO).
    pub endpoint: Option<String>,
    pub region: String,
    pub access_key_id: String,
    pub secret_access_key: String,
    pub store: Arc<dyn ObjectStore>,
}

impl std::fmt::Debug for Remote {
    // Never the secret (settings are logged when the server fails to start).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.url())
    }
}

impl Remote {
    /// `{NAME}_URL` (`s3://bucket/prefix`) with `{NAME}_ENDPOINT`, `{NAME}_REGION`,
    /// `{NAME}_ACCESS_KEY_ID` and `{NAME}_SECRET_ACCESS_KEY`, each falling back to AWS's own
    /// variable (`AWS_ENDPOINT_URL`, `AWS_REGION`, `AWS_ACCESS_KEY_ID`,
    /// `AWS_SECRET_ACCESS_KEY`); `None` when `{NAME}_URL` is unset.
    pub fn from_env(name: &str, var: impl Fn(&str) -> Option<String>) -> Result<Option<Remote>> {
        let Some(url) = var(&format!("{name}_URL")) else {
            return Ok(None);
        };
        let either = |ours: &str, aws: &str| var(&format!("{name}_{ours}")).or_else(|| var(aws));
        let (bucket, prefix) = parse_url(&url).with_context(|| format!("{name}_URL"))?;
        let access_key_id = either("ACCESS_KEY_ID", "AWS_ACCESS_KEY_ID").with_context(|| {
            format!("{name}_URL is set: set {name}_ACCESS_KEY_ID (or AWS_ACCESS_KEY_ID) too")
        })?;
        let secret_access_key =
            either("SECRET_ACCESS_KEY", "AWS_SECRET_ACCESS_KEY").with_context(|| {
                format!(
                    "{name}_URL is set: set {name}_SECRET_ACCESS_KEY (or AWS_SECRET_ACCESS_KEY) too"
                )
            })?;
        let endpoint = either("ENDPOINT", "AWS_ENDPOINT_URL");
        let region = either("REGION", "AWS_REGION").unwrap_or_else(|| "us-east-1".into());
        Remote::new(
            bucket,
            prefix,
            endpoint,
            region,
            access_key_id,
            secret_access_key,
        )
        .map(Some)
    }

    pub fn new(
        bucket: String,
        prefix: String,
        endpoint: Option<String>,
        region: String,
        access_key_id: String,
        secret_access_key: String,
    ) -> Result<Remote> {
        let mut builder = AmazonS3Builder::new()
            .with_bucket_name(&bucket)
            .with_region(&region)
            .with_access_key_id(&access_key_id)
            .with_secret_access_key(&secret_access_key);
        if let Some(endpoint) = &endpoint {
            // An endpoint of our own is a look-alike: most take only path-style requests,
            // and a local one (MinIO on the same machine) speaks plain HTTP.
            builder = builder
                .with_endpoint(endpoint)
                .with_virtual_hosted_style_request(false)
                .with_allow_http(endpoint.starts_with("http://"));
        }
        let store = builder.build().context("the S3 client")?;
        Ok(Remote {
            bucket,
            prefix,
            endpoint,
            region,
            access_key_id,
            secret_access_key,
            store: Arc::new(store),
        })
    }

    /// `s3://bucket/prefix`, for logs and staff: no credentials.
    pub fn url(&self) -> String {
        if self.prefix.is_empty() {
            format!("s3://{}", self.bucket)
        } else {
            format!("s3://{}/{}", self.bucket, self.prefix)
        }
    }

    /// The object key of `rel` (`a/b.html`) under the prefix.
    pub fn key(&self, rel: &str) -> Key {
        let full = if self.prefix.is_empty() {
            rel.to_owned()
        } else {
            format!("{}/{rel}", self.prefix)
        };
        Key::parse(&full).unwrap_or_else(|_| Key::from(full.as_str()))
    }

    /// `rel` again from a key under the prefix.
    pub fn rel<'k>(&self, key: &'k str) -> Option<&'k str> {
        if self.prefix.is_empty() {
            Some(key)
        } else {
            key.strip_prefix(&self.prefix)?.strip_prefix('/')
        }
    }
}

/// `s3://bucket/some/prefix/` into its bucket and prefix (`some/prefix`).
fn parse_url(url: &str) -> Result<(String, String)> {
    let Some(rest) = url.trim().strip_prefix("s3://") else {
        bail!("must look like s3://bucket/prefix (only S3 and its look-alikes are supported)");
    };
    let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
    let valid_bucket = (3..=63).contains(&bucket.len())
        && bucket
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'-' | b'.'));
    if !valid_bucket {
        bail!("{bucket:?} is not a bucket name (3 to 63 lower-case letters, digits, - and .)");
    }
    let prefix = prefix.trim_matches('/').to_owned();
    if prefix.split('/').any(|p| p == "." || p == "..") {
        bail!("the prefix may not hold . or .. segments");
    }
    Ok((bucket.to_owned(), prefix))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_name_a_bucket_and_a_folder() {
        assert_eq!(
            parse_url("s3://acp-backups/site/").unwrap(),
            ("acp-backups".into(), "site".into())
        );
        assert_eq!(
            parse_url("s3://acp-site").unwrap(),
            ("acp-site".into(), String::new())
        );
        for bad in ["https://x/y", "s3://A_B", "s3://ab", "s3://good/../up"] {
            assert!(parse_url(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn keys_sit_under_the_prefix_and_come_back() {
        let remote = Remote::new(
            "bucket".into(),
            "pre/fix".into(),
            Some("http://127.0.0.1:9".into()),
            "us-east-1".into(),
            "id".into(),
            "secret".into(),
        )
        .unwrap();
        let key = remote.key("blog/a post/index.html");
        assert_eq!(remote.rel(key.as_ref()), Some("blog/a post/index.html"));
        assert_eq!(format!("{remote:?}"), "s3://bucket/pre/fix");
    }
}
