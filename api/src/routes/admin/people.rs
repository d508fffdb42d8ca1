//! People, as staff see them (see `crate::domain::people`):
//! - `GET /api/admin/people?q=&page=` → `{people, total, page, pageSize}`: supporters, latest
//!   seen first, found by name, e-mail or phone;
//! - `GET /api/admin/people/{id}` → one supporter's page (fields with their history, the
//!   timeline, merges);
//! - `GET /api/admin/people/{id}/export` → everything held about them, as a JSON download;
//! - `POST /api/admin/people/{id}/merge {other}` → merges `other` into `id`;
//! - `POST /api/admin/people/merges/{id}/undo` → puts exactly the merged addresses back;
//! - `POST /api/admin/people/{id}/erase` → erases every address of theirs (as `/erase`);
//! - `GET /api/admin/contributors/matches` and `POST /api/admin/contributors/matches
//!   {a, b, same}`: the treasurer's review of contributors who may be one person.

use std::collections::HashMap;

use serde::Deserialize;
use serde_json::json;
use warp::filters::BoxedFilter;
use warp::http::{HeaderValue, StatusCode, header};
use warp::reply::Response;
use warp::{Filter, Rejection};

use super::erasure::{Addresses, erase_addresses};
use super::json;
use crate::domain::audit::{self, Action};
use crate::domain::auth::Admin;
use crate::domain::directory::{listing, record};
use crate::domain::donations::Ledger;
use crate::domain::donations::contributors::{self, Decision};
use crate::domain::people::merge;
use crate::domain::staff::Cap;
use crate::http::error::ApiError;
use crate::http::filters::{json_body, parse_id};
use crate::state::AppState;

/// People on one page of the list.
pub const PAGE_SIZE: usize = 50;
/// The longest search staff can type.
const QUERY_MAX: usize = 200;

pub fn routes(state: AppState) -> BoxedFilter<(Response,)> {
    let ledger = state.ledger();
    let admin = |cap| super::allowed(state.clone(), cap);
    let with = move || {
        let ledger = ledger.clone();
        warp::any().map(move || ledger.clone())
    };
    let list = warp::path!("people")
        .and(warp::get())
        .and(admin(Cap::PeopleRead))
        .and(warp::query::<HashMap<String, String>>())
        .and(with())
        .and_then(list);
    let undo = warp::path!("people" / "merges" / String / "undo")
        .and(warp::post())
        .and(admin(Cap::PeopleMerge))
        .and(with())
        .and_then(undo);
    let page = warp::path!("people" / String)
        .and(warp::get())
        .and(admin(Cap::PeopleRead))
        .and(with())
        .and_then(page);
    let export = warp::path!("people" / String / "export")
        .and(warp::get())
        .and(admin(Cap::PeopleRead))
        .and(with())
        .and_then(export);
    let merge = warp::path!("people" / String / "merge")
        .and(warp::post())
        .and(admin(Cap::PeopleMerge))
        .and(json_body::<MergeRequest>(1024))
        .and(with())
        .and_then(merge);
    let erase = warp::path!("people" / String / "erase")
        .and(warp::post())
        .and(admin(Cap::Erase))
        .and(with())
        .and_then(erase);
    let matches = warp::path!("contributors" / "matches")
        .and(warp::get())
        .and(admin(Cap::DonationsRead))
        .and(with())
        .and_then(matches);
    let decide = warp::path!("contributors" / "matches")
        .and(warp::post())
        .and(admin(Cap::ContributorsDecide))
        .and(json_body::<DecideRequest>(1024))
        .and(with())
        .and_then(decide);
    list.or(undo)
        .unify()
        .or(page)
        .unify()
        .or(export)
        .unify()
        .or(merge)
        .unify()
        .or(erase)
        .unify()
        .or(matches)
        .unify()
        .or(decide)
        .unify()
        .boxed()
}

fn not_found(id: i64) -> ApiError {
    ApiError::NotFound(format!("There is no person {id}."))
}

async fn list(
    admin: Admin,
    query: HashMap<String, String>,
    ledger: Ledger,
) -> Result<Response, Rejection> {
    let q = query.get("q").cloned().unwrap_or_default();
    if q.chars().count() > QUERY_MAX {
        return Err(ApiError::BadRequest(format!(
            "The search must be at most {QUERY_MAX} characters."
        ))
        .into());
    }
    let page = match query.get("page") {
        None => 0,
        Some(p) => p
            .parse::<usize>()
            .map_err(|_| ApiError::BadRequest("The page must be a whole number from 0.".into()))?,
    };
    let found = ledger
        .db
        .read(move |c| listing::search(c, &q, page, PAGE_SIZE))
        .await?;
    audit::record_access(&ledger.db, Action::View, "people", admin.by()).await?;
    Ok(json(
        StatusCode::OK,
        &json!({
            "people": found.people,
            "total": found.total,
            "page": page,
            "pageSize": PAGE_SIZE
        }),
    ))
}

/// An Organizer sees that a person gave, not how much: amounts are the Treasurer's.
fn amounts_for(admin: &Admin) -> record::Amounts {
    if admin.can(Cap::DonationsRead) {
        record::Amounts::Shown
    } else {
        record::Amounts::Hidden
    }
}

