//! `content/site.yaml`: the party's identity and settings, read by every page, the API
//! and the donation rules.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// The whole of `site.yaml`.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SiteConfig {
    /// Full name: titles, header, structured data.
    pub name: String,
    /// Short name: structured data's alternateName and file-name prefixes.
    pub abbreviation: String,
    /// Year the party was founded: structured data, and where the footer's copyright
    /// range starts (it ends with the year of the build).
    pub founding_year: u16,
    /// One-line motto.
    pub tagline: String,
    /// Default meta description and the organisation's description.
    pub description: String,
    /// Canonical origin without a trailing slash; `SITE_URL` overrides it.
    pub url: String,
    /// Public contact address (footer mailto, privacy policy).
    pub email: String,
    /// The party's postal address, one line, which every message to the newsletter list
    /// carries (CAN-SPAM); the list is not mailed without it.
    #[serde(default)]
    pub postal_address: Option<String>,
    /// Blog author used when a post names none.
    pub default_author: String,
    /// The party's time zone (IANA name, e.g. `America/New_York`): dates on the blog and
    /// in staff exports are shown in it.
    pub time_zone: String,
    /// Default social-sharing image, relative to `content/media`.
    pub social_image: String,
    /// Alt text of the social-sharing image.
    pub social_image_alt: String,
    /// Social network profiles, in footer order.
    pub social: Vec<SocialLink>,
    /// Federal contribution rules.
    pub donations: DonationRules,
    /// Hosts (e.g. `images.example.org`) whose https images a blog post may show. Empty by
    /// default: a post shows only images uploaded to the site, since an image fetched from
    /// elsewhere tells that host who is reading.
    #[serde(default)]
    pub remote_image_hosts: Vec<String>,
}

/// One social network profile.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SocialLink {
    /// Network name, used as the link's accessible label ("Facebook").
    pub name: String,
    /// Absolute https URL of the profile.
    pub url: String,
}

/// Donation limits and FEC thresholds, keyed by calendar year.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct DonationRules {
    /// Above this many dollars a year, occupation, employer and purpose are required.
    pub itemization_threshold: u32,
    /// Dollars one individual may give in each calendar year.
    pub annual_limits: BTreeMap<u16, u32>,
}

impl SiteConfig {
    /// Checks what serde cannot: URLs and values the pages rely on.
    pub fn validate(&self) -> Result<(), String> {
        if !self.url.starts_with("https://") && !self.url.starts_with("http://") {
            return Err(format!(
                "url must start with https:// (found {:?})",
                self.url
            ));
        }
        if self.url.ends_with('/') {
            return Err("url must not end with a slash".into());
        }
        for link in &self.social {
            if !link.url.starts_with("https://") {
                return Err(format!(
                    "social link {:?} must be an https:// URL",
                    link.name
                ));
            }
        }
        if !crate::forms::is_valid_email(&self.email) {
            return Err(format!("email {:?} is not a valid address", self.email));
        }
        if jiff::tz::TimeZone::get(&self.time_zone).is_err() {
            return Err(format!(
                "timeZone {:?} is not a time zone name like America/New_York",
                self.time_zone
            ));
        }
        for host in &self.remote_image_hosts {
            let plain = !host.is_empty()
                && host
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-');
            if !plain || host.starts_with('.') || host.ends_with('.') {
                return Err(format!(
                    "remoteImageHosts: {host:?} must be a host name like images.example.org"
                ));
            }
        }
        if self.donations.annual_limits.is_empty() {
            return Err("donations.annualLimits needs at least one year".into());
        }
        Ok(())
    }

    /// The footer's copyright years: "2024–2026", or just "2026" in the founding year.
    pub fn copyright_years(&self, build_year: i16) -> String {
        let from = i32::from(self.founding_year);
        let to = i32::from(build_year);
        if to > from {
            format!("{from}\u{2013}{to}")
        } else {
            from.to_string()
        }
    }

    /// The party's time zone (checked by `validate`; UTC if it somehow is not known).
    pub fn tz(&self) -> jiff::tz::TimeZone {
        jiff::tz::TimeZone::get(&self.time_zone).unwrap_or(jiff::tz::TimeZone::UTC)
    }

    /// The canonical absolute URL of a site path such as `/contact`.
    pub fn absolute_url(&self, path: &str) -> String {
        if path == "/" {
            format!("{}/", self.url)
        } else {
            format!("{}{}", self.url, path)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> SiteConfig {
        serde_saphyr::from_str(include_str!("../tests/fixtures/site/content/site.yaml")).unwrap()
    }

    #[test]
    fn absolute_urls_keep_one_slash() {
        let c = config();
        assert_eq!(c.absolute_url("/"), "https://example.org/");
        assert_eq!(c.absolute_url("/contact"), "https://example.org/contact");
    }

    #[test]
    fn copyright_runs_from_the_founding_year_to_the_build() {
        let c = config();
        let founded = c.founding_year as i16;
        assert_eq!(
            c.copyright_years(founded + 2),
            format!("{founded}\u{2013}{}", founded + 2)
        );
        assert_eq!(c.copyright_years(founded), founded.to_string());
    }

    #[test]
    fn remote_image_hosts_are_plain_host_names() {
        let mut c = config();
        assert!(
            c.remote_image_hosts.is_empty(),
            "none unless the party adds some"
        );
        c.remote_image_hosts = vec!["images.example.org".into(), "cdn-2.example.net".into()];
        assert!(c.validate().is_ok());
        for bad in [
            "https://images.example.org",
            "*.example.org",
            "",
            ".example.org",
            "a b",
        ] {
            c.remote_image_hosts = vec![bad.into()];
            assert!(
                c.validate().unwrap_err().contains("remoteImageHosts"),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn rejects_trailing_slash_and_plain_http_social_links() {
        let mut c = config();
        c.url.push('/');
        assert!(c.validate().unwrap_err().contains("slash"));
        let mut c = config();
        c.social[0].url = "http://example.org".into();
        assert!(c.validate().unwrap_err().contains("https"));
    }

    #[test]
    fn the_time_zone_must_be_a_real_one() {
        let mut c = config();
        assert_eq!(c.tz().iana_name(), Some("America/Chicago"));
        c.time_zone = "Mars/Olympus".into();
        assert!(c.validate().unwrap_err().contains("timeZone"));
    }

    #[test]
    fn unknown_fields_are_rejected() {
        let yaml =
            include_str!("../tests/fixtures/site/content/site.yaml").to_owned() + "colour: red\n";
        let err = serde_saphyr::from_str::<SiteConfig>(&yaml)
            .unwrap_err()
            .to_string();
        assert!(err.contains("colour"), "{err}");
    }
}
