//! Every public events file, rendered by the same functions for a full build
//! ([`write_all`]) and for the api's rewrites after a change ([`sync`]), so both give the
//! same bytes.
//!
//! A change rewrites the pages of the events it names and the few files that list events
//! (`/events`, the calendar, the sitemap, Take Action's section): the same handful at ten
//! events or a thousand. `/events` lists every upcoming event and the [`PAST_SHOWN`] most
//! recent past ones.

use std::collections::HashSet;

use anyhow::Result;
use jiff::Timestamp;
use serde::Serialize;
use serde_json::{Value, json};
use tera::Context;

use super::ics::{self, Entry, Party};
use super::{
    CALENDAR_FILE, CHECK_ROUTE, Event, Events, LIST_ROUTE, NEXT_SHOWN, PAST_SHOWN, SITEMAP_FILE,
    display_span, kind_label, with_offset,
};
use crate::blog::{content_html, plain_text};
use crate::config::SiteConfig;
use crate::content::Meta;
use crate::form_pages;
use crate::forms;
use crate::output::html_path_for;
use crate::pages::Page;
use crate::site::Site;

/// The page Take Action's "next events" section sits in, between these two markers.
pub const TAKE_ACTION_FILE: &str = "take-action/index.html";
pub const NEXT_START: &str = "<!--next-events-->";
pub const NEXT_END: &str = "<!--/next-events-->";

/// An event as a card on a list.
#[derive(Debug, Serialize)]
struct Card {
    title: String,
    url: String,
    kind: &'static str,
    when: String,
    iso_start: String,
    place: String,
    cancelled: bool,
}

fn place(e: &Event) -> String {
    match (&e.venue, e.online) {
        (Some(venue), false) => venue.clone(),
        (Some(venue), true) => format!("{venue}, and online"),
        (None, _) => "Online".to_owned(),
    }
}

fn card(e: &Event) -> Card {
    let tz = e.zone();
    Card {
        title: e.title.clone(),
        url: e.route(),
        kind: kind_label(&e.kind),
        when: display_span(e.starts_at, e.ends_at, &tz),
        iso_start: with_offset(e.starts_at, &tz),
        place: place(e),
        cancelled: e.cancelled(),
    }
}

/// schema.org `Event` for an event's page. The location of an online event is its page,
/// never its video link.
fn json_ld(site: &Site, e: &Event) -> Value {
    let config = &site.content.site;
    let tz = e.zone();
    let url = config.absolute_url(&e.route());
    let mut locations = Vec::new();
    if let Some(venue) = &e.venue {
        locations.push(json!({"@type": "Place", "name": venue, "address": venue}));
    }
    if e.online {
        locations.push(json!({"@type": "VirtualLocation", "url": url}));
    }
    let mode = match (e.online, e.venue.is_some()) {
        (true, true) => "https://schema.org/MixedEventAttendanceMode",
        (true, false) => "https://schema.org/OnlineEventAttendanceMode",
        _ => "https://schema.org/OfflineEventAttendanceMode",
    };
    json!({
        "@context": "https://schema.org",
        "@type": "Event",
        "name": e.title,
        "description": description_text(e),
        "startDate": with_offset(e.starts_at, &tz),
        "endDate": with_offset(e.ends_at, &tz),
        "eventStatus": if e.cancelled() { "https://schema.org/EventCancelled" } else { "https://schema.org/EventScheduled" },
        "eventAttendanceMode": mode,
        "location": if locations.len() == 1 { locations.remove(0) } else { Value::Array(locations) },
        "url": url,
        "isAccessibleForFree": true,
        "organizer": {"@type": "PoliticalParty", "name": config.name, "url": config.absolute_url("/")},
    })
}

fn description_text(e: &Event) -> String {
    let text = plain_text(&crate::sanitize::clean(&e.description, &[]));
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.chars().count() > 300 {
        format!("{}…", text.chars().take(299).collect::<String>().trim_end())
    } else {
        text
    }
}

fn meta(title: String, description: String) -> Meta {
    Meta {
        title,
        description,
        keywords: String::new(),
    }
}

