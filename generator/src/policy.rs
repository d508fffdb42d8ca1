//! The policy platform as PDFs: one complete platform and one per issue, made from the
//! same content as the /issues page so the two can never drift apart.

use anyhow::Result;

use crate::config::SiteConfig;
use crate::content::{Content, Issue, Priority};
use crate::markdown;
use crate::output::Output;
use crate::pdf::{Block, Document, render};

/// Folder in the output (and URL path) holding the PDFs.
const FOLDER: &str = "downloads";

/// `/downloads/ACP_Complete_Policy_Platform.pdf`
pub fn platform_url(site: &SiteConfig) -> String {
    format!(
        "/{FOLDER}/{}_Complete_Policy_Platform.pdf",
        site.abbreviation
    )
}

/// `/downloads/ACP_Policy_government-spending.pdf`
pub fn issue_url(site: &SiteConfig, issue: &Issue) -> String {
    format!("/{FOLDER}/{}_Policy_{}.pdf", site.abbreviation, issue.id)
}

/// Writes every policy PDF.
pub fn write_all(content: &Content, output: &Output) -> Result<()> {
    let site = &content.site;
    let page = &content.issues;

    let mut blocks = vec![
        Block::Title(format!("{} — Complete Policy Platform", site.name)),
        Block::Subtitle(page.headline.clone()),
        Block::Paragraph(markdown::to_text(&page.intro)),
        Block::Rule,
        Block::Heading("Our Core Policies".into()),
    ];
    for policy in &page.core_policies {
        blocks.push(Block::Label(policy.title.clone()));
        blocks.push(Block::Paragraph(policy.description.clone()));
    }
    blocks.push(Block::Heading(page.vision.heading.clone()));
    blocks.push(Block::Paragraph(markdown::to_text(&page.vision.body)));
    blocks.push(Block::Rule);
    for issue in &page.issues {
        blocks.extend(issue_blocks(issue));
    }
    let platform = Document {
        title: format!("{} Complete Policy Platform", site.name),
        author: site.name.clone(),
        subject: page.headline.clone(),
        footer: footer(site),
        blocks,
    };
    output.write(strip_slash(&platform_url(site)), &render(&platform))?;

    for issue in &page.issues {
        let mut blocks = vec![
            Block::Title(issue.title.clone()),
            Block::Subtitle(format!("Where the {} stands", site.name)),
        ];
        blocks.extend(issue_blocks(issue).into_iter().skip(1));
        let doc = Document {
            title: format!("{}: {}", site.name, issue.title),
            author: site.name.clone(),
            subject: issue.description.clone(),
            footer: footer(site),
            blocks,
        };
        output.write(strip_slash(&issue_url(site, issue)), &render(&doc))?;
    }
    Ok(())
}

fn issue_blocks(issue: &Issue) -> Vec<Block> {
    let priority = match issue.priority {
        Priority::High => "High",
        Priority::Medium => "Medium",
    };
    vec![
        Block::Heading(issue.title.clone()),
        Block::Label(format!(
            "Priority: {priority}  ·  Category: {}",
            issue.category
        )),
        Block::Paragraph(issue.description.clone()),
        Block::Bullets(issue.positions.clone()),
    ]
}

fn footer(site: &SiteConfig) -> String {
    format!(
        "{} · {}",
        site.name,
        site.url.trim_start_matches("https://")
    )
}

fn strip_slash(url: &str) -> &str {
    url.trim_start_matches('/')
}
