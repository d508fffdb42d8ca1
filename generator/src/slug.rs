//! URL slugs for blog posts: the api makes them when posts are saved, and the generator
//! writes each post at `/blog/{slug}`.

/// Longest slug, in characters.
pub const MAX_LEN: usize = 80;

/// Lowercase ASCII letters and digits joined by single hyphens, accents transliterated
/// ("Café Society" -> "cafe-society"), at most [`MAX_LEN`] characters and never ending in a
/// hyphen. Empty when `text` has no letters or digits at all.
pub fn slugify(text: &str) -> String {
    let ascii = deunicode::deunicode(text).to_ascii_lowercase();
    let mut slug = String::with_capacity(ascii.len().min(MAX_LEN));
    for word in ascii
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
    {
        if slug.len() + usize::from(!slug.is_empty()) + word.len() > MAX_LEN {
            // Cut at a word boundary when a word fits partly; a first word longer than the
            // limit is cut inside it.
            if slug.is_empty() {
                slug.push_str(&word[..MAX_LEN]);
            }
            break;
        }
        if !slug.is_empty() {
            slug.push('-');
        }
        slug.push_str(word);
    }
    slug
}

/// `slug` with `-{n}` appended, shortened so the result still fits in [`MAX_LEN`].
pub fn numbered(slug: &str, n: u32) -> String {
    let suffix = format!("-{n}");
    let keep = MAX_LEN.saturating_sub(suffix.len()).min(slug.len());
    format!("{}{suffix}", slug[..keep].trim_end_matches('-'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn makes_clean_ascii_slugs() {
        assert_eq!(slugify("Why Vote Third Party?"), "why-vote-third-party");
        assert_eq!(
            slugify("  Café Society: Ñandú & Œuvre  "),
            "cafe-society-nandu-oeuvre"
        );
        assert_eq!(slugify("2028 -- the year!!"), "2028-the-year");
        assert_eq!(slugify("Crème brûlée"), "creme-brulee");
        assert_eq!(
            slugify("<script>alert(1)</script>"),
            "script-alert-1-script"
        );
        assert_eq!(slugify("!!!"), "");
        assert_eq!(slugify("already-a-slug"), "already-a-slug");
    }

    #[test]
    fn long_titles_are_cut_at_a_word_within_the_limit() {
        let slug = slugify(&"conscience over party ".repeat(10));
        assert!(slug.len() <= MAX_LEN && !slug.ends_with('-'), "{slug}");
        assert!(slug.starts_with("conscience-over-party-conscience"));
        assert_eq!(slugify(&"x".repeat(200)).len(), MAX_LEN);
    }

    #[test]
    fn numbering_keeps_the_limit() {
        assert_eq!(numbered("hello", 2), "hello-2");
        let long = "a".repeat(MAX_LEN);
        let n = numbered(&long, 12);
        assert_eq!(n.len(), MAX_LEN);
        assert!(n.ends_with("-12"));
    }
}