/// `/events/{slug}`: the event, its RSVP form while RSVPs are open, and why not when not.
fn event_page(site: &Site, e: &Event, now: Timestamp) -> Page {
    let inputs = site.inputs();
    let config = &site.content.site;
    let route = e.route();
    let mut description = description_text(e);
    if description.is_empty() {
        description = format!("{} with the {}.", kind_label(&e.kind), config.name);
    }
    let meta = inputs
        .meta_with_image(
            &route,
            &meta(format!("{} | {}", e.title, config.name), description),
            None,
        )
        .with_json_ld(json_ld(site, e));
    let form = forms::RSVP;
    let state = if e.cancelled() {
        "cancelled"
    } else if e.started(now) {
        "ended"
    } else if !e.open(now) {
        "closed"
    } else {
        "open"
    };
    let form_html = (state == "open").then(|| {
        form_pages::form_html(
            &form,
            &[("event", e.slug.as_str())],
            Some(&site.content.home.signup.texts),
            "rsvp",
        )
    });
    Page {
        route: Some(route.clone()),
        output: html_path_for(&route),
        template: "pages/event.html",
        meta,
        data: vec![
            ("event", json!(card(e))),
            (
                "content",
                json!(content_html(
                    inputs.uploads,
                    &e.description,
                    &config.remote_image_hosts
                )),
            ),
            ("state", json!(state)),
            ("cancel_message", json!(e.cancel_message)),
            ("online", json!(e.online)),
            ("form", json!(form_html)),
            ("spots", json!(format!("/api/events/{}/spots", e.slug))),
            ("chip_in", json!(format!("/donate?source=event-{}", e.slug))),
            (
                "deadline",
                json!(e.rsvp_deadline.filter(|d| *d < e.starts_at).map(|d| {
                    let tz = e.zone();
                    format!(
                        "{}, {}",
                        super::display_day(d, &tz),
                        super::display_time(d, &tz)
                    )
                })),
            ),
        ],
    }
}

/// `/events`
fn list_page(site: &Site, events: &Events, now: Timestamp) -> Page {
    let inputs = site.inputs();
    let config = &site.content.site;
    let upcoming: Vec<Card> = events.upcoming(now).map(card).collect();
    let past: Vec<Card> = events.past(now).take(PAST_SHOWN).map(card).collect();
    let meta = inputs.web_page_meta(
        LIST_ROUTE,
        "CollectionPage",
        &meta(
            format!("Events | {}", config.name),
            format!(
                "Town halls, meetings and petitioning shifts with the {}: come in person or online.",
                config.name
            ),
        ),
    );
    Page {
        route: Some(LIST_ROUTE.into()),
        output: html_path_for(LIST_ROUTE),
        template: "pages/events.html",
        meta,
        data: vec![("upcoming", json!(upcoming)), ("past", json!(past))],
    }
}

/// Where an RSVP posted without JavaScript lands.
fn result_page(site: &Site, route: &str, title: &str, body: &str) -> Page {
    let mut meta = site.inputs().meta_with_image(
        route,
        &meta(
            format!("{title} | {}", site.content.site.name),
            body.to_owned(),
        ),
        None,
    );
    meta.noindex = true;
    Page {
        route: Some(route.into()),
        output: html_path_for(route),
        template: "pages/event-rsvp.html",
        meta,
        data: vec![("title", json!(title)), ("body", json!(body))],
    }
}

/// The answer every RSVP gets, whoever it names (the JSON answer's `message` is the title):
/// nothing is held until the link mailed to the address is used, so the answer and the
/// seats left are the same for an address that had RSVPed and one that had not.
pub const CHECK_TITLE: &str = "Check your e-mail to confirm";
pub const CHECK_BODY: &str = "We've e-mailed you a link to confirm your RSVP. Open it within 24 hours to take your seat, or your place on the waitlist if the event has filled by then. If it doesn't arrive in a few minutes, look in your spam folder.";
/// The answers the link gives once used.
pub const GOING_TITLE: &str = "You're going!";
pub const GOING_BODY: &str = "We've e-mailed you the details with a calendar invitation. If your plans change, the link in that e-mail cancels your RSVP.";
pub const WAITLISTED_TITLE: &str = "You're on the waitlist";
pub const WAITLISTED_BODY: &str = "The event is full right now. If a seat opens up, it goes to the first person waiting, and we'll e-mail you the moment it's yours.";

/// The feed: every upcoming event (cancelled ones marked so, so a subscribed calendar drops
/// them).
pub fn calendar(site: &Site, events: &Events, now: Timestamp) -> String {
    let entries: Vec<Entry<'_>> = events
        .upcoming(now)
        .map(|e| entry(&site.content.site, e, None))
        .collect();
    ics::calendar(&site.content.site.name, None, &entries)
}

/// An event as a calendar entry; `attendee` for an invitation.
pub fn entry<'a>(config: &'a SiteConfig, e: &'a Event, attendee: Option<Party<'a>>) -> Entry<'a> {
    Entry {
        uid: uid(&config.url, e.id),
        sequence: e.sequence,
        summary: &e.title,
        description: description_text(e),
        start: e.starts_at,
        end: e.ends_at,
        time_zone: &e.time_zone,
        location: Some(place(e)),
        url: config.absolute_url(&e.route()),
        cancelled: e.cancelled(),
        stamp: e.updated_at.parse().unwrap_or(Timestamp::UNIX_EPOCH),
        organizer: attendee.as_ref().map(|_| Party {
            name: &config.name,
            email: &config.email,
        }),
        attendee,
    }
}

/// An event's `UID`: its id at the site's host, the same for every file that names it.
pub fn uid(site_url: &str, id: i64) -> String {
    let host = site_url
        .split("://")
        .nth(1)
        .unwrap_or(site_url)
        .split(['/', ':'])
        .next()
        .unwrap_or("localhost");
    format!("event-{id}@{host}")
}

