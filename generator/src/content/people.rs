//! `content/people.yaml`: the party's leaders and candidates.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct People {
    pub people: Vec<Person>,
}

/// Which section of the leadership page a person appears in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Category {
    Leadership,
    Candidates,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Person {
    /// Stable identifier (kebab-case); the team card is chosen by it.
    pub id: String,
    pub name: String,
    /// Role, e.g. "Chair & Co-Founder".
    pub title: String,
    /// A short biography (plain text).
    pub bio: String,
    /// Portrait, relative to `content/media`.
    pub image_url: String,
    /// Alt text of the portrait.
    pub image_alt: String,
    pub category: Category,
    /// Featured people are listed first in their section.
    pub featured: bool,
}

impl People {
    pub(crate) fn validate(&self) -> Result<(), String> {
        super::check_ids("people", self.people.iter().map(|x| x.id.as_str()))?;
        Ok(())
    }

    /// People in `category`, featured first, otherwise in file order.
    pub fn in_category(&self, category: Category) -> Vec<&Person> {
        let mut people: Vec<&Person> = self
            .people
            .iter()
            .filter(|p| p.category == category)
            .collect();
        people.sort_by_key(|p| !p.featured);
        people
    }

    pub fn find(&self, id: &str) -> Option<&Person> {
        self.people.iter().find(|p| p.id == id)
    }
}
