//! Builds the fixture site with the real templates and checks what a visitor and a
//! search engine would get. Islands are rendered by a stand-in for node here; the
//! end-to-end tests exercise the real renderer.

use std::fs;
use std::path::Path;

use crate::common::{EchoRenderer, json_ld, project, read};

#[test]
fn builds_the_home_page_with_metadata_islands_and_assets() {
    let (_tmp, opts) = project();
    let report = generator::build(&opts, &EchoRenderer).unwrap();
    // Home's form and carousel, /join's form, /contact's and /take-action's forms,
    // /donate's flow, and /donate/card's new card for a monthly gift.
    assert_eq!(report.islands, 7);

    let html = read(&opts, "index.html");
    assert!(html.contains("<title>Fixture Party | Home</title>"));
    assert!(html.contains(r#"<link rel="canonical" href="https://example.org/">"#));
    assert!(html.contains(r#"<meta property="og:title" content="Fixture Party | Home">"#));
    assert!(html.contains(r#"<meta name="twitter:card" content="summary_large_image">"#));
    assert!(html.contains(
        r#"<meta property="og:image" content="https://example.org/media/og-image-1200."#
    ));
    assert!(html.contains("We are the Fixture Party."));
    assert!(
        html.contains("A hero &lt;em&gt;description&lt;/em&gt; that must be escaped."),
        "content is escaped"
    );
    assert!(html.contains(r#"<link rel="stylesheet" href="/assets/main-2.css">"#));
    assert!(html.contains(r#"<script type="module" src="/assets/main-1.js"></script>"#));
    assert!(html.contains(
        r#"<link rel="modulepreload" fetchpriority="low" href="/assets/NewsletterForm-4.js">"#
    ));
    assert!(html.contains(r#"<div data-island="NewsletterForm" data-props='{"#));
    assert!(
        html.contains("<p>rendered NewsletterForm</p>")
            && html.contains("<p>rendered PromoCarousel</p>")
    );
    assert!(
        html.contains(r#"href="/" class="nav-link" aria-current="page">Home</a>"#),
        "home is the current route"
    );
    assert!(!html.contains(r#"href="/leadership" class="nav-link" aria-current"#));

    let ld = json_ld(&html);
    assert_eq!(ld.len(), 1);
    assert_eq!(ld[0]["@type"], "PoliticalParty");
    assert_eq!(ld[0]["alternateName"], "FXP");
    assert_eq!(ld[0]["foundingDate"], "2020");
    assert_eq!(ld[0]["contactPoint"]["url"], "https://example.org/contact");

    for rel in [
        "assets/main-1.js",
        "favicon.ico",
        "favicon.svg",
        "apple-touch-icon.png",
        "robots.txt",
        "index.html.br",
        "index.html.gz",
    ] {
        assert!(opts.out_dir.join(rel).exists(), "{rel}");
    }
    assert!(read(&opts, "robots.txt").contains("Disallow: /admin\nDisallow: /api/"));
    assert!(
        html.contains(r#""srcset":"/media/cards/a-320."#),
        "card images reach the carousel as responsive sets"
    );
    assert!(opts.out_dir.join("media/cards").read_dir().unwrap().count() >= 3);
    assert!(
        html.contains(r#""webpSrcset":"/media/cards/a-320."#),
        "the carousel gets the WebP set too"
    );

    // The hero: WebP first, the JPEG fallback with its intrinsic size, loaded first.
    let hero = html
        .split("<picture")
        .nth(1)
        .and_then(|p| p.split("</picture>").next())
        .expect("the hero is a <picture>");
    assert!(
        hero.contains(r#"<source type="image/webp" srcset="/media/hero-320."#),
        "{hero}"
    );
    assert!(
        hero.contains(r#".webp 320w, /media/hero-480."#) && hero.contains(".webp 1000w\""),
        "{hero}"
    );
    assert!(hero.contains(r#" 768w"#), "a phone-sized step: {hero}");
    assert!(
        hero.contains(r#"<img src="/media/hero-1000."#)
            && hero.contains(r#".jpg" srcset="/media/hero-320."#)
    );
    assert!(
        hero.contains(r#"width="1000" height="600""#) && hero.contains(r#"fetchpriority="high""#)
    );

    // The footer's copyright runs from the founding year to the year of the build.
    let year = jiff::Timestamp::now()
        .to_zoned_datetime(jiff::tz::TimeZone::UTC)
        .year();
    assert!(
        html.contains(&format!("&copy; 2020\u{2013}{year} Fixture Party.")),
        "footer"
    );
}

#[test]
fn every_page_is_written_with_its_structured_data_and_listed_in_the_sitemap() {
    let (_tmp, opts) = project();
    let report = generator::build(&opts, &EchoRenderer).unwrap();
    // Eleven routed pages, the 404, the monthly donor's card page, the admin shell and the
    // notice shell, then a thank-you page and a problem shell per form (the RSVP's too).
    assert_eq!(report.pages, 22);
    let expected = [
        ("leadership/index.html", vec!["AboutPage"]),
        ("issues/index.html", vec!["WebPage"]),
        ("contact/index.html", vec!["ContactPage"]),
        ("take-action/index.html", vec!["WebPage"]),
        ("donate/index.html", vec!["WebPage"]),
        ("join/index.html", vec!["Article"]),
        ("why-third-party/index.html", vec!["Article", "FAQPage"]),
        ("movement/index.html", vec!["Article"]),
        ("privacy-policy/index.html", vec!["WebPage"]),
    ];
    for (file, types) in expected {
        let html = read(&opts, file);
        let found: Vec<String> = json_ld(&html)
            .iter()
            .map(|b| b["@type"].as_str().unwrap().to_owned())
            .collect();
        assert_eq!(found, types, "{file}");
    }
    let faq = &json_ld(&read(&opts, "why-third-party/index.html"))[1];
    assert_eq!(faq["mainEntity"].as_array().unwrap().len(), 4);
    assert_eq!(faq["mainEntity"][0]["acceptedAnswer"]["text"], "No.");

    // The index names the pages' sitemap and the events' (no posts yet, so no posts').
    let index = read(&opts, "sitemap.xml");
    assert_eq!(
        index.matches("<loc>").collect::<Vec<_>>().len(),
        2,
        "{index}"
    );
    assert!(index.contains("<loc>https://example.org/sitemap-pages.xml</loc>"));
    assert!(index.contains("<loc>https://example.org/events/sitemap.xml</loc>"));
    let events = read(&opts, "events/sitemap.xml");
    assert_eq!(
        events.matches("<loc>").count(),
        1,
        "/events, and no event yet: {events}"
    );
    assert!(events.contains("<loc>https://example.org/events</loc>"));
    let sitemap = read(&opts, "sitemap-pages.xml");
    assert_eq!(
        sitemap.matches("<loc>").count(),
        11,
        "every routed page and the blog, not the 404"
    );
    assert!(sitemap.contains("<loc>https://example.org/privacy-policy</loc>"));
    assert!(sitemap.contains("<loc>https://example.org/donate</loc>"));
    assert!(sitemap.contains("<loc>https://example.org/blog</loc>"));
    assert!(!sitemap.contains("404"));
    assert!(
        !sitemap.contains("/forms/"),
        "form results are not for search engines"
    );
    assert!(!sitemap.contains("admin"), "nor is the staff area");
    assert!(
        !sitemap.contains("/donate/card"),
        "nor a monthly donor's page behind a link"
    );
    let card = read(&opts, "donate/card/index.html");
    assert!(card.contains(r#"<meta name="robots" content="noindex">"#));
    assert!(card.contains("Give with another card"));

    // Where the forms land without JavaScript: the spec's texts in the site's layout.
    let thanks = read(&opts, "forms/contact/thank-you/index.html");
    assert!(thanks.contains("<title>Message sent! | FXP</title>"));
    assert!(thanks.contains(r#"<meta name="robots" content="noindex">"#));
    assert!(thanks.contains(">Thank you for reaching out. We&#39;ll get back to you soon.</p>"));
    assert!(thanks.contains(r#"<a href="/contact" class="btn btn-primary">Back to Contact</a>"#));
    let shell = read(&opts, ".forms/volunteer-problem.html");
    assert!(
        shell.contains(">Signup Failed</h1>")
            && shell.contains(generator::form_pages::PROBLEM_MARKER)
    );
    assert!(shell.contains("<footer"), "in the site's layout");

    let leadership = read(&opts, "leadership/index.html");
    assert!(
        leadership.contains("<details"),
        "the toggle works without JavaScript"
    );
    assert_eq!(
        leadership
            .matches("<h3 class=\"font-serif text-xl font-bold text-navy\">")
            .count(),
        3,
        "two leaders and one candidate, not the team card"
    );
    let action = read(&opts, "take-action/index.html");
    assert!(action.contains(r#"<div data-island="VolunteerForm""#));
    assert!(read(&opts, "contact/index.html").contains(r#"<div data-island="ContactForm""#));
    // The donate page's island carries the server's rules and the page's words.
    let donate = read(&opts, "donate/index.html");
    assert!(donate.contains(r#"<div data-island="DonateFlow""#));
    for text in [
        "Donation Limit Exceeded",
        "Payment system is not available. Please check back later.",
        "general_party_use",
        "Armed Forces Pacific (AP)",
        "I am at least eighteen years old.",
    ] {
        assert!(donate.contains(text), "{text}");
    }
    let join = read(&opts, "join/index.html");
    assert!(
        join.contains(r##"href="#newsletter-signup""##)
            && join.contains(r#"id="newsletter-signup""#)
    );
}

/// The text poppler reads from a PDF, whitespace collapsed.
fn pdf_text(path: &Path) -> String {
    let out = std::process::Command::new("pdftotext")
        .arg(path)
        .arg("-")
        .output()
        .expect("pdftotext (poppler-utils) is installed");
    assert!(
        out.status.success(),
        "pdftotext failed on {}",
        path.display()
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn the_policy_pdfs_carry_the_same_words_as_the_page() {
    let (_tmp, opts) = project();
    generator::build(&opts, &EchoRenderer).unwrap();
    let issues = read(&opts, "issues/index.html");
    assert!(issues.contains(r#"href="/downloads/FXP_Complete_Policy_Platform.pdf" download"#));
    let platform = pdf_text(
        &opts
            .out_dir
            .join("downloads/FXP_Complete_Policy_Platform.pdf"),
    );
    for text in [
        "Testing (and “Quality”)",
        "We test every change — always.",
        "Tests run on every commit.",
        "Government Spending",
        "Spend carefully.",
        "Vision for America",
        "Free Tests",
    ] {
        assert!(
            platform.contains(text),
            "platform PDF lacks {text:?}: {platform}"
        );
    }
    let one = pdf_text(
        &opts
            .out_dir
            .join("downloads/FXP_Policy_government-spending.pdf"),
    );
    assert!(
        one.contains("Government Spending")
            && one.contains("Spend carefully.")
            && one.contains("Balance the budget."),
        "{one}"
    );
    assert!(
        !one.contains("We test every change"),
        "an issue's PDF holds only that issue"
    );
    assert!(issues.contains(r#"href="/downloads/FXP_Policy_testing.pdf""#));
}

#[test]
fn the_404_page_comes_from_content_and_is_not_indexed() {
    let (_tmp, opts) = project();
    generator::build(&opts, &EchoRenderer).unwrap();
    let html = read(&opts, "404.html");
    assert!(html.contains(r#"<meta name="robots" content="noindex">"#));
    assert!(html.contains("<title>Lost | Fixture Party</title>"));
    assert!(html.contains(r#"<meta name="keywords" content="fixture keywords, not found">"#));
    assert!(html.contains(">Nothing Here</h1>"));
    assert!(html.contains("The fixture has no such page."));
    assert!(
        html.contains(r#"href="/contact""#) && html.contains("Tell the fixture what you wanted")
    );
}

#[test]
fn the_notice_shell_is_the_sites_layout_with_its_markers_and_is_not_indexed() {
    use generator::notices::{NOTICE_MARKER, NOTICE_SHELL, NOTICE_TITLE, fill_notice};
    let (_tmp, opts) = project();
    generator::build(&opts, &EchoRenderer).unwrap();
    let shell = read(&opts, NOTICE_SHELL);
    assert!(shell.contains(r#"<meta name="robots" content="noindex">"#));
    assert!(shell.contains(&format!("<title>{NOTICE_TITLE} | FXP</title>")));
    assert!(
        shell.contains(NOTICE_MARKER)
            && shell.contains("<footer ")
            && shell.contains(r#"id="page-end""#)
    );
    let page = fill_notice(&shell, "You are unsubscribed", &["No more mail."], None);
    assert!(page.contains("<title>You are unsubscribed | FXP</title>"));
    assert!(page.contains(">You are unsubscribed</h1>") && page.contains("No more mail."));
    assert!(
        !page.contains(NOTICE_TITLE),
        "every place the title goes is filled"
    );
    assert!(!read(&opts, "sitemap-pages.xml").contains(".pages"));
}

#[test]
fn the_admin_shell_loads_the_admin_app_only_there_and_is_not_indexed() {
    let (_tmp, opts) = project();
    generator::build(&opts, &EchoRenderer).unwrap();
    let html = read(&opts, generator::pages::ADMIN_SHELL);
    assert!(html.contains(r#"<meta name="robots" content="noindex">"#));
    assert!(!html.contains(r#"rel="canonical""#));
    assert!(html.contains("<title>Admin | FXP</title>"));
    // The site's look (header, stylesheet, menus) around the app's root.
    assert!(html.contains(r#"<link rel="stylesheet" href="/assets/main-2.css">"#));
    assert!(html.contains(r#"<script type="module" src="/assets/main-1.js"></script>"#));
    assert!(html.contains(r#"<link rel="stylesheet" href="/assets/admin-10.css">"#));
    assert!(html.contains(r#"<script type="module" src="/assets/admin-9.js"></script>"#));
    assert!(html.contains(r#"<div id="admin-root""#) && html.contains("<noscript>"));
    assert!(html.contains("<footer ") && html.contains(r#"id="page-end""#));
    for page in ["index.html", "contact/index.html", "404.html"] {
        assert!(
            !read(&opts, page).contains("admin-"),
            "{page} loads no admin code"
        );
    }
    assert!(read(&opts, "robots.txt").contains("Disallow: /admin\n"));
}

#[test]
fn site_url_overrides_the_canonical_origin() {
    let (_tmp, mut opts) = project();
    opts.site_url = Some("https://staging.example.org/".into());
    generator::build(&opts, &EchoRenderer).unwrap();
    assert!(
        read(&opts, "index.html")
            .contains(r#"<link rel="canonical" href="https://staging.example.org/">"#)
    );
}

#[test]
fn a_bad_content_file_fails_with_the_file_and_the_field() {
    let (_tmp, opts) = project();
    let home = opts.content_dir.join("home.yaml");
    let text = fs::read_to_string(&home).unwrap().replace(
        "cardsHeading: Explore",
        "cardsHeading: Explore\ncardsSubheading: Oops",
    );
    fs::write(&home, text).unwrap();
    let err = format!("{:#}", generator::build(&opts, &EchoRenderer).unwrap_err());
    assert!(
        err.contains("home.yaml") && err.contains("cardsSubheading"),
        "{err}"
    );
}

#[test]
fn a_404_link_card_pointing_off_site_is_refused() {
    let (_tmp, opts) = project();
    let file = opts.content_dir.join("not-found.yaml");
    let text = fs::read_to_string(&file)
        .unwrap()
        .replace("href: /contact", "href: //evil.example");
    fs::write(&file, text).unwrap();
    let err = format!("{:#}", generator::build(&opts, &EchoRenderer).unwrap_err());
    assert!(
        err.contains("not-found.yaml") && err.contains("links[1].href"),
        "{err}"
    );
}

#[test]
fn a_card_linking_off_site_is_refused() {
    let (_tmp, opts) = project();
    let home = opts.content_dir.join("home.yaml");
    fs::write(
        &home,
        fs::read_to_string(&home)
            .unwrap()
            .replace("href: /contact", "href: https://evil.example"),
    )
    .unwrap();
    let err = format!("{:#}", generator::build(&opts, &EchoRenderer).unwrap_err());
    assert!(
        err.contains("home.yaml") && err.contains("cards[2].href"),
        "{err}"
    );
}

#[test]
fn a_missing_image_names_the_file() {
    let (_tmp, opts) = project();
    fs::remove_file(opts.content_dir.join("media/cards/a.jpg")).unwrap();
    let err = format!("{:#}", generator::build(&opts, &EchoRenderer).unwrap_err());
    assert!(err.contains("content/media/cards/a.jpg"), "{err}");
}

/// The image and compression cache keeps what the last build used and nothing else: a
/// picture taken out of the content leaves no encoded files behind, and what stays is
/// reused (the next build encodes nothing).
#[test]
fn the_cache_keeps_only_what_the_last_build_used() {
    let (_tmp, opts) = project();
    generator::build(&opts, &EchoRenderer).unwrap();
    let files = |dir: &Path| -> Vec<std::path::PathBuf> {
        fn walk(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
            for entry in fs::read_dir(dir).unwrap().flatten() {
                if entry.file_type().unwrap().is_dir() {
                    walk(&entry.path(), out);
                } else {
                    out.push(entry.path());
                }
            }
        }
        let mut out = Vec::new();
        walk(dir, &mut out);
        out.sort();
        out
    };
    let first = files(&opts.cache_dir);
    assert!(
        first
            .iter()
            .any(|p| p.extension().is_some_and(|e| e == "webp"))
    );
    assert!(
        first
            .iter()
            .any(|p| p.starts_with(opts.compression_cache()))
    );

    // Entries of an image no longer in the content, and of an old bundle.
    fs::write(opts.cache_dir.join("0123456789-320x200-q75.webp"), b"stale").unwrap();
    fs::write(
        opts.compression_cache().join("0123456789abcdef.br"),
        b"stale",
    )
    .unwrap();
    generator::build(&opts, &EchoRenderer).unwrap();
    assert_eq!(
        files(&opts.cache_dir),
        first,
        "the stale entries went, the rest stayed"
    );
}