async fn page(raw: String, admin: Admin, ledger: Ledger) -> Result<Response, Rejection> {
    let id = parse_id(&raw)?;
    let person = ledger.db.read(move |c| record::person(c, id)).await?;
    let Some(mut person) = person else {
        return Err(not_found(id).into());
    };
    if amounts_for(&admin) == record::Amounts::Hidden {
        person.hide_amounts();
    }
    ledger
        .db
        .write(move |tx| {
            audit::record(
                tx,
                Action::View,
                Some(&format!("supporter:{id}")),
                admin.by(),
            )
        })
        .await?;
    Ok(json(StatusCode::OK, &person))
}

async fn export(raw: String, admin: Admin, ledger: Ledger) -> Result<Response, Rejection> {
    let id = parse_id(&raw)?;
    let amounts = amounts_for(&admin);
    let held = ledger
        .db
        .read(move |c| record::export(c, id, amounts))
        .await?;
    let Some(held) = held else {
        return Err(not_found(id).into());
    };
    ledger
        .db
        .write(move |tx| {
            audit::record(
                tx,
                Action::Export,
                Some(&format!("supporter:{id}")),
                admin.by(),
            )
        })
        .await?;
    let mut res = json(StatusCode::OK, &held);
    let headers = res.headers_mut();
    if let Ok(value) = HeaderValue::from_str(&format!("attachment; filename=\"person-{id}.json\""))
    {
        headers.insert(header::CONTENT_DISPOSITION, value);
    }
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(res)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MergeRequest {
    /// The supporter whose addresses move to the one in the path.
    other: i64,
}

fn refused(refusal: merge::Refused) -> ApiError {
    match refusal {
        merge::Refused::NotFound => ApiError::NotFound("There is no such person or merge.".into()),
        merge::Refused::Same => {
            ApiError::BadRequest("A person cannot be merged with themselves.".into())
        }
        merge::Refused::AlreadyMerged => ApiError::Conflict(
            "One of them is already merged into someone else: open that person instead.".into(),
        ),
        merge::Refused::Undone => ApiError::Conflict("This merge was already undone.".into()),
    }
}

async fn merge(
    raw: String,
    admin: Admin,
    request: MergeRequest,
    ledger: Ledger,
) -> Result<Response, Rejection> {
    let into = parse_id(&raw)?;
    let from = request.other;
    let now = ledger.clock.now();
    let merged = ledger
        .db
        .write(move |tx| {
            let merged = merge::merge(tx, into, from, now)?;
            if let Ok(id) = merged {
                audit::record_detailed(
                    tx,
                    Action::Merge,
                    &format!("supporter:{into}"),
                    Some(admin.by()),
                    &format!("merge {id}: supporter {from} into {into}"),
                )?;
            }
            Ok(merged)
        })
        .await?;
    let id = merged.map_err(refused)?;
    Ok(json(StatusCode::OK, &json!({ "mergeId": id })))
}

async fn undo(raw: String, admin: Admin, ledger: Ledger) -> Result<Response, Rejection> {
    let id = parse_id(&raw)?;
    let now = ledger.clock.now();
    let undone = ledger
        .db
        .write(move |tx| {
            let undone = merge::undo(tx, id, now)?;
            if let Ok((into, from)) = undone {
                audit::record_detailed(
                    tx,
                    Action::Unmerge,
                    &format!("supporter:{into}"),
                    Some(admin.by()),
                    &format!("merge {id} undone: supporter {from} stands alone again"),
                )?;
            }
            Ok(undone)
        })
        .await?;
    let (into, from) = undone.map_err(refused)?;
    Ok(json(StatusCode::OK, &json!({ "into": into, "from": from })))
}

async fn erase(raw: String, admin: Admin, ledger: Ledger) -> Result<Response, Rejection> {
    let id = parse_id(&raw)?;
    erase_addresses(
        &ledger,
        &admin,
        Addresses::OfSupporter(id),
        format!("supporter:{id}"),
    )
    .await
}

async fn matches(admin: Admin, ledger: Ledger) -> Result<Response, Rejection> {
    let found = ledger.db.read(contributors::undecided).await?;
    audit::record_access(&ledger.db, Action::View, "contributor matches", admin.by()).await?;
    Ok(json(StatusCode::OK, &found))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DecideRequest {
    a: i64,
    b: i64,
    /// Yes: one person (combined); No: two (the pair is hidden).
    same: bool,
}

async fn decide(
    admin: Admin,
    request: DecideRequest,
    ledger: Ledger,
) -> Result<Response, Rejection> {
    let DecideRequest { a, b, same } = request;
    let decision = if same {
        Decision::Same
    } else {
        Decision::Different
    };
    let now = ledger.clock.now();
    let decided = ledger
        .db
        .write(move |tx| {
            let decided = contributors::decide(tx, a, b, decision, now)?;
            if decided {
                audit::record_detailed(
                    tx,
                    Action::DecideMatch,
                    &format!("contributors:{}-{}", a.min(b), a.max(b)),
                    Some(admin.by()),
                    if same {
                        "one person: combined"
                    } else {
                        "two people"
                    },
                )?;
            }
            Ok(decided)
        })
        .await?;
    if !decided {
        return Err(
            ApiError::NotFound("There is no such pair waiting for a decision.".into()).into(),
        );
    }
    Ok(json(
        StatusCode::OK,
        &json!({ "a": a, "b": b, "same": same }),
    ))
}