fn sitemap(site: &Site, events: &Events) -> Result<String> {
    #[derive(Serialize)]
    struct Url {
        loc: String,
        lastmod: Option<String>,
    }
    let config = &site.content.site;
    let urls: Vec<Url> = std::iter::once(Url {
        loc: config.absolute_url(LIST_ROUTE),
        lastmod: None,
    })
    .chain(events.all.iter().map(|e| Url {
        loc: config.absolute_url(&e.route()),
        lastmod: Some(format!(
            "{}Z",
            e.updated_at.split('.').next().unwrap_or(&e.updated_at).trim_end_matches('Z')
        )),
    }))
    .collect();
    let mut context = Context::new();
    context.insert("urls", &urls);
    site.render_template("sitemap.xml", &context)
}

/// Take Action's section: the next few events, or nothing when none is coming.
pub fn next_events_html(site: &Site, events: &Events, now: Timestamp) -> Result<String> {
    let next: Vec<Card> = events
        .upcoming(now)
        .filter(|e| !e.cancelled())
        .take(NEXT_SHOWN)
        .map(card)
        .collect();
    let mut context = Context::new();
    context.insert("events", &next);
    let html = site.render_template("partials/next-events.html", &context)?;
    Ok(format!("{NEXT_START}{}{NEXT_END}", html.trim()))
}

fn rendered(site: &Site, page: &Page) -> Result<Vec<u8>> {
    Ok(site.finish(&site.render(page)?, &[])?.into_bytes())
}

/// The files every change may touch, rendered: the list, the calendar, the sitemap and the
/// page an RSVP without JavaScript lands on.
fn shared_files(site: &Site, events: &Events, now: Timestamp) -> Result<Vec<(String, Vec<u8>)>> {
    let check = result_page(site, CHECK_ROUTE, CHECK_TITLE, CHECK_BODY);
    Ok(vec![
        (
            html_path_for(LIST_ROUTE),
            rendered(site, &list_page(site, events, now))?,
        ),
        (
            CALENDAR_FILE.into(),
            calendar(site, events, now).into_bytes(),
        ),
        (SITEMAP_FILE.into(), sitemap(site, events)?.into_bytes()),
        (check.output.clone(), rendered(site, &check)?),
    ])
}

fn event_file(site: &Site, e: &Event, now: Timestamp) -> Result<(String, Vec<u8>)> {
    let page = event_page(site, e, now);
    Ok((page.output.clone(), rendered(site, &page)?))
}

/// Writes every events file (a full build), and fills in Take Action's section.
pub fn write_all(site: &Site, events: &Events, now: Timestamp) -> Result<()> {
    sync(site, events, now, None).map(|_| ())
}

/// Brings the output in line with `events` at `now`: the pages of the events in `only`
/// (every event's when `None`), the shared files and Take Action's section, each written
/// only when its bytes differ; the page of an event no longer public is removed (a full
/// pass only). Returns the paths written or removed.
pub fn sync(
    site: &Site,
    events: &Events,
    now: Timestamp,
    only: Option<&HashSet<i64>>,
) -> Result<Vec<String>> {
    let mut files = Vec::new();
    for e in &events.all {
        if only.is_none_or(|ids| ids.contains(&e.id)) {
            files.push(event_file(site, e, now)?);
        }
    }
    files.extend(shared_files(site, events, now)?);
    let root = site.output.root();
    let mut touched = Vec::new();
    for (rel, bytes) in &files {
        if std::fs::read(root.join(rel)).ok().as_deref() != Some(bytes.as_slice()) {
            site.output.write_unsynced(rel, bytes)?;
            touched.push(rel.clone());
        }
    }
    // Take Action's section, spliced into the page the build wrote (its form's island was
    // rendered by Node then; nothing else on it changes with events).
    if let Ok(page) = std::fs::read_to_string(root.join(TAKE_ACTION_FILE))
        && let (Some(start), Some(end)) = (page.find(NEXT_START), page.find(NEXT_END))
        && start < end
    {
        let section = next_events_html(site, events, now)?;
        let spliced = format!(
            "{}{section}{}",
            &page[..start],
            &page[end + NEXT_END.len()..]
        );
        if spliced != page {
            site.output
                .write_unsynced(TAKE_ACTION_FILE, spliced.as_bytes())?;
            touched.push(TAKE_ACTION_FILE.into());
        }
    }
    // Pages of events that are not public (a draft again, deleted) or never were.
    let keep: HashSet<String> = events
        .all
        .iter()
        .map(|e| html_path_for(&e.route()))
        .chain([html_path_for(CHECK_ROUTE)])
        .collect();
    if let Ok(entries) = std::fs::read_dir(root.join("events")) {
        for entry in entries.flatten() {
            let index = entry.path().join("index.html");
            if index.is_file() {
                let rel = format!("events/{}/index.html", entry.file_name().to_string_lossy());
                if !keep.contains(&rel) {
                    site.output.remove(&rel)?;
                    touched.push(rel);
                }
            }
        }
    }
    site.output.sync_files(&touched)?;
    Ok(touched)
}
