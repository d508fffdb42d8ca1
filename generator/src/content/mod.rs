//! Loads and checks everything under `content/`. Every struct rejects unknown fields, and
//! every error names the file and the field so whoever edits content knows what to fix.

mod articles;
mod blog;
mod home;
mod pages;
mod people;

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result, bail};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::config::SiteConfig;
pub use articles::{Article, Faq, Join, Movement, Privacy, WhyThirdParty};
pub use blog::{BlogNotFound, BlogPage, FeaturedCard};
pub use home::{Card, Home, TextConsent};
pub use pages::{
    ContactPage, CorePolicy, DonateForm, DonatePage, Issue, IssuesPage, LeadershipPage, LinkCard,
    NotFoundPage, OPPORTUNITY_ICONS, Opportunity, OpportunityType, Priority, Section,
    TakeActionPage,
};
pub use people::{Category, People, Person};

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
    pub people: People,
    pub leadership: LeadershipPage,
    pub issues: IssuesPage,
    pub take_action: TakeActionPage,
    pub contact: ContactPage,
    pub donate: DonatePage,
    pub join: Article<Join>,
    pub why_third_party: Article<WhyThirdParty>,
    pub movement: Article<Movement>,
    pub privacy: Article<Privacy>,
    pub not_found: NotFoundPage,
    pub blog: BlogPage,
}

impl Content {
    /// Reads and checks every content file under `dir`.
    pub fn load(dir: &Path) -> Result<Content> {
        let site: SiteConfig = read_yaml(&dir.join("site.yaml"))?;
        checked(dir, "site.yaml", site.validate())?;
        let home: Home = read_yaml(&dir.join("home.yaml"))?;
        checked(dir, "home.yaml", home.validate())?;
        let people: People = read_yaml(&dir.join("people.yaml"))?;
        checked(dir, "people.yaml", people.validate())?;
        let leadership: LeadershipPage = read_yaml(&dir.join("leadership.yaml"))?;
        let team = people.find(&leadership.team_card_id);
        if team.is_none_or(|p| p.category != Category::Leadership) {
            let e = format!(
                "teamCardId {:?} must be the id of a leadership entry in people.yaml",
                leadership.team_card_id
            );
            checked(dir, "leadership.yaml", Err(e))?;
        }
        let issues: IssuesPage = read_yaml(&dir.join("issues.yaml"))?;
        checked(dir, "issues.yaml", issues.validate())?;
        let take_action: TakeActionPage = read_yaml(&dir.join("take-action.yaml"))?;
        checked(dir, "take-action.yaml", take_action.validate())?;
        let contact: ContactPage = read_yaml(&dir.join("contact.yaml"))?;
        let donate: DonatePage = read_yaml(&dir.join("donate.yaml"))?;
        checked(dir, "donate.yaml", donate.validate())?;
        let not_found: NotFoundPage = read_yaml(&dir.join("not-found.yaml"))?;
        checked(dir, "not-found.yaml", not_found.validate())?;
        let blog: BlogPage = read_yaml(&dir.join("blog.yaml"))?;
        checked(dir, "blog.yaml", blog.validate())?;
        Ok(Content {
            dir: dir.to_path_buf(),
            site,
            home,
            people,
            leadership,
            issues,
            take_action,
            contact,
            donate,
            join: read_article(&dir.join("pages/join.md"))?,
            why_third_party: read_article(&dir.join("pages/why-third-party.md"))?,
            movement: read_article(&dir.join("pages/movement.md"))?,
            privacy: read_article(&dir.join("pages/privacy-policy.md"))?,
            not_found,
            blog,
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

fn checked(dir: &Path, file: &str, result: Result<(), String>) -> Result<()> {
    result.map_err(|e| anyhow::anyhow!("{}: {e}", dir.join(file).display()))
}

fn read_article<T: DeserializeOwned>(path: &Path) -> Result<Article<T>> {
    let (front, body) = read_front_matter(path)?;
    Ok(Article { front, body })
}

/// Every id is a slug and none repeats; `list` names the field in the error ("people").
pub(crate) fn check_ids<'a>(
    list: &str,
    ids: impl IntoIterator<Item = &'a str>,
) -> Result<(), String> {
    let mut seen = std::collections::HashSet::new();
    for (i, id) in ids.into_iter().enumerate() {
        if !is_slug(id) {
            return Err(format!(
                "{list}[{i}].id {id:?} must be lowercase words joined by hyphens"
            ));
        }
        if !seen.insert(id) {
            return Err(format!("{list}[{i}].id {id:?} is used twice"));
        }
    }
    Ok(())
}

/// Lowercase ASCII words joined by single hyphens: safe in URLs and file names.
pub(crate) fn is_slug(s: &str) -> bool {
    !s.is_empty()
        && s.split('-').all(|w| {
            !w.is_empty()
                && w.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        })
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
/// Checks a list of link cards: at least one, each pointing to a path on this site.
pub(crate) fn check_link_list<'a>(
    list: &str,
    hrefs: impl ExactSizeIterator<Item = &'a str>,
) -> Result<(), String> {
    if hrefs.len() == 0 {
        return Err(format!("{list} must list at least one link"));
    }
    for (i, href) in hrefs.enumerate() {
        check_internal_href(&format!("{list}[{i}].href"), href)?;
    }
    Ok(())
}

fn check_internal_href(field: &str, href: &str) -> Result<(), String> {
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

    #[test]
    fn slugs_are_lowercase_hyphenated_words() {
        assert!(is_slug("government-spending") && is_slug("a1"));
        for bad in ["", "Gov", "a--b", "-a", "a_b", "a b", "../x"] {
            assert!(!is_slug(bad), "{bad}");
        }
    }

    /// The party's real content loads, and has what the spec asks of it.
    #[test]
    fn the_real_content_is_complete() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../content");
        let c = Content::load(&dir).unwrap();
        assert_eq!(c.people.in_category(Category::Leadership).len(), 9);
        assert_eq!(c.people.in_category(Category::Candidates).len(), 2);
        assert_eq!(c.issues.issues.len(), 8);
        // Every issue is high priority except the last, government spending.
        let medium: Vec<&str> = (c.issues.issues.iter())
            .filter(|i| i.priority == Priority::Medium)
            .map(|i| i.id.as_str())
            .collect();
        assert_eq!(medium, ["government-spending"]);
        assert_eq!(c.issues.issues.last().unwrap().id, "government-spending");
        assert_eq!(c.take_action.opportunities.len(), 4);
        assert_eq!(
            c.take_action
                .opportunities
                .iter()
                .filter(|o| o.icon.is_some())
                .count(),
            1
        );
        assert_eq!(c.why_third_party.front.faq.len(), 4);
        assert_eq!(c.privacy.front.last_updated, "November 06, 2023");
        assert_eq!(c.home.cards.len(), 4);
    }
}
